"""The compiled Card Stock Market planner chooses as the Python reference does, view for view.

Each decision is compared twice: the action ``pick`` returns, and the numbers behind it
(the end-price table, the opponents' weight, a fresh card's value, the root's value, every
move's value and every discard's gain), which must be the reference's to the last bit.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

import closingbell
from closingbell import native
from closingbell.bots import make_bot
from closingbell.bots.base import Bot
from closingbell.bots.card_stock_market import CardStockMarketHeuristic, _Planner
from closingbell.bots.ismcts import STRONG
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState
from closingbell.games.card_stock_market.views import CardStockMarketView
from tests.bots.test_card_stock_market_heuristic import BROKE
from tests.games.card_stock_market.craft import craft, make_game, play

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"same_suit_trades": False, "bankrupt_buying": "forbidden", "phase_order": "trade_first"},
    {"face_raise_limited": True, "strip": "graded", "same_price_change": True},
    {"bank_money": 0, "starting_money": 100, "debt_repayment": "end_of_turn", "levy": 30},
    {"bank_money": 0, "starting_money": 100, "strip": [1, 1, 2, 2, 4, 4, 5, 5]},
    {"bank_money": None, "ace_at_setup": False, "same_price_change": True},
]
"""Rules options the bot reads, each set at least once away from its default."""

QUIET = ["AC", "2C", "3D", "4D"]
"""Low cards of suits at $5, which matter little to a position."""


def _pair(
    game: CardStockMarket, bot_class: type[CardStockMarketHeuristic] = CardStockMarketHeuristic
) -> tuple[CardStockMarketHeuristic, CardStockMarketHeuristic]:
    """The same bot with the reference engine and the compiled one."""
    reference = bot_class(game, engine="reference")
    compiled = bot_class(game, engine="native")
    assert (reference.engine, compiled.engine) == ("reference", "native")
    return reference, compiled


def _numbers(bot: CardStockMarketHeuristic, view: CardStockMarketView) -> dict[str, Any]:
    """What the reference planner computes for ``view``, as the compiled ``explain`` has it."""
    planner = _Planner(bot, view)
    return {
        "table": planner.table,
        "opp_weight": planner.opp_weight,
        "baseline": planner.baseline,
        "value": planner.root.value,
        "moves": sorted(planner.moves(planner.root), reverse=True),
        "discards": planner.discard_order(),
    }


def assert_same(
    reference: CardStockMarketHeuristic,
    compiled: CardStockMarketHeuristic,
    view: CardStockMarketView,
    legal: tuple[int, ...] | None = None,
) -> int:
    """Both engines pick alike on ``view`` from the same numbers; return the choice."""
    if legal is None:
        legal = view.legal_actions
    expected = reference.pick(view, legal)
    assert compiled.pick(view, legal) == expected
    explained = compiled._compiled_planner().explain(view)
    assert explained == _numbers(reference, view)
    return expected


def _decisions(
    game: CardStockMarket, seed: int, bots: list[Bot], *, limit: int = 10_000
) -> Iterator[tuple[CardStockMarketState, CardStockMarketView]]:
    """Every state of a game (up to ``limit`` decisions) with a choice, and the view there."""
    state = game.new_game(seed)
    for _ in range(limit):
        if state.is_terminal():
            return
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        if len(view.legal_actions) > 1:
            yield state, view
        state.apply(bots[seat].choose(view))


def _line_ups(game: CardStockMarket, seed: int) -> dict[str, list[Bot]]:
    """Random play, rule-based self-play (with some random moves) and a mix of both."""
    n = game.options.players

    def heuristic(q: int) -> Bot:
        return make_bot("heuristic", game, seed * 10 + q, epsilon=0.1)

    def randomly(q: int) -> Bot:
        return make_bot("random", game, seed * 10 + q)

    return {
        "random": [randomly(q) for q in range(n)],
        "self-play": [heuristic(q) for q in range(n)],
        "mixed": [heuristic(q) if q % 2 else randomly(q) for q in range(n)],
    }


# ---------------------------------------------------------------------- whole games


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_decision_of_played_games_is_the_references(players: int) -> None:
    checked = 0
    for seed in range(3):
        for kind in ("random", "self-play", "mixed"):
            options = OPTION_SETS[(players + seed + len(kind)) % len(OPTION_SETS)]
            game = make_game(players, **options)
            reference, compiled = _pair(game)
            bots = _line_ups(game, seed)[kind]
            for _, view in _decisions(game, seed, bots):
                assert_same(reference, compiled, view)
                checked += 1
    assert checked > 300


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_every_rules_option_is_followed_alike(options: dict[str, Any]) -> None:
    game = make_game(3, **options)
    reference, compiled = _pair(game)
    bots = _line_ups(game, 7)["self-play"]
    decisions = [view for _, view in _decisions(game, 7, bots)]
    assert len(decisions) > 50
    for view in decisions[::2]:
        assert_same(reference, compiled, view)


def test_views_of_sampled_worlds_and_their_play_outs() -> None:
    # A search deals possible worlds from a view and plays them out with the bot at
    # every seat: the seats' views there hold hands that were dealt at random.
    rng = random.Random(5)
    checked = 0
    for players in (2, 4, 6):
        game = make_game(players, **OPTION_SETS[players % len(OPTION_SETS)])
        reference, compiled = _pair(game)
        bots = _line_ups(game, players)["self-play"]
        for step, (_, view) in enumerate(_decisions(game, 3, bots)):
            if step % 15:
                continue
            world = game.sample_state(view, rng)
            for _ in range(12):
                if world.is_terminal():
                    break
                seat = world.current_player
                assert seat is not None
                seen = world.view(seat)
                action = seen.legal_actions[0]
                if len(seen.legal_actions) > 1:
                    action = assert_same(reference, compiled, seen)
                    checked += 1
                world.apply(action)
    assert checked > 100


def test_any_subset_of_the_legal_actions_is_ranked_alike() -> None:
    # The paired search ranks a root's actions by asking again without those picked.
    game = make_game(4)
    reference, compiled = _pair(game)
    bots = _line_ups(game, 2)["mixed"]
    for step, (_, view) in enumerate(_decisions(game, 2, bots, limit=120)):
        if step % 6:
            continue
        rest = list(view.legal_actions)
        while rest:
            choice = assert_same(reference, compiled, view, tuple(rest))
            rest.remove(choice)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("level", ["heuristic", "medium"])
def test_the_same_seed_plays_the_same_game_with_either_engine(players: int, level: str) -> None:
    game = make_game(players, **OPTION_SETS[players - 1])
    records = []
    for engine in ("reference", "native"):
        bots = [make_bot(level, game, seed=q, engine=engine) for q in range(players)]
        assert {bot.engine for bot in bots if isinstance(bot, CardStockMarketHeuristic)} == {engine}
        state = game.new_game(40 + players)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(state.view(seat)))
        records.append((state.history, state.scores()))
    assert records[0] == records[1]


# ---------------------------------------------------------------------- crafted positions


def _turn_alike(state: CardStockMarketState, seat: int = 0) -> list[str]:
    """Play ``seat``'s whole turn, checking both engines at each decision; its actions."""
    reference, compiled = _pair(state.game)
    done = []
    while state.current_player == seat and not state.is_terminal():
        view = state.view(seat)
        action = assert_same(reference, compiled, view)
        done.append(state.action_to_string(action))
        state.apply(action)
    return done


POSITIONS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "a short bank levies before paying": (
        {},
        {
            "piles": {"H": ["5H", "KH"]},
            "certs": {0: ["2H", "10H"]},
            "cash": {0: 0},
            "hands": {0: [*QUIET, "AS", "2S", "3S", "4S"]},
            "bank": 5,
        },
    ),
    "a levy leaves a debt repaid from the sale": (
        {"bank_money": 0, "starting_money": 100, "levy": 60},
        {
            "piles": {"S": ["5S", "QS"]},
            "certs": {0: ["10S", "2S"], 1: ["5S"]},
            "cash": {0: 20},
            "hands": {0: [*QUIET, "AH", "2H", "3H", "4H"]},
            "bank": 0,
        },
    ),
    "a debtor repays at the end of the turn": (
        {"bank_money": 0, "starting_money": 100, "debt_repayment": "end_of_turn"},
        {
            "piles": {"D": ["9D"]},
            "certs": {0: ["8D"]},
            "cash": {0: 10},
            "debts": {0: 40},
            "hands": {0: ["10D", "KD", "AC", "2C", "AS", "2S", "AH", "2H"]},
            "bank": 80,
        },
    ),
    "a debtor repays from every sale": (
        {},
        {
            "piles": {"C": ["8C"]},
            "certs": {0: ["7C", "3C"]},
            "debts": {0: 70},
            "cash": {0: 0},
            "hands": {0: ["QC", "JC", "9C", "AD", "2D", "AS", "2S", "AH"]},
        },
    ),
    "bankrupt stock at $0, bought free or not at all": (
        {"bankrupt_buying": "forbidden"},
        {
            "piles": {"D": ["5D", "QD"]},
            "bankrupt": ["D"],
            "hands": {0: ["10D", "9D", "AC", "2C", "AS", "2S", "AH", "2H"]},
        },
    ),
    "a bankruptcy of a suit nobody holds at $0": (
        {"same_price_change": True},
        {
            "piles": {"S": ["4S", "7S"], "H": ["5H", "QH"]},
            "bankrupt": ["H"],
            "hands": {0: ["7S", "8S", "JH", "2D", "3D", "4D", "5D", "6D"]},
        },
    ),
    "the share cap and the cash limit": (
        {},
        {
            "piles": {"C": ["AC"], "D": ["4D"]},
            "certs": {0: ["10C"]},
            "cash": {0: 20},
            "hands": {0: ["9C", "2C", "3C", "10D", "4S", "5S", "AH", "2H"]},
        },
    ),
    "face raises within the strip": (
        {"face_raise_limited": True, "strip": "graded"},
        {
            "piles": {"S": ["9S"], "D": ["10D"]},
            "certs": {0: ["10S", "6D"], 1: ["9D"]},
            "hands": {0: ["KS", "JS", "QD", "JD", "9D", "AC", "2H", "3H"]},
        },
    ),
    "the end is near: raise and sell": (
        {},
        {
            "piles": {"S": ["5S"]},
            "certs": {0: ["10S"], 1: ["9S", "8H"]},
            "hands": {0: ["KS", "AC", "2C", "3D", "4D", "AH", "2H", "3H"]},
            "reshuffled": True,
            "draw_size": 6,
        },
    ),
    "nothing is worth doing: discard": (
        {},
        {
            "piles": {"C": ["10C"], "D": ["10D"], "H": ["10H"], "S": ["10S"]},
            "hands": {0: ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S"]},
        },
    ),
}
"""Rare decisions: ``(rules options, position for craft)``, seat 0 to move, two seats."""


@pytest.mark.parametrize("name", list(POSITIONS))
def test_rare_decisions_of_crafted_positions(name: str) -> None:
    options, position = POSITIONS[name]
    for players in (2, 3):
        done = _turn_alike(craft(make_game(players, **options), **position))
        assert done


def test_a_plan_that_runs_everybody_out_of_money() -> None:
    game = make_game(2, bank_money=0, starting_money=65, levy=7)
    assert _turn_alike(game.state_from_position(BROKE), seat=1)


def test_trading_market_and_discarding_decisions_within_a_turn() -> None:
    position: dict[str, Any] = {
        "piles": {"D": ["6D"], "S": ["4S"]},
        "hands": {0: ["7D", "QD", "2S", "3S", "10C", "AH", "KH", "5H"]},
        "certs": {0: ["9C", "5D"]},
    }
    for order in ("either", "trade_first"):
        game = make_game(3, phase_order=order)
        for first in ("market 7D", "buy 2S", "sell 9C", "discard AH"):
            state = play(craft(game, **position), first)
            assert state.decision in ("trading", "market", "discarding")
            _turn_alike(state)


def test_ties_are_broken_as_the_reference_breaks_them() -> None:
    # Four suits alike at $5 and a hand with the same ranks in each: moves and discards
    # of equal value, which only the order of the kinds, suits, ranks and cards decides.
    game = make_game(3)
    state = craft(
        game,
        piles={"C": ["5C"], "D": ["5D"], "H": ["5H"], "S": ["5S"]},
        hands={0: ["3C", "3D", "3H", "3S", "7C", "7D", "7H", "7S"]},
    )
    view = state.view(0)
    numbers = _numbers(CardStockMarketHeuristic(game, engine="reference"), view)
    values = [m[0] for m in numbers["moves"]]
    gains = [g for g, _ in numbers["discards"]]
    assert len(set(values)) < len(values) and len(set(gains)) < len(gains)
    reference, compiled = _pair(game)
    rest = list(view.legal_actions)
    while rest:
        rest.remove(assert_same(reference, compiled, view, tuple(rest)))
    assert _turn_alike(state)


# ---------------------------------------------------------------------- the bot's settings


class _Variant(CardStockMarketHeuristic):
    """Other weights, some of them integers, as a tuning script might set them."""

    MEAN_PRICE = 7
    HAZARD = 0.1
    HAND_WEIGHT = 0.45
    LEADER_WEIGHT = 1
    BEAM = 2
    RATE = 3


def test_a_subclass_s_weights_are_the_compiled_planner_s() -> None:
    game = make_game(4, **OPTION_SETS[3])
    reference, compiled = _pair(game, _Variant)
    bots = _line_ups(game, 4)["self-play"]
    differ = 0
    default = CardStockMarketHeuristic(game, engine="reference")
    for _, view in _decisions(game, 4, bots, limit=200):
        choice = assert_same(reference, compiled, view)
        differ += choice != default.pick(view, view.legal_actions)
    assert differ  # the weights do change choices


def test_weights_set_on_a_bot_reach_its_compiled_planner() -> None:
    game = make_game(3)
    reference, compiled = _pair(game)
    for bot in (reference, compiled):
        bot.BEAM = -2  # a slice's bound, as in the reference: all but the last two
        bot.SPARE = 0.4
    bots = _line_ups(game, 9)["mixed"]
    for _, view in _decisions(game, 9, bots, limit=120):
        assert_same(reference, compiled, view)


def test_a_bot_pickled_for_a_helper_process_chooses_alike() -> None:
    # The web server sends its searching bots, with their rule-based play-out players,
    # to helper processes.
    game = make_game(3)
    view = next(_decisions(game, 2, _line_ups(game, 2)["self-play"]))[1]
    for bot in (
        make_bot("heuristic", game, seed=3),
        make_bot("ismcts", game, seed=3, **{**STRONG, "iterations": 8}),
    ):
        copy = pickle.loads(pickle.dumps(bot))
        assert copy.choose(view) == bot.choose(view)
    copy = pickle.loads(pickle.dumps(make_bot("heuristic", game, seed=3)))
    assert isinstance(copy, CardStockMarketHeuristic) and copy.engine == "native"


def test_the_compiled_planner_is_pickled_with_its_settings() -> None:
    game = make_game(3)
    reference, compiled = _pair(game)
    planner = compiled._compiled_planner()
    copy = pickle.loads(pickle.dumps(planner))
    for _, view in _decisions(game, 1, _line_ups(game, 1)["mixed"], limit=60):
        assert copy.pick(view, view.legal_actions) == reference.pick(view, view.legal_actions)


# ---------------------------------------------------------------------- engines


def test_auto_takes_the_compiled_planner_and_falls_back_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = make_game(3)
    assert CardStockMarketHeuristic(game).engine == "native"
    hard = make_bot("hard", game, engine="reference")
    assert isinstance(hard, CardStockMarketHeuristic) and hard.engine == "reference"
    monkeypatch.setattr(native, "module", lambda name: None)
    assert CardStockMarketHeuristic(game).engine == "reference"
    with pytest.raises(RuntimeError, match="compiled rule-based bot of Card Stock Market"):
        CardStockMarketHeuristic(game, engine="native")
    with pytest.raises(ValueError, match="engine must be one of"):
        CardStockMarketHeuristic(game, engine="fast")


def test_the_compiled_planner_refuses_what_the_reference_refuses() -> None:
    bot = CardStockMarketHeuristic(make_game(2), engine="native")
    other = closingbell.load_game("take_stock", players=2)
    with pytest.raises(TypeError, match="Card Stock Market view"):
        bot.pick(other.new_game(1).view(0), (0, 1))
    spectator = make_game(2).new_game(1).view(None)
    with pytest.raises(TypeError, match="Card Stock Market view"):
        bot._compiled_planner().pick(spectator, (A.DONE,))
    with pytest.raises(TypeError, match="Card Stock Market view"):
        bot._compiled_planner().read(spectator)


def test_a_view_the_reference_cannot_read_is_refused_alike() -> None:
    # A joker never reaches a hand (drawing one ends the game): the reference fails on
    # it with an IndexError, and so does the compiled planner's reading.
    game = make_game(3)
    reference, compiled = _pair(game)
    state = game.new_game(4)
    assert state.current_player is not None
    view = state.view(state.current_player)
    broken = dataclasses.replace(view, hand=(*view.hand[:-1], C.JOKER))
    for bot in (reference, compiled):
        with pytest.raises(IndexError):
            bot.pick(broken, broken.legal_actions)
    with pytest.raises(IndexError):
        compiled._compiled_planner().read(broken)
