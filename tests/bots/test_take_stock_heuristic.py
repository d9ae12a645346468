"""The rule-based Take Stock bot: always legal, sensible in crafted positions, beats random."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

import closingbell
from closingbell.bots import make_bot
from closingbell.bots.base import Bot, RandomBot
from closingbell.bots.take_stock import TakeStockHeuristic
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from tests.games.take_stock.craft import craft, make_game, play

BotMaker = Callable[[TakeStock, int], Bot]


def heuristic(game: TakeStock, seed: int) -> Bot:
    return TakeStockHeuristic(game, seed)


def randomly(game: TakeStock, seed: int) -> Bot:
    return RandomBot(game, seed)


def choice(state: TakeStockState) -> str:
    """What the heuristic bot answers to the pending decision, in the text notation."""
    seat = state.current_player
    assert seat is not None
    bot = TakeStockHeuristic(state.game, 0)
    return state.action_to_string(bot.choose(state.view(seat)))


def play_game(game: TakeStock, seed: int, bots: list[Bot]) -> tuple[TakeStockState, set[str]]:
    """Play a whole game, checking that every bot answers with a legal action."""
    state = game.new_game(seed)
    decisions: set[str] = set()
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in state.legal_actions(), state.action_to_string(action)
        if isinstance(bots[seat], TakeStockHeuristic):
            decisions.add(view.decision)
        state.apply(action)
    return state, decisions


# ---------------------------------------------------------------------- legal and robust

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"frozen_scoring": "zero", "insider_order": "take_first"},
    {"empty_draw": "next_draw", "limit_counts_freeze": True},
    {"keep_saved_events": False, "option_shortage": "nobody", "dealer_tie": "random"},
    {"shares_table": [3] * 11, "rounds": 2, "final_tie": "most_tokens"},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_games_are_played_with_legal_actions_only(players: int) -> None:
    options = OPTION_SETS[players % len(OPTION_SETS)]
    game = make_game(players, **options)
    # The heuristic everywhere, then beside random players and with random slips.
    _, seen = play_game(game, players, [heuristic(game, s) for s in range(players)])
    mixed: list[Bot] = [
        TakeStockHeuristic(game, s, epsilon=0.2) if s % 2 else randomly(game, s)
        for s in range(players)
    ]
    state, more = play_game(game, 100 + players, mixed)
    assert state.is_terminal() and len(state.winners()) >= 1
    assert {"action", "discard", "exercise"} <= seen | more


def test_every_kind_of_decision_is_answered() -> None:
    seen: set[str] = set()
    for seed in range(6):
        for players in (2, 4):
            game = make_game(players)
            _, decisions = play_game(game, seed, [heuristic(game, s) for s in range(players)])
            seen |= decisions
    assert seen == {
        "action",
        "discard",
        "choose_event",
        "audit_stock",
        "audit_what",
        "freeze_stock",
        "retrieve",
        "insider_discard",
        "downturn_discard",
        "exercise",
    }


def test_the_choice_depends_only_on_the_view() -> None:
    game = make_game(3)
    state = game.new_game(5)
    rng_bot = RandomBot(game, 1)
    for _ in range(60):
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        first = TakeStockHeuristic(game, 1).choose(view)
        assert TakeStockHeuristic(game, 99).choose(view) == first
        assert TakeStockHeuristic(game, 1).choose(state.clone().view(seat)) == first
        state.apply(rng_bot.choose(view))


def test_make_bot_builds_it_and_it_refuses_other_games() -> None:
    game = make_game(2)
    bot = make_bot("heuristic", game, seed=3, epsilon=0.1)
    assert isinstance(bot, TakeStockHeuristic) and bot.epsilon == 0.1
    other = closingbell.load_game("card_stock_market", players=3)
    with pytest.raises(TypeError, match="Take Stock"):
        TakeStockHeuristic(other)


# ---------------------------------------------------------------------- crafted positions

JUNK = ["Corn 9", "Tech 10", "Movie 8"]
"""Cards that cannot be raised on a fresh market (a raise adds at most 4 to a 1)."""


def test_it_raises_its_own_stock_not_an_opponents() -> None:
    state = craft(
        make_game(2),
        hands={0: ["Oil 4", "Gem 4", *JUNK]},
        certs={0: ["Oil 10"], 1: ["Gem 10"]},
    )
    assert {"raise Oil 4", "raise Gem 4"} <= {
        state.action_to_string(a) for a in state.legal_actions()
    }
    assert choice(state) == "raise Oil 4"
    # The same position seen from the other side of the table.
    mirrored = craft(
        make_game(2),
        hands={0: ["Oil 4", "Gem 4", *JUNK]},
        certs={0: ["Gem 10"], 1: ["Oil 10"]},
    )
    assert choice(mirrored) == "raise Gem 4"


@pytest.mark.parametrize("order", [("Crash Oil", "Split Oil"), ("Split Oil", "Crash Oil")])
def test_with_way_a_it_splits_its_own_stock_rather_than_crash_it(order: tuple[str, str]) -> None:
    state = craft(
        make_game(2),
        rows={"Oil": [1, 3, 5]},
        certs={0: ["Oil 10"], 1: ["Gem 9"]},
        event_top=list(order),
        hands={0: JUNK},
    )
    play(state, "market A", "discard Corn 9")
    assert state.decision == "choose_event"
    assert choice(state) == "choose Split Oil"


def test_with_way_a_it_crashes_an_opponents_stock_rather_than_split_it() -> None:
    state = craft(
        make_game(3),
        rows={"Gem": [1, 3, 5, 7]},
        certs={0: ["Oil 10"], 1: ["Gem 9"], 2: ["Gem 12"]},
        event_top=["Split Gem", "Crash Gem"],
        hands={0: JUNK},
    )
    play(state, "market A", "discard Corn 9")
    assert choice(state) == "choose Crash Gem"


def test_it_discards_its_least_useful_card() -> None:
    # Oil 6 raises its own stock, Gem 12 holds three shares; Movie 2 can never be raised
    # again (Movie stands at 3) and holds one share of a stock nobody owns.
    state = craft(
        make_game(2),
        rows={"Oil": [1, 3], "Movie": [1, 3]},
        certs={0: ["Oil 10", "Oil 12"]},
        hands={0: ["Oil 6", "Gem 12", "Movie 2"]},
    )
    play(state, "market B")
    assert state.decision == "discard"
    assert choice(state) == "discard Movie 2"


def _round_ended_by_a_raise(number: int) -> TakeStockState:
    state = craft(
        make_game(2),
        round=number,
        scores=None if number == 1 else [50, 50],
        rows={"Oil": [1, 5, 8], "Gem": [1, 4, 6]},
        hands={0: ["Oil 11", "Gem 12", "Corn 2", "Tech 3"]},
        certs={0: ["Oil 10"], 1: ["Oil 9"]},
        tokens=[4, 0],
    )
    play(state, "raise Oil 11")
    assert state.decision == "exercise" and state.current_player == 0
    return state


def test_at_round_end_it_exercises_its_most_valuable_card_first() -> None:
    state = _round_ended_by_a_raise(4)
    assert choice(state) == "exercise Gem 12"  # 3 shares at 6, the others 1 share at 1
    # In the last round a token left over is worth nothing: every card is exercised.
    play(state, "exercise Gem 12")
    assert choice(state) in ("exercise Corn 2", "exercise Tech 3")


def test_in_an_early_round_it_keeps_tokens_rather_than_spend_them_on_poor_cards() -> None:
    state = _round_ended_by_a_raise(1)
    assert choice(state) == "exercise Gem 12"
    play(state, "exercise Gem 12")
    assert choice(state) == "exercise done"


def _closing_position(scores: list[int]) -> TakeStockState:
    return craft(
        make_game(2),
        round=4,
        scores=scores,
        rows={"Oil": [1, 3, 7]},
        certs={0: ["Oil 10", "Oil 12"], 1: ["Gem 10"]},
        hands={0: ["Oil 11", *JUNK]},
    )


def test_in_the_last_round_it_ends_the_round_when_that_wins_the_game() -> None:
    assert choice(_closing_position([200, 150])) == "raise Oil 11"


def test_it_does_not_end_the_last_round_while_that_would_lose_the_game() -> None:
    assert choice(_closing_position([100, 200])) != "raise Oil 11"


def test_it_draws_market_closed_when_ahead_and_avoids_it_when_behind() -> None:
    def position(scores: list[int]) -> TakeStockState:
        return craft(
            make_game(2),
            round=4,
            scores=scores,
            rows={"Oil": [1, 3, 7]},
            certs={0: ["Oil 10", "Oil 12"], 1: ["Gem 10"]},
            hands={0: JUNK},
            events_above=1,
        )

    assert choice(position([200, 150])) == "market A"  # Market Closed comes second
    assert choice(position([100, 200])) not in ("market A", "market B")


def _audit_position(rows: list[int], splits: int) -> TakeStockState:
    state = craft(
        make_game(2),
        rows={"Gem": rows, "Oil": [1, 3, 5]},
        splits={"Gem": splits},
        certs={0: ["Oil 10"], 1: ["Gem 10", "Gem 12"]},
        saved={0: ["Audit"]},
        hands={0: JUNK},
    )
    play(state, "play Audit", "discard Corn 9")
    assert state.decision == "audit_stock"
    return state


def test_it_audits_the_opponents_stock_and_removes_what_costs_it_most() -> None:
    # Gem 4 x3 = 12: without the 4 it is 3 x3 = 9, without a split 4 x2 = 8.
    state = _audit_position([1, 3, 4], splits=2)
    assert choice(state) == "audit Gem"
    play(state, "audit Gem")
    assert choice(state) == "audit split"
    # Gem 8 x2 = 16: without the 8 it is 2 x2 = 4, without the split 8.
    state = _audit_position([1, 2, 8], splits=1)
    play(state, "audit Gem")
    assert choice(state) == "audit card"


def test_it_freezes_the_opponents_stock_low_and_thaws_its_own_when_frozen_scores_nothing() -> None:
    state = craft(
        make_game(2),
        rows={"Oil": [1, 3, 5]},
        certs={0: ["Oil 10"], 1: ["Gem 10", "Gem 12"]},
        saved={0: ["Freeze"]},
        hands={0: JUNK},
    )
    play(state, "play Freeze", "discard Corn 9")
    assert state.decision == "freeze_stock"
    assert choice(state) == "freeze Gem"  # locks the opponent's six shares at 1

    state = craft(
        make_game(2, frozen_scoring="zero"),
        rows={"Oil": [1, 3, 5]},
        frozen=["Oil"],
        certs={0: ["Oil 10", "Oil 12"], 1: ["Gem 3"]},
        saved={0: ["Freeze"]},
        hands={0: JUNK},
    )
    play(state, "play Freeze", "discard Corn 9")
    assert choice(state) == "freeze Oil"  # thaws it: frozen, its six shares score nothing


def test_insider_trading_takes_the_best_card_and_stops_when_the_rest_are_worth_less() -> None:
    state = craft(
        make_game(2),
        rows={"Oil": [1, 3, 5]},
        certs={0: ["Oil 10"]},
        saved={0: ["Insider Oil"]},
        discard=["Oil 12", "Oil 2"],
        hands={0: ["Corn 2", "Gem 12", "Tech 11", "Movie 10"]},
    )
    play(state, "play Insider Oil", "discard Corn 2")
    assert state.decision == "retrieve"
    assert choice(state) == "retrieve Oil 12"
    play(state, "retrieve Oil 12")
    # Oil 2 is below Oil's top and holds one share: not worth a three-share card.
    assert choice(state) == "retrieve done"
    play(state, "retrieve done")
    assert state.decision == "insider_discard"
    assert choice(state) in ("discard Gem 12", "discard Tech 11", "discard Movie 10")


def test_in_a_downturn_it_gives_up_its_least_useful_card() -> None:
    state = craft(
        make_game(2),
        rows={"Oil": [1, 3], "Movie": [1, 3]},
        certs={0: ["Oil 10", "Oil 12"]},
        saved={0: ["Downturn"]},
        hands={0: ["Corn 12", "Oil 6", "Gem 12", "Movie 2"]},
    )
    play(state, "play Downturn", "discard Corn 12")
    assert state.decision == "downturn_discard" and state.current_player == 0
    assert choice(state) == "discard Movie 2"


# ---------------------------------------------------------------------- strength


def _win_rate(players: int, seeds: range) -> tuple[float, int]:
    """The heuristic's share of wins against random players, over every seat rotation."""
    game = make_game(players)
    wins = 0.0
    games = 0
    for seed in seeds:
        for seat in range(players):
            bots: list[Bot] = [randomly(game, 1000 * seed + s) for s in range(players)]
            bots[seat] = heuristic(game, seed)
            state, _ = play_game(game, seed, bots)
            winners = state.winners()
            if seat in winners:
                wins += 1 / len(winners)
            games += 1
    return wins / games, games


@pytest.mark.parametrize(("players", "seeds", "bound"), [(2, 40, 0.75), (4, 15, 0.5)])
def test_it_beats_random_players(players: int, seeds: int, bound: float) -> None:
    # A random seat wins 1/players of the games. Over 80 and 60 games both bounds lie more
    # than four standard errors above that, so passing is a clear, significant margin.
    rate, games = _win_rate(players, range(seeds))
    chance = 1 / players
    assert (bound - chance) / math.sqrt(chance * (1 - chance) / games) > 4
    assert rate > bound, f"won {rate:.2f} of {games} games at {players} players"
