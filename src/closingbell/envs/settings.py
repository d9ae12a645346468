"""The keywords every adapter takes alike: the game and its options, and ``max_steps``."""

from __future__ import annotations

from typing import Any

from closingbell.core.game import Game
from closingbell.core.registry import default_players, load_game


def game_of(game: str | Game, players: int | None, options: dict[str, Any]) -> Game:
    """``game`` itself, or the game of that name with ``players`` seats and ``options``.

    ``players`` ``None`` stands for the game's default player count.
    """
    if isinstance(game, Game):
        if (players is not None and players != game.players) or options:
            raise ValueError("pass either a Game or a name with players and options")
        return game
    options["players"] = default_players(game) if players is None else players
    return load_game(game, **options)


def check_max_steps(max_steps: int | None) -> int | None:
    """Return ``max_steps`` if it is a positive number of actions or ``None``, else raise."""
    if max_steps is not None and max_steps < 1:
        raise ValueError("max_steps must be a positive number of actions, or None")
    return max_steps
