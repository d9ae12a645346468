"""Bots: players that see only their seat's view.

``make_bot(name, game, seed=..., **params)`` builds one: ``random``; ``heuristic`` (a
rule-based player written for each game); ``ismcts`` (information-set Monte Carlo tree
search); or a level, ``easy``, ``medium`` or ``hard``, which names settings of those.
"""

from __future__ import annotations

import importlib
from typing import Any

from closingbell.bots.base import Bot, HeuristicBot, RandomBot
from closingbell.bots.ismcts import ISMCTSBot
from closingbell.core.game import Game

HEURISTICS: dict[str, str] = {
    "take_stock": "closingbell.bots.take_stock:TakeStockHeuristic",
    "card_stock_market": "closingbell.bots.card_stock_market:CardStockMarketHeuristic",
}
"""The rule-based bot of each game, as ``module:Class``."""

LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("heuristic", {"epsilon": 0.3}),
    "medium": ("ismcts", {"seconds": 0.25}),
    "hard": ("ismcts", {"seconds": 1.0}),
}
"""Each level's bot kind and settings."""

KINDS = ("random", "heuristic", "ismcts")
"""The kinds of bot, besides the levels."""


def available_bots() -> list[str]:
    """The names ``make_bot`` accepts."""
    return [*KINDS, *LEVELS]


def bot_class(name: str, game: Game) -> type[Bot]:
    """The class of bot ``name`` for ``game``."""
    if name == "random":
        return RandomBot
    if name == "heuristic":
        target = HEURISTICS.get(game.info.name)
        if target is None:
            raise ValueError(f"no heuristic bot is written for {game.info.name!r}")
        module, _, attr = target.partition(":")
        cls: type[Bot] = getattr(importlib.import_module(module), attr)
        return cls
    if name == "ismcts":
        return ISMCTSBot
    raise ValueError(f"unknown bot {name!r} (known: {', '.join(available_bots())})")


def make_bot(name: str, game: Game, seed: int = 0, **params: Any) -> Bot:
    """A bot of kind or level ``name`` playing ``game``; ``params`` adjust its settings."""
    if name in LEVELS:
        kind, settings = LEVELS[name]
        params = {**settings, **params}
    else:
        kind = name
    cls = bot_class(kind, game)
    try:
        bot = cls(game, seed, **params)
    except TypeError as exc:
        raise ValueError(f"bad settings for bot {name!r}: {exc}") from None
    bot.name = name
    return bot


__all__ = ["Bot", "HeuristicBot", "RandomBot", "available_bots", "make_bot"]
