"""The Card Stock Market heuristic plans by the readings the options choose: no trade after
a market change with ``phase_order="trade_first"``, and no change that changes nothing
unless ``same_price_change`` allows it."""

from __future__ import annotations

from typing import Any

import pytest

from closingbell.bots.card_stock_market import (
    _BANKRUPT,
    _BUY,
    _CHANGE,
    _SELL,
    CardStockMarketHeuristic,
    _Planner,
)
from tests.games.card_stock_market.craft import craft, make_game, play

SPADES = 3


def _moves(st: Any) -> list[tuple[int, int, int]]:
    """The (kind, suit, rank) of every move the heuristic's planner considers for seat 0."""
    bot = CardStockMarketHeuristic(st.game, seed=0)
    planner = _Planner(bot, st.view(0))
    return [(kind, s, r) for _, kind, s, r in planner.moves(planner.root)]


@pytest.mark.parametrize(("order", "trades"), [("either", True), ("trade_first", False)])
def test_after_a_market_change_trades_are_planned_only_when_the_order_allows(
    order: str, trades: bool
) -> None:
    st = craft(
        make_game(3, phase_order=order),
        piles={"D": ["6D"], "S": ["4S"]},
        hands={0: ["7D", "QD", "2S", "3S", "10C", "AH", "KH", "5H"]},
        certs={0: ["9C"]},
    )
    play(st, "market 7D")
    kinds = {kind for kind, _, _ in _moves(st)}
    assert (bool(kinds & {_BUY, _SELL})) is trades
    assert _CHANGE in kinds


@pytest.mark.parametrize("same", [False, True])
def test_changes_that_change_nothing_are_planned_only_when_allowed(same: bool) -> None:
    st = craft(
        make_game(3, same_price_change=same),
        piles={"S": ["4S", "7S"], "H": ["5H", "QH"]},
        bankrupt=["H"],
        hands={0: ["7S", "8S", "JH", "2D", "3D", "4D", "5D", "6D"]},
    )
    moves = _moves(st)
    assert ((_CHANGE, SPADES, 7) in moves) is same
    assert ((_BANKRUPT, 2, 11) in moves) is same  # hearts at $0, nobody holds any
    assert (_CHANGE, SPADES, 8) in moves
    legal = set(st.legal_actions())
    bot = CardStockMarketHeuristic(st.game, seed=0)
    assert bot.pick(st.view(0), tuple(sorted(legal))) in legal
