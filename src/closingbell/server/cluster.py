"""Several servers on one PostgreSQL database: leases, notices and take-overs.

Any number of ``closingbell serve`` processes may share a PostgreSQL database, behind a
proxy with no sticky sessions: a client connected to any of them plays or watches any
table. Each server keeps in memory the tables its clients use, and every copy of a table
follows the same list of actions, the database's:

- **Actions.** Any server applies an action of its own clients' under the version rule:
  the action is stored only if the table's stored version is the one the server applied
  it to (``ActionRepository.append``), so two servers never store two actions at the same
  version; the one refused catches up from the database and tells its client that the
  state moved on (``stale_version``). The commit also sends a notice (PostgreSQL's
  ``NOTIFY``, delivered at the commit and only then) from which every other server with
  the table in memory applies the action and sends its own clients their views.
- **Leases.** Bots and turn clocks run on one server only: the holder of the table's row
  in ``leases``. A server takes a table's lease when it creates or loads the table and
  nobody live holds it; a lease is live while its server's row in ``servers`` has a
  heartbeat younger than the lease time (``Settings.lease_seconds``). A server killed
  outright stops beating; within a lease time the others take its tables over, the ones
  they hold in memory first, and share out the rest (all-bot tables keep playing).
- **Presence.** Whether a seat is connected (shown to everyone, and what starts a turn
  clock) counts the seat's connections on every server: each server tells the others of
  its own counts for a table when they change, and when a server loads a table it asks.
- **Hand-over.** A server that stops (SIGTERM) hands its leases over (``server`` set to
  ``NULL``) and says so; the servers that hold those tables take them at once, and the
  others share out the rest.
- **Chat and rematches.** A chat message's notice carries the whole message, which every
  other server holding the table sends its clients; a rematch vote's notice names the
  table, whose votes (and rematch, once open) the others read again from the database.
- **Sessions.** A session revoked on one server (signed out, its password changed) is named
  in a notice, and every server closes the WebSockets opened with it.
- **Abandoned tables.** The lease holder of a table nobody has been at for long enough ends
  it (``Sweeps.check_abandoned``), with a notice naming the table, from which the others show
  it ended.
- **Hints.** A hint taken at a practice table is stored (``tables.hints_used``) with a
  notice naming the table, so that every server shows the table as hinted; its ratings do
  not hang on the notice, since the last action's transaction reads the stored flag.

Every notice carries its sender's id; a server that misses notices (its listening
connection broke) finds out by comparing its tables' versions with the database's every
few heartbeats, and catches up. SQLite serves one process: :class:`Solo` owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import random
import secrets
import socket
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from closingbell.server.errors import WebError
from closingbell.server.metrics import Metrics
from closingbell.server.notices import (
    Actions,
    Ask,
    Bye,
    Here,
    Note,
    Release,
    Revoke,
    StandIn,
    TableNotice,
    fields,
    read,
)
from closingbell.server.store import Store
from closingbell.server.store.database import NOTICE_CHANNEL, notice_chunks
from closingbell.server.store.schema import servers_table

log = logging.getLogger(__name__)

CHECK_EVERY = 5
"""Heartbeats between two comparisons of the tables in memory with the database."""
ORPHANS_AT_ONCE = 500
"""Tables looked at, at most, in one search for tables to take over."""
FORGET_SERVERS_AFTER = 3600.0
"""Seconds after which the row of a server that stopped beating is deleted."""

_LIVE = "s.heartbeat > now() - (:ttl * interval '1 second')"
"""The SQL test that server ``s`` is alive."""

CLAIM = sa.text(
    "INSERT INTO leases (table_id, server, since) VALUES (:table, :me, now()) "
    "ON CONFLICT (table_id) DO UPDATE SET server = :me, since = now() "
    "WHERE leases.server IS NULL OR leases.server = :me OR NOT EXISTS "
    f"(SELECT 1 FROM servers s WHERE s.id = leases.server AND {_LIVE}) "
    "RETURNING (xmax = 0) AS fresh"
)
"""Take a table's lease unless a live server holds it; returns a row if taken, whose
``fresh`` says the lease is new (no server had it before)."""

ORPHANS = sa.text(
    "SELECT l.table_id FROM leases l JOIN tables t ON t.id = l.table_id "
    "WHERE t.status NOT IN ('finished', 'abandoned') AND (l.server IS NULL OR NOT EXISTS "
    f"(SELECT 1 FROM servers s WHERE s.id = l.server AND {_LIVE})) "
    "LIMIT :limit"
)
"""Tables not over whose lease is handed over or held by a dead server."""

LIVE_SERVERS = sa.text(f"SELECT s.id FROM servers s WHERE {_LIVE}")
"""The servers alive."""

FORGET_LEASES = sa.text(
    "DELETE FROM leases l USING tables t WHERE t.id = l.table_id "
    "AND t.status IN ('finished', 'abandoned') "
    "AND (l.server IS NULL OR NOT EXISTS "
    f"(SELECT 1 FROM servers s WHERE s.id = l.server AND {_LIVE}))"
)
"""Forget the leases of tables over that no live server holds (nothing to run)."""

FORGET_SERVERS = sa.text(
    "DELETE FROM servers WHERE heartbeat < now() - (:forget * interval '1 second')"
)
"""Forget the servers that stopped beating long ago."""


class Present(Protocol):
    """A seat as the cluster sees it."""

    @property
    def connections(self) -> int:
        """Live connections holding the seat's token, on this server."""
        ...


class Follower(Protocol):
    """A live table as the cluster sees it: what it tells the table, and what it reads."""

    @property
    def id(self) -> str:
        """The table's id."""
        ...

    @property
    def version(self) -> int:
        """The number of actions played."""
        ...

    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``finished`` or ``abandoned``."""
        ...

    @property
    def seats(self) -> Sequence[Present]:
        """Every seat."""
        ...

    def catch_up_later(self, notes: list[Note] | None = None) -> None:
        """Apply actions other servers committed (``notes``, else the stored ones)."""

    def refresh_seats_later(self) -> None:
        """Read the seats as stored."""

    def heard_presence(self, server: str, counts: list[int] | None) -> None:
        """Another server's connections to each seat (``None``: it is gone)."""

    def hear(self, notice: TableNotice, sender: str) -> None:
        """A notice about the table from the server ``sender``."""

    def owner_changed(self) -> None:
        """Start or stop the bots and clock: this server took the lease, or lost it."""


class Tables(Protocol):
    """The server's set of tables as the cluster sees it."""

    @property
    def tables(self) -> Mapping[str, Follower]:
        """Tables in memory, by id."""
        ...

    @property
    def metrics(self) -> Metrics:
        """What the server counts."""
        ...

    def get(self, table_id: str) -> Awaitable[object]:
        """Load the table ``table_id`` (raises :class:`WebError` if it cannot be)."""
        ...

    def sessions_revoked(self, digests: list[str], *, tell: bool = True) -> None:
        """Close the WebSockets opened with the sessions ``digests``."""


class Solo:
    """A server alone on its database (SQLite): it owns every table and tells nobody."""

    shared = False
    """Whether other servers may share the database."""
    server_id = "solo"
    """This server's id."""

    def owns(self, table_id: str) -> bool:
        """Whether this server runs ``table_id``'s bots and turn clock."""
        return True

    @property
    def alone(self) -> bool:
        """Whether no other server shares the database (none may)."""
        return True

    async def start(self, hub: Tables) -> None:
        """Start following the other servers (alone: nothing to do)."""

    async def loaded(self, table: Follower) -> None:
        """``table`` has just been loaded or created here."""

    def dropped(self, table: Follower) -> None:
        """``table`` has just left memory here."""

    def presence(self, table: Follower) -> None:
        """Say that the connections to ``table``'s seats on this server changed."""

    def stand_in(self, table: Follower, seat: int) -> None:
        """A bot now stands in for ``table``'s seat ``seat``."""

    def revoked(self, sessions: list[str]) -> None:
        """The sessions ``sessions`` (their SHA-256) were revoked here."""

    async def hand_over(self) -> None:
        """Give up every table, for other servers to take (a stopping server)."""

    async def stop(self) -> None:
        """Stop listening and beating."""


class Cluster(Solo):
    """A server sharing a PostgreSQL database with others (see the module)."""

    shared = True

    def __init__(self, store: Store, lease_seconds: float) -> None:
        if not lease_seconds > 0:
            raise ValueError(f"the lease time must be more than 0 seconds, not {lease_seconds}")
        self.store = store
        """The shared database."""
        self.lease_seconds = lease_seconds
        """Seconds without a heartbeat after which a server's tables are taken over."""
        self.beat = max(0.05, lease_seconds / 5)
        """Seconds between two heartbeats."""
        self.server_id = secrets.token_hex(8)
        self.owned: set[str] = set()
        """The tables whose lease this server holds."""
        self.live: set[str] = set()
        """The servers alive at the last heartbeat (this one among them)."""
        self.hub: Tables | None = None
        self._listener: Any = None
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._beats = 0
        self._stopping = False
        self._behind: dict[str, int] = {}
        """Tables found behind the database at the last comparison, with its version."""

    # ------------------------------------------------------------ life

    async def start(self, hub: Tables) -> None:
        """Register, listen, then take up the tables nobody runs."""
        self.hub = hub
        async with self.store.engine.begin() as conn:
            await self._register(conn)
        self.store.notify_as = self.server_id
        await self._listen()
        self.live = await self._live_servers()
        self._tasks = [
            asyncio.create_task(self._send_forever()),
            asyncio.create_task(self._beat_forever()),
        ]
        await self._take_over()

    async def _register(self, conn: Any) -> None:
        """Add this server's row to ``servers``, beating now."""
        now = sa.func.now()
        await conn.execute(
            servers_table.insert().values(
                id=self.server_id,
                host=socket.gethostname()[:255],
                pid=os.getpid(),
                started_at=now,
                heartbeat=now,
            )
        )

    async def _listen(self) -> None:
        import asyncpg  # type: ignore[import-untyped]  # noqa: PLC0415 (the web extra's driver)

        url = make_url(self.store.url).set(drivername="postgresql")
        self._listener = await asyncpg.connect(url.render_as_string(hide_password=False))
        await self._listener.add_listener(NOTICE_CHANNEL, self._heard)

    async def hand_over(self) -> None:
        """Hand every lease over, say so, and leave the servers' list."""
        self._stopping = True
        try:
            async with self.store.engine.begin() as conn:
                result = await conn.execute(
                    sa.text(
                        "UPDATE leases SET server = NULL WHERE server = :me RETURNING table_id"
                    ),
                    {"me": self.server_id},
                )
                handed = [str(t) for (t,) in result.all()]
                await conn.execute(
                    servers_table.delete().where(servers_table.c.id == self.server_id)
                )
                for chunk in notice_chunks(handed):
                    await self.store.notify(conn, fields(Release(chunk)))
                await self.store.notify(conn, fields(Bye()))
        except (SQLAlchemyError, OSError):
            log.exception("the tables could not be handed over; others take them when due")
            return
        self.owned.clear()
        log.info("%d tables handed over", len(handed))

    async def stop(self) -> None:
        """Stop beating, sending and listening."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(listener.close(), 2)
        self.store.notify_as = None

    # ------------------------------------------------------------ leases

    def owns(self, table_id: str) -> bool:
        """Whether this server holds ``table_id``'s lease."""
        return table_id in self.owned

    async def claim(self, table_id: str) -> bool:
        """Take ``table_id``'s lease unless a live server holds it; whether this one does."""
        if self._stopping:
            return False
        async with self.store.engine.begin() as conn:
            row = (
                await conn.execute(
                    CLAIM, {"table": table_id, "me": self.server_id, "ttl": self.lease_seconds}
                )
            ).first()
        if row is None:
            self.owned.discard(table_id)
            return False
        if not row.fresh and table_id not in self.owned and self.hub is not None:
            self.hub.metrics.taken_over.inc()  # from a server that handed it over or died
        self.owned.add(table_id)
        return True

    async def loaded(self, table: Follower) -> None:
        """Take the new table's lease if nobody runs it, and ask who is connected to it."""
        try:
            await self.claim(table.id)
        except (SQLAlchemyError, OSError):
            log.exception("table %s: its lease could not be taken", table.id)
        if self.alone:
            return  # nobody to ask, and nobody else writes
        self._say(Ask(table.id))
        # A notice sent while the table was being loaded found it missing here.
        table.catch_up_later()

    @property
    def alone(self) -> bool:
        """Whether no other server was alive at the last heartbeat (nor heard since).

        A server that starts asks for the presence of each table it loads, so nothing
        said while alone would have been heard by anyone who needs it.
        """
        return self.live <= {self.server_id}

    def dropped(self, table: Follower) -> None:
        """Give up the lease of a table that left memory (others holding it take it)."""
        if table.id in self.owned:
            self.owned.discard(table.id)
            self._later(self._release(table.id))

    async def _release(self, table_id: str) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(
                sa.text("DELETE FROM leases WHERE table_id = :table AND server = :me"),
                {"table": table_id, "me": self.server_id},
            )
            await self.store.notify(conn, fields(Release([table_id])))

    async def _live_servers(self) -> set[str]:
        async with self.store.engine.connect() as conn:
            result = await conn.execute(LIVE_SERVERS, {"ttl": self.lease_seconds})
            return {str(s) for (s,) in result.all()}

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.beat)
            try:
                await self._heartbeat()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away for a while: try again
                log.exception("heartbeat failed")

    async def _heartbeat(self) -> None:
        """Beat; follow who lives; check the leases held; take over the tables of the dead."""
        hub = self.hub
        assert hub is not None
        missed = False
        if self._listener is None or self._listener.is_closed():
            log.warning("the notices' connection was lost; listening again")
            self._listener = None
            await self._listen()
            missed = True
        async with self.store.engine.begin() as conn:
            done = await conn.execute(
                servers_table.update()
                .where(servers_table.c.id == self.server_id)
                .values(heartbeat=sa.func.now())
            )
            if done.rowcount != 1:  # taken for dead and forgotten: come back
                await self._register(conn)
            result = await conn.execute(
                sa.text("SELECT table_id FROM leases WHERE server = :me"), {"me": self.server_id}
            )
            mine = {str(t) for (t,) in result.all()}
        live = await self._live_servers()
        for gone in self.live - live:
            for table in hub.tables.values():
                table.heard_presence(gone, None)
        self.live = live
        lost = self.owned - mine
        gained = mine - self.owned
        self.owned = mine
        for table_id in lost | gained:
            changed = hub.tables.get(table_id)
            if changed is not None:
                changed.owner_changed()
        await self._take_over()
        self._beats += 1
        if missed:
            await self._compare(at_once=True)
        elif self._beats % CHECK_EVERY == 0:
            await self._compare()
            async with self.store.engine.begin() as conn:
                await conn.execute(FORGET_LEASES, {"ttl": self.lease_seconds})
                await conn.execute(FORGET_SERVERS, {"forget": FORGET_SERVERS_AFTER})

    async def _take_over(self) -> None:
        """Take the leases of tables nobody live runs: the ones in memory here, and a share."""
        hub = self.hub
        assert hub is not None
        if self._stopping:
            return
        async with self.store.engine.connect() as conn:
            result = await conn.execute(
                ORPHANS, {"ttl": self.lease_seconds, "limit": ORPHANS_AT_ONCE}
            )
            orphans = [str(t) for (t,) in result.all()]
        if not orphans:
            return
        here = [t for t in orphans if t in hub.tables]
        elsewhere = [t for t in orphans if t not in hub.tables]
        random.shuffle(elsewhere)  # servers taking a share at once mostly take different ones
        share = math.ceil(len(elsewhere) / max(1, len(self.live)))
        taken = 0
        for table_id in here + elsewhere[:share]:
            if await self.claim(table_id):
                taken += 1
                table = hub.tables.get(table_id)
                if table is not None:
                    table.owner_changed()
                else:
                    with contextlib.suppress(WebError):  # logged by get, once
                        await hub.get(table_id)
        if taken:
            log.info("took over %d tables that no live server ran", taken)

    async def _compare(self, *, at_once: bool = False) -> None:
        """Catch up every table in memory still behind the database (missed notices).

        A table is caught up when it is still behind the version the previous comparison
        found (or ``at_once``, after notices were certainly missed): a table whose action
        is being committed, or whose notice is on its way, is behind for a moment without
        having missed anything, and reading its actions again would only load the database.
        """
        hub = self.hub
        assert hub is not None
        stored = await self.store.tables.versions(list(hub.tables))
        behind: dict[str, int] = {}
        for table_id, version in stored.items():
            table = hub.tables.get(table_id)
            if table is None:
                continue
            if version > table.version:
                seen = self._behind.get(table_id)
                if at_once or (seen is not None and table.version < seen):
                    table.catch_up_later()
                else:
                    behind[table_id] = version
            elif table.status == "waiting":
                table.refresh_seats_later()
        self._behind = behind

    # ------------------------------------------------------------ notices

    def presence(self, table: Follower) -> None:
        """Tell the others how many of this server's connections hold each of its seats."""
        if self.alone:
            return
        self._say(Here(table.id, [s.connections for s in table.seats]))

    def stand_in(self, table: Follower, seat: int) -> None:
        """Tell the others that a bot now stands in for ``seat``."""
        self._say(StandIn(table.id, seat))

    def revoked(self, sessions: list[str]) -> None:
        """Tell the others to close the WebSockets of the revoked ``sessions``."""
        for chunk in notice_chunks(sessions):
            self._say(Revoke(chunk))

    def _say(self, notice: Ask | Here | StandIn | Revoke) -> None:
        if self._listener is None and not self._tasks:
            return
        text = json.dumps({**fields(notice), "p": self.server_id}, separators=(",", ":"))
        self._outbox.put_nowait(text)

    async def _send_forever(self) -> None:
        while True:
            text = await self._outbox.get()
            try:
                async with self.store.engine.begin() as conn:
                    await conn.execute(
                        sa.text("SELECT pg_notify(:channel, :text)"),
                        {"channel": NOTICE_CHANNEL, "text": text},
                    )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a notice could not be sent")

    def _later(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        task.add_done_callback(_log_failure)

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        """A notice from a server (this one's own too, for committed actions)."""
        hub = self.hub
        if hub is None:
            return
        try:
            notice = json.loads(payload)
            kind = notice["k"]
            sender = str(notice["p"])
        except (ValueError, KeyError, TypeError):
            log.error("a notice that is not closingbell's was ignored")
            return
        try:
            self._handle(hub, kind, sender, notice)
        except Exception:
            log.exception("a %r notice could not be handled", kind)

    def _handle(self, hub: Tables, kind: str, sender: str, notice: dict[str, Any]) -> None:
        heard = read(kind, notice)
        if isinstance(heard, Actions):
            for table_id, notes in heard.notes.items():
                table = hub.tables.get(table_id)
                # Most of this server's own actions are applied by the time it hears them.
                if table is not None and any(n[0] >= table.version for n in notes):
                    table.catch_up_later(notes)
            return
        if sender == self.server_id:
            return
        if not isinstance(heard, Bye):
            self.live.add(sender)  # alive, whatever the last heartbeat found
        if isinstance(heard, Release):
            for table_id in heard.tables:
                if table_id in hub.tables:
                    self._later(self._take(table_id))
        elif isinstance(heard, Revoke):
            hub.sessions_revoked(heard.sessions, tell=False)
        elif isinstance(heard, Bye):
            self.live.discard(sender)
            for table in hub.tables.values():
                table.heard_presence(sender, None)
        elif heard is not None:
            table = hub.tables.get(heard.table)
            if table is None:
                return
            if not isinstance(heard, Ask):
                table.hear(heard, sender)
            elif any(s.connections for s in table.seats):
                self.presence(table)

    async def _take(self, table_id: str) -> None:
        """Take a handed-over table held in memory here."""
        hub = self.hub
        if hub is None or table_id not in hub.tables:
            return
        if await self.claim(table_id):
            table = hub.tables.get(table_id)
            if table is not None:
                table.owner_changed()


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a lease could not be given up: %s", task.exception())
