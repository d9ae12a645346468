"""Signals while a game runs at the terminal: a hang-up or a request to stop saves and goes.

SIGHUP (the terminal went away) and SIGTERM (the process was asked to stop) become
:class:`Hangup`, which the session catches like a quit, so the game is saved first.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any


class Hangup(Exception):
    """The terminal went away (SIGHUP) or the process was asked to stop (SIGTERM)."""


def _raise_hangup(signum: int, frame: FrameType | None) -> None:
    raise Hangup


@contextlib.contextmanager
def hangup_handlers() -> Iterator[None]:
    """Turn SIGHUP and SIGTERM into ``Hangup`` while a game runs (main thread only)."""
    saved: dict[int, Any] = {}
    for name in ("SIGHUP", "SIGTERM"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        with contextlib.suppress(ValueError):
            saved[sig] = signal.signal(sig, _raise_hangup)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
