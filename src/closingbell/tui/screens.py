"""Which screen draws each game in the terminal."""

from __future__ import annotations

import gettext
from collections.abc import Callable, Sequence

from closingbell.core.game import Game
from closingbell.tui.card_stock_market import CardStockMarketScreen
from closingbell.tui.screen import GameScreen
from closingbell.tui.take_stock import TakeStockScreen

ScreenFactory = Callable[[Game, Sequence[str], gettext.NullTranslations], GameScreen]
"""A screen class: ``Screen(game, names, tr)`` (see :class:`GameScreen`)."""

SCREENS: dict[str, ScreenFactory] = {
    "take_stock": TakeStockScreen,
    "card_stock_market": CardStockMarketScreen,
}
"""Each game that can be played in the terminal, by registered name, with its screen class."""


def screen_class(game_name: str) -> ScreenFactory | None:
    """The screen class of ``game_name``, or ``None`` when it has none yet."""
    return SCREENS.get(game_name)
