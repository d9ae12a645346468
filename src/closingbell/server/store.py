"""Where games are kept: SQLAlchemy 2 with asyncio drivers, the schema made by Alembic.

A game is stored as what reproduces it, never as a snapshot: its game name, the rules
version it was made under, its rules options, seed (and, for a game started from a
position, that position's text), seats (kind, name, bot, and the SHA-256 of the seat token,
never the token) and its list of actions, one row per action. Appending an action and
bumping the table's version happen in one transaction, guarded by the version the table
had, so a row is never lost nor written twice; on start the server rebuilds every table by
replaying its actions through the rules engine, under the rules version the table was made
with.
A game's last action is stored with each seat's result and, at a rated table, its
players' new ratings (``server.ratings``), in the same transaction.

Why async drivers (aiosqlite, asyncpg) rather than a synchronous engine in a thread: the
server is one asyncio process whose every table waits on its own writes; an async engine
lets those waits overlap without a thread pool sized by guesswork, and the migrations run
on the same connection through ``run_sync``. SQLite and PostgreSQL are both supported
with the same code; plain ``sqlite:///`` and ``postgresql://`` URLs are given their
asyncio drivers by :func:`async_url`.

:meth:`Store.open` is how a server starts on a database: it takes the database's lock (one
server at a time on an SQLite file; shared by any number of servers on PostgreSQL, where
only a restore takes it whole), refuses a database that is not closingbell's or whose
schema it does not know (:class:`UnusableDatabaseError`), and only then brings the schema
up to date. Servers sharing a PostgreSQL database tell each other of every action and
join they commit by a notice sent in the same transaction (:attr:`Store.notify_as`,
``server.cluster``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from closingbell.core.jsontext import load_json
from closingbell.core.registry import game_class
from closingbell.server.filelock import FileHeldError, lock_database
from closingbell.server.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Change,
    Finish,
    Ladder,
    Standing,
    rated_entries,
)

T = TypeVar("T")

metadata = sa.MetaData()
"""The schema as the server reads and writes it (made by the Alembic migrations)."""

tables_table = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text(), nullable=False),
    sa.Column("seed", sa.BigInteger(), nullable=False),
    sa.Column("clock", sa.Float(), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("position", sa.Text(), nullable=True),
    sa.Column("rules_version", sa.Integer(), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("move_time", sa.Float(), nullable=True),
    sa.Column("turn_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("spectator_chat", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("rematch_of", sa.String(32), nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Column("hints_used", sa.Boolean(), nullable=False, server_default=sa.false()),
)
"""One row per table: the game, its options (JSON), seed, clock, status and version (the
number of actions stored), the position it started from (``NULL``: a deal; migration 0002)
and its rules version (the game's ``GameInfo.version`` when the table was made; migration
0003); whether it is rated, its time per move for a game over days and when the current
turn began, whether spectators may chat, and the tables it is a rematch of and that are its
rematch (migration 0005); whether a player took a hint there (migration 0006), which keeps
its result out of the ratings."""

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("user_id", sa.String(32), nullable=True, index=True),
    sa.Column("invited_user_id", sa.String(32), nullable=True, index=True),
    sa.Column("invited_by", sa.String(32), nullable=True, index=True),
)
"""One row per seat: ``open``, ``human`` (with name and token hash) or ``bot``; the account
seated there, and the account an open seat is kept for (migration 0005) and the account
that invited it (migration 0007: ``NULL`` for older invitations)."""

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer(), primary_key=True),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("action", sa.Integer(), nullable=False),
    sa.Column("text", sa.String(100), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("by", sa.String(8), nullable=True),
)
"""One row per action, numbered from 0 within its table, with who chose it (``player``,
``bot``, ``stand_in``; ``NULL`` before migration 0005)."""

servers_table = sa.Table(
    "servers",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("host", sa.String(255), nullable=False),
    sa.Column("pid", sa.Integer(), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=False),
)
"""One row per server running on a shared PostgreSQL database, with its last heartbeat
(migration 0004; ``closingbell.server.cluster``)."""

leases_table = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("server", sa.String(32), nullable=True, index=True),
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),
)
"""Which server runs a live table's bots and turn clock (``NULL``: handed over)."""

users_table = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("username", sa.String(32), nullable=False),
    sa.Column("username_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("password_changed_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per account: its name as typed, its lower-case form (unique) and the Argon2 hash
of its password (migration 0005; ``server.accounts``)."""

sessions_table = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per signed-in browser: the SHA-256 of its session cookie (deleted on sign-out)."""

results_table = sa.Table(
    "results",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("player", sa.String(48), nullable=True, index=True),
    sa.Column("score", sa.Float(), nullable=False),
    sa.Column("rank", sa.Integer(), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each seat's final score and rank (0: first), written with the game's last action;
``player`` is ``user:<id>``, ``bot:<level>`` or ``NULL`` for a guest."""

ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column("player", sa.String(48), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("games", sa.Integer(), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each player's current rating in each game (``server.ratings``)."""

rating_changes_table = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("player", sa.String(48), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_rating_changes_player_game", "player", "game"),
)
"""Each player's rating after each rated game (the history a profile charts)."""

chat_table = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(2000), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("user_id", sa.String(32), nullable=True),
    sa.Index("ix_chat_table_id", "table_id", "id"),
)
"""The messages written at each table (``seat`` ``NULL``: a spectator), with the account
seated where it was written (``user_id``, migration 0007; ``NULL``: a guest, a spectator, or
a message written before)."""

rematch_votes_table = sa.Table(
    "rematch_votes",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""The seats of a finished table that offered or accepted a rematch."""


class StoreConflictError(RuntimeError):
    """A write that found the row in another state than expected (nothing was written)."""


class UnusableDatabaseError(RuntimeError):
    """A database the server will not start on; the message says what is wrong and what to do.

    Raised by :meth:`Store.open` (so by ``Hub.start`` and an app's start) before anything
    is written: the database is left as it was.
    """


class EmptyDatabaseFileError(UnusableDatabaseError):
    """An SQLite file that exists with 0 bytes: most likely a database that lost its contents."""


class ForeignDatabaseError(UnusableDatabaseError):
    """A database that is not closingbell's: not SQLite at all, or holding other tables."""


class UnknownSchemaError(UnusableDatabaseError):
    """closingbell's tables at a migration this version does not know, or with parts missing."""


class DatabaseInUseError(UnusableDatabaseError):
    """Another server, or a restore, holds the database's lock.

    An SQLite file takes one server; a PostgreSQL database takes any number of servers
    (they share its lock) but no restore while one runs.
    """


POSTGRES_LOCK_KEY = 0x636C6F73696E6762
"""The key of the session-level advisory lock on a PostgreSQL database (the bytes of
``closingb``): servers hold it shared, a restore exclusively; advisory locks are counted
per database."""

NOTICE_CHANNEL = "closingbell"
"""The PostgreSQL ``NOTIFY`` channel on which servers sharing a database tell each other
of what they committed (``closingbell.server.cluster``)."""

NOTICE_BYTES = 7000
"""The longest notice payload sent (PostgreSQL takes up to 8,000 bytes)."""


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token, as stored (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
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


ENDED = ("finished", "abandoned")
"""The statuses of a table that is over: played to its end, or abandoned."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def aware(value: dt.datetime | None) -> dt.datetime | None:
    """A stored time in UTC (SQLite gives it back without its time zone)."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=dt.UTC)


@dataclass
class SeatRow:
    """A stored seat."""

    seat: int
    """The seat number."""
    kind: str
    """``open``, ``human`` or ``bot``."""
    bot: str | None = None
    """The bot's name or level, for a bot seat."""
    name: str | None = None
    """The player's display name, once joined."""
    token_hash: str | None = None
    """The SHA-256 of the seat token, once joined."""
    user_id: str | None = None
    """The account seated here (``None``: a guest, a bot or an open seat)."""
    invited_user_id: str | None = None
    """The account this open seat is kept for (an invitation), or ``None``."""
    invited_by: str | None = None
    """The account that made the invitation (``None``: none, or one stored before the
    inviter was)."""


@dataclass
class TableRow:
    """A stored table with its seats and, when loaded for play, its actions."""

    id: str
    """The table's id."""
    game: str
    """The registered name of the game."""
    options: dict[str, Any]
    """Every rules option."""
    seed: int
    """The deal's seed."""
    clock: float | None
    """The turn clock in seconds."""
    status: str
    """``waiting``, ``playing``, ``finished`` or ``abandoned`` (see :meth:`Store.abandon`)."""
    version: int = 0
    """The number of actions stored."""
    rules_version: int | None = None
    """The game's rules version when the table was made (``None`` in a new row: the
    game's current version, filled in when it is stored)."""
    seats: list[SeatRow] = field(default_factory=list)
    """Every seat, in order."""
    actions: list[int] = field(default_factory=list)
    """The action ids, in order (filled by :meth:`Store.load`)."""
    chosen_by: list[str | None] = field(default_factory=list)
    """Who chose each action (``player``, ``bot``, ``stand_in``, or ``None`` when not
    recorded), in order (filled by :meth:`Store.load`)."""
    position: str | None = None
    """The canonical text of the position the game started from, or ``None`` (a deal)."""
    problem: str | None = None
    """What in the stored row cannot be read (its fields then hold neutral values), or ``None``."""
    rated: bool = False
    """Whether the game counts for ratings."""
    move_time: float | None = None
    """Seconds per move of a game played over days, or ``None`` (real time)."""
    turn_at: dt.datetime | None = None
    """When the seat to move began its turn (games over days; filled by :meth:`Store.load`)."""
    spectator_chat: bool = False
    """Whether spectators may write in the table's chat."""
    rematch_of: str | None = None
    """The table this one is a rematch of, or ``None``."""
    rematch: str | None = None
    """The rematch opened from this table, or ``None``."""
    rematch_votes: list[int] = field(default_factory=list)
    """The seats that voted for a rematch, first voter first (filled by :meth:`Store.load`)."""
    hints_used: bool = False
    """Whether a player took a hint at this table (its result then rates nobody)."""
    updated_at: dt.datetime | None = None
    """When the table last changed (a finished table: when its game ended), as stored."""


@dataclass(frozen=True)
class _Append:
    """One action waiting to be stored."""

    table_id: str
    number: int
    seat: int
    action: int
    text: str
    status: str
    at: dt.datetime
    by: str = "player"
    turn_at: dt.datetime | None = None
    finish: Finish | None = None


@dataclass(frozen=True)
class ChatRow:
    """A stored chat message."""

    id: int
    """Its number (increasing)."""
    seat: int | None
    """The writer's seat, or ``None`` for a spectator."""
    name: str | None
    """The writer's name, or ``None`` for a spectator."""
    text: str
    """What was written."""
    at: dt.datetime
    """When."""
    user_id: str | None = None
    """The account seated where it was written (``None``: a guest or a spectator)."""

    def notice(self) -> list[Any]:
        """The message as a notice to the other servers carries it."""
        return [self.id, self.seat, self.name, self.text, self.at.timestamp(), self.user_id]

    @classmethod
    def from_notice(cls, note: list[Any]) -> ChatRow:
        """The message a notice carried (see :meth:`notice`).

        A server of the release before accounts were marked sends five fields, no account.
        """
        number, seat, name, text, at = note[:5]
        user_id = note[5] if len(note) > 5 else None
        return cls(
            id=int(number),
            seat=None if seat is None else int(seat),
            name=None if name is None else str(name),
            text=str(text),
            at=dt.datetime.fromtimestamp(float(at), dt.UTC),
            user_id=None if user_id is None else str(user_id),
        )


@dataclass(frozen=True)
class Rematch:
    """A finished table's rematch as stored."""

    votes: list[int]
    """The seats that voted for it, first voter first."""
    table: str | None
    """The new table's id once opened."""


@dataclass(frozen=True)
class AccountTables:
    """An account's tables as :meth:`Store.tables_of` reads them, newest first."""

    seated: list[TableRow]
    """Tables not over where the account has a seat."""
    invited: list[TableRow]
    """Tables with an open seat kept for the account (its invitations)."""
    finished: list[TableRow]
    """Finished tables where the account had a seat, the last finished first."""
    invitations: int
    """How many open seats are kept for the account, in all."""


@dataclass(frozen=True)
class InvitationLimits:
    """How many open invitations one account may have made at once (``Settings`` say).

    An invitation is open while its seat is open and kept for the invited account, and
    counts against its maker's limits for ``counted_for`` after its table was made: an
    invitation nobody answers does not hold its place for ever.
    """

    in_all: int
    """Open invitations an account may have made, to anyone."""
    to_one: int
    """Open invitations an account may have made to one other account."""
    counted_for: dt.timedelta
    """How long after its table was made an open invitation counts."""


class TooManyInvitationsError(RuntimeError):
    """A table not stored: its invitations would take its maker past a limit."""

    def __init__(self, message: str, recipient: str | None) -> None:
        super().__init__(message)
        self.recipient = recipient
        """The invited account whose limit was reached (``None``: the limit in all)."""


CommitHook = Callable[[str, float], object]
"""Told of every write committed: what was written (``actions``, ``table``, ``join``,
``chat``, ``rematch`` or ``account``) and the seconds from the transaction's start to its
commit."""


class Store:
    """The database of tables, seats and actions."""

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
            sa.event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._queued: list[tuple[_Append, asyncio.Future[None]]] = []
        """Actions waiting for the next commit, each with its caller's future."""
        self._writer: asyncio.Future[None] | None = None
        """The task committing queued actions, while there are any."""
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
    async def _writing(self, what: str) -> AsyncIterator[AsyncConnection]:
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
            await connection.run_sync(_upgrade)

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
                _refuse_empty_file(path)
            # Checked on a connection of its own: the server's connections switch an SQLite
            # file to write-ahead logging as they open, which would change a foreign file.
            checking = create_engine(self.url, poolclass=NullPool)
            try:
                async with checking.connect() as connection:
                    await connection.run_sync(_check, self.where)
            finally:
                await checking.dispose()
            async with self.engine.begin() as connection:
                if path is None and self.shared:
                    # Servers starting together on one PostgreSQL database migrate it in turn.
                    await connection.execute(
                        sa.text("SELECT pg_advisory_xact_lock(:key)"),
                        {"key": POSTGRES_LOCK_KEY + 1},
                    )
                await connection.run_sync(_upgrade_checked, self.where)

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
            raise UnusableDatabaseError(f"cannot use {self.where}: {_reason(exc)}") from None
        except (SQLAlchemyError, CommandError, OSError) as exc:
            raise UnusableDatabaseError(f"cannot use {self.where}: {_reason(exc)}") from None

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

    async def create(
        self,
        row: TableRow,
        limits: InvitationLimits | None = None,
        at: dt.datetime | None = None,
    ) -> None:
        """Store a new table and its seats (the current rules version unless the row says).

        ``at`` is when its people were last there (default: now; see :meth:`seen`). With
        ``limits``, a table whose invitations would take their maker (``invited_by``)
        past them raises :class:`TooManyInvitationsError` and is not stored. They are
        counted in the same transaction, under a lock of the maker's account row on
        PostgreSQL, so that servers making that account's tables at once agree.
        """
        async with self._writing("table") as conn:
            if limits is not None:
                await self._check_invitations(conn, row, limits)
            await self._insert(conn, row, at)

    async def _check_invitations(
        self, conn: AsyncConnection, row: TableRow, limits: InvitationLimits
    ) -> None:
        """Raise :class:`TooManyInvitationsError` if ``row``'s invitations are too many."""
        invited = [s for s in row.seats if s.invited_user_id is not None]
        if not invited:
            return
        for maker in {s.invited_by for s in invited}:
            if maker is None:
                continue
            if self.shared:
                await conn.execute(
                    sa.select(users_table.c.id).where(users_table.c.id == maker).with_for_update()
                )
            since = _now() - limits.counted_for
            seats = seats_table.c
            result = await conn.execute(
                sa.select(seats.invited_user_id, sa.func.count())
                .select_from(seats_table.join(tables_table, tables_table.c.id == seats.table_id))
                .where(
                    seats.invited_by == maker,
                    seats.kind == "open",
                    seats.invited_user_id.is_not(None),
                    tables_table.c.created_at >= since,
                )
                .group_by(seats.invited_user_id)
            )
            held = {str(user): int(n) for user, n in result.all()}
            mine = [s.invited_user_id for s in invited if s.invited_by == maker]
            if sum(held.values()) + len(mine) > limits.in_all:
                raise TooManyInvitationsError(
                    f"an account may have at most {limits.in_all} open invitations at once, "
                    f"and {sum(held.values())} of yours are open",
                    None,
                )
            for user in mine:
                if held.get(str(user), 0) + 1 > limits.to_one:
                    raise TooManyInvitationsError(
                        f"an account may have at most {limits.to_one} open invitations to "
                        "one player at once",
                        user,
                    )

    async def decline(self, table_id: str, user_id: str) -> bool:
        """Make the open seat of ``table_id`` kept for ``user_id`` an ordinary open seat.

        Whether there was one (else nothing is written). The other servers are told, as of
        a join, so that they read the seats again.
        """
        async with self._writing("join") as conn:
            done = await conn.execute(
                seats_table.update()
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.kind == "open",
                    seats_table.c.invited_user_id == user_id,
                )
                .values(invited_user_id=None, invited_by=None, name=None)
            )
            if not done.rowcount:
                return False
            await conn.execute(
                tables_table.update().where(tables_table.c.id == table_id).values(updated_at=_now())
            )
            await self._notify(conn, {"k": "join", "t": table_id})
        return True

    async def _insert(
        self, conn: AsyncConnection, row: TableRow, at: dt.datetime | None = None
    ) -> None:
        """Insert a new table and its seats in ``conn``'s transaction (seen ``at``, or now)."""
        now = _now()
        if row.rules_version is None:
            row.rules_version = game_class(row.game).info.version
        await conn.execute(
            tables_table.insert().values(
                id=row.id,
                game=row.game,
                options=json.dumps(row.options),
                seed=row.seed,
                clock=row.clock,
                status=row.status,
                version=row.version,
                created_at=now,
                updated_at=at or now,
                position=row.position,
                rules_version=row.rules_version,
                rated=row.rated,
                move_time=row.move_time,
                turn_at=row.turn_at,
                spectator_chat=row.spectator_chat,
                rematch_of=row.rematch_of,
                hints_used=row.hints_used,
            )
        )
        if not row.seats:
            return
        await conn.execute(
            seats_table.insert(),
            [
                {
                    "table_id": row.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "user_id": s.user_id,
                    "invited_user_id": s.invited_user_id,
                    "invited_by": s.invited_by,
                }
                for s in row.seats
            ],
        )

    async def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        user_id: str | None = None,
        *,
        at: dt.datetime | None = None,
    ) -> str:
        """Fill an open seat and set the table's status, in one transaction; the status.

        The status is ``playing`` once no seat is open, else ``waiting``: worked out under
        the table row's lock, so that servers filling the last seats at once start it.
        ``user_id`` is the signed-in account taking the seat (``None``: a guest); ``at``, when
        the game's first turn begins if this join starts it (default: now). Raises
        :class:`StoreConflictError`, writing nothing, if the seat is not open or is kept for
        another account.
        """
        async with self._writing("join") as conn:
            if self.shared:
                await conn.execute(
                    sa.select(tables_table.c.id)
                    .where(tables_table.c.id == table_id)
                    .with_for_update()
                )
            done = await conn.execute(
                seats_table.update()
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.kind == "open",
                    sa.exists().where(
                        tables_table.c.id == table_id, tables_table.c.status == "waiting"
                    ),
                    sa.or_(
                        seats_table.c.invited_user_id.is_(None),
                        seats_table.c.invited_user_id == user_id,
                    ),
                )
                .values(kind="human", name=name, token_hash=token_hash, user_id=user_id)
            )
            if done.rowcount != 1:
                raise StoreConflictError(f"seat {seat} of table {table_id} is not open")
            still_open = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(seats_table)
                .where(seats_table.c.table_id == table_id, seats_table.c.kind == "open")
            )
            status = "waiting" if still_open else "playing"
            now = at or _now()
            await conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(status=status, updated_at=now, turn_at=None if still_open else (at or now))
            )
            await self._notify(conn, {"k": "join", "t": table_id})
        return status

    async def _notify(self, conn: AsyncConnection, notice: dict[str, Any]) -> None:
        """Send ``notice`` (with this server's id) at the commit of ``conn``'s transaction."""
        if self.notify_as is None:
            return
        text = json.dumps({**notice, "p": self.notify_as}, separators=(",", ":"))
        await conn.execute(
            sa.text("SELECT pg_notify(:channel, :text)"),
            {"channel": NOTICE_CHANNEL, "text": text},
        )

    async def append_action(
        self,
        table_id: str,
        number: int,
        seat: int,
        action: int,
        *,
        text: str,
        status: str,
        by: str = "player",
        turn_at: dt.datetime | None = None,
        finish: Finish | None = None,
    ) -> None:
        """Store action ``number`` and bump the version to ``number + 1``, atomically.

        Returns once the action is committed. Raises :class:`StoreConflictError`, writing
        nothing, unless the stored version is ``number``. Actions arriving from several
        tables while a commit is under way are stored together in the next transaction
        (a group commit), so that the cost of a commit is shared. ``by`` (``player``,
        ``bot`` or ``stand_in``) is told to the other servers sharing the database. ``turn_at``
        is when the next seat's turn began, if another seat must decide next. ``finish``
        comes with a game's last action: its results, and for a rated table its ratings,
        are stored in the same transaction (:meth:`_store_finishes`).
        """
        done = asyncio.get_running_loop().create_future()
        self._queued.append(
            (
                _Append(table_id, number, seat, action, text, status, _now(), by, turn_at, finish),
                done,
            )
        )
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write_queued())
        await done

    async def _write_queued(self) -> None:
        """Commit the queued actions, a batch per transaction, until none is left."""
        while self._queued:
            batch, self._queued = self._queued, []
            try:
                refused = await self._write_batch([item for item, _ in batch])
            except asyncio.CancelledError:
                for _, done in batch + self._queued:
                    done.cancel()
                raise
            except Exception as exc:  # handed to every caller of the batch
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for i, (item, done) in enumerate(batch):
                if done.done():
                    continue
                if i in refused:
                    done.set_exception(
                        StoreConflictError(f"table {item.table_id} is not at version {item.number}")
                    )
                else:
                    done.set_result(None)

    async def _write_batch(self, batch: list[_Append]) -> set[int]:
        """Store ``batch`` in one transaction; the indexes of the actions refused."""
        refused: set[int] = set()
        rows: list[dict[str, Any]] = []
        notes: list[list[Any]] = []
        finished: list[_Append] = []
        async with self._writing("actions") as conn:
            for i, item in enumerate(batch):
                done = await conn.execute(
                    tables_table.update()
                    .where(
                        tables_table.c.id == item.table_id,
                        tables_table.c.version == item.number,
                        tables_table.c.status != "abandoned",
                    )
                    .values(
                        version=item.number + 1,
                        status=item.status,
                        updated_at=item.at,
                        **({} if item.turn_at is None else {"turn_at": item.turn_at}),
                    )
                )
                if done.rowcount != 1:
                    refused.add(i)
                    continue
                rows.append(
                    {
                        "table_id": item.table_id,
                        "number": item.number,
                        "seat": item.seat,
                        "action": item.action,
                        "text": item.text,
                        "created_at": item.at,
                        "by": item.by,
                    }
                )
                notes.append([item.table_id, item.number, item.seat, item.action, item.by])
                if item.finish is not None:
                    finished.append(item)
            if rows:
                await conn.execute(actions_table.insert(), rows)
            if finished:
                # After every table's row: ratings' locks are taken last (no deadlock).
                await self._store_finishes(conn, finished)
            for chunk in notice_chunks(notes):
                await self._notify(conn, {"k": "actions", "x": chunk})
        return refused

    async def seen(self, table_id: str, at: dt.datetime) -> None:
        """Record that the people of an unfinished table were last there ``at``.

        Kept in ``updated_at``, as an action is: a table is abandoned once nobody has been
        at it for long enough (:meth:`abandoned`).
        """
        async with self._writing("table") as conn:
            await conn.execute(
                tables_table.update()
                .where(
                    tables_table.c.id == table_id,
                    tables_table.c.status.in_(("waiting", "playing")),
                )
                .values(updated_at=at)
            )

    async def abandoned(self, before: dt.datetime, limit: int = 500) -> list[str]:
        """Unfinished real-time tables nobody has changed or been at since ``before``.

        The tables waiting or being played without a time per move whose ``updated_at`` (an
        action, a join, the last person leaving: :meth:`seen`) is older than ``before``,
        the oldest first, at most ``limit``; the tables of bots alone are left out.
        """
        c = tables_table.c
        if self.shared:
            old = c.updated_at < before
        else:  # SQLite keeps times as text: compare them as Julian days
            since = sa.func.julianday(sa.literal(before, sa.DateTime(timezone=True)))
            old = sa.func.julianday(c.updated_at) < since
        people = (
            sa.select(seats_table.c.table_id)
            .where(seats_table.c.table_id == c.id, seats_table.c.kind != "bot")
            .exists()
        )
        query = (
            sa.select(c.id)
            .where(c.status.in_(("waiting", "playing")), c.move_time.is_(None), old, people)
            .order_by(c.updated_at, c.id)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [str(i) for (i,) in (await conn.execute(query)).all()]

    async def abandon(self, table_id: str, version: int, at: dt.datetime) -> bool:
        """End an unfinished table without a result, unless it moved on from ``version``.

        Its status becomes ``abandoned``: it takes no more joins nor actions, and the
        other servers are told. Whether it was ended here.
        """
        async with self._writing("table") as conn:
            done = await conn.execute(
                tables_table.update()
                .where(
                    tables_table.c.id == table_id,
                    tables_table.c.version == version,
                    tables_table.c.status.in_(("waiting", "playing")),
                )
                .values(status="abandoned", updated_at=at, turn_at=None)
            )
            if done.rowcount != 1:
                return False
            await self._notify(conn, {"k": "abandoned", "t": table_id})
        return True

    async def use_hints(self, table_id: str) -> None:
        """Record that a player took a hint at ``table_id``, and tell the other servers.

        From then on the table's result changes no rating (:meth:`_store_finishes` reads
        the flag in the transaction that stores the last action, whichever server stores it).
        """
        async with self._writing("table") as conn:
            await conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(hints_used=True, updated_at=_now())
            )
            await self._notify(conn, {"k": "hints", "t": table_id})

    async def append_chat(
        self,
        table_id: str,
        seat: int | None,
        name: str | None,
        text: str,
        at: dt.datetime,
        *,
        user_id: str | None = None,
    ) -> ChatRow:
        """Store a chat message of ``table_id`` and tell the other servers; the stored row.

        ``seat`` and ``name`` are ``None`` for a spectator; ``user_id`` is the account seated
        there (``None``: a guest). The notice carries the whole message (at most some 6,900
        bytes: 500 characters escaped as JSON, the name and the account's id).
        """
        async with self._writing("chat") as conn:
            result = await conn.execute(
                chat_table.insert().values(
                    table_id=table_id,
                    seat=seat,
                    name=name or "",
                    text=text,
                    created_at=at,
                    user_id=user_id,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            row = ChatRow(id=int(key[0]), seat=seat, name=name, text=text, at=at, user_id=user_id)
            await self._notify(conn, {"k": "chat", "t": table_id, "m": row.notice()})
        return row

    async def chat_of(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        """The last ``limit`` chat messages of ``table_id``, oldest first."""
        async with self.engine.connect() as conn:
            result = await conn.execute(
                sa.select(chat_table)
                .where(chat_table.c.table_id == table_id)
                .order_by(chat_table.c.id.desc())
                .limit(limit)
            )
            rows = result.all()
        return [
            ChatRow(
                id=int(r.id),
                seat=r.seat,
                name=None if r.seat is None else r.name,
                text=r.text,
                at=aware(r.created_at) or _now(),
                user_id=None if r.seat is None else r.user_id,
            )
            for r in reversed(rows)
        ]

    async def rematch_of(self, table_id: str) -> Rematch:
        """The rematch votes of ``table_id`` (in the order given) and its rematch, if open."""
        async with self.engine.connect() as conn:
            return await self._rematch(conn, table_id)

    async def _rematch(self, conn: AsyncConnection, table_id: str) -> Rematch:
        result = await conn.execute(
            sa.select(rematch_votes_table.c.seat)
            .where(rematch_votes_table.c.table_id == table_id)
            .order_by(rematch_votes_table.c.at, rematch_votes_table.c.seat)
        )
        votes = [int(seat) for (seat,) in result.all()]
        opened = await conn.scalar(
            sa.select(tables_table.c.rematch).where(tables_table.c.id == table_id)
        )
        return Rematch(votes=votes, table=opened)

    async def vote_rematch(
        self, table_id: str, seat: int, make: Callable[[], TableRow], at: dt.datetime
    ) -> Rematch:
        """Record ``seat``'s vote for a rematch of the finished ``table_id``; open it if due.

        In one transaction, under the table row's lock: the vote is kept (once per seat);
        when every ``human`` seat has voted and no rematch is open, the row ``make()``
        returns is stored as the new table and ``tables.rematch`` set to its id, guarded by
        ``rematch IS NULL``, so that servers counting the last votes at once open one
        rematch. Raises :class:`StoreConflictError`, writing nothing, unless the table is
        finished.
        """
        async with self._writing("rematch") as conn:
            query = sa.select(tables_table.c.status, tables_table.c.rematch).where(
                tables_table.c.id == table_id
            )
            if self.shared:
                query = query.with_for_update()
            found = (await conn.execute(query)).first()
            if found is None or found.status != "finished":
                raise StoreConflictError(f"table {table_id} is not finished")
            if found.rematch is not None:
                return await self._rematch(conn, table_id)
            voted = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(rematch_votes_table)
                .where(
                    rematch_votes_table.c.table_id == table_id, rematch_votes_table.c.seat == seat
                )
            )
            if not voted:
                await conn.execute(
                    rematch_votes_table.insert().values(table_id=table_id, seat=seat, at=at)
                )
            state = await self._rematch(conn, table_id)
            humans = await conn.execute(
                sa.select(seats_table.c.seat).where(
                    seats_table.c.table_id == table_id, seats_table.c.kind == "human"
                )
            )
            if {int(p) for (p,) in humans.all()} <= set(state.votes):
                row = make()
                row.rematch_of = table_id
                done = await conn.execute(
                    tables_table.update()
                    .where(tables_table.c.id == table_id, tables_table.c.rematch.is_(None))
                    .values(rematch=row.id)
                )
                if done.rowcount == 1:
                    await self._insert(conn, row)
                    state = Rematch(votes=state.votes, table=row.id)
            await self._notify(conn, {"k": "rematch", "t": table_id})
        return state

    async def _store_finishes(self, conn: AsyncConnection, items: list[_Append]) -> None:
        """Write the results of the games ``items`` end, and rate the rated ones.

        The ratings of their players are read and locked (:meth:`_lock_ratings`), changed
        game by game in the batch's order through a :class:`~closingbell.server.ratings.Ladder`
        and written back, with one ``rating_changes`` row per player and game: all in the
        transaction of the games' last actions, so that a failed write changes nothing. A
        rated game is dated after its players' previous rated games (``Ladder.when``), so
        that ``closingbell ratings --rebuild`` replays them in the same order. A table where
        a hint was taken (``hints_used``, read here, in the same transaction) rates nobody,
        whatever its ``finish`` says.
        """
        hinted = set(
            (
                await conn.execute(
                    sa.select(tables_table.c.id).where(
                        tables_table.c.id.in_([item.table_id for item in items]),
                        tables_table.c.hints_used,
                    )
                )
            ).scalars()
        )
        games = [
            (item, item.finish, [] if item.table_id in hinted else item.finish.entries())
            for item in items
            if item.finish
        ]
        keys = sorted({(p, finish.game) for _, finish, entries in games for p, _ in entries})
        ladder = Ladder(await self._lock_ratings(conn, keys, items[0].at))
        results: list[dict[str, Any]] = []
        changes: list[Change] = []
        for item, finish, entries in games:
            at = ladder.when(finish.game, item.at, (p for p, _ in entries))
            changes += ladder.play(item.table_id, finish.game, at, entries)
            results += [
                {
                    "table_id": item.table_id,
                    "seat": seat,
                    "player": player,
                    "score": score,
                    "rank": rank,
                    "finished_at": at,
                }
                for seat, (player, score, rank) in enumerate(
                    zip(finish.players, finish.scores, finish.ranks, strict=True)
                )
            ]
        await conn.execute(results_table.insert(), results)
        for player, game in sorted(ladder.touched):
            standing = ladder.standings[(player, game)]
            await conn.execute(
                ratings_table.update()
                .where(ratings_table.c.player == player, ratings_table.c.game == game)
                .values(_rating_values(standing))
            )
        if changes:
            await conn.execute(rating_changes_table.insert(), [_change_row(c) for c in changes])

    async def _lock_ratings(
        self, conn: AsyncConnection, keys: list[tuple[str, str]], at: dt.datetime
    ) -> dict[tuple[str, str], Standing]:
        """The ratings of ``keys`` (player, game), each row made if missing and locked.

        One ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` per key, in sorted order:
        it makes a new player's row (at the defaults, no game yet) or locks the existing one
        and reads its latest committed figures. Two servers finishing games of the same
        players at once thus take turns, each rating on top of the other's change, and,
        taking the locks in one order, never wait for each other in a circle.
        """
        insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        found: dict[tuple[str, str], Standing] = {}
        for player, game in keys:
            statement = (
                insert(ratings_table)
                .values(
                    player=player,
                    game=game,
                    mu=DEFAULT_MU,
                    sigma=DEFAULT_SIGMA,
                    games=0,
                    updated_at=at,
                )
                .on_conflict_do_update(
                    index_elements=[ratings_table.c.player, ratings_table.c.game],
                    set_={"mu": ratings_table.c.mu},
                )
                .returning(
                    ratings_table.c.mu,
                    ratings_table.c.sigma,
                    ratings_table.c.games,
                    ratings_table.c.updated_at,
                )
            )
            row = (await conn.execute(statement)).one()
            found[(player, game)] = _standing(row)
        return found

    async def rebuild_ratings(self) -> tuple[int, int]:
        """Recompute every rating from the stored results of rated tables, in one transaction.

        The games are replayed through the same :class:`~closingbell.server.ratings.Ladder`
        as the live updates, in the order of their ``finished_at`` then table id, from the
        defaults; ``ratings`` and ``rating_changes`` are then rewritten whole. A table where
        a hint was taken (``hints_used``) is left out, as the live update leaves it. On
        PostgreSQL the ``ratings`` table is locked first (``EXCLUSIVE``): servers finishing
        rated games meanwhile wait, then rate on top of the rebuilt figures. Returns the
        number of games rated and of ratings written.
        """
        async with self._writing("ratings") as conn:
            if self.shared:
                await conn.execute(sa.text("LOCK TABLE ratings IN EXCLUSIVE MODE"))
            stored = await conn.execute(
                sa.select(
                    results_table.c.table_id,
                    results_table.c.player,
                    results_table.c.rank,
                    results_table.c.finished_at,
                    tables_table.c.game,
                )
                .select_from(results_table.join(tables_table))
                .where(tables_table.c.rated, sa.not_(tables_table.c.hints_used))
                .order_by(results_table.c.table_id, results_table.c.seat)
            )
            games: dict[str, tuple[dt.datetime, str, list[tuple[str | None, int]]]] = {}
            for r in stored.all():
                at = aware(r.finished_at)
                assert at is not None
                games.setdefault(r.table_id, (at, r.game, []))[2].append((r.player, r.rank))
            ladder = Ladder()
            changes: list[Change] = []
            played = 0
            for table_id, (at, game, seats) in sorted(games.items(), key=lambda g: (g[1][0], g[0])):
                entries = rated_entries(seats)
                at = ladder.when(game, at, (p for p, _ in entries))
                made = ladder.play(table_id, game, at, entries)
                changes += made
                played += bool(made)
            await conn.execute(rating_changes_table.delete())
            await conn.execute(ratings_table.delete())
            if ladder.standings:
                await conn.execute(
                    ratings_table.insert(),
                    [
                        {"player": player, "game": game, **_rating_values(standing)}
                        for (player, game), standing in sorted(ladder.standings.items())
                    ],
                )
            if changes:
                await conn.execute(rating_changes_table.insert(), [_change_row(c) for c in changes])
        return played, len(ladder.standings)

    async def actions_from(self, table_id: str, first: int) -> list[tuple[int, int, int]]:
        """The stored actions of ``table_id`` numbered ``first`` on: (number, seat, action)."""
        async with self.engine.connect() as conn:
            result = await conn.execute(
                sa.select(actions_table.c.number, actions_table.c.seat, actions_table.c.action)
                .where(actions_table.c.table_id == table_id, actions_table.c.number >= first)
                .order_by(actions_table.c.number)
            )
            return [(int(n), int(s), int(a)) for n, s, a in result.all()]

    async def seats_of(self, table_id: str) -> tuple[str, list[SeatRow]] | None:
        """The status and seats of ``table_id`` as stored, or ``None``."""
        async with self.engine.connect() as conn:
            status = await conn.scalar(
                sa.select(tables_table.c.status).where(tables_table.c.id == table_id)
            )
            if status is None:
                return None
            result = await conn.execute(
                sa.select(seats_table)
                .where(seats_table.c.table_id == table_id)
                .order_by(seats_table.c.seat)
            )
            return str(status), [_read_seat(s) for s in result.all()]

    async def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids`` (those that exist)."""
        ids = list(table_ids)
        found: dict[str, int] = {}
        async with self.engine.connect() as conn:
            for start in range(0, len(ids), 500):
                result = await conn.execute(
                    sa.select(tables_table.c.id, tables_table.c.version).where(
                        tables_table.c.id.in_(ids[start : start + 500])
                    )
                )
                found.update({str(i): int(v) for i, v in result.all()})
        return found

    async def load(self, table_id: str) -> TableRow | None:
        """The table ``table_id`` with its seats and actions, or ``None``.

        Read in one snapshot (``REPEATABLE READ`` on PostgreSQL), so that the actions
        another server stores meanwhile never make the row and its actions disagree.
        """
        async with self.engine.connect() as conn:
            if self.shared:
                await conn.execution_options(isolation_level="REPEATABLE READ")
            found = await self._tables(conn, tables_table.c.id == table_id)
            if not found:
                return None
            row = found[0]
            with contextlib.suppress(ValueError, TypeError):  # an unreadable time: none
                row.turn_at = aware(
                    await conn.scalar(
                        sa.select(tables_table.c.turn_at).where(tables_table.c.id == table_id)
                    )
                )
            result = await conn.execute(
                sa.select(actions_table.c.number, actions_table.c.action, actions_table.c.by)
                .where(actions_table.c.table_id == table_id)
                .order_by(actions_table.c.number)
            )
            numbered = result.all()
            if row.status == "finished":
                row.rematch_votes = (await self._rematch(conn, table_id)).votes
        row.actions = [a for _, a, _ in numbered]
        row.chosen_by = [b if b in ("player", "bot", "stand_in") else None for _, _, b in numbered]
        if [n for n, _, _ in numbered] != list(range(len(numbered))) or len(
            numbered
        ) != row.version:
            raise StoreConflictError(f"table {table_id}: actions do not match its version")
        return row

    async def active_ids(self) -> list[str]:
        """The ids of the tables not over (neither finished nor abandoned), oldest first."""
        async with self.engine.connect() as conn:
            result = await conn.execute(
                sa.select(tables_table.c.id)
                .where(tables_table.c.status.not_in(ENDED))
                .order_by(tables_table.c.created_at, tables_table.c.id)
            )
            return [r for (r,) in result.all()]

    async def newest(self, limit: int = 100) -> list[TableRow]:
        """The newest tables with their seats (without actions)."""
        async with self.engine.connect() as conn:
            return await self._tables(conn, None, limit)

    async def overdue(self, now: dt.datetime, limit: int = 500) -> list[str]:
        """The games over days whose seat to move is past its deadline at ``now``.

        The deadline is ``turn_at`` + ``move_time`` seconds; the longest overdue come first,
        at most ``limit``.
        """
        c = tables_table.c
        if self.shared:  # PostgreSQL: a time plus an interval
            deadline: Any = c.turn_at + sa.func.make_interval(0, 0, 0, 0, 0, 0, c.move_time)
            passed = deadline <= now
        else:  # SQLite keeps times as text: compare them as Julian days
            deadline = sa.func.julianday(c.turn_at) + c.move_time / 86400.0
            passed = deadline <= sa.func.julianday(sa.literal(now, sa.DateTime(timezone=True)))
        query = (
            sa.select(c.id)
            .where(
                c.status == "playing",
                c.move_time.is_not(None),
                c.turn_at.is_not(None),
                passed,
            )
            .order_by(deadline, c.id)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [str(i) for (i,) in (await conn.execute(query)).all()]

    async def tables_of(
        self,
        user_id: str,
        *,
        unfinished: int,
        invitations: int,
        per_inviter: int,
        finished: int,
    ) -> AccountTables:
        """The tables of the account ``user_id``, with their seats (``GET /api/my/games``).

        The newest ``unfinished`` of the tables not over where it has a seat; the newest
        ``invitations`` of those with an open seat kept for it (an invitation), at most
        ``per_inviter`` of them from one inviter; the ``finished`` last over (finished or
        abandoned) where it had
        a seat; and how many invitations it has in all. Invitations are read apart from the
        seats, so that however many other accounts send cannot push the account's own games
        out of the list, nor one inviter the others' invitations.
        """
        seats = seats_table.c
        c = tables_table.c
        seated = sa.select(seats.table_id).where(seats.user_id == user_id)
        kept = sa.and_(seats.invited_user_id == user_id, seats.kind == "open")
        # Each inviter's invitations numbered from the newest; those stored before inviters
        # were (no inviter) are each their own.
        ranked = (
            sa.select(
                seats.table_id,
                sa.func.row_number()
                .over(
                    partition_by=sa.func.coalesce(seats.invited_by, seats.table_id),
                    order_by=(c.created_at.desc(), c.id),
                )
                .label("rank"),
            )
            .select_from(seats_table.join(tables_table, c.id == seats.table_id))
            .where(kept)
            .subquery()
        )
        listed = sa.select(ranked.c.table_id).where(ranked.c.rank <= per_inviter)
        async with self.engine.connect() as conn:
            going = await self._tables(
                conn, sa.and_(c.id.in_(seated), c.status.not_in(ENDED)), unfinished
            )
            invited = await self._tables(conn, c.id.in_(listed), invitations)
            done = await self._tables(
                conn,
                sa.and_(c.id.in_(seated), c.status.in_(ENDED)),
                finished,
                order=c.updated_at.desc(),
            )
            count = await conn.scalar(
                sa.select(sa.func.count()).select_from(seats_table).where(kept)
            )
        return AccountTables(
            seated=going, invited=invited, finished=done, invitations=int(count or 0)
        )

    async def _tables(
        self, conn: Any, where: Any, limit: int | None = None, *, order: Any = None
    ) -> list[TableRow]:
        # The times are read as text: one row's unreadable time would fail the whole query.
        when = sa.cast(tables_table.c.updated_at, sa.String).label("updated_text")
        columns = [c for c in tables_table.c if not c.name.endswith("_at")]
        query = sa.select(*columns, when).order_by(
            tables_table.c.created_at.desc() if order is None else order, tables_table.c.id
        )
        if where is not None:
            query = query.where(where)
        if limit is not None:
            query = query.limit(limit)
        rows = {r.id: _read_table(r) for r in (await conn.execute(query)).all()}
        if rows:
            seats = await conn.execute(
                sa.select(seats_table)
                .where(seats_table.c.table_id.in_(list(rows)))
                .order_by(seats_table.c.table_id, seats_table.c.seat)
            )
            for s in seats.all():
                rows[s.table_id].seats.append(_read_seat(s))
        return list(rows.values())


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


def _standing(row: Any) -> Standing:
    """A stored rating (a row that has rated no game yet has no date)."""
    games = int(row.games)
    return Standing(
        mu=float(row.mu),
        sigma=float(row.sigma),
        games=games,
        updated_at=aware(row.updated_at) if games else None,
    )


def _rating_values(standing: Standing) -> dict[str, Any]:
    """The columns of a ``ratings`` row that a rated game changes."""
    return {
        "mu": standing.mu,
        "sigma": standing.sigma,
        "games": standing.games,
        "updated_at": standing.updated_at,
    }


def _change_row(change: Change) -> dict[str, Any]:
    """A ``rating_changes`` row."""
    return {
        "table_id": change.table_id,
        "player": change.player,
        "game": change.game,
        "mu": change.mu,
        "sigma": change.sigma,
        "at": change.at,
    }


def _read_seat(s: Any) -> SeatRow:
    """A stored seat."""
    return SeatRow(
        seat=s.seat,
        kind=s.kind,
        bot=s.bot,
        name=s.name,
        token_hash=s.token_hash,
        user_id=s.user_id,
        invited_user_id=s.invited_user_id,
        invited_by=s.invited_by,
    )


def _read_time(text: Any) -> dt.datetime | None:
    """A stored time read as text (UTC when it names no zone), or ``None`` if unreadable."""
    if not isinstance(text, str):
        return None
    try:
        return aware(dt.datetime.fromisoformat(text.strip()))
    except ValueError:
        return None


def _read_table(r: Any) -> TableRow:
    """A stored table; what cannot be read is said in ``problem``, never raised.

    Each row is read on its own so that one damaged row spoils only its own table (SQLite
    keeps any value in any column; a hand-edited PostgreSQL row may hold bad JSON).
    """
    row = TableRow(
        id=str(r.id), game=str(r.game), options={}, seed=0, clock=None, status=str(r.status)
    )
    try:
        options = load_json(r.options)
        if not isinstance(options, dict):
            raise ValueError("not a JSON object")
    except (TypeError, ValueError) as exc:
        row.problem = f"its options are not readable: {exc}"
        return row
    row.options = options
    for name in ("seed", "version", "rules_version"):
        value = getattr(r, name)
        if not isinstance(value, int) or isinstance(value, bool):
            row.problem = f"its {name} {value!r} is not an integer"
            return row
        setattr(row, name, value)
    if r.clock is not None and not isinstance(r.clock, int | float):
        row.problem = f"its clock {r.clock!r} is not a number"
        return row
    row.clock = None if r.clock is None else float(r.clock)
    if r.position is not None and not isinstance(r.position, str):
        row.problem = f"its position {r.position!r} is not text"
        return row
    row.position = r.position
    if r.move_time is not None and not isinstance(r.move_time, int | float):
        row.problem = f"its time per move {r.move_time!r} is not a number"
        return row
    row.move_time = None if r.move_time is None else float(r.move_time)
    row.rated = bool(r.rated)
    row.spectator_chat = bool(r.spectator_chat)
    row.rematch_of = r.rematch_of
    row.rematch = r.rematch
    row.hints_used = bool(r.hints_used)
    row.updated_at = _read_time(getattr(r, "updated_text", None))
    return row


def _alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", "closingbell.server:migrations")
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    command.upgrade(_alembic_config(connection), "head")


def _refuse_empty_file(path: Path) -> None:
    """Refuse an SQLite file that exists with 0 bytes (a missing file is a new database).

    SQLite takes a 0-byte file for an empty database, so the server would start with no
    game at all. But a database the server made is never 0 bytes (its first statement
    writes the file's header), so such a file most likely lost its contents: a truncated
    copy, a full disk, a ``>`` redirection. A write-ahead log beside it does not help:
    SQLite ignores it for a file with no header, and the server would then discard it.
    """
    if path.is_file() and path.stat().st_size == 0:
        wal = path.with_name(path.name + "-wal")
        keep = f" (keep {wal.name}, which may hold some)" if wal.is_file() else ""
        raise EmptyDatabaseFileError(
            f"{path} is an empty file (0 bytes): if it held games, they are lost from it"
            f"{keep}; restore it from a backup, or, to start afresh, delete the file or "
            "name another"
        )


def _listed(names: Iterable[str]) -> str:
    """A few names for a message: ``a, b, c`` or ``a, b, c and 4 more``."""
    names = sorted(names)
    shown = ", ".join(names[:3])
    return shown if len(names) <= 3 else f"{shown} and {len(names) - 3} more"


def _check(connection: Connection, where: str) -> None:
    """Refuse a database that is not closingbell's or whose migration is unknown.

    An empty database is fine (it is set up). One with tables must have Alembic's
    ``alembic_version`` naming exactly one migration of closingbell's.
    """
    inspector = sa.inspect(connection)
    names = set(inspector.get_table_names()) | set(inspector.get_view_names())
    if names:
        if "alembic_version" not in names:
            raise ForeignDatabaseError(
                f"{where} is not a closingbell database: it holds other tables "
                f"({_listed(names)}); name closingbell's database, or an empty one"
            )
        stamped = [
            str(r)
            for (r,) in connection.execute(sa.text("SELECT version_num FROM alembic_version"))
        ]
        script = ScriptDirectory.from_config(_alembic_config(connection))
        known = {s.revision for s in script.walk_revisions()}
        unknown = [r for r in stamped if r not in known]
        if unknown:
            raise UnknownSchemaError(
                f"{where} is at migration {_listed(unknown)}, which this version of closingbell "
                f"does not know (it knows {_listed(known)}): it was made by a newer closingbell "
                "or by another application; upgrade closingbell, or name another database"
            )
        if len(stamped) > 1 or (not stamped and names != {"alembic_version"}):
            raise UnknownSchemaError(
                f"{where} records {len(stamped)} migrations instead of one; "
                "restore it from a backup, or name another database"
            )


def _upgrade_checked(connection: Connection, where: str) -> None:
    """Migrate to the newest schema, then refuse it if a table or column is missing."""
    command.upgrade(_alembic_config(connection), "head")
    inspector = sa.inspect(connection)
    present = set(inspector.get_table_names())
    for table in metadata.sorted_tables:
        if table.name not in present:
            raise UnknownSchemaError(
                f"{where} is damaged: its table {table.name!r} is missing; "
                "restore it from a backup, or name another database"
            )
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        missing = [c.name for c in table.columns if c.name not in columns]
        if missing:
            raise UnknownSchemaError(
                f"{where} is damaged: its table {table.name!r} misses the columns "
                f"{_listed(missing)}; restore it from a backup, or name another database"
            )


def _reason(exc: BaseException) -> str:
    """An error in one line, without SQLAlchemy's statement and background link."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror} ({exc.filename})" if exc.filename else exc.strerror
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.split(" [SQL:")[0].split(" (Background on")[0]


def default_database_path() -> Path:
    """The SQLite file used when no database is named: under ``$XDG_DATA_HOME/closingbell``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "closingbell" / "closingbell.db"
