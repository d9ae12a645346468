"""The Take Stock game object: options, metadata and the factory of states."""

from __future__ import annotations

import random
from typing import Any

from closingbell.core.game import Game
from closingbell.core.info import GameInfo
from closingbell.core.options import build_options
from closingbell.core.rng import check_seed
from closingbell.core.view import View
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock.options import TakeStockOptions
from closingbell.games.take_stock.position import read_position
from closingbell.games.take_stock.rules import new_state
from closingbell.games.take_stock.state import TakeStockState
from closingbell.games.take_stock.views import TakeStockView, sample_state


class TakeStock(Game):
    """Take Stock (Simon Hunt, 2006) for 2 to 6 players, with validated rules options."""

    info = GameInfo(
        name="take_stock",
        title="Take Stock",
        min_players=2,
        max_players=6,
        num_distinct_actions=A.NUM_ACTIONS,
        version=1,
    )
    options: TakeStockOptions
    state_class = TakeStockState

    def __init__(self, **options: Any) -> None:
        self.options = build_options(TakeStockOptions, options)
        self.shares: tuple[int, ...] = (0, 0, *self.options.shares_table)
        """Shares per card, indexed by the card's value (the 1s hold none)."""
        self.last_card_rule: bool = self.options.empty_draw == "last_card"
        """Whether the share pile is reshuffled as soon as its last card is drawn."""

    def new_game(self, seed: int) -> TakeStockState:
        """Deal a new game whose every shuffle follows from ``seed``."""
        return new_state(self, check_seed(seed))

    def state_from_position(self, text: str) -> TakeStockState:
        """The state a position describes (``docs/positions.md``); raises ``PositionError``.

        Fields left out take their defaults. The state has an empty history and log and
        ``from_deal`` false; later shuffles follow from its ``seed`` field.
        """
        return read_position(self, text)

    def sample_state(self, view: View, rng: random.Random) -> TakeStockState:
        """A full state giving ``view`` to its seat; hidden cards are drawn with ``rng``."""
        if not isinstance(view, TakeStockView):
            raise TypeError("sample_state needs a Take Stock view")
        return sample_state(self, view, rng)

    def action_to_string(self, action: int) -> str:
        """The text form of ``action``, such as ``raise Oil 7``."""
        return A.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id named by ``text``."""
        return A.string_to_action(text)
