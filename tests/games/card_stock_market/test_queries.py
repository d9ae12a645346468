"""The rules' queries: what remains of a turn, the market moves and purchases, against the rules."""

from __future__ import annotations

import itertools
import random

import pytest

from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market import queries
from closingbell.games.card_stock_market.game import CardStockMarketState
from closingbell.games.card_stock_market.state import DISCARD, MARKET, OVER, START, TRADE

from .craft import make_game

OPTION_SETS = (
    {},
    {"strip": "graded", "face_raise_limited": True},
    {"phase_order": "trade_first", "same_price_change": True},
    {"same_suit_trades": False, "bankrupt_buying": "free", "strip": "graded"},
)


def test_turn_left_by_decision() -> None:
    assert queries.turn_left(START, 0, 0, 0, False) == (2, 2, 4)
    assert queries.turn_left(TRADE, 1, 0, 0, False) == (1, 2, 0)
    assert queries.turn_left(TRADE, 1, 1, 0, False) == (1, 0, 0)
    assert queries.turn_left(MARKET, 0, 1, 0, False) == (2, 1, 0)
    assert queries.turn_left(MARKET, 0, 1, 0, True) == (0, 1, 0)
    assert queries.turn_left(MARKET, 1, 1, 0, False) == (0, 1, 0)
    assert queries.turn_left(DISCARD, 0, 0, 3, False) == (0, 0, 1)
    assert queries.turn_left(OVER, 0, 0, 0, False) == (0, 0, 0)


def test_a_turn_is_over_exactly_when_nothing_is_left() -> None:
    counters = range(C.MAX_DISCARDS + 1)
    for phase, trades, changes, discards, first in itertools.product(
        (START, TRADE, MARKET, DISCARD, OVER), range(3), range(3), counters, (False, True)
    ):
        left = queries.turn_left(phase, trades, changes, discards, first)
        assert queries.turn_over(phase, trades, changes, discards, first) == (not any(left))


def test_moves_on_the_strip() -> None:
    # $5 with a strip of +3/-2: 3 to 8, the price itself only when it may stay.
    allowed = [
        r for r in range(1, 11) if queries.can_change(r, 5, False, 3, 2, same_price_change=False)
    ]
    assert allowed == [3, 4, 6, 7, 8]
    assert queries.can_change(5, 5, False, 3, 2, same_price_change=True)
    assert all(queries.can_change(r, 12, True, 3, 2, same_price_change=False) for r in range(1, 11))
    assert queries.can_raise(13, 9, 3, False) and not queries.can_raise(13, 9, 3, True)
    assert not queries.can_raise(11, 11, 3, False)
    assert queries.market_price(C.kind(0, 12)) == 12 and queries.market_price(C.kind(2, 7)) == 7


def test_purchases_within_the_cap_and_the_cash() -> None:
    assert queries.can_buy(7, 25, 5, 5)
    assert not queries.can_buy(8, 100, 5, 1)
    assert not queries.can_buy(0, 24, 5, 5)


def _market_ok(st: CardStockMarketState, card: int) -> bool:
    """Whether the queries allow ``card`` played to the market now (changes left aside)."""
    s, r = C.suit_of(card), C.rank_of(card)
    game, price = st.game, st.prices[s]
    if r <= 10:
        face_on_top = C.rank_of(st.piles[s][-1]) > 10
        return queries.can_change(
            r,
            price,
            face_on_top,
            game.rise[s],
            game.fall[s],
            same_price_change=game.same_price_change,
        )
    return queries.can_raise(r, price, game.rise[s], game.face_raise_limited)


def _buy_ok(st: CardStockMarketState, p: int, card: int) -> bool:
    """Whether the queries and the options allow buying ``card`` now (trades left aside)."""
    s = C.suit_of(card)
    price = st.prices[s]
    sold_it = not st.game.same_suit_trades and (st.sold >> s) & 1
    return (
        queries.can_buy(st.held[p][s], st.cash[p], C.SHARES[card], price)
        and (price > 0 or st.game.bankrupt_free)
        and not sold_it
    )


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_legal_actions_follow_the_queries(options: dict[str, object]) -> None:
    """The rules' legal actions check the queries' conditions inline (the hot path): equal."""
    game = make_game(3, **options)
    rng = random.Random(7)
    for seed in range(3):
        st = game.new_game(seed)
        while not st.is_terminal():
            p = st.cur
            assert p is not None
            legal = set(st.legal_actions())
            trades, changes, discards = queries.turn_left(
                st.phase, st.trades, st.changes, st.discards, game.trade_first
            )
            assert (A.DISCARD + st.hands[p][0] in legal) == bool(discards)
            for card in set(st.hands[p]):
                assert (A.MARKET + card in legal) == (bool(changes) and _market_ok(st, card))
                assert (A.BUY + card in legal) == (bool(trades) and _buy_ok(st, p, card))
            st.apply(rng.choice(sorted(legal)))
