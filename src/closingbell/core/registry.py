"""The registry of games: names to the classes that implement them."""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from closingbell.core.errors import UnknownGameError
from closingbell.core.game import Game

_BUILTIN: dict[str, str] = {
    "take_stock": "closingbell.games.take_stock:TakeStock",
    "card_stock_market": "closingbell.games.card_stock_market:CardStockMarket",
}
_LOADED: dict[str, type[Game]] = {}


def register_game(name: str, cls: type[Game]) -> None:
    """Register ``cls`` under ``name`` (replacing an earlier class of that name)."""
    _LOADED[name] = cls


def available_games() -> list[str]:
    """The names of all registered games, sorted."""
    return sorted(set(_BUILTIN) | set(_LOADED))


def game_class(name: str) -> type[Game]:
    """Return the class registered as ``name``."""
    if name in _LOADED:
        return _LOADED[name]
    if name not in _BUILTIN:
        known = ", ".join(available_games())
        raise UnknownGameError(f"unknown game {name!r} (known games: {known})")
    module_name, _, attr = _BUILTIN[name].partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    _LOADED[name] = cls
    return cls  # type: ignore[no-any-return]


def load_game(name: str, **options: Any) -> Game:
    """Return the game ``name`` with the given rules options (``players`` among them)."""
    return game_class(name)(**options)


def default_players(name: str) -> int:
    """The number of seats the game ``name`` is played with when nobody says otherwise.

    It is the default of the game's ``players`` option (3 for Take Stock, 4 for Card Stock
    Market), for front ends that take no player count, such as ``gym.make`` with no arguments.
    """
    options = load_game(name, players=game_class(name).info.min_players).options
    fields = {f.name: f.default for f in dataclasses.fields(options)}
    players = fields.get("players")
    if not isinstance(players, int):  # pragma: no cover (every game's options have players)
        raise TypeError(f"{name}'s options give no default number of players")
    return players
