"""Which engine a game's states are made on: the readable rules, or a faster one.

Every game's Python rules are the reference. A faster engine of the same rules (the
compiled ones of :mod:`closingbell.native`) can be registered for a game by name, without
this package knowing of it::

    from closingbell.core import engines
    engines.register("take_stock", compiled_module)

The doors that make states (``Game.new_game``, ``state_from_json``, ``state_from_position``
and ``sample_state``) then ask :func:`choose` which engine to use. Their ``engine`` keyword
is one of :data:`ENGINES`: ``auto`` (the default) takes the registered engine where there is
one and the reference otherwise (or always, after ``set_default(name, "reference")``),
``native`` takes the registered engine or raises ``RuntimeError``, and ``reference``
always takes the Python rules.

A registered engine must make states that answer the whole ``State`` API with the same
results and the same errors as the reference's, which its differential tests show.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from closingbell.core.info import GameInfo

ENGINES = ("auto", "native", "reference")
"""The engines a caller may ask for: the faster one if there is one (``auto``), the faster
one or an error (``native``), or the Python rules (``reference``)."""


class Named(Protocol):
    """What choosing an engine asks of a game (every ``Game`` is one): its facts."""

    @property
    def info(self) -> GameInfo:
        """The game's facts, its registered name and title among them."""


class Engine(Protocol):
    """What a faster engine of one game offers (a compiled module is one).

    Its states are ``closingbell.core.game.State`` objects; they are typed ``Any`` here,
    below the module that declares them.
    """

    def new_game(self, game: Any, seed: int) -> Any:
        """The state ``game.new_game(seed, engine="reference")`` deals, on this engine."""

    def from_state(self, reference: Any) -> Any:
        """The state of this engine equal to the reference state ``reference``."""

    def sample_state(self, game: Any, view: Any, rng: random.Random) -> Any:
        """The world the reference's ``sample_state`` deals, drawing the same numbers."""


_ENGINES: dict[str, Engine] = {}
"""The faster engine registered for each game that has one, by the game's registered name."""

_ON_REFERENCE: set[str] = set()
"""The games whose ``auto`` doors make the reference's states although a faster engine is
registered (:func:`set_default`)."""


def register(name: str, engine: Engine) -> None:
    """Make ``engine`` the faster engine of the game registered as ``name``."""
    _ENGINES[name] = engine


def unregister(name: str) -> None:
    """Take away the faster engine of the game ``name`` (its states are then the reference's)."""
    _ENGINES.pop(name, None)


def registered(name: str) -> Engine | None:
    """The faster engine registered for the game ``name``, or ``None``."""
    return _ENGINES.get(name)


def set_default(name: str, engine: str) -> None:
    """Set what ``auto`` means for the game ``name``, for the whole process.

    ``"auto"`` (as at first): its faster engine where one is registered; ``"reference"``:
    the Python rules. ``native`` still makes the faster engine's states either way.
    """
    if check(engine) == "native":
        raise ValueError("the default engine is 'auto' or 'reference', not 'native'")
    if engine == "reference":
        _ON_REFERENCE.add(name)
    else:
        _ON_REFERENCE.discard(name)


def default(name: str) -> str:
    """What ``auto`` means for the game ``name`` now: ``"auto"`` or ``"reference"``."""
    return "reference" if name in _ON_REFERENCE else "auto"


def check(engine: object) -> str:
    """``engine`` if it is one of :data:`ENGINES`; otherwise ``ValueError``."""
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    return engine


def not_built(what: str) -> RuntimeError:
    """The error for compiled code asked for where it is not built, with how to build it.

    ``what`` names the code, such as "the compiled engine of Take Stock".
    """
    return RuntimeError(
        f"{what} is not built (reinstall with a C compiler and Python's headers: pip install -e .)"
    )


def choose(game: Named, engine: str) -> Engine | None:
    """The engine to make ``game``'s states on under ``engine``; ``None`` for the reference.

    Raises ``ValueError`` for a name not in :data:`ENGINES`, and ``RuntimeError`` when
    ``native`` is asked for a game with no faster engine registered.
    """
    if check(engine) == "reference":
        return None
    name = game.info.name
    found = _ENGINES.get(name)
    if engine == "native":
        if found is None:
            raise not_built(f"the compiled engine of {game.info.title}")
        return found
    return None if name in _ON_REFERENCE else found
