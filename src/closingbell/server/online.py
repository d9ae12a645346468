"""Who is online: the pages of the site that said so lately.

Every page of the site (the lobby, a table) sends a heartbeat, ``GET /api/online`` with the
browser's visitor id (a random id it keeps in ``localStorage``), every 10 to 20 seconds; a
visitor counts as online for ``Settings.online_window`` seconds after its last one. A person
with several pages open in one browser counts once, signed in or not, playing, watching or
in the lobby. Each server counts the visitors it heard: behind a proxy that keeps a browser
on one server, each counts its own.
"""

from __future__ import annotations

VISITORS_KEPT = 100_000
"""Visitors remembered at most; a new id beyond them is not counted (a flood of made-up ids
costs bounded memory)."""


class Visitors:
    """The visitors heard lately, by id, with when each was last heard."""

    def __init__(self, window: float, kept: int = VISITORS_KEPT) -> None:
        self.window = window
        """Seconds a visitor counts as online after its last heartbeat."""
        self.kept = kept
        """Visitors remembered at most."""
        self.seen: dict[str, float] = {}
        """When (a monotonic time) each visitor was last heard, the least recent first."""

    def saw(self, visitor: str, now: float) -> None:
        """Note a heartbeat of ``visitor`` at ``now``."""
        self.forget(now)
        if visitor in self.seen:
            del self.seen[visitor]  # to the end: the dict stays ordered by time
        elif len(self.seen) >= self.kept:
            return
        self.seen[visitor] = now

    def count(self, now: float) -> int:
        """How many visitors were heard within the window before ``now``."""
        self.forget(now)
        return len(self.seen)

    def forget(self, now: float) -> None:
        """Forget the visitors last heard before the window."""
        for visitor, at in list(self.seen.items()):
            if at > now - self.window:
                break
            del self.seen[visitor]
