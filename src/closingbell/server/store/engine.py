"""The database's engine: asyncio drivers, SQLite connections safe to cancel, SQLite's pragmas.

Why async drivers (aiosqlite, asyncpg) rather than a synchronous engine in a thread: the
server is one asyncio process whose every table waits on its own writes; an async engine
lets those waits overlap without a thread pool sized by guesswork, and the migrations run
on the same connection through ``run_sync``. SQLite and PostgreSQL are both supported
with the same code; plain ``sqlite:///`` and ``postgresql://`` URLs are given their
asyncio drivers by :func:`async_url`.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine


def async_url(url: str) -> str:
    """Give a database URL its asyncio driver; a bare path means an SQLite file."""
    if "://" not in url:
        return f"sqlite+aiosqlite:///{Path(url).expanduser().resolve()}"
    scheme, rest = url.split("://", 1)
    if "+" in scheme:
        return url
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+asyncpg://{rest}"
    if scheme == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    return url


class _SQLiteConnection(aiosqlite.Connection):
    """aiosqlite's connection, whose worker thread is told to stop only once.

    SQLAlchemy ends a connection whose task is cancelled during a statement by closing it
    in a shielded task; when the task is cancelled again meanwhile (anyio's cancel scopes
    cancel until the task leaves them), it also stops aiosqlite's worker thread. aiosqlite's
    ``close`` then asks the stopped thread to stop once more and waits for an answer that
    never comes: a task that never ends, and an event loop that never closes (a server that
    does not stop). Here a second stop is not sent, and ``close`` after a stop returns.
    """

    _stop_sent = False

    def stop(self) -> asyncio.Future[Any] | None:
        """Tell the worker thread to close the connection and end, the first time only."""
        if self._stop_sent:
            return None
        self._stop_sent = True
        return super().stop()

    async def close(self) -> None:
        """Close the connection, unless its worker thread was told to stop already."""
        if not self._stop_sent:
            await super().close()


def create_engine(url: str, **options: Any) -> AsyncEngine:
    """An async engine for ``url`` (with its asyncio driver), SQLite's connections safe to cancel.

    ``options`` go to SQLAlchemy's ``create_async_engine``. On SQLite each connection is a
    :class:`_SQLiteConnection`, opened with the arguments SQLAlchemy would give aiosqlite.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_async_engine(parsed, **options)
    args, kwargs = parsed.get_dialect()().create_connect_args(parsed)
    connector = functools.partial(sqlite3.connect, *args, **kwargs)

    async def connect() -> aiosqlite.Connection:
        connection = _SQLiteConnection(connector, iter_chunk_size=64)
        # As SQLAlchemy does for aiosqlite: a connection left open never keeps the process.
        connection._thread.daemon = True
        return await connection

    return create_async_engine(parsed, async_creator=connect, **options)


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Write-ahead logging, synced at checkpoints: a commit no longer waits for the disk.

    Writes take turns (SQLite has one writer), so with the default journal every action
    waited for its own sync and the disk capped the server at a few hundred actions a
    second. In WAL mode with ``synchronous=NORMAL`` a commit survives the server being
    stopped or killed at any moment (the guarantee the server makes); only a power cut or
    an operating-system crash may lose the last actions before a checkpoint.
    """
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def default_database_path() -> Path:
    """The SQLite file used when no database is named: under ``$XDG_DATA_HOME/closingbell``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "closingbell" / "closingbell.db"
