"""A puzzle as data, and the JSON Lines file that holds many (docs/puzzles.md).

A puzzle is one decision of a real game, written as the game's position text and the seat
that decides there, with the best action and what every legal action is worth from what
that seat could see. A file of puzzles has one JSON object per line; reading one checks
every field and refuses a bad line with :class:`PuzzleFormatError`, naming the line.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from closingbell.bots.analysis import HORIZONS
from closingbell.core.errors import ClosingbellError
from closingbell.core.game import Game, State
from closingbell.core.registry import available_games, game_class
from closingbell.core.view import View
from closingbell.text.i18n import LANGS

FORMAT = 1
"""The version of the puzzle format written (the ``format`` of every line)."""

SHIPPED_DIR = Path(__file__).resolve().parent / "data"
"""The puzzles closingbell ships, one file per game (``<game>.jsonl``), made by the project
from its bots' games (docs/puzzles.md, "The puzzles shipped")."""

MAX_LINE_CHARS = 1 << 16
"""The longest line a puzzle file may have: far more than the largest puzzle needs."""


class PuzzleFormatError(ClosingbellError, ValueError):
    """A puzzle or a puzzle file that cannot be read; ``line`` says where (from 1)."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(reason if line is None else f"line {line}: {reason}")


@dataclass(frozen=True)
class Worth:
    """What one legal action is worth to the deciding seat, over the checking worlds.

    Each figure is ``(mean, low, high)``: the mean and its 95% interval.
    """

    action: int
    """The action id."""
    margin: tuple[float, float, float]
    """The seat's final score less the best other seat's, after this action."""
    win: tuple[float, float, float]
    """The seat's chance of winning after this action."""
    behind: tuple[float, float, float]
    """How much less final margin this action gives than the best action, world by world
    (zeros for the best action)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready form."""
        return {
            "action": self.action,
            "margin": list(self.margin),
            "win": list(self.win),
            "behind": list(self.behind),
        }


@dataclass(frozen=True)
class Puzzle:
    """One decision with a clearly best action, as the deciding seat saw it."""

    game: str
    """The registered name of the game."""
    version: int
    """The game's rules version the puzzle was made with."""
    options: Mapping[str, Any] = field(hash=False)
    """The rules options, ``players`` among them, as JSON-ready data."""
    position: str
    """The position (docs/positions.md), one line, canonical."""
    seat: int
    """The seat that decides (from 0)."""
    best: int
    """The action the puzzle asks for."""
    worths: tuple[Worth, ...]
    """Every legal action, best first."""
    themes: tuple[str, ...]
    """What the puzzle is about (:mod:`closingbell.puzzles.themes`)."""
    reason: Mapping[str, str] = field(hash=False)
    """Why the best action beats the next best, by language."""
    worlds: int
    """How many worlds each of the analyses dealt."""
    source: str
    """Where the decision comes from (a self-play deal or a record)."""
    horizon: str = "game"
    """Where the analyses' play-outs stopped: ``"game"``, so margins and wins are final, or
    ``"round"`` (Take Stock), so they are standings and the lead at the round's end."""

    @property
    def id(self) -> str:
        """A short name of the puzzle that depends only on its game, options, position and seat."""
        text = json.dumps([self.game, dict(self.options), self.position, self.seat], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @property
    def lead(self) -> float:
        """The best action's mean lead over the next best, in the game's unit."""
        return -self.worths[1].behind[0] if len(self.worths) > 1 else math.inf

    def make_game(self) -> Game:
        """The game with the puzzle's options."""
        cls = game_class(self.game)
        return cls(**cls.options_for_version(self.version, self.options))

    def state(self, game: Game | None = None) -> State:
        """The position as a state (it holds cards the seat cannot see: never show it)."""
        return (game or self.make_game()).state_from_position(self.position)

    def view(self, game: Game | None = None) -> View:
        """What the deciding seat sees: all a player is shown of the puzzle."""
        return self.state(game).view(self.seat)

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready form, one line of a puzzle file."""
        return {
            "format": FORMAT,
            "id": self.id,
            "game": self.game,
            "version": self.version,
            "options": dict(self.options),
            "position": self.position,
            "seat": self.seat,
            "best": self.best,
            "worths": [w.to_json() for w in self.worths],
            "themes": list(self.themes),
            "reason": dict(self.reason),
            "worlds": self.worlds,
            "source": self.source,
            **({} if self.horizon == "game" else {"horizon": self.horizon}),
        }

    @classmethod
    def from_json(cls, data: object, line: int | None = None) -> Puzzle:
        """Read a puzzle, checking every field and that the position is the game's.

        Raises :class:`PuzzleFormatError` naming what is wrong: a missing or unknown
        field, a value of the wrong kind, options or a position the game refuses, a seat
        that does not decide there, or actions that are not the position's legal ones.
        """
        return _read(data, line)


KEYS = (
    "format",
    "id",
    "game",
    "version",
    "options",
    "position",
    "seat",
    "best",
    "worths",
    "themes",
    "reason",
    "worlds",
    "source",
)
"""The fields of a puzzle's JSON, all required."""

OPTIONAL_KEYS = ("horizon",)
"""The fields a puzzle's JSON may leave out: ``horizon`` is ``"game"`` when it is absent."""


def _int(data: Mapping[str, Any], key: str, line: int | None) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleFormatError(f"{key} must be a whole number, not {value!r}", line)
    return value


def _str(data: Mapping[str, Any], key: str, line: int | None) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise PuzzleFormatError(f"{key} must be text, not {type(value).__name__}", line)
    return value


def _triple(value: object, what: str, line: int | None) -> tuple[float, float, float]:
    ok = (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)
        and all(math.isfinite(x) for x in value)
    )
    if not ok:
        raise PuzzleFormatError(f"{what} must be [mean, low, high] of numbers", line)
    assert isinstance(value, list)
    mean, low, high = (float(x) for x in value)
    if not low <= mean <= high:
        raise PuzzleFormatError(f"{what} must be [mean, low, high] with low <= mean <= high", line)
    return mean, low, high


def _read(data: object, line: int | None) -> Puzzle:
    if not isinstance(data, dict):
        raise PuzzleFormatError(f"a puzzle is a JSON object, not {type(data).__name__}", line)
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise PuzzleFormatError(f"missing field {missing[0]!r}", line)
    unknown = sorted(k for k in data if k not in KEYS and k not in OPTIONAL_KEYS)
    if unknown:
        raise PuzzleFormatError(f"unknown field {unknown[0]!r}", line)
    if data["format"] != FORMAT:
        raise PuzzleFormatError(f"format {data['format']!r} is not {FORMAT}", line)
    name = _str(data, "game", line)
    if name not in available_games():
        raise PuzzleFormatError(f"no game {name!r} (known: {', '.join(available_games())})", line)
    options = data["options"]
    if not isinstance(options, dict):
        raise PuzzleFormatError("options must be a JSON object", line)
    version = _int(data, "version", line)
    position = _str(data, "position", line)
    seat = _int(data, "seat", line)
    best = _int(data, "best", line)
    worlds = _int(data, "worlds", line)
    if worlds < 2:
        raise PuzzleFormatError("worlds must be at least 2", line)
    source = _str(data, "source", line)
    horizon = _str(data, "horizon", line) if "horizon" in data else "game"
    if horizon not in HORIZONS:
        raise PuzzleFormatError(f"horizon must be one of {', '.join(HORIZONS)}", line)
    if HORIZONS[horizon] not in (None, name):
        raise PuzzleFormatError(f"{name} has no horizon {horizon!r}", line)
    themes = data["themes"]
    if not isinstance(themes, list) or not all(isinstance(t, str) for t in themes):
        raise PuzzleFormatError("themes must be a list of names", line)
    reason = data["reason"]
    if not isinstance(reason, dict) or sorted(reason) != sorted(LANGS):
        raise PuzzleFormatError(f"reason must give a sentence in each of {', '.join(LANGS)}", line)
    if not all(isinstance(r, str) and r for r in reason.values()):
        raise PuzzleFormatError("each reason must be a sentence", line)
    raw = data["worths"]
    if not isinstance(raw, list) or len(raw) < 2:
        raise PuzzleFormatError("worths must list every legal action (at least two)", line)
    worths = []
    for i, w in enumerate(raw):
        if not isinstance(w, dict) or sorted(w) != ["action", "behind", "margin", "win"]:
            raise PuzzleFormatError(f"worths[{i}] must have action, margin, win and behind", line)
        worths.append(
            Worth(
                action=_int(w, "action", line),
                margin=_triple(w["margin"], f"worths[{i}].margin", line),
                win=_triple(w["win"], f"worths[{i}].win", line),
                behind=_triple(w["behind"], f"worths[{i}].behind", line),
            )
        )
    puzzle = Puzzle(
        game=name,
        version=version,
        options=options,
        position=position,
        seat=seat,
        best=best,
        worths=tuple(worths),
        themes=tuple(themes),
        reason=reason,
        worlds=worlds,
        source=source,
        horizon=horizon,
    )
    try:
        game = puzzle.make_game()
        state = puzzle.state(game)
    except ClosingbellError as exc:
        raise PuzzleFormatError(f"the game refuses the puzzle: {exc}", line) from None
    if state.current_player != seat:
        raise PuzzleFormatError(f"seat {seat} does not decide in this position", line)
    legal = sorted(state.legal_actions())
    if sorted(w.action for w in worths) != legal:
        raise PuzzleFormatError("worths must list the position's legal actions, each once", line)
    if worths[0].action != best:
        raise PuzzleFormatError("the best action must come first in worths", line)
    if data["id"] != puzzle.id:
        raise PuzzleFormatError(f"id {data['id']!r} is not the puzzle's ({puzzle.id})", line)
    return puzzle


def read_puzzles(path: str | Path) -> list[Puzzle]:
    """Every puzzle of a JSON Lines file; :class:`PuzzleFormatError` for a bad line.

    Blank lines are skipped; a puzzle given twice (the same id) is refused.
    """
    return list(iter_puzzles(path))


def iter_puzzles(path: str | Path) -> Iterator[Puzzle]:
    """The puzzles of a JSON Lines file, one by one (see :func:`read_puzzles`)."""
    seen: set[str] = set()
    with open(path, encoding="utf-8") as file:
        for number, text in enumerate(file, start=1):
            if len(text) > MAX_LINE_CHARS:
                raise PuzzleFormatError(f"longer than {MAX_LINE_CHARS} characters", number)
            if not text.strip():
                continue
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise PuzzleFormatError(f"not JSON: {exc.msg}", number) from None
            puzzle = Puzzle.from_json(data, number)
            if puzzle.id in seen:
                raise PuzzleFormatError(f"puzzle {puzzle.id} is given twice", number)
            seen.add(puzzle.id)
            yield puzzle


def shipped_files() -> list[Path]:
    """The files of the puzzles closingbell ships, in name order."""
    return sorted(SHIPPED_DIR.glob("*.jsonl"))


def write_puzzles(path: str | Path, puzzles: Iterable[Puzzle]) -> int:
    """Write ``puzzles`` as JSON Lines to ``path``; returns how many were written."""
    count = 0
    with open(path, "w", encoding="utf-8") as file:
        for puzzle in puzzles:
            file.write(dumps(puzzle) + "\n")
            count += 1
    return count


def dumps(puzzle: Puzzle) -> str:
    """One puzzle as one line of JSON."""
    return json.dumps(puzzle.to_json(), ensure_ascii=False, separators=(",", ":"))


def worth_of(found: Sequence[Any]) -> tuple[Worth, ...]:
    """``Worth`` for each ``ActionValue`` of an analysis, rounded for storing."""
    out = []
    for v in found:
        out.append(
            Worth(
                action=v.action,
                margin=_rounded(v.margin.mean, v.margin.low, v.margin.high),
                win=_rounded(v.win.mean, max(0.0, v.win.low), min(1.0, v.win.high), 4),
                behind=_rounded(v.behind.mean, v.behind.low, v.behind.high),
            )
        )
    return tuple(out)


def _rounded(mean: float, low: float, high: float, places: int = 3) -> tuple[float, float, float]:
    # A single world leaves an infinite interval; puzzles come from many.
    return (round(mean, places), round(min(low, mean), places), round(max(high, mean), places))
