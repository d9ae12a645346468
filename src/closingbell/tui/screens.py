"""Which screen draws each game in the terminal."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from closingbell.core.game import Game
from closingbell.text.card_stock_market import CardStockMarketNarrator
from closingbell.text.take_stock import TakeStockNarrator
from closingbell.tui.card_stock_market import CardStockMarketScreen
from closingbell.tui.screen import GameScreen
from closingbell.tui.take_stock import TakeStockScreen

ScreenFactory = Callable[[Game, Sequence[str], str], GameScreen]
"""Makes a game's screen: ``factory(game, names, lang)``."""


def _take_stock(game: Game, names: Sequence[str], lang: str) -> GameScreen:
    return TakeStockScreen(TakeStockNarrator(game, names, lang))


def _card_stock_market(game: Game, names: Sequence[str], lang: str) -> GameScreen:
    return CardStockMarketScreen(CardStockMarketNarrator(game, names, lang))


SCREENS: dict[str, ScreenFactory] = {
    "take_stock": _take_stock,
    "card_stock_market": _card_stock_market,
}
"""Each game that can be played in the terminal, by registered name, with its screen."""


def screen_class(game_name: str) -> ScreenFactory | None:
    """What makes the screen of ``game_name``, or ``None`` when it has none yet."""
    return SCREENS.get(game_name)
