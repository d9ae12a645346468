"""Game records: the options, the seed and the actions of one game, as a plain text file.

A record is what habit 7 of the style guide calls a game: ``(options, seed, actions)``.
Replaying it deals the same cards and so gives the same events, event for event. A game
that started from a position (``docs/positions.md``) has a ``position`` header instead of
a deal: its actions are replayed from that position, whose ``seed`` field decides every
later shuffle. The file is UTF-8 text with one action per line, so that an error can name
the line at fault (the format is described in ``docs/records.md``)::

    closingbell record 1
    game: take_stock
    version: 1
    options: {"players": 3, "rounds": 4}
    seed: 7
    seats: ["ana", "random", "random"]
    result: {"scores": [198, 77, 127], "winners": [0], "rounds": [[73, 52, 81]]}
    actions:
    0: raise Oil 5
    0: discard Gem 3

Each action line is ``SEAT: TEXT``: the seat (counted from 0, as everywhere in the API)
that must decide, then the action's text form. Blank lines and lines starting with ``#``
are ignored. Every failure raises :class:`~closingbell.core.errors.RecordError` with the
1-based line number and the reason.

What a record may hold is bounded (:data:`MAX_RECORD_BYTES`, :data:`MAX_LINE_BYTES`,
:data:`MAX_VALUE_DEPTH`), and a file is read line by line, so a hostile file costs at most
that much memory however large it is.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from closingbell.core.errors import (
    IllegalActionError,
    PositionError,
    RecordError,
    RulesVersionError,
    UnknownGameError,
)
from closingbell.core.game import Game, State
from closingbell.core.jsontext import load_json
from closingbell.core.registry import game_class
from closingbell.core.rng import check_seed

FORMAT_VERSION = 1
"""The version of the record format this module reads and writes."""

FORMAT_LINE = f"closingbell record {FORMAT_VERSION}"
"""The first line of every record file."""

EXTENSION = ".cbrec"
"""The customary file name extension of a record."""

HEADER_KEYS = ("game", "version", "options", "seed", "position", "seats", "result", "hinted")
"""The header keys, in the order they are written; all but those of :data:`OPTIONAL_KEYS`
are required."""

OPTIONAL_KEYS = ("position", "result", "hinted")
"""The header keys a record may leave out: a game dealt from its seed has no ``position``,
an unfinished game no ``result``, a game played without hints no ``hinted``."""

ACTIONS_LINE = "actions:"
"""The line that ends the header; action lines follow it."""

MAX_RECORD_BYTES = 1 << 20
"""The most a record may hold: 1 MiB (characters, for text given to ``loads``). The longest
games played so far take some 20 KB; this bounds the memory a hostile file can cost."""

MAX_LINE_BYTES = 1 << 14
"""The longest line a record may hold: 16 KiB, far more than any header or action needs."""

MAX_VALUE_DEPTH = 8
"""How deeply a header's JSON value may nest (a result's rounds nest three levels)."""

MAX_SEAT_DIGITS = 3
"""An action line's seat has at most this many digits (no game has a thousand seats)."""

_FORMAT_RE = re.compile(r"closingbell\s+record\s+(\S+)")
_ACTION_RE = re.compile(r"(\d+)\s*:\s*(.*)")
_RESULT_KEYS = ("scores", "winners", "rounds")


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One action of a record: the seat that chose it and its text form."""

    seat: int
    """The seat that made the decision (counted from 0)."""
    text: str
    """The action's text form, as the game's ``action_to_string`` writes it."""
    line: int | None = field(default=None, compare=False)
    """The line of the file it was read from (``None`` for a record made in code)."""


@dataclass(frozen=True)
class RecordResult:
    """How a finished game ended, as recorded; replay checks the game ends the same way."""

    scores: tuple[int, ...]
    """Each seat's final score."""
    winners: tuple[int, ...]
    """The seats in first place."""
    rounds: tuple[tuple[int, ...], ...] | None = None
    """Each scored round's points per seat, for games that report them (else ``None``)."""

    @classmethod
    def of(cls, state: State) -> RecordResult | None:
        """How ``state``'s game ended (``None`` while it goes on)."""
        if not state.is_terminal():
            return None
        rounds = round_results(state)
        return cls(
            tuple(state.scores()),
            tuple(state.winners()),
            None if rounds is None else tuple(tuple(r) for r in rounds),
        )

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (``rounds`` only when there are some)."""
        out: dict[str, Any] = {"scores": list(self.scores), "winners": list(self.winners)}
        if self.rounds is not None:
            out["rounds"] = [list(r) for r in self.rounds]
        return out


@dataclass(frozen=True)
class GameRecord:
    """A complete or unfinished game as data: ``(game, options, seed, actions)`` and more.

    The ``options`` dict is copied when the record is made; treat it as read-only.
    Records compare equal when their data do, wherever they were read from. A record
    with a ``position`` replays its actions from that position rather than from the deal
    of ``seed``; its ``seed`` is then the position's own (its ``seed`` field).
    """

    game: str
    """The registered name of the game."""
    version: int
    """The game's rules version the record was made with (``GameInfo.version``)."""
    options: dict[str, Any] = field(hash=False)
    """The rules options as JSON-ready data, ``players`` among them."""
    seed: int
    """The seed the game was dealt with; for a game started from a position, the seed that
    position names (every later shuffle follows from it)."""
    seats: tuple[str, ...]
    """A name for each seat, in seat order (one per player)."""
    actions: tuple[RecordedAction, ...] = ()
    """The actions in the order they were applied."""
    result: RecordResult | None = None
    """The final result, for a finished game whose result was recorded."""
    position: str | None = None
    """The position the game started from (``docs/positions.md``), on one line; ``None`` for
    a game dealt by ``new_game(seed)``."""
    hinted: bool = False
    """Whether a player was shown a hint (the analysis's preferred action) during the game."""
    lines: Mapping[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """Where each header key and the ``actions:`` line were read (empty if made in code)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", dict(self.options))
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "actions", tuple(self.actions))
        object.__setattr__(self, "lines", dict(self.lines))

    # ------------------------------------------------------------------ making

    @classmethod
    def from_state(
        cls, state: State, seats: Sequence[str] | None = None, *, position: str | None = None
    ) -> GameRecord:
        """Record the game that led to ``state``: its options, seed and history.

        ``seats`` names each seat (default ``player 1``, ``player 2``, ...). The result is
        recorded when the game is over. The history is replayed from the seed (or from
        ``position``, the text the game was started from with ``state_from_position``) to
        learn who chose each action; a state whose history does not lead back to it (a
        sampled state, say) is refused with :class:`RecordError`. The record keeps the
        canonical one-line text of the starting position (``to_position()``).
        """
        game = state.game
        seed = getattr(state, "seed", None)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordError(f"a {game.info.name} state does not tell its seed")
        names = [f"player {p + 1}" for p in range(game.players)] if seats is None else list(seats)
        if len(names) != game.players or not all(isinstance(s, str) for s in names):
            raise RecordError(f"seats must be {game.players} names, one per seat, not {seats!r}")
        canonical = None
        if position is None:
            fresh = game.new_game(seed)
        else:
            fresh = start_from_position(game, position)
            canonical = _position_text(fresh)
            if fresh.seed != seed:
                raise RecordError(
                    f"the state's seed is {seed}, but the position's seed is {fresh.seed}"
                )
        actions: list[RecordedAction] = []
        start = "its seed" if position is None else "the position"
        for index, action in enumerate(state.history):
            seat = fresh.current_player
            if seat is None:
                raise RecordError("the state's history goes on after the game is over")
            actions.append(RecordedAction(seat, fresh.action_to_string(action)))
            try:
                fresh.apply(action)
            except IllegalActionError as exc:
                raise RecordError(
                    f"the state's history does not lead from {start} back to it: "
                    f"action {index + 1}: {exc}"
                ) from None
        # Compared as JSON: a state read back from JSON may hold lists where tuples were.
        if fresh.to_json() != state.to_json():
            raise RecordError(f"the state's history does not lead from {start} back to it")
        return cls(
            game=game.info.name,
            version=game.info.version,
            options=game.options_dict(),
            seed=seed,
            seats=tuple(names),
            actions=tuple(actions),
            result=RecordResult.of(state),
            position=canonical,
        )

    # ------------------------------------------------------------------ writing

    def dumps(self) -> str:
        """The record as the text of a record file (ending with a newline)."""
        out = [
            FORMAT_LINE,
            f"game: {self.game}",
            f"version: {self.version}",
            f"options: {_json(self.options)}",
            f"seed: {self.seed}",
        ]
        if self.position is not None:
            out.append(f"position: {self.position}")
        out.append(f"seats: {_json(list(self.seats))}")
        if self.result is not None:
            out.append(f"result: {_json(self.result.to_dict())}")
        if self.hinted:
            out.append("hinted: true")
        out.append(ACTIONS_LINE)
        out += [f"{a.seat}: {a.text}" for a in self.actions]
        return "\n".join(out) + "\n"

    def write(self, path: str | Path) -> None:
        """Write the record to ``path`` as UTF-8 text."""
        Path(path).write_text(self.dumps(), encoding="utf-8", newline="\n")

    # ------------------------------------------------------------------ reading

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from the text of a record file, checking its header.

        The header is checked against the registered game (known game, a rules version
        it reads, valid options and seed, one name per seat, seats of the action lines
        in range); the actions themselves are checked by :func:`replay`. Text longer
        than :data:`MAX_RECORD_BYTES` characters is refused.
        """
        if not isinstance(text, str):
            raise RecordError(f"a record must be text, not {type(text).__name__}")
        record = _parse(_text_lines(text))
        record.check()
        return record

    @classmethod
    def read(cls, path: str | Path) -> GameRecord:
        """Read the record file at ``path`` (``OSError`` if it cannot be opened).

        The file is read line by line and refused (with :class:`RecordError`) at the
        line where it passes :data:`MAX_RECORD_BYTES`, so a huge file is never read whole.
        """
        with open(path, "rb") as file:
            record = _parse(_file_lines(file))
        record.check()
        return record

    # ------------------------------------------------------------------ checking

    def check(self) -> Game:
        """Check the header against the registered game and return that game.

        A record of an older rules version that is still read gives a game that plays by
        that version's rules (``Game.for_version``). Raises :class:`RecordError` (with
        the line, when the record was read from a file) for an unknown game, a rules
        version this closingbell does not read, bad options or seed, a position the game
        refuses (the position's field and reason) or whose seed is not the record's, a
        wrong number of seats, an action line's seat out of range, or a result of the
        wrong shape.
        """
        return self._checked()[0]

    def start(self) -> State:
        """The state the actions are replayed from: the position, or the deal of the seed.

        The header is checked first (:meth:`check`).
        """
        game, started = self._checked()
        return game.new_game(self.seed) if started is None else started

    def _checked(self) -> tuple[Game, State | None]:
        """The game, and the state made from the position (``None`` without one)."""
        lines = self.lines
        try:
            cls = game_class(self.game)
        except UnknownGameError as exc:
            raise RecordError(str(exc), lines.get("game")) from None
        try:
            options = cls.options_for_version(self.version, self.options)
        except RulesVersionError as exc:
            raise RecordError(str(exc), lines.get("version")) from None
        try:
            game = cls(**options)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"bad options: {exc}", lines.get("options")) from None
        try:
            check_seed(self.seed)
        except ValueError as exc:
            raise RecordError(f"bad seed: {exc}", lines.get("seed")) from None
        started = None
        if self.position is not None:
            started = start_from_position(game, self.position, lines.get("position"))
            if started.seed != self.seed:
                raise RecordError(
                    f"the seed is {self.seed}, but the position's is {started.seed} (its "
                    "'seed' field, 0 when left out): a record from a position keeps its seed",
                    lines.get("seed"),
                )
        n = game.players
        if len(self.seats) != n:
            raise RecordError(
                f"{len(self.seats)} seat names for a {n}-player game", lines.get("seats")
            )
        for action in self.actions:
            if not 0 <= action.seat < n:
                raise RecordError(
                    f"seat {action.seat} is not a seat of this {n}-player game "
                    f"(seats run from 0 to {n - 1})",
                    action.line,
                )
        if self.result is not None:
            _check_result_shape(self.result, n, lines.get("result"))
        return game, started


@dataclass(frozen=True)
class ReplayStep:
    """One step of :func:`replay_iter`: an action just applied and the state after it."""

    index: int
    """The action's position in the record, counted from 0."""
    action: RecordedAction
    """The recorded action."""
    action_id: int
    """The action's id in the game."""
    state: State
    """The live state after the action (the same object at every step: clone to keep it)."""


def replay_iter(record: GameRecord) -> Iterator[ReplayStep]:
    """Replay ``record`` action by action, yielding after each one.

    Each action line's seat must be the player to move, its text must parse and the
    action must be legal; otherwise :class:`RecordError` names the line and says why
    (with the engine's own message). Once the last action is applied, a recorded result
    is compared with the game's: this check runs only if the iterator is exhausted.
    A record with a position is replayed from that position.
    """
    state = record.start()
    yield from _steps(record, state)


def replay(record: GameRecord) -> State:
    """Replay ``record`` completely, checking every action and the result; return the state."""
    state = record.start()
    for _ in _steps(record, state):
        pass
    return state


def round_results(state: State) -> list[list[int]] | None:
    """Each scored round's points per seat, or ``None`` for a game without rounds."""
    method = getattr(state, "round_results", None)
    if not callable(method):
        return None
    return [[int(v) for v in r] for r in method()]


def round_end_reasons(state: State) -> list[str] | None:
    """Why each scored round ended, or ``None`` for a game that does not say."""
    method = getattr(state, "round_end_reasons", None)
    if not callable(method):
        return None
    return [str(r) for r in method()]


def start_from_position(game: Game, text: str, line: int | None = None) -> State:
    """``game``'s state from a position's text (``docs/positions.md``).

    A text the game refuses raises :class:`RecordError` giving the position's field and
    reason (and ``line``, the record's line, when there is one), as does a game that has no
    position notation.
    """
    reader = getattr(game, "state_from_position", None)
    if not callable(reader):
        raise RecordError(f"{game.info.name} has no position notation", line)
    try:
        state = reader(text)
    except PositionError as exc:
        raise RecordError(str(exc), line) from None
    if not isinstance(state, State):
        raise RecordError(f"{game.info.name} made no state of the position", line)
    return state


# ---------------------------------------------------------------------- internals


def _position_text(state: State) -> str:
    """The canonical one-line position of ``state`` (``to_position()``)."""
    writer = getattr(state, "to_position", None)
    if not callable(writer):
        raise RecordError(f"a {state.game.info.name} state cannot write its position")
    return str(writer())


def _json(value: Any) -> str:
    """One line of JSON; non-ASCII names stay readable in the UTF-8 file."""
    return json.dumps(value, ensure_ascii=False)


def _parse_json(key: str, value: str, line: int) -> Any:
    try:
        return load_json(value, MAX_VALUE_DEPTH)
    except ValueError as exc:
        raise RecordError(f"bad JSON value for {key!r}: {exc}", line) from None


def _too_long(line: int) -> RecordError:
    return RecordError(
        f"the record is longer than {MAX_RECORD_BYTES:,} bytes, the most a record may hold", line
    )


def _line_too_long(line: int) -> RecordError:
    return RecordError(f"the line is longer than {MAX_LINE_BYTES:,} bytes", line)


def _file_lines(file: IO[bytes]) -> Iterator[tuple[int, str]]:
    """Number and decode the lines of a record file, one at a time, within the bounds.

    Lines are split on newlines only (as ``str.split`` would), so that line numbers agree
    with editors and ``grep -n``; the text after the last newline is a line too.
    """
    number = 0
    total = 0
    while True:
        number += 1
        raw = file.readline(MAX_LINE_BYTES + 1)
        total += len(raw)
        if total > MAX_RECORD_BYTES:
            raise _too_long(number)
        ended = raw.endswith(b"\n")
        if not ended and len(raw) > MAX_LINE_BYTES:
            raise _line_too_long(number)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text: {exc.reason}", number) from None
        if not ended:
            yield number, line
            return
        yield number, line[:-1]


def _text_lines(text: str) -> Iterator[tuple[int, str]]:
    """Number the lines of a record's text, within the bounds."""
    if len(text) > MAX_RECORD_BYTES:
        raise _too_long(text.count("\n", 0, MAX_RECORD_BYTES) + 1)
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE_BYTES:
            raise _line_too_long(number)
        yield number, line


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_int(v) for v in value)


def _parse_header_value(key: str, value: str, line: int) -> Any:
    """Read the value of one header line, checking its type."""
    if key == "game":
        if not value or any(c.isspace() for c in value):
            raise RecordError(f"the game must be one registered name, not {value!r}", line)
        return value
    if key == "position":
        if not value:
            raise RecordError(
                "the position is empty (leave the line out to start from the deal)", line
            )
        return value
    data = _parse_json(key, value, line)
    if key == "hinted":
        if not isinstance(data, bool):
            raise RecordError(f"hinted must be true or false, not {value}", line)
        return data
    if key in ("version", "seed"):
        if not _is_int(data):
            raise RecordError(f"{key} must be an integer, not {value}", line)
        return data
    if key == "options":
        if not isinstance(data, dict):
            raise RecordError(f"options must be a JSON object, not {value}", line)
        return data
    if key == "seats":
        if not isinstance(data, list) or not all(isinstance(s, str) for s in data):
            raise RecordError(f"seats must be a JSON list of names, not {value}", line)
        return tuple(data)
    # key == "result"
    if not isinstance(data, dict):
        raise RecordError(f"result must be a JSON object, not {value}", line)
    for name in data:
        if name not in _RESULT_KEYS:
            raise RecordError(
                f"unknown result key {name!r} (known: {', '.join(_RESULT_KEYS)})", line
            )
    for name in ("scores", "winners"):
        if name not in data:
            raise RecordError(f"the result has no {name!r}", line)
        if not _int_list(data[name]):
            raise RecordError(f"the result's {name!r} must be a list of integers", line)
    rounds = data.get("rounds")
    if rounds is not None and not (isinstance(rounds, list) and all(_int_list(r) for r in rounds)):
        raise RecordError("the result's 'rounds' must be a list of lists of integers", line)
    return RecordResult(
        tuple(data["scores"]),
        tuple(data["winners"]),
        None if rounds is None else tuple(tuple(r) for r in rounds),
    )


def _parse(lines: Iterable[tuple[int, str]]) -> GameRecord:
    """Read the structure of a record file (its meaning is checked by ``check``)."""
    header: dict[str, Any] = {}
    where: dict[str, int] = {}
    actions: list[RecordedAction] = []
    stage = "start"
    last = 0
    for number, raw in lines:
        last = number
        line = (raw.removeprefix("\ufeff") if number == 1 else raw).strip()
        if not line or line.startswith("#"):
            continue
        if stage == "start":
            if line != FORMAT_LINE:
                match = _FORMAT_RE.fullmatch(line)
                if match:
                    raise RecordError(
                        f"unsupported record format {match[1]!r}; this closingbell reads "
                        f"format {FORMAT_VERSION}",
                        number,
                    )
                raise RecordError(
                    f"not a closingbell record: expected {FORMAT_LINE!r} first, got {line!r}",
                    number,
                )
            stage = "header"
        elif stage == "header":
            if line == ACTIONS_LINE:
                for key in HEADER_KEYS:
                    if key not in OPTIONAL_KEYS and key not in header:
                        raise RecordError(f"missing header key {key!r} before 'actions:'", number)
                where["actions"] = number
                stage = "actions"
                continue
            key, sep, value = line.partition(":")
            key = key.strip()
            if not sep:
                raise RecordError(f"expected 'key: value' or 'actions:', got {line!r}", number)
            if key not in HEADER_KEYS:
                raise RecordError(
                    f"unknown header key {key!r} (known: {', '.join(HEADER_KEYS)})", number
                )
            if key in header:
                raise RecordError(
                    f"header key {key!r} given twice (first on line {where[key]})", number
                )
            header[key] = _parse_header_value(key, value.strip(), number)
            where[key] = number
        else:
            match = _ACTION_RE.fullmatch(line)
            if not match:
                raise RecordError(f"expected 'SEAT: action', got {line!r}", number)
            action_text = match[2].strip()
            if not action_text:
                raise RecordError("the action line has no action after the seat", number)
            digits = match[1]
            if len(digits) > MAX_SEAT_DIGITS:
                raise RecordError(
                    f"seat {digits[:12]}... ({len(digits)} digits) is not a seat of any game",
                    number,
                )
            # Interned: a long record repeats a few texts many times.
            actions.append(RecordedAction(int(digits), sys.intern(action_text), number))
    if stage == "start":
        raise RecordError(f"empty record: expected {FORMAT_LINE!r}", last)
    if stage == "header":
        raise RecordError(f"the header is not followed by an {ACTIONS_LINE!r} line", last)
    return GameRecord(
        game=header["game"],
        version=header["version"],
        options=header["options"],
        seed=header["seed"],
        seats=header["seats"],
        actions=tuple(actions),
        result=header.get("result"),
        position=header.get("position"),
        hinted=header.get("hinted", False),
        lines=where,
    )


def _steps(record: GameRecord, state: State) -> Iterator[ReplayStep]:
    """Apply the record's actions to ``state`` (its new game), checking each one."""
    for index, act in enumerate(record.actions):
        where = f"action {index + 1}"
        current = state.current_player
        if current is None:
            raise RecordError(f"{where}: the game is already over", act.line)
        if act.seat != current:
            raise RecordError(
                f"{where}: the line gives seat {act.seat}, but seat {current} "
                f"({record.seats[current]}) is to decide",
                act.line,
            )
        try:
            action_id = state.string_to_action(act.text)
        except ValueError as exc:
            raise RecordError(f"{where}: unreadable action: {exc}", act.line) from None
        try:
            state.apply(action_id)
        except ValueError as exc:
            raise RecordError(f"{where} (seat {current}): {exc}", act.line) from None
        yield ReplayStep(index, act, action_id, state)
    if record.result is not None:
        _check_result(record.result, state, record.lines.get("result"))


def _check_result_shape(result: RecordResult, players: int, line: int | None) -> None:
    if len(result.scores) != players:
        raise RecordError(
            f"the result has {len(result.scores)} scores for a {players}-player game", line
        )
    if not result.winners or not all(0 <= w < players for w in result.winners):
        raise RecordError(
            f"the result's winners must be seats from 0 to {players - 1}, "
            f"not {list(result.winners)}",
            line,
        )
    for r in result.rounds or ():
        if len(r) != players:
            raise RecordError(
                f"the result has a round with {len(r)} scores for a {players}-player game", line
            )


def _check_result(result: RecordResult, state: State, line: int | None) -> None:
    """Compare a recorded result with the replayed game; raise on any difference."""
    if not state.is_terminal():
        raise RecordError(
            "the record has a result, but the game is not over after its last action", line
        )
    problems = []
    scores = state.scores()
    if list(result.scores) != scores:
        problems.append(f"scores {list(result.scores)} recorded, {scores} replayed")
    winners = state.winners()
    if list(result.winners) != winners:
        problems.append(f"winners {list(result.winners)} recorded, {winners} replayed")
    if result.rounds is not None:
        rounds = round_results(state)
        recorded = [list(r) for r in result.rounds]
        if rounds is None:
            problems.append("round results recorded, but this game does not report them")
        elif recorded != rounds:
            problems.append(f"round results {recorded} recorded, {rounds} replayed")
    if problems:
        raise RecordError("the result does not match the replay: " + "; ".join(problems), line)
