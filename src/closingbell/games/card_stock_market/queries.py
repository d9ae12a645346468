"""What several parts ask of a Card Stock Market position: the turn left, the moves, the money.

Each function reads what everyone sees (a turn's counters, a suit's price, its top card,
its strip) and the rules options, never a hidden card, and changes nothing. The rules
apply the answers to the state; bots, the narrator and the terminal ask the same
functions what a view's seat may still do, which number cards and face cards may move a
price, and whether a purchase is within the seat's means. The compiled engine
(``native/_card_stock_market.pyx``) holds the only other copy of these rules, and the
differential tests prove the two equal.
"""

from __future__ import annotations

from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.state import DISCARD, MARKET, OVER, START, TRADE


def turn_left(
    phase: int, trades: int, changes: int, discards: int, trade_first: bool
) -> tuple[int, int, int]:
    """What remains of a turn: transactions, market changes and discards left.

    ``phase`` is the pending decision (``START``, ``TRADE``, ``MARKET``, ``DISCARD`` or
    ``OVER`` of :mod:`~closingbell.games.card_stock_market.state`). Discarding replaces
    both parts of a turn; a part is over once the other has started, and trading also as
    soon as the market changes under ``phase_order="trade_first"``. The turn ends by
    itself when nothing is left.
    """
    if phase == OVER:
        return 0, 0, 0
    if phase == DISCARD:
        return 0, 0, C.MAX_DISCARDS - discards
    trading = phase != MARKET or (trades == 0 and not trade_first)
    market = phase != TRADE or changes == 0
    return (
        C.MAX_TRADES - trades if trading else 0,
        C.MAX_CHANGES - changes if market else 0,
        C.MAX_DISCARDS if phase == START else 0,
    )


def turn_over(phase: int, trades: int, changes: int, discards: int, trade_first: bool) -> bool:
    """Whether a turn whose counters stand so has nothing left (:func:`turn_left`).

    It then ends by itself: the seat draws and the next turn begins.
    """
    return not any(turn_left(phase, trades, changes, discards, trade_first))


def market_price(card: int) -> int:
    """The price a market change with ``card`` sets (a bankruptcy sets $0 instead).

    A number card's value, or $11, $12 or $13 for a jack, queen or king played as a raise.
    """
    return C.RANK_OF[card]


def can_change(
    rank: int, price: int, face_on_top: bool, rise: int, fall: int, *, same_price_change: bool
) -> bool:
    """Whether a number card of ``rank`` may be played on a suit at ``price``.

    Any number card may cover a face card; otherwise the move stays within the strip's
    ``rise`` and ``fall``, and must change the price unless ``same_price_change`` is set.
    """
    return face_on_top or (-fall <= rank - price <= rise and (rank != price or same_price_change))


def can_raise(rank: int, price: int, rise: int, face_raise_limited: bool) -> bool:
    """Whether a face card of ``rank`` may raise a suit at ``price`` (to ``rank`` dollars).

    The price must go up, and by no more than the strip's ``rise`` under
    ``face_raise_limited``.
    """
    return rank > price and (not face_raise_limited or rank - price <= rise)


def can_buy(held: int, cash: int, shares: int, price: int) -> bool:
    """Whether a seat holding ``held`` shares of a suit, with ``cash``, may buy ``shares`` more.

    It may hold no more than ``MAX_SHARES`` of one suit and pay no more than its cash.
    """
    return held + shares <= C.MAX_SHARES and shares * price <= cash
