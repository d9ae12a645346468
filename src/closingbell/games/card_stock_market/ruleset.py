"""Card Stock Market's rules with fixed options: metadata, options and what follows from them.

This is the part of the game object that the rules, the views and the positions read
(``state.game``). The factory of states that binds them, :class:`~.game.CardStockMarket`,
derives from it at the top of the package, so that no module below needs the one above.
"""

from __future__ import annotations

from typing import Any

from closingbell.core.game import Game
from closingbell.core.info import GameInfo
from closingbell.core.options import build_options
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market.options import CardStockMarketOptions


class CardStockMarketRuleset(Game):
    """A Card Stock Market game's metadata and options, without its factory of states."""

    info = GameInfo(
        name="card_stock_market",
        title="Card Stock Market",
        min_players=2,
        max_players=6,
        num_distinct_actions=A.NUM_ACTIONS,
        version=2,
        # Version 1 allowed a market change that changed nothing, before the options
        # below existed (docs/rules/card-stock-market.md, "Rules versions").
        older_versions={1: {"same_price_change": True, "phase_order": "either"}},
    )
    options: CardStockMarketOptions

    def __init__(self, **options: Any) -> None:
        self.options = build_options(CardStockMarketOptions, options)
        opts = self.options
        self.rise: tuple[int, ...] = opts.strip[0::2]
        """The strip's largest rise per card, by suit."""
        self.fall: tuple[int, ...] = opts.strip[1::2]
        """The strip's largest fall per card, by suit."""
        self.bank_limited: bool = opts.bank_money is not None
        """Whether the bank can run short (and levies happen)."""
        self.immediate_repay: bool = opts.debt_repayment == "immediate"
        """Whether money received goes to a debt before it reaches the debtor's hands."""
        self.bankrupt_free: bool = opts.bankrupt_buying == "free"
        """Whether a bankrupt suit may be bought at $0."""
        self.same_suit_trades: bool = opts.same_suit_trades
        """Whether one turn may buy and sell the same suit."""
        self.face_raise_limited: bool = opts.face_raise_limited
        """Whether a face card's raise must respect the strip."""
        self.trade_first: bool = opts.phase_order == "trade_first"
        """Whether trading is over once the market has changed in a turn."""
        self.same_price_change: bool = opts.same_price_change
        """Whether a market change may leave the market as it was."""

    def action_to_string(self, action: int) -> str:
        """The text form of ``action``, such as ``buy 7S``."""
        return A.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id named by ``text``."""
        return A.string_to_action(text)
