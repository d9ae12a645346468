"""Where and how the terminal saves its games: the record file, written whole every time."""

from __future__ import annotations

import contextlib
import os
import tempfile
from datetime import datetime
from pathlib import Path

from closingbell.core.game import Game, State
from closingbell.core.records import EXTENSION, RecordedAction


def data_dir() -> Path:
    """Where games are saved unless ``--save`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "closingbell" / "games"


def default_record_path(game_name: str, seed: int) -> Path:
    """A new file name for a game, made of the game, the date and time, and the seed."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = data_dir()
    path = folder / f"{game_name}-{stamp}-{seed}{EXTENSION}"
    n = 2
    while path.exists():
        path = folder / f"{game_name}-{stamp}-{seed}-{n}{EXTENSION}"
        n += 1
    return path


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def recorded_actions(game: Game, state: State, fresh: State) -> list[RecordedAction]:
    """The record lines of ``state``'s history, replayed on ``fresh`` to learn the seats.

    ``fresh`` is the game's first state: the deal, or the position it started from.
    """
    out = []
    for action in state.history:
        seat = fresh.current_player
        assert seat is not None
        out.append(RecordedAction(seat, game.action_to_string(action)))
        fresh.apply(action)
    return out
