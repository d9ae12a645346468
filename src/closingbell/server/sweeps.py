"""The hub's looks now and then: for games over days out of time, for abandoned tables.

Both look in the database, for tables in memory or not, and act on the server that runs each
table (its lease holder) only: a bot decides for a seat whose time per move ran out, and a
real-time table nobody has been at for long enough ends as abandoned.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Awaitable, Callable

from closingbell.server.accounts import Clock
from closingbell.server.errors import WebError
from closingbell.server.logs import TABLES_LOG
from closingbell.server.settings import Settings
from closingbell.server.store import Store
from closingbell.server.tables import LiveTable

log = logging.getLogger(TABLES_LOG)

OVERDUE_AT_ONCE = 500
"""Games over days looked at, at most, in one look for seats that ran out of time."""

ABANDONED_AT_ONCE = 500
"""Tables looked at, at most, in one look for abandoned tables."""


class Sweeps:
    """The looks for games over days out of time and for abandoned tables, every so often."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Clock,
        get: Callable[[str], Awaitable[LiveTable]],
    ) -> None:
        self.store = store
        """The database."""
        self.settings = settings
        """How the server behaves (``deadline_check``, ``abandon_check``, ``abandon_after``)."""
        self.clock = clock
        """The time now in UTC."""
        self.get = get
        """The table of an id, loaded if not in memory (``Hub.get``)."""
        self._deadlines: asyncio.Task[None] | None = None
        self._abandoned: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Look every ``deadline_check`` and every ``abandon_check`` seconds until :meth:`stop`."""
        self._deadlines = asyncio.create_task(
            self._every(
                lambda: self.settings.deadline_check,
                self.check_deadlines,
                "the games over days could not be checked for deadlines",
            )
        )
        self._abandoned = asyncio.create_task(
            self._every(
                lambda: self.settings.abandon_check,
                self.check_abandoned,
                "the tables could not be checked for abandonment",
            )
        )

    async def stop(self) -> None:
        """Stop looking."""
        for task in (self._deadlines, self._abandoned):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _every(
        self, seconds: Callable[[], float], look: Callable[[], Awaitable[object]], failed: str
    ) -> None:
        """Run ``look`` every ``seconds()`` for ever; a failure is logged as ``failed``."""
        while True:
            await asyncio.sleep(seconds())
            try:
                await look()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away for a while: look again later
                log.exception(failed)

    async def check_deadlines(self) -> list[str]:
        """Let a bot decide for every seat of a game over days that ran out of time.

        Looks in the database for the games whose seat to move is past its deadline, in
        memory or not, loads them and, on the server that runs each (its lease holder),
        has ``STAND_IN_BOT`` make that one decision. Returns once those decisions (and
        the bots' moves that follow) are made: the ids of the tables this server played.
        """
        played: list[str] = []
        drivers: list[asyncio.Task[None]] = []
        for table_id in await self.store.tables.overdue(self.clock(), OVERDUE_AT_ONCE):
            try:
                table = await self.get(table_id)
            except WebError:
                continue  # unavailable (logged once) or gone
            if not table.owner or not table.overdue():
                continue
            table.kick()
            played.append(table_id)
            if table.driver.task is not None:
                drivers.append(table.driver.task)
        if drivers:
            await asyncio.wait(drivers)
        return played

    async def check_abandoned(self) -> list[str]:
        """End the real-time tables that nobody has been at for ``abandon_after`` seconds.

        Looks in the database for the unfinished tables with people seated or awaited whose
        last action, join or person leaving is that old, in memory or not, loads them and, on
        the server that runs each (its lease holder), ends those with nobody connected
        (:meth:`LiveTable.abandon_if_left`). Returns the ids of the tables ended here.
        """
        after = self.settings.abandon_after
        if after <= 0:
            return []
        before = self.clock() - dt.timedelta(seconds=after)
        ended: list[str] = []
        for table_id in await self.store.tables.abandoned(before, ABANDONED_AT_ONCE):
            try:
                table = await self.get(table_id)
            except WebError:
                continue  # unavailable (logged once) or gone
            if await table.abandon_if_left():
                ended.append(table_id)
        return ended
