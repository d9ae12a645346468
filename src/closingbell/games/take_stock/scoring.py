"""Take Stock's scoring: what each share scores, what each seat holds, a round's points.

The formulas are :mod:`closingbell.games.take_stock.queries`'; these apply them to a state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from closingbell.games.take_stock import queries

if TYPE_CHECKING:
    from closingbell.games.take_stock.state import TakeStockFields


def prices(st: TakeStockFields) -> list[int]:
    """The current price of each stock."""
    return [queries.price(row[-1], splits) for row, splits in zip(st.rows, st.splits, strict=True)]


def scoring_prices(st: TakeStockFields) -> list[int]:
    """What one share of each stock scores now (a frozen stock may score nothing)."""
    return queries.scoring_prices(prices(st), st.frozen, st.game.options)


def shares_held(st: TakeStockFields) -> list[list[int]]:
    """Each seat's shares of each stock in its certificates."""
    return [queries.shares_held(certs, st.shares) for certs in st.certs]


def score_round(st: TakeStockFields) -> list[int]:
    """Each seat's points for the certificates in front of it at the scoring prices now.

    That is what the round would give each seat if it ended with no option exercised.
    """
    at = scoring_prices(st)
    return [queries.worth(certs, at, st.shares) for certs in st.certs]
