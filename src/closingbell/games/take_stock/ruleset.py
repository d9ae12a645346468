"""Take Stock's rules with fixed options: metadata, options and what follows from them.

This is the part of the game object that the rules, the views and the positions read
(``state.game``). The factory of states that binds them, :class:`~.game.TakeStock`,
derives from it at the top of the package, so that no module below needs the one above.
"""

from __future__ import annotations

from typing import Any

from closingbell.core.game import Game
from closingbell.core.info import GameInfo
from closingbell.core.options import build_options
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock.options import TakeStockOptions


class TakeStockRuleset(Game):
    """A Take Stock game's metadata and options, without its factory of states."""

    info = GameInfo(
        name="take_stock",
        title="Take Stock",
        min_players=2,
        max_players=6,
        num_distinct_actions=A.NUM_ACTIONS,
        version=1,
    )
    options: TakeStockOptions

    def __init__(self, **options: Any) -> None:
        self.options = build_options(TakeStockOptions, options)
        self.shares: tuple[int, ...] = (0, 0, *self.options.shares_table)
        """Shares per card, indexed by the card's value (the 1s hold none)."""
        self.last_card_rule: bool = self.options.empty_draw == "last_card"
        """Whether the share pile is reshuffled as soon as its last card is drawn."""

    def action_to_string(self, action: int) -> str:
        """The text form of ``action``, such as ``raise Oil 7``."""
        return A.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id named by ``text``."""
        return A.string_to_action(text)
