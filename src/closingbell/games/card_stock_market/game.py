"""The Card Stock Market game object: options, metadata and the factory of states."""

from __future__ import annotations

import random
from typing import Any

from closingbell.core.game import Game
from closingbell.core.info import GameInfo
from closingbell.core.options import build_options
from closingbell.core.rng import check_seed
from closingbell.core.view import View
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market.options import CardStockMarketOptions
from closingbell.games.card_stock_market.position import read_position
from closingbell.games.card_stock_market.rules import new_state
from closingbell.games.card_stock_market.state import CardStockMarketState
from closingbell.games.card_stock_market.views import CardStockMarketView, sample_state


class CardStockMarket(Game):
    """Card Stock Market (Sid Sackson) for 2 to 6 players, with validated rules options."""

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
    state_class = CardStockMarketState

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

    def new_game(self, seed: int) -> CardStockMarketState:
        """Set up a new game whose every shuffle follows from ``seed``."""
        return new_state(self, check_seed(seed))

    def state_from_position(self, text: str) -> CardStockMarketState:
        """The state a position's text describes (see ``docs/positions.md``).

        Raises :class:`~closingbell.core.errors.PositionError`, naming the field and the
        reason, when the text is malformed or the position impossible. The state starts a
        history of its own (``from_deal`` is false; history and log are empty), and its
        seed is the position's ``seed`` field, so options, position and actions replay it.
        """
        return read_position(self, text)

    def sample_state(self, view: View, rng: random.Random) -> CardStockMarketState:
        """A full state giving ``view`` to its seat; hidden cards are dealt with ``rng``."""
        if not isinstance(view, CardStockMarketView):
            raise TypeError("sample_state needs a Card Stock Market view")
        return sample_state(self, view, rng)

    def action_to_string(self, action: int) -> str:
        """The text form of ``action``, such as ``buy 7S``."""
        return A.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id named by ``text``."""
        return A.string_to_action(text)
