"""The Card Stock Market heuristic: legal, finite play, sensible choices, and strength."""

from __future__ import annotations

import math
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import closingbell
from closingbell.bots import LEVELS, make_bot
from closingbell.bots.base import Bot
from closingbell.bots.card_stock_market import CardStockMarketHeuristic
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState
from tests.games.card_stock_market.craft import craft, make_game

MAX_DECISIONS = 5000
"""Far more decisions than any game takes: a game that needs more never ends."""


def _play(game: CardStockMarket, seed: int, bots: list[Bot]) -> tuple[CardStockMarketState, int]:
    """Play one game to the end; every action must be legal, and no turn a pass."""
    state = game.new_game(seed)
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        if isinstance(bots[seat], CardStockMarketHeuristic) and bots[seat].epsilon == 0:
            assert not (view.decision == "turn" and action == A.DONE), "a heuristic passed"
        state.apply(action)
        decisions += 1
        assert decisions < MAX_DECISIONS, "the game does not end"
    return state, decisions


def _turn(state: CardStockMarketState, bot: Bot, seat: int = 0) -> list[str]:
    """Let ``bot`` play ``seat``'s whole turn; return its actions in the notation."""
    done = []
    while state.current_player == seat and not state.is_terminal():
        action = bot.choose(state.view(seat))
        done.append(state.action_to_string(action))
        state.apply(action)
    return done


def _heuristic_turn(players: int = 2, **position: Any) -> tuple[list[str], CardStockMarketState]:
    """The heuristic's turn as seat 0 of a crafted position, and the position after it."""
    game = make_game(players)
    state = craft(game, **position)
    return _turn(state, CardStockMarketHeuristic(game)), state


# ---------------------------------------------------------------------- legal, finite play


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_heuristics_alone_and_with_random_bots_finish_every_game(players: int) -> None:
    game = make_game(players)
    for seed in range(2):
        alone: list[Bot] = [CardStockMarketHeuristic(game, q) for q in range(players)]
        mixed: list[Bot] = [
            CardStockMarketHeuristic(game, q) if q % 2 else make_bot("random", game, q)
            for q in range(players)
        ]
        for bots in (alone, mixed):
            state, decisions = _play(game, seed, bots)
            assert state.winners() and state.reshuffled and state.joker_by >= 0
            assert decisions < 1000


@pytest.mark.parametrize(
    "options",
    [
        {"same_suit_trades": False, "bankrupt_buying": "forbidden"},
        {"face_raise_limited": True, "strip": [1, 1, 2, 2, 4, 4, 5, 5]},
        {"bank_money": 0, "starting_money": 100, "debt_repayment": "end_of_turn"},
        {"bank_money": 0, "starting_money": 100},
        {"bank_money": None, "ace_at_setup": False},
    ],
)
def test_it_follows_every_rules_option(options: dict[str, object]) -> None:
    game = make_game(3, **options)
    for seed in range(2):
        bots: list[Bot] = [
            CardStockMarketHeuristic(game, 0),
            CardStockMarketHeuristic(game, 1),
            make_bot("random", game, 2),
        ]
        state, _ = _play(game, seed, bots)
        assert state.is_terminal()


def test_make_bot_builds_it_and_easy_plays_some_random_moves() -> None:
    game = make_game(4)
    assert type(make_bot("heuristic", game)) is CardStockMarketHeuristic
    easy = make_bot("easy", game, seed=3)
    assert isinstance(easy, CardStockMarketHeuristic)
    assert easy.epsilon == LEVELS["easy"][1]["epsilon"] > 0
    state, _ = _play(game, 5, [easy, make_bot("heuristic", game), easy, make_bot("random", game)])
    assert state.is_terminal()


def test_it_plays_only_card_stock_market() -> None:
    other = closingbell.load_game("take_stock", players=2)
    with pytest.raises(TypeError, match="only Card Stock Market"):
        CardStockMarketHeuristic(other)
    bot = CardStockMarketHeuristic(make_game(2))
    with pytest.raises(TypeError, match="Card Stock Market view"):
        bot.pick(other.new_game(1).view(0), (0, 1))


def test_its_choice_depends_only_on_the_view() -> None:
    """A bot that played the game so far and a fresh one choose alike: no hidden memory."""
    game = make_game(3)
    state = game.new_game(11)
    bots = [CardStockMarketHeuristic(game, q) for q in range(3)]
    steps = 0
    while not state.is_terminal() and steps < 150:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert CardStockMarketHeuristic(game, seat).choose(view) == action
        state.apply(action)
        steps += 1


# ---------------------------------------------------------------------- crafted positions

# Cards that matter little to the positions below: low cards of suits at $5.
QUIET = ["AC", "2C", "3D", "4D"]


def test_it_raises_a_suit_it_holds() -> None:
    done, state = _heuristic_turn(
        piles={"H": ["5H"]},
        certs={0: ["10H"]},
        hands={0: ["8H", *QUIET, "AS", "2S", "3S"]},
    )
    assert "market 8H" in done
    assert state.view(0).scores[0] >= 200 + 10 * 8 or state.prices[2] == 8


def test_it_raises_with_a_face_card_a_suit_it_holds_most_of() -> None:
    done, _ = _heuristic_turn(
        piles={"S": ["5S"]},
        certs={0: ["10S"], 1: ["2S"]},
        hands={0: ["KS", *QUIET, "AH", "2H", "3H"]},
    )
    assert "market KS" in done
    assert "bankrupt KS" not in done


def test_it_bankrupts_a_suit_only_an_opponent_holds() -> None:
    done, state = _heuristic_turn(
        piles={"S": ["9S"]},
        certs={1: ["10S", "2S"]},
        hands={0: ["KS", *QUIET, "AH", "2H", "3H"]},
    )
    assert "bankrupt KS" in done
    assert state.held[1][3] == 0


def test_it_sells_its_shares_before_bankrupting_the_suit() -> None:
    done, state = _heuristic_turn(
        piles={"H": ["9H"]},
        certs={0: ["4H"], 1: ["10H", "2H"]},
        hands={0: ["QH", *QUIET, "AS", "2S", "3S"]},
    )
    assert done.index("sell 4H") < done.index("bankrupt QH")
    assert state.cash[0] == 200 + 4 * 9


def test_it_buys_a_bankrupt_suit_for_nothing_and_covers_the_face_card() -> None:
    done, state = _heuristic_turn(
        piles={"D": ["5D", "QD"]},
        bankrupt=["D"],
        hands={0: ["10D", "9D", "AC", "2C", "AS", "2S", "AH", "2H"]},
    )
    assert done.index("buy 10D") < done.index("market 9D")
    assert state.held[0][1] == 10 and state.prices[1] == 9 and state.cash[0] == 200


def test_it_sells_to_afford_a_cheap_buy_it_can_then_raise() -> None:
    done, state = _heuristic_turn(
        piles={"H": ["5H", "QH"], "S": ["3S"]},
        certs={0: ["5H"]},
        cash={0: 10},
        hands={0: ["10S", "6S", *QUIET, "AH", "2H"]},
    )
    assert done.index("sell 5H") < done.index("buy 10S") < done.index("market 6S")
    assert state.held[0][3] == 10 and state.prices[3] == 6


def test_it_keeps_within_its_cash_and_the_share_limit() -> None:
    # The 9C would pass 12 clubs and the 10D costs more than the $20 it has; the 2C fits.
    done, state = _heuristic_turn(
        piles={"C": ["AC"], "D": ["4D"]},
        certs={0: ["10C"]},
        cash={0: 20},
        hands={0: ["9C", "2C", "4C", "10D", "4S", "5S", "AH", "2H"]},
    )
    assert "buy 9C" not in done and "buy 10D" not in done
    assert max(state.held[0]) <= 12 and state.cash[0] >= 0 and state.debt[0] == 0
    assert "market 4C" in done


def test_it_does_not_sell_into_a_short_bank_when_the_levy_would_put_it_in_debt() -> None:
    position: dict[str, Any] = {
        "piles": {"H": ["5H", "KH"]},
        "certs": {0: ["2H"]},
        "cash": {0: 0},
        "hands": {0: [*QUIET, "AS", "2S", "3S", "4S"]},
    }
    ample, _ = _heuristic_turn(**position)
    assert "sell 2H" in ample  # $26 for shares a number card may soon cover
    short, state = _heuristic_turn(**position, bank=5)
    assert "sell 2H" not in short
    assert state.debt[0] == 0


def test_it_buys_cheap_stock_early_but_not_at_the_end_unless_it_can_raise_it() -> None:
    position: dict[str, Any] = {
        "piles": {"C": ["2C"]},
        "hands": {0: ["10C", "AS", "2S", "3D", "4D", "AH", "2H", "3H"]},
    }
    early, _ = _heuristic_turn(**position)
    assert "buy 10C" in early
    late, _ = _heuristic_turn(**position, reshuffled=True, draw_size=6)
    assert "buy 10C" not in late


def test_at_the_end_it_raises_to_the_top_and_sells() -> None:
    done, state = _heuristic_turn(
        piles={"S": ["5S"]},
        certs={0: ["10S"]},
        hands={0: ["KS", "AC", "2C", "3D", "4D", "AH", "2H", "3H"]},
        reshuffled=True,
        draw_size=6,
    )
    assert done.index("market KS") < done.index("sell 10S")
    assert state.prices[3] == 13 and state.held[0][3] == 0


def test_with_nothing_worth_doing_it_discards_rather_than_passes() -> None:
    done, _ = _heuristic_turn(
        piles={"C": ["10C"], "D": ["10D"], "H": ["10H"], "S": ["10S"]},
        hands={0: ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S"]},
    )
    assert done and all(a.startswith("discard") for a in done)


BROKE = "; ".join(
    [
        "turn: 1",
        "market: 4C 6D JH KH 9S 6S JS AS 4S",
        "hands: 2C 4C 9D 8H 2S 3S 5S 9S / 3C 8C 4H QH AS 3S 5S 10S",
        "certs: 10C 6S / 7C 10D 3H 6H",
        "cash: 126 / 0",
        "debts: 0 / 26",
        "bank: 4",
        "levies: 58",
        "draw: ...",
        "discard: ...",
        "jokers: draw",
    ]
)
"""Seat 1 to move, broke and in debt, in a game of $130 with a $7 levy: a plan of two
sales runs everybody out of money."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Fail, rather than hang, when the block takes longer than ``seconds``."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"still deciding after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("engine", ["reference", "native"])
def test_a_plan_stops_levying_when_nobody_has_money_left(engine: str) -> None:
    # The plan's repaid debts leave its bank, so a second sale could find the bank short
    # and every player broke; the levies used to go on for ever there.
    game = make_game(2, bank_money=0, starting_money=65, levy=7)
    state = game.state_from_position(BROKE)
    bot = CardStockMarketHeuristic(game, engine=engine)
    with _deadline(5.0):
        done = _turn(state, bot, seat=1)
    assert done and state.current_player == 0


# ---------------------------------------------------------------------- strength


def _wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


@pytest.mark.parametrize(("players", "seeds"), [(2, 12), (4, 6)])
def test_it_beats_random_bots_with_seats_rotated(players: int, seeds: int) -> None:
    game = make_game(players)
    heuristic = others = 0.0
    games = 0
    rng = random.Random(players)
    for seed in range(seeds):
        deal = rng.randrange(10**6)
        for at in range(players):
            bots: list[Bot] = [make_bot("random", game, seed * 10 + q) for q in range(players)]
            bots[at] = CardStockMarketHeuristic(game, seed)
            state, _ = _play(game, deal, bots)
            winners = state.winners()
            share = 1 / len(winners)
            heuristic += share * (at in winners)
            others += share * sum(q != at for q in winners)
            games += 1
    low, _ = _wilson(heuristic, games)
    _, high = _wilson(others / (players - 1), games)  # one random seat's win rate
    assert low > 1 / players, f"heuristic won {heuristic} of {games}"
    assert low > high
