"""What several parts ask of a Take Stock position: the Limit, prices, crashes, audits, worth.

Each function reads the market as everyone sees it (a row's cards, its splits, its freeze)
and the rules options, never a hidden card, and changes nothing. The rules apply the
answers to the state; a view carries those of the position it shows (``limit``,
``scoring_prices``, ``worth``); bots, the narrator and the lessons ask the same functions
what a raise, a crash or an audit would do to what a view shows. The compiled engine
(``native/_take_stock.pyx``) holds the only other copy of these rules, and the
differential tests prove the two equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.options import TakeStockOptions

_V = C.VALUES


def price(top: int, splits: int) -> int:
    """A stock's price: its top card times the multiplier, one more than its splits."""
    return top * (splits + 1)


def row_count(length: int, splits: int, frozen: bool, options: TakeStockOptions) -> int:
    """What a row of ``length`` cards counts for the Limit rule.

    Its cards and its splits count, and its freeze under the ``limit_counts_freeze`` option.
    """
    return length + splits + (1 if frozen and options.limit_counts_freeze else 0)


def limit(
    rows: Sequence[Sequence[int]],
    splits: Sequence[int],
    frozen: Sequence[bool],
    options: TakeStockOptions,
) -> int:
    """The Limit rule's bound: the most any row counts (:func:`row_count`).

    A seat may save a certificate on its turn only while it has fewer than this.
    """
    # row_count, written out: this runs for every legal-action list (tests/games/take_stock/
    # test_queries.py holds the two equal).
    freeze = 1 if options.limit_counts_freeze else 0
    return max(
        len(r) + n + (freeze if f else 0) for r, n, f in zip(rows, splits, frozen, strict=True)
    )


def scoring_price(price: int, frozen: bool, options: TakeStockOptions) -> int:
    """What one share of a stock at ``price`` scores (frozen scoring).

    A frozen stock scores nothing under ``frozen_scoring="zero"``, its price otherwise.
    """
    return 0 if frozen and options.frozen_scoring == "zero" else price


def scoring_prices(
    prices: Sequence[int], frozen: Sequence[bool], options: TakeStockOptions
) -> list[int]:
    """What one share of each stock scores (:func:`scoring_price`)."""
    # scoring_price, written out: every view carries these (tests/games/take_stock/
    # test_queries.py holds the two equal).
    if options.frozen_scoring != "zero":
        return list(prices)
    return [0 if f else p for p, f in zip(prices, frozen, strict=True)]


def can_raise(top: int, frozen: bool, value: int) -> bool:
    """Whether a card of ``value`` may be laid on a row whose top card is ``top``.

    The stock must not be frozen and the card must be higher, by ``MAX_RAISE`` at most.
    """
    return not frozen and top < value <= top + C.MAX_RAISE


def raisable(
    hand: Iterable[int], rows: Sequence[Sequence[int]], frozen: Sequence[bool]
) -> list[int]:
    """The share cards of ``hand`` that may be laid on their rows now (:func:`can_raise`)."""
    # can_raise, written out: this runs for every legal-action list (tests/games/take_stock/
    # test_queries.py holds the two equal).
    out = []
    for c in hand:
        s = c // _V
        if not frozen[s]:
            top = rows[s][-1]
            if top < c % _V + 1 <= top + C.MAX_RAISE:
                out.append(c)
    return out


def raised_price(cards: Sequence[int], splits: int, frozen: bool, value: int) -> int | None:
    """The price a raise of this row to ``value`` gives, or ``None`` if it may not be laid."""
    if not can_raise(cards[-1], frozen, value):
        return None
    return price(value, splits)


def crash_keeps(length: int, options: TakeStockOptions) -> int:
    """How many of a row's ``length`` cards a crash leaves.

    Half the row goes, rounded down: half of all its cards with the 1 counted
    (``crash_counts_one``), which is never removed, or half of the cards above the 1.
    """
    counted = length if options.crash_counts_one else length - 1
    return length - counted // 2


def crashed(cards: Sequence[int], splits: int, options: TakeStockOptions) -> tuple[int, int]:
    """The top card and the splits a crash leaves a row with (its freeze goes too)."""
    return cards[crash_keeps(len(cards), options) - 1], max(0, splits - 1)


def split(cards: Sequence[int], splits: int) -> tuple[int, int]:
    """The top card and the splits a split leaves an unfrozen row with.

    The top card goes to the discard pile (never the 1) and the split joins the row.
    """
    return (cards[-2] if len(cards) > 1 else cards[-1]), splits + 1


def audits(cards: Sequence[int], splits: int) -> tuple[tuple[int, int] | None, ...]:
    """The top card and splits each kind of audit leaves a row with.

    First the top card removed (never the 1), then one split removed; ``None`` where the
    row has nothing of that kind to remove.
    """
    card = (cards[-2], splits) if len(cards) > 1 else None
    one_split = (cards[-1], splits - 1) if splits > 0 else None
    return card, one_split


def card_worth(card: int, prices: Sequence[int], shares: Sequence[int]) -> int:
    """What share card ``card`` scores as a certificate at ``prices``.

    ``shares`` holds the shares per card value, as ``TakeStock.shares``.
    """
    return shares[card % _V + 1] * prices[card // _V]


def worth(certs: Iterable[int], prices: Sequence[int], shares: Sequence[int]) -> int:
    """What the certificates ``certs`` score together at ``prices``."""
    return sum([shares[c % _V + 1] * prices[c // _V] for c in certs])


def shares_held(certs: Iterable[int], shares: Sequence[int]) -> list[int]:
    """The shares of each stock that the certificates ``certs`` hold."""
    held = [0] * C.NUM_STOCKS
    for c in certs:
        held[c // _V] += shares[c % _V + 1]
    return held
