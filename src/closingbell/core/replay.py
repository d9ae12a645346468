"""Replaying a dealt game's history: the check behind reading a state ``from_deal``.

A state read back with ``from_deal`` true claims to be what its history makes of the deal
of its seed. :meth:`~closingbell.core.game.State.from_dict` checks the claim by replaying
the history (:func:`replay`) and comparing every field of the result with the data. The
replay is only a check: when it agrees, the state built from the data is the one returned.

The reference replay applies each action through the game's Python rules. A faster engine
of the same rules can take its place for one game, without this package knowing of it::

    from closingbell.core import replay
    replay.register("take_stock", compiled_replay)
    replay.register("take_stock", replay.dealt_by(native.new_game))  # or, its states apply

A registered replay must do exactly what :func:`reference_replay` does: deal
``game.new_game(seed)``, apply every action of the history, and raise
:class:`ReplayError` at the first action that cannot be applied, with the message the
reference's ``IllegalActionError`` would give. The state it returns must answer
``getattr`` for every field of the game's ``SHAPES`` with the values the reference's state
holds, of the same Python types (ints where the reference has ints, tuples in the log),
since the fields are compared as Python values. The place to register a compiled engine
is ``closingbell.native``, when it is imported (this package never imports it), with a
replay that runs the whole history inside the engine; the differential tests hold such an
engine to the reference, state by state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from closingbell.core.errors import IllegalActionError
from closingbell.core.info import GameInfo


class Playable(Protocol):
    """What a replay asks of a state (every game's ``State`` is one)."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""

    def apply(self, action: int) -> None:
        """Apply ``action``, raising ``IllegalActionError`` if it is illegal."""


class Dealer(Protocol):
    """What a replay asks of a game (every ``Game`` is one): its facts, and a deal."""

    @property
    def info(self) -> GameInfo:
        """The game's facts, its registered name among them."""

    def new_game(self, seed: int, engine: str = ...) -> Playable:
        """Deal a new game from ``seed`` (``engine="reference"``: on the Python rules)."""


G = TypeVar("G")
P = TypeVar("P", bound=Playable)

Replay = Callable[[Any, int, Sequence[int]], object]
"""A replay: ``replay(game, seed, history)`` gives the state the history leads to.

A replay is registered for one game, by name, and is given that game only: it may ask of
it whatever that game's class offers, hence a game of any type here.
"""

_REPLAYS: dict[str, Replay] = {}
"""The replay registered for each game that has one, by the game's registered name."""


class ReplayError(Exception):
    """An action of the history that cannot be applied where it stands."""

    def __init__(self, entry: int, reason: str | None) -> None:
        super().__init__(entry, reason)
        self.entry = entry
        """The index, in the history, of the first action that cannot be applied."""
        self.reason = reason
        """Why that action is illegal (``IllegalActionError``'s message), or ``None`` when
        the game was already over."""


def dealt_by(deal: Callable[[G, int], P]) -> Callable[[G, int, Sequence[int]], P]:
    """The replay that deals with ``deal(game, seed)`` and applies each action in turn.

    The state ``deal`` makes applies the actions (``is_terminal`` and ``apply``, raising
    ``IllegalActionError`` as the reference does): an engine whose states apply actions
    fast is plugged in so, such as ``dealt_by(native.new_game)``.
    """

    def replay(game: G, seed: int, history: Sequence[int]) -> P:
        state = deal(game, seed)
        for entry, action in enumerate(history):
            if state.is_terminal():
                raise ReplayError(entry, None)
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise ReplayError(entry, str(exc)) from None
        return state

    return replay


def _deal(game: Dealer, seed: int) -> Playable:
    """The reference deal: the game's own ``new_game`` on its Python rules."""
    return game.new_game(seed, engine="reference")


reference_replay = dealt_by(_deal)
"""Deal ``game`` from ``seed`` and apply the history through the Python rules."""


def register(game: str, replay: Replay) -> None:
    """Replay the histories of the game named ``game`` with ``replay`` from now on."""
    _REPLAYS[game] = replay


def unregister(game: str) -> None:
    """Go back to the reference replay for the game named ``game``."""
    _REPLAYS.pop(game, None)


def registered(game: str) -> Replay | None:
    """The replay registered for the game named ``game``, or ``None`` (the reference)."""
    return _REPLAYS.get(game)


def replay(game: Dealer, seed: int, history: Sequence[int]) -> object:
    """The state ``history`` leads to from the deal of ``seed``, on the registered engine.

    Raises :class:`ReplayError` at the first action that cannot be applied.
    """
    engine = _REPLAYS.get(game.info.name, reference_replay)
    return engine(game, seed, history)
