"""The position notation: every reachable state round-trips, and impossible ones are refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from closingbell import PositionError
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.card_stock_market.state import CardStockMarketState

from .craft import make_game

# The fields the notation covers, as the state holds them.
COVERED = (
    "n",
    "seed",
    "dealer",
    "turn",
    "turns",
    "cur",
    "phase",
    "piles",
    "busted",
    "prices",
    "hands",
    "certs",
    "held",
    "cash",
    "debt",
    "bank",
    "levies",
    "draw",
    "discard",
    "jokers_out",
    "joker_by",
    "reshuffled",
    "trades",
    "sales",
    "changes",
    "discards",
    "bought",
    "sold",
)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"bank_money": None},
    {"debt_repayment": "end_of_turn", "bank_money": 0, "starting_money": 100},
    {"same_suit_trades": False, "bankrupt_buying": "forbidden"},
    {"face_raise_limited": True, "strip": [1, 1, 2, 2, 4, 4, 5, 5], "ace_at_setup": False},
    {"bank_money": 0, "starting_money": 100, "levy": 30},
]


def assert_same_position(s: CardStockMarketState, t: CardStockMarketState) -> None:
    """``t`` agrees with ``s`` on every field the notation covers and on what follows."""
    for name in COVERED:
        assert getattr(t, name) == getattr(s, name), f"field {name!r} differs"
    assert t.legal_actions() == s.legal_actions()
    assert t.current_player == s.current_player
    assert t.decision == s.decision
    assert t.scores() == s.scores()


def round_trip(game: CardStockMarket, s: CardStockMarketState) -> CardStockMarketState:
    """Write ``s``, read it back, and check the copy; return it."""
    text = s.to_position()
    t = game.state_from_position(text)
    assert t.to_position() == text
    assert_same_position(s, t)
    assert not t.from_deal and t.history == [] and t.log == []
    t.check_invariants()
    return t


def _play_on(
    game: CardStockMarket, s: CardStockMarketState, t: CardStockMarketState, rng: random.Random
) -> bool:
    """Apply the same random actions to both; return whether a reshuffle happened on the way."""
    crossed = False
    for _ in range(40):
        if s.is_terminal():
            break
        action = rng.choice(s.legal_actions())
        before = s.reshuffled
        s.apply(action)
        t.apply(action)
        t.check_invariants()
        crossed |= s.reshuffled and not before
        assert t.to_position() == s.to_position()
    return crossed


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_every_state_of_random_play_round_trips(players: int, options: dict[str, Any]) -> None:
    game = make_game(players, **options)
    rng = random.Random(players * 100 + len(options))
    crossed = 0
    for seed in range(2):
        s = game.new_game(seed)
        step = 0
        while True:
            t = round_trip(game, s)
            near_reshuffle = not s.reshuffled and len(s.draw) <= 6
            if step % 25 == 0 or (near_reshuffle and rng.random() < 0.3):
                crossed += _play_on(game, s.clone(), t, random.Random(step))
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
            step += 1
    assert crossed, "no continuation crossed the reshuffle"


def test_a_short_position_fills_in_the_rest() -> None:
    game = make_game(3)
    st = game.state_from_position("market: 9S; hands: 4S 6S JS QS KS 2S AS 10S / ... / ...")
    assert st.prices == [5, 5, 5, 9]
    assert st.current_player == 0 and st.dealer == 2 and st.decision == "turn"
    with pytest.raises(PositionError) as err:
        game.state_from_position("market: 9S 4S")
    assert err.value.field == "market"
