"""Which tables the server keeps in memory: idle and finished ones leave, and come back.

Every table is in the database; memory holds the ones in use. A table leaves memory once
nobody has used it for a while (:attr:`~closingbell.server.settings.Settings.table_idle`,
``finished_idle`` once the game is over), and whenever more than ``tables_in_memory`` are
held the longest unused go first. ``Hub.get`` brings a table back on demand by replaying
its actions, as after a restart. A table is never dropped while it is busy (a connection,
a bot or stand-in about to move, an armed turn clock, a change under way: see
``LiveTable.busy``), nor within :data:`GRACE` seconds of its last use. A dropped table is
marked ``gone``: a WebSocket that fetched it and has not yet said ``hello`` is then told to
connect again rather than attached to it (HTTP routes never wait between fetching a table
and using it).

What the database does not hold, whether a seat's player was stood in for and who made
the last action (``last_action.by`` is ``stand_in``), is noted when a table leaves and put
back when it returns, so that it comes back exactly as it was (the notes are a few bytes a
table, and bounded).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from closingbell.server.protocol import LastAction
from closingbell.server.settings import Settings

log = logging.getLogger(__name__)

SWEEP_EVERY = 10.0
"""The longest time between two looks for tables to drop, in seconds."""
OVER_LIMIT_EVERY = 0.5
"""The longest time between two looks while more than ``tables_in_memory`` are held."""
GRACE = 2.0
"""Seconds a table stays after its last use, at least (``hello_timeout`` if shorter): time
for a new WebSocket to say ``hello``."""
NOTES_PER_TABLE = 10
"""Notes kept about tables out of memory, per table ``tables_in_memory`` allows."""


@dataclass(frozen=True)
class _Note:
    """What a table out of memory would otherwise lose."""

    stand_ins: tuple[bool, ...]
    last_action: LastAction | None


class HeldSeat(Protocol):
    """A seat as memory sees it."""

    stand_in: bool
    """Whether a bot is playing for this absent player."""


class Held(Protocol):
    """A live table as memory sees it."""

    used: float
    """When (event-loop time) the table was last fetched or busy."""
    gone: bool
    """Whether the table has left memory."""
    last_action: LastAction | None
    """The last action played, if any."""

    @property
    def id(self) -> str:
        """The table's id."""
        ...

    @property
    def busy(self) -> bool:
        """Whether the table must stay in memory."""
        ...

    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``finished`` or ``abandoned``."""
        ...

    @property
    def seats(self) -> Sequence[HeldSeat]:
        """Every seat."""
        ...

    def close(self) -> None:
        """Stop the table's bots and clock, and end its connections' writers."""


T = TypeVar("T", bound=Held)


class TableMemory(Generic[T]):
    """Drops unused tables from ``tables`` and puts back what the database lacks."""

    def __init__(
        self, tables: dict[str, T], settings: Settings, dropped: Callable[[T], None]
    ) -> None:
        self.tables = tables
        """The server's tables in memory, by id."""
        self.settings = settings
        """How the server behaves."""
        self.on_drop = dropped
        """Called with each table dropped, once it has left memory (its lease goes)."""
        self.dropped = 0
        """Tables dropped from memory so far."""
        self._notes: OrderedDict[str, _Note] = OrderedDict()
        self._task: asyncio.Task[None] | None = None

    @property
    def grace(self) -> float:
        """Seconds a table stays in memory after its last use, whatever the settings."""
        return min(GRACE, self.settings.hello_timeout)

    @property
    def every(self) -> float:
        """Seconds between two sweeps."""
        s = self.settings
        return max(0.01, min(SWEEP_EVERY, s.table_idle / 4, s.finished_idle / 4))

    def start(self) -> None:
        """Sweep now and then until :meth:`stop`."""
        if self._task is None:
            self._task = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        """Stop sweeping."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _sweep_forever(self) -> None:
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            await asyncio.sleep(min(self.every, OVER_LIMIT_EVERY))
            over = len(self.tables) > self.settings.tables_in_memory
            if not over and loop.time() - last < self.every:
                continue
            last = loop.time()
            try:
                self.sweep()
            except Exception:  # a failed sweep must not end the sweeping
                log.exception("tables could not be dropped from memory")

    def sweep(self) -> int:
        """Drop every table unused for long enough, then the longest unused over the limit.

        Returns how many were dropped. A busy table counts as used now.
        """
        s = self.settings
        now = asyncio.get_running_loop().time()
        idle: list[T] = []
        for table in self.tables.values():
            if table.busy:
                table.used = now
            elif now - table.used >= self.grace:
                idle.append(table)
        idle.sort(key=lambda t: t.used)
        excess = len(self.tables) - s.tables_in_memory
        dropped = 0
        for table in idle:
            over = table.status in ("finished", "abandoned")
            limit = s.finished_idle if over else s.table_idle
            if dropped < excess or now - table.used >= limit:
                self._drop(table)
                dropped += 1
        self.dropped += dropped
        return dropped

    def _drop(self, table: T) -> None:
        stand_ins = tuple(seat.stand_in for seat in table.seats)
        last = table.last_action
        if any(stand_ins) or (last is not None and last.by == "stand_in"):
            self._notes[table.id] = _Note(stand_ins, last)
            self._notes.move_to_end(table.id)
            while len(self._notes) > NOTES_PER_TABLE * max(1, self.settings.tables_in_memory):
                self._notes.popitem(last=False)
        del self.tables[table.id]
        table.gone = True
        table.close()
        self.on_drop(table)  # its lease goes, for a server still using it

    def restore(self, table: T) -> None:
        """Put back what ``table`` had in memory and the database lacks (see the module)."""
        note = self._notes.pop(table.id, None)
        if note is None or len(note.stand_ins) != len(table.seats):
            return
        for seat, stand_in in zip(table.seats, note.stand_ins, strict=True):
            seat.stand_in = stand_in
        if note.last_action is not None and table.last_action is not None:
            same = (note.last_action.seat, note.last_action.id)
            if same == (table.last_action.seat, table.last_action.id):
                table.last_action = note.last_action
