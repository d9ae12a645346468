"""Game results as CSV: one row per game, wide per-seat columns, appended game by game.

The file is plain CSV with a header line (``pandas.read_csv`` and ``polars.read_csv`` read it
as it is). Rows are appended in the order games finish, so they need not be sorted by
``index``. A run that finds its file already there checks that every row belongs to the
same settings, drops a last line cut short by an interruption, and skips the games the
file holds.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from closingbell.sim.play import GameResult, Plan
from closingbell.sim.specs import SimulationError

GAME_COLUMNS = (
    "index",
    "game",
    "options",
    "table",
    "deal",
    "deal_seed",
    "rotation",
    "players",
    "rounds",
    "length",
    "duration",
    "facts",
)
"""The columns about the whole game, before the per-seat ones."""
LEGACY_COLUMNS = GAME_COLUMNS[:-1]
"""The game columns of files written before ``facts`` was recorded: such a file is still
read and resumed, its new rows written without facts."""
SEAT_FIELDS = ("bot", "score", "win")
"""Each seat's columns, ``seat{N}_bot``, ``seat{N}_score`` and ``seat{N}_win``."""


def columns(players: int, *, facts: bool = True) -> list[str]:
    """The header of a results file for ``players`` seats (``facts=False``: an older file's)."""
    seats = [f"seat{s}_{f}" for s in range(players) for f in SEAT_FIELDS]
    return [*(GAME_COLUMNS if facts else LEGACY_COLUMNS), *seats]


def to_row(result: GameResult, *, facts: bool = True) -> list[str]:
    """One game as the cells of a CSV row (``facts=False``: for an older file)."""
    cells = [
        str(result.index),
        result.game,
        result.options,
        str(result.table),
        str(result.deal),
        str(result.deal_seed),
        str(result.rotation),
        str(result.players),
        str(result.rounds),
        str(result.length),
        f"{result.duration:.6f}",
        *([result.facts] if facts else []),
    ]
    for bot, score, win in zip(result.bots, result.scores, result.wins, strict=True):
        cells += [bot, str(score), repr(win)]
    return cells


def from_row(row: dict[str, str]) -> GameResult:
    """A game back from a CSV row (keyed by column)."""
    players = int(row["players"])
    return GameResult(
        index=int(row["index"]),
        game=row["game"],
        options=row["options"],
        table=int(row["table"]),
        deal=int(row["deal"]),
        rotation=int(row["rotation"]),
        deal_seed=int(row["deal_seed"]),
        bots=tuple(row[f"seat{s}_bot"] for s in range(players)),
        scores=tuple(int(row[f"seat{s}_score"]) for s in range(players)),
        wins=tuple(float(row[f"seat{s}_win"]) for s in range(players)),
        rounds=int(row["rounds"]),
        length=int(row["length"]),
        duration=float(row["duration"]),
        facts=row.get("facts") or "",
    )


def read_results(path: str | os.PathLike[str]) -> list[GameResult]:
    """Every complete game in a results file, sorted by index."""
    text = Path(path).read_text(encoding="utf-8")
    return sorted(_parse(path, _complete_lines(text)), key=lambda r: r.index)


def _complete_lines(text: str) -> str:
    """``text`` without a last line that an interruption cut short."""
    if text and not text.endswith("\n"):
        return text[: text.rfind("\n") + 1]
    return text


def _parse(path: str | os.PathLike[str], text: str) -> Iterator[GameResult]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    for line, row in enumerate(reader, start=2):
        try:
            yield from_row(row)
        except (KeyError, TypeError, ValueError) as exc:
            raise SimulationError(f"{path}, line {line}: not a game result ({exc})") from None


def _mismatch(result: GameResult, plan: Plan) -> str | None:
    """What differs between a game read from a file and the plan's game of that index."""
    task = plan.task(result.index)
    checks = (
        ("game", result.game, task.game),
        ("options", result.options, task.options),
        ("players", result.players, len(task.bots)),
        ("deal_seed", result.deal_seed, task.deal_seed),
        ("rotation", result.rotation, task.rotation),
        ("table", result.table, task.table),
        ("bots", result.bots, task.bots),
    )
    for name, found, wanted in checks:
        if found != wanted:
            return f"{name} is {found!r} there, {wanted!r} in this run"
    return None


class ResultsFile:
    """A results file opened for appending, holding the games already finished."""

    def __init__(self, path: str | os.PathLike[str], plan: Plan) -> None:
        self.path = Path(path)
        """Where the results go."""
        self.finished: dict[int, GameResult] = {}
        """The games the file held when it was opened, by index."""
        header = columns(plan.players)
        self.facts = True
        """Whether rows carry the ``facts`` column (not in a file written before it)."""
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        kept = _complete_lines(text)
        if kept:
            found = next(csv.reader(io.StringIO(kept, newline="")), [])
            if found == columns(plan.players, facts=False):
                self.facts = False
            elif found != header:
                raise SimulationError(
                    f"{self.path} is not a results file of this run's shape "
                    f"(its columns are not those of {plan.players} seats); "
                    "use another --out file"
                )
            for result in _parse(self.path, kept):
                problem = _mismatch(result, plan)
                if problem:
                    raise SimulationError(
                        f"{self.path} holds games of other settings (game {result.index}: "
                        f"{problem}); use the same settings to resume, or another --out file"
                    )
                self.finished[result.index] = result
        if kept != text:
            with self.path.open("r+b") as f:
                f.truncate(len(kept.encode("utf-8")))
        self._file: IO[str] = self.path.open("a", encoding="utf-8", newline="")
        self._writer = csv.writer(self._file, lineterminator="\n")
        if not kept:
            self._writer.writerow(header)
            self._file.flush()

    def write(self, result: GameResult) -> None:
        """Append one game and flush it to disk."""
        self._writer.writerow(to_row(result, facts=self.facts))
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def write_results(path: str | os.PathLike[str], results: Iterable[GameResult]) -> None:
    """Write games to a new results file (replacing any file there)."""
    items = list(results)
    players = items[0].players if items else 0
    with Path(path).open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(columns(players))
        writer.writerows(to_row(r) for r in items)
