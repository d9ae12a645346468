"""The database as a whole: its engine, its transactions, its lock, its checks, its notices.

:meth:`Database.open` is how a server starts on a database: it takes the database's lock
(one server at a time on an SQLite file; shared by any number of servers on PostgreSQL,
where only a restore takes it whole), refuses a database that is not closingbell's or whose
schema it does not know (:class:`~closingbell.server.store.errors.UnusableDatabaseError`),
and only then brings the schema up to date. Servers sharing a PostgreSQL database tell each
other of every action and join they commit by a notice sent in the same transaction
(:attr:`Database.notify_as`, :meth:`Database.notify`, ``server.cluster``).

The repositories (``server.store.tables`` and its neighbours) are each handed the database
and write through :meth:`Database.writing`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.pool import NullPool

from closingbell.server.filelock import FileHeldError, lock_database
from closingbell.server.store.engine import async_url, create_engine, sqlite_pragmas
from closingbell.server.store.errors import (
    DatabaseInUseError,
    ForeignDatabaseError,
    UnusableDatabaseError,
    error_text,
)
from closingbell.server.store.upgrades import (
    migrate,
    refuse_empty_file,
    refuse_unknown,
    upgrade_checked,
)

T = TypeVar("T")

POSTGRES_LOCK_KEY = 0x636C6F73696E6762
"""The key of the session-level advisory lock on a PostgreSQL database (the bytes of
``closingb``): servers hold it shared, a restore exclusively; advisory locks are counted
per database."""

NOTICE_CHANNEL = "closingbell"
"""The PostgreSQL ``NOTIFY`` channel on which servers sharing a database tell each other
of what they committed (``closingbell.server.cluster``)."""

NOTICE_BYTES = 7000
"""The longest notice payload sent (PostgreSQL takes up to 8,000 bytes)."""


CommitHook = Callable[[str, float], object]
"""Told of every write committed: what was written (``actions``, ``table``, ``join``,
``chat``, ``rematch`` or ``account``) and the seconds from the transaction's start to its
commit."""


class Database:
    """One database: its engine, its transactions, its lock, and the checks made on opening it."""

    def __init__(self, url: str, *, on_commit: CommitHook | None = None) -> None:
        self.url = async_url(url)
        """The SQLAlchemy URL with its asyncio driver."""
        # Statements' parameters (names, token hashes) stay out of errors and logs.
        self.engine: AsyncEngine = create_engine(self.url, hide_parameters=True)
        """The async engine."""
        self.on_commit = on_commit
        """Told of every write committed and how long it took (the server's metrics)."""
        # SQLite lets one connection write at a time; pooled connections that race for
        # its lock wait in SQLite's busy handler, which sleeps in steps of up to 100 ms
        # (and fails after 5 s with "database is locked"). Taking turns here instead
        # costs nothing and keeps every write prompt (`closingbell bench --web`).
        self._sqlite_writes: asyncio.Lock | None = (
            asyncio.Lock() if self.engine.dialect.name == "sqlite" else None
        )
        if self._sqlite_writes is not None:
            sa.event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
        self._lock_file: int | None = None
        """The descriptor carrying the SQLite file's lock, while :meth:`open` holds it."""
        self._lock_connection: AsyncConnection | None = None
        """The PostgreSQL connection holding the advisory lock, while :meth:`open` holds it."""
        self.notify_as: str | None = None
        """The id of the server this store belongs to, once it shares a PostgreSQL database
        with others: each commit of actions or of a join then sends a notice on
        :data:`NOTICE_CHANNEL` in the same transaction (``closingbell.server.cluster``)."""

    @property
    def shared(self) -> bool:
        """Whether several servers may use this database at once (PostgreSQL)."""
        return self._sqlite_writes is None

    @contextlib.asynccontextmanager
    async def writing(self, what: str) -> AsyncIterator[AsyncConnection]:
        """A transaction that writes (one at a time on SQLite), committed at the end.

        Its time, from the start of the transaction to its commit (not the wait for
        SQLite's turn), goes to :attr:`on_commit` as ``what`` once committed.
        """
        async with contextlib.AsyncExitStack() as stack:
            if self._sqlite_writes is not None:
                await stack.enter_async_context(self._sqlite_writes)
            started = time.perf_counter()
            async with self.engine.begin() as connection:
                yield connection
            if self.on_commit is not None:
                self.on_commit(what, time.perf_counter() - started)

    async def ping(self) -> None:
        """Ask the database a trivial question (``SELECT 1``); raises if it cannot answer."""
        async with self.engine.connect() as connection:
            await connection.execute(sa.text("SELECT 1"))

    async def upgrade(self) -> None:
        """Bring the schema to the newest migration (``alembic upgrade head``)."""
        async with self.engine.begin() as connection:
            await connection.run_sync(migrate)

    @property
    def where(self) -> str:
        """The database for people: an SQLite file's path, or the URL without its password."""
        url = make_url(self.url)
        if url.get_backend_name() == "sqlite":
            return url.database or ":memory:"
        return url.render_as_string(hide_password=True)

    def _sqlite_file(self) -> Path | None:
        """The SQLite database's file, or ``None`` (PostgreSQL, or SQLite in memory)."""
        database = make_url(self.url).database
        if self._sqlite_writes is None or not database or database == ":memory:":
            return None
        return Path(database)

    async def open(self) -> None:
        """Start a server on this database: lock it, check it is closingbell's, migrate it.

        Raises :class:`UnusableDatabaseError` (a subclass says which fault), holding no lock
        and having changed nothing in the database, when another server uses it, when an SQLite
        file exists with 0 bytes, when the database holds other tables or is not a
        database at all, or when its schema is at an unknown migration or misses a part.
        An empty database (a new SQLite file, an empty PostgreSQL database) is set up.
        """
        try:
            await self._open()
        except BaseException:
            await self.close()
            raise

    async def _open(self) -> None:
        await self.lock(shared=True)
        await self.check()

    async def lock(self, *, shared: bool = False) -> None:
        """Take the database's lock, held until :meth:`close`.

        An SQLite file's lock is always exclusive: one server at a time. On PostgreSQL,
        servers take the lock ``shared`` (any number of them at once) and a restore takes
        it exclusively (no server runs while it writes). Raises :class:`DatabaseInUseError`
        when it cannot be had, and :class:`UnusableDatabaseError` when the database cannot
        be reached. Used by :meth:`open`, and by a restore.
        """
        path = self._sqlite_file()
        with self._unusable(path):
            if path is not None:
                self._lock_sqlite(path)
            else:
                await self._lock_postgres(shared=shared)

    async def check(self) -> None:
        """Refuse a database the server cannot use, then migrate it to the newest schema.

        The checks of :meth:`open` without the lock: an SQLite file of 0 bytes, a database
        that is not closingbell's, an unknown migration, a missing table or column, each
        raised as an :class:`UnusableDatabaseError` before anything is written.
        """
        path = self._sqlite_file()
        with self._unusable(path):
            if path is not None:
                refuse_empty_file(path)
            # Checked on a connection of its own: the server's connections switch an SQLite
            # file to write-ahead logging as they open, which would change a foreign file.
            checking = create_engine(self.url, poolclass=NullPool)
            try:
                async with checking.connect() as connection:
                    await connection.run_sync(refuse_unknown, self.where)
            finally:
                await checking.dispose()
            async with self.engine.begin() as connection:
                if path is None and self.shared:
                    # Servers starting together on one PostgreSQL database migrate it in turn.
                    await connection.execute(
                        sa.text("SELECT pg_advisory_xact_lock(:key)"),
                        {"key": POSTGRES_LOCK_KEY + 1},
                    )
                await connection.run_sync(upgrade_checked, self.where)

    @contextlib.contextmanager
    def _unusable(self, path: Path | None) -> Iterator[None]:
        """Turn a database's or driver's error into an :class:`UnusableDatabaseError`."""
        try:
            yield
        except UnusableDatabaseError:
            raise
        except DBAPIError as exc:
            if path is not None and "not a database" in str(exc.orig):
                raise ForeignDatabaseError(
                    f"{self.where} is not an SQLite database ({exc.orig}): name closingbell's "
                    "database, or a new file"
                ) from None
            raise UnusableDatabaseError(f"cannot use {self.where}: {error_text(exc)}") from None
        except (SQLAlchemyError, OSError) as exc:
            raise UnusableDatabaseError(f"cannot use {self.where}: {error_text(exc)}") from None

    def _lock_sqlite(self, path: Path) -> None:
        """Hold an OS lock on the SQLite file for the server's life (released when it dies).

        The lock is the file's, whatever path names it (``server.filelock``); a file that
        does not exist is made, empty, to carry it.
        """
        try:
            self._lock_file = lock_database(path)
        except FileHeldError as exc:
            by = f" (process {exc.holder})" if exc.holder is not None else ""
            raise DatabaseInUseError(
                f"{path} is in use by another closingbell server{by}: stop it first, or "
                "name another database (one server per database)"
            ) from None

    async def _lock_postgres(self, *, shared: bool) -> None:
        """Hold a session-level advisory lock, on a connection kept open, for the server's life."""
        connection = await self.engine.connect()
        self._lock_connection = connection
        function = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
        taken = await connection.scalar(
            sa.text(f"SELECT {function}(:key)"), {"key": POSTGRES_LOCK_KEY}
        )
        # A session lock outlives the transaction; ending it keeps the connection idle.
        await connection.commit()
        if not taken and shared:
            raise DatabaseInUseError(
                f"{self.where} is locked by a restore (or by an older closingbell server, "
                "which takes a database whole): wait for it to end, or name another database"
            )
        if not taken:
            raise DatabaseInUseError(
                f"{self.where} is in use by another closingbell server: stop every server on it "
                "first, or name another database"
            )

    async def close(self) -> None:
        """Release every connection, and the database's lock if held."""
        connection, self._lock_connection = self._lock_connection, None
        if connection is not None:
            # Closed for real, not returned to the pool: the lock ends with its session.
            with contextlib.suppress(SQLAlchemyError, OSError):
                await connection.invalidate()
                await connection.close()
        await self.engine.dispose()
        fd, self._lock_file = self._lock_file, None
        if fd is not None:
            os.close(fd)

    async def notify(self, conn: AsyncConnection, notice: dict[str, Any]) -> None:
        """Send ``notice`` (with this server's id) at the commit of ``conn``'s transaction."""
        if self.notify_as is None:
            return
        text = json.dumps({**notice, "p": self.notify_as}, separators=(",", ":"))
        await conn.execute(
            sa.text("SELECT pg_notify(:channel, :text)"),
            {"channel": NOTICE_CHANNEL, "text": text},
        )


def notice_chunks(notes: Iterable[T]) -> Iterator[list[T]]:
    """``notes`` in runs whose JSON fits in a notice (:data:`NOTICE_BYTES`)."""
    chunk: list[T] = []
    size = 0
    for note in notes:
        length = len(json.dumps(note)) + 1
        if chunk and size + length > NOTICE_BYTES:
            yield chunk
            chunk, size = [], 0
        chunk.append(note)
        size += length
    if chunk:
        yield chunk
