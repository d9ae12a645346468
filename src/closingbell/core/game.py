"""The game-agnostic protocol every closingbell game implements.

A :class:`Game` is a set of rules with fixed options; it makes :class:`State` objects.
A state names who must decide (:attr:`State.current_player`) and the legal choices for
that one decision (:meth:`State.legal_actions`), as sorted integer ids. Text forms of
actions round-trip through :meth:`Game.action_to_string` and :meth:`Game.string_to_action`.
Everything a front end, bot or learning agent may know of a state goes through
:meth:`State.view`; everything else stays inside the state.
"""

from __future__ import annotations

import json
import numbers
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cached_property, partial
from operator import itemgetter
from typing import Any, ClassVar, Self

from closingbell.core import engines, jsontext, replay, serial
from closingbell.core.checks import shown
from closingbell.core.errors import (
    IllegalActionError,
    RulesVersionError,
    StateFormatError,
    ViewFormatError,
)
from closingbell.core.events import Entry, entry_to_dict, visible_entries
from closingbell.core.info import GameInfo
from closingbell.core.options import RulesOptions
from closingbell.core.view import View, from_jsonable


class Game(ABC):
    """A game with fixed options: the factory of its states.

    A game's class implements its Python rules' doors (``_deal``, ``_read_position``,
    ``_sample``); the public doors (``new_game``, ``state_from_json``,
    ``state_from_position``, ``sample_state``) choose the engine, which is a faster one
    registered in :mod:`closingbell.core.engines` unless asked for the reference.
    """

    info: GameInfo
    """The game's metadata."""
    options: RulesOptions
    """The validated rules options, the player count among them."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.options.players

    # The four doors that make states. Each takes ``engine`` (see closingbell.core.engines):
    # the faster engine registered for the game by default, the Python rules on request.

    def new_game(self, seed: int, engine: str = "auto") -> State:
        """Deal a new game whose every shuffle follows from ``seed``.

        ``engine`` is ``"auto"`` (the compiled engine where it is built, else the Python
        rules), ``"native"`` (the compiled engine, or ``RuntimeError``) or ``"reference"``
        (the Python rules). Both engines deal the same game and answer alike.
        """
        faster = engines.choose(self, engine)
        if faster is None:
            return self._deal(seed)
        state: State = faster.new_game(self, seed)
        return state

    def state_from_json(self, text: str | bytes, engine: str = "auto") -> State:
        """Read back a state written by :meth:`State.to_json` (raises ``StateFormatError``).

        What a state must satisfy to be read back is described in ``docs/api.md``; the
        state is made on ``engine`` (as for :meth:`new_game`).
        """
        faster = engines.choose(self, engine)
        state = self._read_json(text)
        if faster is not None:
            state = faster.from_state(state)
        return state

    def state_from_position(self, text: str, engine: str = "auto") -> State:
        """The state a position's text describes (``docs/positions.md``), on ``engine``.

        Raises :class:`~closingbell.core.errors.PositionError`, naming the field and the
        reason, for malformed text or an impossible position. The state has an empty history
        and log, ``from_deal`` false, and the seed of the position's ``seed`` field.
        """
        faster = engines.choose(self, engine)
        state = self._read_position(text)
        if faster is not None:
            state = faster.from_state(state)
        return state

    def sample_state(self, view: View, rng: random.Random, engine: str = "auto") -> State:
        """A full state that gives ``view`` to its seat, hidden parts drawn by ``rng``.

        Both engines deal the same world and draw the same numbers from ``rng``.
        """
        faster = engines.choose(self, engine)
        if faster is None:
            return self._sample(view, rng)
        world: State = faster.sample_state(self, view, rng)
        return world

    @abstractmethod
    def _deal(self, seed: int) -> State:
        """:meth:`new_game` on the Python rules."""

    @abstractmethod
    def _read_position(self, text: str) -> State:
        """:meth:`state_from_position` on the Python rules."""

    @abstractmethod
    def _sample(self, view: View, rng: random.Random) -> State:
        """:meth:`sample_state` on the Python rules."""

    state_class: type[State]
    """The class of this game's reference states."""

    view_class: type[View]
    """The class of this game's views."""

    def view_from_dict(self, data: Any) -> View:
        """A view of this game read back from ``View.to_dict``'s data (a server's ``state``).

        Raises :class:`~closingbell.core.errors.ViewFormatError`, naming the field at fault,
        for anything else: another game's view, a missing or unknown field, a wrong type.
        """
        if not isinstance(data, dict) or data.get("game") != self.info.name:
            raise ViewFormatError(f"not a view of {self.info.name}")
        return from_jsonable(self.view_class, data)

    def _read_json(self, text: str | bytes) -> State:
        """:meth:`state_from_json` on the Python rules (or the codec registered for them)."""
        codec = serial.registered_codec(self.info.name)
        if codec is not None:
            state: State | None = codec.read(self, text)
            if state is not None:
                return state
        cls = self.state_class
        try:
            return jsontext.read_json(
                text, partial(cls._from_data, self, copy=False), serial.schema_of(cls).depth
            )
        except jsontext.InvalidJSON as exc:
            raise StateFormatError(f"not valid JSON: {exc}") from None

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Return the text form of an action id (raises ``NotationError`` if out of range)."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse a text form back into its action id (raises ``NotationError``)."""

    def options_dict(self) -> dict[str, Any]:
        """Return the options as a JSON-ready dict."""
        return self.options.to_dict()

    @cached_property
    def options_data(self) -> Mapping[str, Any]:
        """:meth:`options_dict`, made once and shared: for reading, never to be changed."""
        return self.options_dict()

    @cached_property
    def options_json(self) -> str:
        """:attr:`options_data` as the JSON text a state holds (sorted keys, no spaces)."""
        return json.dumps(self.options_data, sort_keys=True, separators=(",", ":"))

    @classmethod
    def versions(cls) -> list[int]:
        """Every rules version whose games this closingbell reads, oldest first."""
        return sorted({cls.info.version, *cls.info.older_versions})

    @classmethod
    def options_for_version(cls, version: object, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options that replay a game of rules ``version`` under today's rules.

        ``options`` are those the game was saved with. For today's version they are
        returned as given; for an older version listed in ``info.older_versions`` the
        options that version did not have are added with the values it played by, unless
        ``options`` names them itself. The options are not checked here (the game's
        constructor does that). Raises :class:`RulesVersionError` for any other version.
        """
        info = cls.info
        is_int = isinstance(version, int) and not isinstance(version, bool)
        if is_int and version == info.version:
            return dict(options)
        older = info.older_versions.get(version) if is_int else None  # type: ignore[call-overload]
        if older is None:
            older_ones = [v for v in cls.versions() if v != info.version]
            also = (
                f" and reads version{'s' if len(older_ones) > 1 else ''} "
                + ", ".join(map(str, older_ones))
                if older_ones
                else ""
            )
            raise RulesVersionError(
                f"{info.name} rules version {shown(version)} is unknown: this closingbell "
                f"plays version {info.version}{also}"
            )
        return {**older, **options}

    @classmethod
    def for_version(cls, version: object, options: Mapping[str, Any]) -> Self:
        """The game, under today's rules, that replays a game of rules ``version`` exactly.

        A game saved by an older version (a record, a state file, a web server's table)
        is read with the options that version played by (:meth:`options_for_version`).
        Raises :class:`RulesVersionError` for a version this closingbell does not read and
        ``OptionError`` for bad options.
        """
        return cls(**cls.options_for_version(version, options))

    def __repr__(self) -> str:
        return f"load_game({self.info.name!r}, **{self.options_dict()!r})"


class State(ABC):
    """One position of a game: who decides, what they may choose, and how to go on.

    A game's state class supplies the rules through three hooks (``_compute_legal``,
    ``_apply_legal`` and ``_explain_illegal``) and describes itself with five class
    attributes (``FORMAT``, ``SHAPES``, ``PHASE_NAMES``, ``EVENT_FIELDS`` and
    ``EVENT_VALUES``); the checks, the legal-action cache, the event log's filtering and
    serialization live here, once.
    """

    __slots__ = ("_legal", "cur", "from_deal", "game", "history", "log", "n", "phase", "seed")

    FORMAT: ClassVar[str]
    """The format name written into the game's serialized states."""
    SHAPES: ClassVar[Mapping[str, str]]
    """The JSON shape of every serialized field (see :mod:`closingbell.core.serial`)."""
    PHASE_NAMES: ClassVar[Sequence[str]]
    """The name of each decision kind, indexed by ``phase``."""
    EVENT_FIELDS: ClassVar[Mapping[str, Sequence[str]]]
    """The field names of each kind of log entry."""
    SECRET_DECISIONS: ClassVar[frozenset[str]] = frozenset()
    """The decisions (names from ``PHASE_NAMES``) whose answers only the deciding seat may
    know: the other seats learn of such a choice only what the log later shows them."""
    EVENT_VALUES: ClassVar[Mapping[str, Sequence[serial.ValueCheck]]]
    """The type of each field of each kind of log entry, as :mod:`.serial` checks it."""

    game: Game
    """The game this state belongs to."""
    history: list[int]
    """The actions applied since the game was dealt, in order."""
    seed: int
    """The seed every shuffle of this game is derived from (a sampled state has a fresh one)."""
    from_deal: bool
    """Whether ``history`` and ``log`` run from the deal of ``new_game(seed)``: true for a
    game dealt by ``new_game``, false for a position made otherwise (sampled or crafted)."""
    n: int
    """The number of seats."""
    cur: int | None
    """The seat that must decide; ``None`` once the game is over."""
    phase: int
    """The kind of the pending decision, an index into ``PHASE_NAMES``."""
    log: list[Entry]
    """What happened, with who may read each entry (see :mod:`closingbell.core.events`)."""
    _legal: list[int] | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """Make a blank state, marked as a position (``new_game`` marks its states as dealt)."""
        state = super().__new__(cls)
        state.from_deal = False
        return state

    @abstractmethod
    def _compute_legal(self) -> list[int]:
        """The sorted legal action ids of the pending decision (uncached)."""

    @abstractmethod
    def _apply_legal(self, action: int) -> None:
        """Apply ``action``, already known to be legal (the engine's unchecked path)."""

    @abstractmethod
    def _explain_illegal(self, action: int) -> str:
        """Why the integer ``action`` is not legal now."""

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return self.cur

    @property
    def decision(self) -> str:
        """The name of the pending decision."""
        return self.PHASE_NAMES[self.phase]

    def choice_is_secret(self) -> bool:
        """Whether the answer to the pending decision is hidden from every other seat.

        A front end that reports an action to others (a server's "last action", a
        spectator's feed) must ask this before applying it: a secret answer is shown to its
        seat only, and to the others as no more than "seat p chose".
        """
        return self.PHASE_NAMES[self.phase] in self.SECRET_DECISIONS

    def legal_actions(self) -> list[int]:
        """The sorted action ids legal for the pending decision (empty when over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises ``IllegalActionError``, changing nothing."""
        if type(action) is not int:
            action = self.coerce_action(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise self.refuse(action, self._explain_illegal(action))
        self._legal = None
        self.history.append(action)
        self._apply_legal(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.cur is None

    def visible_events(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The log of what happened from entry ``start`` on, as ``player`` may read it."""
        self.check_seat(player)
        fields = self.EVENT_FIELDS
        return [entry_to_dict(form, fields) for form in visible_entries(self.log, player, start)]

    def check_seat(self, player: object) -> None:
        """Raise ``ValueError`` unless ``player`` is a seat of this game or ``None``."""
        if player is None:
            return
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.n:
            raise ValueError(f"a seat is a number from 0 to {self.n - 1}, or None for a spectator")

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (final once the game is over)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The seats in first place (several when they share it)."""

    @abstractmethod
    def clone(self) -> State:
        """Return an independent copy."""

    @abstractmethod
    def view(self, player: int | None) -> View:
        """What ``player`` may see (``None``: a spectator, who sees only public things)."""

    @abstractmethod
    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if any conservation rule or bookkeeping is broken."""

    @abstractmethod
    def to_position(self) -> str:
        """The canonical one-line position text (every field, in a fixed order).

        :meth:`Game.state_from_position` reads it back to a state with the same position.
        """

    def _after_read(self) -> None:  # noqa: B027 (an optional hook, empty unless overridden)
        """Set fields derived from the game after :meth:`from_dict` (none by default)."""

    def to_dict(self) -> dict[str, Any]:
        """The complete state as JSON-ready data."""
        out = _header(self.game, self.FORMAT)
        out["from_deal"] = self.from_deal
        # One round trip through JSON copies every field (the log's tuples become lists).
        fields = json.loads(serial.fields_json(self))
        out.update((name, fields[name]) for name in self.SHAPES)
        return out

    @classmethod
    def from_dict(cls, game: Game, data: Any) -> Self:
        """Rebuild a state from :meth:`to_dict` output, refusing anything inconsistent.

        Every field must have its shape and lie in its range, the log must be well formed,
        every invariant must hold, and a state ``from_deal`` must be what its history makes
        of the deal of its seed (it is replayed); ``StateFormatError`` names what is wrong.
        """
        return cls._from_data(game, data, copy=True)

    @classmethod
    def _from_data(cls, game: Game, data: Any, copy: bool) -> Self:
        """:meth:`from_dict`; the state shares the lists of ``data`` unless ``copy``."""
        title = game.info.title
        schema = serial.schema_of(cls)
        _check_header(data, game, cls.FORMAT)
        schema.check_fields(data, title)
        n = game.options.players
        _check_turn(data, n, len(cls.PHASE_NAMES), game.info.num_distinct_actions, title)
        log = schema.log.read(data["log"], title, n)
        st = cls.__new__(cls)
        st.game = game
        st.n = n
        schema.fill(st, data, copy)
        st.log = log
        st.from_deal = data["from_deal"]
        st._legal = None
        st._after_read()
        try:
            st.check_invariants()
            st._check_game_over()
        except (AssertionError, TypeError, ValueError, IndexError, KeyError) as exc:
            raise StateFormatError(f"inconsistent {title} state: {exc}") from None
        if data["from_deal"]:
            st._check_replay(data)
        return st

    def _check_game_over(self) -> None:
        """A ``game_over`` entry ends the log of a finished game and tells its result."""
        log = self.log
        kinds = list(map(_KIND, map(_FULL, log)))
        # Looked for in C, since most logs have none and a finished game's has one, last.
        count = kinds.count("game_over")
        if count == 0:
            ends = []
        elif count == 1 and kinds[-1] == "game_over":
            ends = [len(log) - 1]
        else:
            ends = [i for i, kind in enumerate(kinds) if kind == "game_over"]
        for i in ends:
            expected = ("game_over", tuple(self.scores()), tuple(self.winners()))
            if i != len(log) - 1 or not self.is_terminal() or log[i][1] != expected:
                raise AssertionError(
                    f"'log' entry {i} (game_over) must be the last of a finished game "
                    "and give its scores and winners"
                )
        finished = log and self.is_terminal() and "game_over" in self.EVENT_FIELDS
        if finished and kinds[-1] != "game_over":
            raise AssertionError("the 'log' of a finished game must end with game_over")

    def _check_replay(self, data: Mapping[str, Any]) -> None:
        """Refuse the state unless its history, replayed from the deal of its seed, gives it.

        The replay runs on the engine :mod:`closingbell.core.replay` has for the game.
        """
        title = self.game.info.title
        try:
            fresh = replay.replay(self.game, self.seed, self.history)
        except replay.ReplayError as exc:
            if exc.reason is None:
                raise StateFormatError(
                    f"inconsistent {title} state: 'history' goes on after the game is over "
                    f"(entry {exc.entry})"
                ) from None
            raise StateFormatError(
                f"inconsistent {title} state: 'history' entry {exc.entry} cannot be replayed "
                f"from the seed: {exc.reason}"
            ) from None
        schema = serial.schema_of(type(self))
        # The fields read from the data have the types their checks let through (ints,
        # never booleans, where a check asks for an integer) and the replay's have the
        # reference's, so equal values here are equal JSON; unequal ones are compared
        # again as JSON text, which also lets a list stand where the replay has a tuple.
        if schema.typed and schema.values_of(fresh) == schema.values_of(self):
            return
        for name in schema.names:
            # Compared as JSON text, so that 1 and true or 1 and 1.0 differ.
            if json.dumps(data[name]) != json.dumps(getattr(fresh, name)):
                raise StateFormatError(
                    f"inconsistent {title} state: {name!r} is not what the 'seed' and the "
                    "'history' make of the deal"
                )

    def to_json(self) -> str:
        """The complete state as JSON text; :meth:`Game.state_from_json` reads it back."""
        return serial.state_json(self)

    def action_to_string(self, action: int) -> str:
        """The text form of ``action``."""
        return self.game.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id named by ``text``."""
        return self.game.string_to_action(text)

    def apply_string(self, text: str) -> int:
        """Parse ``text``, apply that action and return its id."""
        action = self.game.string_to_action(text)
        self.apply(action)
        return action

    def coerce_action(self, action: object) -> int:
        """Return ``action`` as a plain ``int`` (numpy integers included), or refuse it."""
        if isinstance(action, numbers.Integral) and not isinstance(action, bool):
            return int(action)
        raise self.refuse(action, f"an action must be an integer id, not {type(action).__name__}")

    def refuse(self, action: object, reason: str) -> IllegalActionError:
        """Build the error for an illegal ``action``, naming it when it is a valid id."""
        in_range = (
            isinstance(action, int)
            and not isinstance(action, bool)
            and 0 <= action < self.game.info.num_distinct_actions
        )
        if in_range:
            assert isinstance(action, int)
            shown = f"{self.game.action_to_string(action)!r} ({action})"
        else:
            shown = repr(action)
        return IllegalActionError(f"illegal action {shown}: {reason}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


_FULL = itemgetter(1)
_KIND = itemgetter(0)


def _check_turn(data: Mapping[str, Any], n: int, phases: int, actions: int, title: str) -> None:
    """The fields every game has: who decides, the kind of decision, the history's ids."""
    cur = data.get("cur")
    if cur is not None and not 0 <= cur < n:
        raise StateFormatError(
            f"malformed {title} state: 'cur' must be a seat from 0 to {n - 1} or null, "
            f"not {shown(cur)}"
        )
    phase = data.get("phase")
    if not isinstance(phase, int) or not 0 <= phase < phases:
        raise StateFormatError(
            f"malformed {title} state: 'phase' must be from 0 to {phases - 1}, not {shown(phase)}"
        )
    history = data.get("history", ())
    if history and min(history) >= 0 and max(history) < actions:
        return  # every id in range: no need to look for the first one out of it
    for i, action in enumerate(history):
        if not 0 <= action < actions:
            raise StateFormatError(
                f"malformed {title} state: 'history' entry {i} is {shown(action)}, "
                f"not an action id (0 to {actions - 1})"
            )


def _header(game: Game, fmt: str) -> dict[str, Any]:
    """The first keys of a serialized state: format name, game version and options."""
    return {"format": fmt, "version": game.info.version, "options": game.options_dict()}


def _check_header(data: Any, game: Game, fmt: str) -> dict[str, Any]:
    """Check a serialized state's format name, version and options against ``game``.

    A state saved under an older rules version that is still read is accepted when the
    options it played by (``Game.options_for_version``) are ``game``'s options.
    """
    title = game.info.title
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise StateFormatError(f"not a {title} state (missing or wrong 'format')")
    version = data.get("version")
    options = data.get("options")
    if version != game.info.version or isinstance(version, bool):
        try:
            if not isinstance(options, dict):
                raise ValueError("'options' is not an object")
            played = type(game).for_version(version, options).options_dict()
        except RulesVersionError as exc:
            raise StateFormatError(f"the state cannot be read: {exc}") from None
        except (TypeError, ValueError):
            played = None
        if played != game.options_data:
            raise StateFormatError(
                f"the state's options, under its rules version {shown(version)}, differ "
                "from this game's options"
            )
    elif options != game.options_data:
        raise StateFormatError("the state's options differ from this game's options")
    return data
