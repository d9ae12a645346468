"""closingbell's compiled engines, and the pure-Python fallback where they are not built.

The readable Python rules in :mod:`closingbell.games` are the reference. The modules here
are the same rules compiled with Cython for speed, built by ``pip install`` (``setup.py``)
and proven equal to the reference by differential tests, state by state
(:mod:`closingbell.native.differential`). Where a module could not be compiled, everything
here falls back to the reference, so callers never need to care which engine they got::

    from closingbell import native
    state = native.new_game(game, seed=7)        # compiled if built, else the reference
    state = native.new_game(game, 7, engine="reference")

A native state answers the whole :class:`~closingbell.core.game.State` API with the same
results and the same errors as the reference state it mirrors, and reads its fields (as
fresh copies: changing them changes nothing). ``state.to_reference()`` gives the equal
reference state; :func:`from_state` goes the other way.

Bots use compiled modules too: ``_take_stock_bot`` is the rule-based Take Stock bot's
decision procedure, which :class:`~closingbell.bots.take_stock.TakeStockHeuristic` calls
itself when it is built (its ``engine`` keyword), with the same choices as its Python
(``_card_stock_market_bot`` likewise). Searches use the engines and bots together:
``sample_state`` of each game's engine deals a possible world from a view, the reference
sampler's world with the same numbers drawn from the search's generator, and ``playout``
of each game's bot plays the rule-based bot for every seat of a compiled world in C,
without views (:class:`~closingbell.bots.ismcts.ISMCTSBot` finds both).

Importing this package (``import closingbell`` does) makes each game's compiled engine the
default of the game's own doors, registered with :mod:`closingbell.core.engines`:
``game.new_game(seed)``, ``state_from_json``, ``state_from_position`` and ``sample_state``
give compiled states unless asked for ``engine="reference"`` (:func:`front_door` switches
a game back and forth). It also plugs the compiled serialization of each game into the core:
its codec (``_take_stock_serial``, ``_card_stock_market_serial``), which writes
``to_json`` and reads ``state_from_json`` in C with the reference's texts, states and
refusals (:func:`closingbell.core.serial.register_codec`), and its replay of a dealt
game's whole history on the compiled engine (:func:`closingbell.core.replay.register`).
:func:`serialization` switches both off and on again, to compare them with the Python.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from closingbell.core import engines, replay, serial
from closingbell.core.game import Game, State

ENGINES = engines.ENGINES
"""The engines callers may ask for: the compiled one if built (``auto``), the compiled one
or an error (``native``), or the Python rules (``reference``)."""

MODULES: dict[str, str] = {
    "_random": "closingbell.native._random",
    "_search": "closingbell.native._search",
    "_serial": "closingbell.native._serial",
    "_card_stock_market": "closingbell.native._card_stock_market",
    "_card_stock_market_bot": "closingbell.native._card_stock_market_bot",
    "_card_stock_market_serial": "closingbell.native._card_stock_market_serial",
    "_take_stock": "closingbell.native._take_stock",
    "_take_stock_bot": "closingbell.native._take_stock_bot",
    "_take_stock_serial": "closingbell.native._take_stock_serial",
    "_vector": "closingbell.native._vector",
}
"""Every compiled module, by short name."""

GAME_MODULES: dict[str, str] = {
    "card_stock_market": "_card_stock_market",
    "take_stock": "_take_stock",
}
"""The compiled engine of each game that has one, by the game's registered name."""

BOT_MODULES: dict[str, str] = {
    "card_stock_market": "_card_stock_market_bot",
    "take_stock": "_take_stock_bot",
}
"""The compiled rule-based bot of each game that has one, by the game's registered name."""

SERIAL_MODULES: dict[str, str] = {
    "card_stock_market": "_card_stock_market_serial",
    "take_stock": "_take_stock_serial",
}
"""The compiled serialization (codec and replay) of each game that has one, by name."""


def module(name: str) -> ModuleType | None:
    """The compiled module ``name`` (such as ``"_random"``), or ``None`` if it is not built."""
    try:
        return importlib.import_module(MODULES[name])
    except ImportError:
        return None


def built() -> dict[str, bool]:
    """Whether each compiled module is built and importable."""
    return {name: module(name) is not None for name in MODULES}


def engine_module(game: Game | str) -> ModuleType | None:
    """The compiled engine of ``game`` (a game or its name), or ``None`` if there is none."""
    name = game if isinstance(game, str) else game.info.name
    short = GAME_MODULES.get(name)
    return module(short) if short is not None else None


def available(game: Game | str | None = None) -> bool:
    """Whether ``game`` (default: every game that has one) has its compiled engine built."""
    if game is None:
        return all(module(short) is not None for short in GAME_MODULES.values())
    return engine_module(game) is not None


def _choose(engine: str, find: Callable[[], ModuleType | None], what: str) -> ModuleType | None:
    """The compiled module ``find`` gives for ``engine``, or ``None`` for the reference."""
    if engines.check(engine) == "reference":
        return None
    compiled = find()
    if compiled is None and engine == "native":
        raise engines.not_built(what)
    return compiled


def _pick(game: Game, engine: str) -> ModuleType | None:
    """The compiled engine to use for ``engine``, or ``None`` for the reference."""
    return _choose(engine, lambda: engine_module(game), f"the compiled engine of {game.info.title}")


def engine_for(game: Game, engine: str = "auto") -> ModuleType | None:
    """The compiled engine to play ``game`` on under ``engine``, or ``None`` for the reference.

    ``native`` with no compiled engine built raises ``RuntimeError``.
    """
    return _pick(game, engine)


def bot_module(game: Game, engine: str = "auto") -> ModuleType | None:
    """The compiled rule-based bot of ``game`` to use for ``engine`` (see :data:`ENGINES`).

    ``None`` means the Python bot, the reference: asked for, or (``auto``) the only one
    there is. ``native`` with no compiled bot built raises ``RuntimeError``.
    """
    short = BOT_MODULES.get(game.info.name)
    return _choose(
        engine,
        lambda: module(short) if short is not None else None,
        f"the compiled rule-based bot of {game.info.title}",
    )


def new_game(game: Game, seed: int, engine: str = "auto") -> State:
    """Deal ``game`` from ``seed`` on ``engine``: the same game as ``game.new_game(seed)``.

    Unlike the game's own door, ``auto`` here means the compiled engine wherever it is
    built, even when :func:`front_door` has put the game's doors on the reference.
    """
    compiled = _pick(game, engine)
    if compiled is None:
        return game.new_game(seed, engine="reference")
    state: State = compiled.new_game(game, seed)
    return state


def from_state(state: State, engine: str = "auto") -> State:
    """A state of ``engine`` equal to ``state`` (``state`` itself if it already is one)."""
    compiled = _pick(state.game, engine)
    if compiled is None:
        return to_reference(state)
    native_class: type = compiled.State
    if isinstance(state, native_class):
        return state
    native: State = compiled.from_state(state)
    return native


def sample_state(game: Game, view: Any, rng: Any, engine: str = "auto") -> State:
    """A full state giving ``view`` to its seat: ``game.sample_state(view, rng)`` on ``engine``.

    The compiled engine deals the same state with the same numbers drawn from ``rng``.
    """
    compiled = _pick(game, engine)
    if compiled is None:
        return game.sample_state(view, rng, engine="reference")
    world: State = compiled.sample_state(game, view, rng)
    return world


def to_reference(state: State) -> State:
    """The reference state equal to ``state`` (``state`` itself if it is one)."""
    convert: Any = getattr(state, "to_reference", None)
    if convert is None:
        return state
    reference: State = convert()
    return reference


def engine_of(state: State) -> str:
    """``"native"`` for a compiled engine's state, ``"reference"`` otherwise."""
    return "native" if hasattr(state, "to_reference") else "reference"


def _replay(game: Game, seed: int, history: Sequence[int]) -> object:
    """Replay a dealt game's history on its compiled engine (the reference if not built)."""
    compiled = engine_module(game)
    if compiled is None:
        return replay.reference_replay(game, seed, history)
    return replay.dealt_by(compiled.new_game)(game, seed, history)


def serialization(game: str, engine: str = "auto") -> None:
    """Write, read and replay the states of the game named ``game`` on ``engine``.

    ``auto`` and ``native`` plug in the game's compiled codec and replay (as importing
    this package does), ``reference`` takes them out, leaving the Python code of
    :mod:`closingbell.core`; ``native`` with nothing compiled raises ``RuntimeError``.
    """
    compiled = _choose(
        engine,
        lambda: module(SERIAL_MODULES[game]) if game in SERIAL_MODULES else None,
        f"the compiled serialization of {game}",
    )
    if engine == "reference":
        serial.unregister_codec(game)
        replay.unregister(game)
    elif compiled is not None:
        serial.register_codec(game, compiled.Codec(compiled.replay))
        replay.register(game, compiled.replay)
    elif game in GAME_MODULES:
        serial.unregister_codec(game)
        replay.register(game, _replay)


def front_door(game: str, engine: str = "auto") -> None:
    """Make the states of the game named ``game`` on ``engine`` by default.

    ``auto`` (as importing this package does) makes ``Game.new_game``, ``state_from_json``,
    ``state_from_position`` and ``sample_state`` give compiled states where the game's
    engine is built; ``reference`` makes them give the Python rules' states unless asked
    for ``engine="native"``. ``native`` is ``auto`` that raises ``RuntimeError`` when the
    engine is not built.
    """
    compiled = _choose(engine, lambda: engine_module(game), f"the compiled engine of {game}")
    if compiled is not None:
        engines.register(game, compiled)
    engines.set_default(game, "reference" if engine == "reference" else "auto")


# States are made (closingbell.core.engines), read back after a replay of their history
# (closingbell.core.replay), and written and read (closingbell.core.serial) on the compiled
# code where it is built.
for _name in GAME_MODULES:
    front_door(_name)
    serialization(_name)
