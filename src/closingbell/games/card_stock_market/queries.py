"""What several parts ask of a Card Stock Market position: the turn left, the moves, the money.

Each function reads what everyone sees (a turn's counters, a suit's price, its top card,
its strip) and the rules options, never a hidden card, and changes nothing. The rules
apply the answers to the state; bots, the narrator and the terminal ask the same
functions what a view's seat may still do, which number cards and face cards may move a
price, and whether a purchase is within the seat's means. The compiled engine
(``native/_card_stock_market.pyx``) holds the only other copy of these rules, and the
differential tests prove the two equal. The rules' ``legal_actions`` asks
:func:`turn_left` once, then checks each card of the hand against the conditions of
:func:`can_change`, :func:`can_raise` and :func:`can_buy` written out in its loop (a
call per card would cost the reference engine a tenth of its speed);
``tests/games/card_stock_market/test_queries.py`` proves the two agree.
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
    if phase == START:
        return C.MAX_TRADES - trades, C.MAX_CHANGES - changes, C.MAX_DISCARDS
    if phase == TRADE:
        return C.MAX_TRADES - trades, 0 if changes else C.MAX_CHANGES - changes, 0
    return 0 if trades or trade_first else C.MAX_TRADES - trades, C.MAX_CHANGES - changes, 0


def turn_over(phase: int, trades: int, changes: int, discards: int, trade_first: bool) -> bool:
    """Whether a turn whose counters stand so has nothing left (:func:`turn_left` all 0).

    It then ends by itself: the seat draws and the next turn begins. (Asked after every
    action, so it is worked out directly rather than through :func:`turn_left`.)
    """
    if phase == TRADE:
        return trades >= C.MAX_TRADES and changes > 0
    if phase == MARKET:
        return changes >= C.MAX_CHANGES and (trades > 0 or trade_first)
    return phase == OVER or (phase == DISCARD and discards >= C.MAX_DISCARDS)


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
