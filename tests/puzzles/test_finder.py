"""Which decisions become puzzles: a clear best action, checked over fresh worlds, no past."""

from __future__ import annotations

import dataclasses

import pytest

import closingbell
from closingbell.bots import make_bot
from closingbell.bots.analysis import ActionValue, DecisionAnalysis, Estimate
from closingbell.core.game import Game, State
from closingbell.core.records import GameRecord
from closingbell.core.view import View
from closingbell.puzzles import Criteria, Finder, from_record, memoryless
from closingbell.text.i18n import LANGS

# A Card Stock Market decision from the bots' play where one sale is clearly best: seat 2
# can sell 10 shares of Clubs at $11, or far smaller holdings.
SELL_CLUBS = (
    "seed: 0; turn_number: 18; dealer: 0; turn: 2; decide: 2 trading; bought: H; sold: -; "
    "changed: 0; discarded: 0; market: 3C KC AC KC AC 4C 6C 5C QC 4C 2C JC 8D KD 3D 2D KD AD "
    "3D 10H QH JH KH JH AH QH AH 3S JS 6S 7S 5S JS 7S; bankrupt: -; prices: 11 3 1 7; "
    "hands: 5C 4D 5D 2H 5H 6H 3S QS / 7C AD 8D 10D 10D KH 6S 8S / 3C 2D 9D 3H AS AS QS / "
    "8C 9C JD 7H 2S 4S 9S KS; certs: 10S / 6D 3H 2S 8S / 10C 9D 6H / 9C 8H; "
    "cash: 387 / 302 / 182 / 197; debts: 0 / 0 / 0 / 0; bank: 972; levies: 0; "
    "draw: QC 5S 9H 10S 5H 4D QD 9H JC; discard: 8C KS 9S 4H JD 7D QD 6D 7D 5D 10H 10C 2C 7C "
    "4S 8H 2H 4H 6C 7H; jokers: aside"
)


@pytest.fixture(scope="module")
def market() -> Game:
    return closingbell.load_game("card_stock_market", players=4)


def _analysis(seat: int, leads: list[tuple[int, float, float]]) -> DecisionAnalysis:
    """An analysis whose actions trail the first by ``(action, mean, half-width)``."""
    values = [
        ActionValue(
            action=a,
            margin=Estimate(50.0 - lead, 10.0),
            win=Estimate(0.5, 0.1),
            behind=Estimate(-lead, half),
        )
        for a, lead, half in leads
    ]
    return DecisionAnalysis(seat=seat, worlds=8, actions=tuple(values))


class _Fixed:
    """An analyst that gives one analysis, whatever the view."""

    def __init__(self, found: DecisionAnalysis) -> None:
        self.found = found

    def analyze(self, view: View) -> DecisionAnalysis:
        assert set(view.to_dict()["legal_actions"]) == {v.action for v in self.found.actions}
        return self.found


def _finder(
    game: Game, state: State, first: list[float], check: list[tuple[float, float]]
) -> Finder:
    """A finder whose first analysis and check give these leads over the legal actions."""
    seat = state.current_player
    assert seat is not None
    legal = list(state.legal_actions())
    finder = Finder(game, Criteria(worlds=8, screen=0))
    finder._first = _Fixed(  # type: ignore[assignment]
        _analysis(seat, [(a, lead, 1.0) for a, lead in zip(legal, first, strict=False)])
    )
    finder._check = _Fixed(  # type: ignore[assignment]
        _analysis(seat, [(a, m, h) for a, (m, h) in zip(legal, check, strict=False)])
    )
    return finder


def _spread(n: int, lead: float, half: float) -> list[tuple[float, float]]:
    return [(0.0, 0.0)] + [(lead + 10.0 * i, half) for i in range(n - 1)]


def test_a_clear_best_action_checked_over_fresh_worlds_makes_a_puzzle(market: Game) -> None:
    state = market.state_from_position(SELL_CLUBS)
    n = len(state.legal_actions())
    finder = _finder(market, state, [0.0] + [30.0] * (n - 1), _spread(n, 25.0, 20.0))
    puzzle = finder.consider(state, "test")
    assert puzzle is not None
    assert puzzle.best == state.legal_actions()[0]
    assert puzzle.seat == state.current_player
    assert puzzle.lead == pytest.approx(25.0)
    assert [w.action for w in puzzle.worths] == list(state.legal_actions())
    assert sorted(puzzle.reason) == sorted(LANGS) and all(puzzle.reason.values())
    assert puzzle.position == state.to_position()


def test_a_lead_whose_interval_holds_zero_makes_no_puzzle(market: Game) -> None:
    state = market.state_from_position(SELL_CLUBS)
    n = len(state.legal_actions())
    check = _spread(n, 25.0, 20.0)
    check[-1] = (40.0, 41.0)  # one action's lead over the best: 40 +- 41, zero inside
    finder = _finder(market, state, [0.0] + [30.0] * (n - 1), check)
    assert finder.consider(state, "test") is None
    # Only that interval stood in the way.
    check[-1] = (40.0, 39.0)
    assert _finder(market, state, [0.0] + [30.0] * (n - 1), check).consider(state, "t")


def test_a_lead_too_small_to_feel_makes_no_puzzle(market: Game) -> None:
    state = market.state_from_position(SELL_CLUBS)
    n = len(state.legal_actions())
    finder = _finder(market, state, [0.0] + [30.0] * (n - 1), _spread(n, 19.0, 5.0))
    assert finder.consider(state, "test") is None  # $19 < $20, however sure
    assert _finder(market, state, [0.0] + [30.0] * (n - 1), _spread(n, 20.0, 5.0)).consider(
        state, "test"
    )


def test_a_check_that_prefers_another_action_makes_no_puzzle(market: Game) -> None:
    state = market.state_from_position(SELL_CLUBS)
    legal = list(state.legal_actions())
    n = len(legal)
    finder = _finder(market, state, [0.0] + [30.0] * (n - 1), _spread(n, 25.0, 5.0))
    # The first analysis names the second legal action best; the check names the first.
    first = [(legal[1], 0.0, 1.0), (legal[0], 30.0, 1.0)] + [(a, 30.0, 1.0) for a in legal[2:]]
    finder._first = _Fixed(_analysis(2, first))  # type: ignore[assignment]
    assert finder.consider(state, "test") is None


def test_the_finder_on_a_real_decision(market: Game) -> None:
    state = market.state_from_position(SELL_CLUBS)
    finder = Finder(market, Criteria(worlds=24, screen=8, seed=3))
    puzzle = finder.consider(state, "real")
    assert puzzle is not None
    assert market.action_to_string(puzzle.best) == "sell 10C"
    found = finder.last
    assert found is not None and found.best == puzzle.best
    assert all(v.behind.high < 0 for v in found.actions[1:])
    assert puzzle.lead >= 20.0
    # The worths stored are the check's, best first.
    assert [w.action for w in puzzle.worths] == [v.action for v in found.actions]


def test_a_decision_with_a_past_the_position_cannot_tell_is_left_out(market: Game) -> None:
    state = market.new_game(4)
    assert memoryless(state)
    bots = [make_bot("hard", market, seed=q) for q in range(4)]
    while not getattr(state, "reshuffled"):  # noqa: B009
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat)))
    seat = state.current_player
    assert seat is not None
    read = market.state_from_position(state.to_position()).view(seat).to_dict()
    assert read["own_reshuffle_hand"] != state.view(seat).to_dict()["own_reshuffle_hand"]
    assert not memoryless(state)
    assert Finder(market, Criteria(worlds=2, screen=0)).consider(state, "x") is None


def test_puzzles_from_a_record_name_their_action(market: Game) -> None:
    state = market.state_from_position(SELL_CLUBS)
    record = GameRecord.from_state(state, position=SELL_CLUBS)
    finder = Finder(market, Criteria(worlds=24, screen=8, seed=3))
    found = list(from_record(record, finder, "a record"))
    assert [p.source for p in found] == ["a record action 1"]


def test_criteria_refuse_budgets_that_cannot_tell() -> None:
    with pytest.raises(ValueError, match="at least 2 worlds"):
        Criteria(worlds=1)
    with pytest.raises(ValueError, match="negative"):
        Criteria(screen=-1)
    assert dataclasses.replace(Criteria(), worlds=2).worlds == 2


def test_a_first_analysis_that_does_not_separate_the_best_makes_no_puzzle(market: Game) -> None:
    state = market.state_from_position(SELL_CLUBS)
    n = len(state.legal_actions())
    # The check alone would make a puzzle; the first analysis's last lead holds zero.
    finder = _finder(market, state, [0.0] + [30.0] * (n - 1), _spread(n, 25.0, 5.0))
    assert finder.consider(state, "test") is not None
    legal = list(state.legal_actions())
    first = (
        [(legal[0], 0.0, 1.0)] + [(a, 30.0, 1.0) for a in legal[1:-1]] + [(legal[-1], 30.0, 31.0)]
    )
    finder._first = _Fixed(_analysis(2, first))  # type: ignore[assignment]
    assert finder.consider(state, "test") is None
    assert finder.last is None  # stopped before the check


# A Take Stock decision from the bots' play: seat 2 drew two events in the first round and
# lets one take effect. Splitting Movie helps only seat 0's certificate; splitting Oil lifts
# seat 2's own Oil certificate and two Oil cards in hand (and seat 3's). Judged at the round's
# end, Oil is clearly better.
SPLIT_MOVIE = (
    "seed: 5002; round: 1; dealer: 3; turn: 2; decide: 2 choose_event drew SplitMovie SplitOil; "
    "corn: 1 2 4; gem: 1; oil: 1; tech: 1; movie: 1; hands: Oil7 Movie2 / Tech7 Movie7 / "
    "Oil6 Oil12 / Oil3 Tech6; shown: - / - / - / -; aside: - / - / - / -; certs: Tech9 Corn8 "
    "Movie8 / Tech11 Corn10 Corn12 / Tech12 Oil11 Corn9 / Oil10 Oil9 Gem11; saved: - / - / - / -; "
    "tokens: 4 / 4 / 4 / 4; supply: 14; draw: Gem12 Tech2 Corn7 Corn11 Gem3 Gem6 Oil2 Gem7 "
    "Movie5 Gem9 Gem2 Tech10 Gem8 Movie12 Gem10 Movie11 Movie6 Movie10 Oil4 Movie3; discard: "
    "Tech8 Tech5 Gem4 Corn5 Movie9 Tech4 Oil5 Gem5 Oil8 Tech3 Movie4 Corn3 Corn6; reshuffles: 0; "
    "events: SplitOil SplitCorn SplitMovie Audit Freeze Freeze MarketCrash CrashOil Downturn "
    "Audit SplitCorn SplitCorn SplitMovie Upturn InsiderTech SplitTech InsiderGem NoChange "
    "SplitOil SplitGem SplitGem CrashTech CrashMovie Audit CrashCorn InsiderMovie InsiderOil "
    "MarketClosed SplitTech NoChange CrashGem OptionLost Freeze SplitTech OptionGained Audit "
    "InsiderCorn SplitGem; events_discard: -; scores: - / - / - / -; ended: -"
)


def test_take_stock_puzzles_are_judged_at_the_round_s_end() -> None:
    game = closingbell.load_game("take_stock", players=4)
    state = game.state_from_position(SPLIT_MOVIE)
    finder = Finder(game, Criteria(seed=1))
    assert (finder.horizon, finder.worlds, finder.screen) == ("round", 384, 48)
    puzzle = finder.consider(state, "test")
    assert puzzle is not None and puzzle.horizon == "round" and puzzle.worlds == 384
    assert finder.last is not None and finder.last.horizon == "round"
    assert puzzle.lead >= 5.0 and puzzle.worths[1].behind[2] < 0
    assert game.action_to_string(puzzle.best) == "choose Split Oil"
    assert "standing at the round's end" in puzzle.reason["en"]
    assert "本回合結束時" in puzzle.reason["zh-Hant"]
    # Judged at the game's end over as many worlds, the lead is far less sure.
    at_end = Finder(game, Criteria(seed=1, horizons={}, screen=0))
    assert at_end.horizon == "game"
    at_end.consider(state, "test")
    assert at_end.last is not None and at_end.last.horizon == "game"
    blur = at_end.last.actions[1].behind.half_width
    assert blur > 1.5 * finder.last.actions[1].behind.half_width
