"""Bots: players that see only their seat's view.

``make_bot(name, game, seed=..., **params)`` builds one: ``random``; ``heuristic`` (a
rule-based player written for each game); ``ismcts`` (information-set Monte Carlo tree
search); or a level, ``easy``, ``medium``, ``hard`` or ``expert``, which names settings of
those.
"""

from __future__ import annotations

from typing import Any

from closingbell.bots.base import HEURISTICS, Bot, HeuristicBot, RandomBot, heuristic_class
from closingbell.bots.ismcts import STRONG, ISMCTSBot
from closingbell.core.game import Game

LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("heuristic", {"epsilon": 0.5}),
    "medium": ("heuristic", {"epsilon": 0.15}),
    "hard": ("heuristic", {"epsilon": 0.0}),
    "expert": ("ismcts", {**STRONG, "seconds": 1.0}),
}
"""Each level's bot kind and settings, ordered by measured strength (docs/bots.md): the
first three are the rule-based bot with less and less randomness; ``expert`` is the paired
search, which spends up to a second on each decision."""

GAME_LEVELS: dict[tuple[str, str], dict[str, Any]] = {
    ("expert", "take_stock"): {"max_playout": 120},
}
"""Where a level plays one game with settings of its own, over those of ``LEVELS``: the
Take Stock expert plays its play-outs to the round's end (docs/bots.md, *At one second a
decision*)."""

TABLE_LEVELS: dict[tuple[str, str, int], dict[str, Any]] = {
    ("expert", "card_stock_market", players): {"candidates": 8} for players in (4, 5, 6)
}
"""Where a level plays one game at one number of players with settings of its own, over
those of ``LEVELS`` and ``GAME_LEVELS``: the Card Stock Market expert at four players or
more compares eight of the rule-based bot's choices, not three (docs/bots.md, *Four and six
players*)."""

KINDS = ("random", "heuristic", "ismcts")
"""The kinds of bot, besides the levels."""


def available_bots() -> list[str]:
    """The names ``make_bot`` accepts."""
    return [*KINDS, *LEVELS]


def searches(name: str) -> bool:
    """Whether bot ``name`` (a kind or a level) searches for up to a time budget a move."""
    kind = LEVELS[name][0] if name in LEVELS else name
    return kind == "ismcts" and ISMCTSBot.searches


def bot_class(name: str, game: Game) -> type[Bot]:
    """The class of bot ``name`` for ``game``."""
    if name == "random":
        return RandomBot
    if name == "heuristic":
        return heuristic_class(game)
    if name == "ismcts":
        return ISMCTSBot
    raise ValueError(f"unknown bot {name!r} (known: {', '.join(available_bots())})")


def make_bot(name: str, game: Game, seed: int = 0, **params: Any) -> Bot:
    """A bot of kind or level ``name`` playing ``game``; ``params`` adjust its settings."""
    if name in LEVELS:
        kind, settings = LEVELS[name]
        params = {
            **settings,
            **GAME_LEVELS.get((name, game.info.name), {}),
            **TABLE_LEVELS.get((name, game.info.name, game.players), {}),
            **params,
        }
    else:
        kind = name
    cls = bot_class(kind, game)
    try:
        bot = cls(game, seed, **params)
    except TypeError as exc:
        raise ValueError(f"bad settings for bot {name!r}: {exc}") from None
    bot.name = name
    return bot


__all__ = [
    "HEURISTICS",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "available_bots",
    "heuristic_class",
    "make_bot",
    "searches",
]
