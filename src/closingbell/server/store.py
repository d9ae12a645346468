"""Where games are kept: SQLAlchemy 2 with asyncio drivers, the schema made by Alembic.

A game is stored as what reproduces it, never as a snapshot: its game name, rules
options, seed, seats (kind, name, bot, and the SHA-256 of the seat token, never the token)
and its list of actions, one row per action. Appending an action and bumping the table's
version happen in one transaction, guarded by the version the table had, so a row is
never lost nor written twice; on start the server rebuilds every table by replaying its
actions through the rules engine.

Why async drivers (aiosqlite, asyncpg) rather than a synchronous engine in a thread: the
server is one asyncio process whose every table waits on its own writes; an async engine
lets those waits overlap without a thread pool sized by guesswork, and the migrations run
on the same connection through ``run_sync``. SQLite and PostgreSQL are both supported
with the same code; plain ``sqlite:///`` and ``postgresql://`` URLs are given their
asyncio drivers by :func:`async_url`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

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
)
"""One row per table: the game, its options (JSON), seed, clock, status and version."""

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)
"""One row per seat: ``open``, ``human`` (with name and token hash) or ``bot``."""

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer(), primary_key=True),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("action", sa.Integer(), nullable=False),
    sa.Column("text", sa.String(100), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per action, numbered from 0 within its table."""


class StoreConflictError(RuntimeError):
    """A write that found the row in another state than expected (nothing was written)."""


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


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


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
    """``waiting``, ``playing`` or ``finished``."""
    version: int = 0
    """The number of actions stored."""
    seats: list[SeatRow] = field(default_factory=list)
    """Every seat, in order."""
    actions: list[int] = field(default_factory=list)
    """The action ids, in order (filled by :meth:`Store.load`)."""


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


class Store:
    """The database of tables, seats and actions."""

    def __init__(self, url: str) -> None:
        self.url = async_url(url)
        """The SQLAlchemy URL with its asyncio driver."""
        self.engine: AsyncEngine = create_async_engine(self.url)
        """The async engine."""
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

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A transaction that writes (one at a time on SQLite), committed at the end."""
        async with contextlib.AsyncExitStack() as stack:
            if self._sqlite_writes is not None:
                await stack.enter_async_context(self._sqlite_writes)
            yield await stack.enter_async_context(self.engine.begin())

    async def upgrade(self) -> None:
        """Bring the schema to the newest migration (``alembic upgrade head``)."""
        async with self.engine.begin() as connection:
            await connection.run_sync(_upgrade)

    async def close(self) -> None:
        """Release every connection."""
        await self.engine.dispose()

    async def create(self, row: TableRow) -> None:
        """Store a new table and its seats."""
        now = _now()
        async with self._writing() as conn:
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
                    updated_at=now,
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
                    }
                    for s in row.seats
                ],
            )

    async def join(self, table_id: str, seat: int, name: str, token_hash: str, status: str) -> None:
        """Fill an open seat and set the table's status, in one transaction."""
        async with self._writing() as conn:
            done = await conn.execute(
                seats_table.update()
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.kind == "open",
                )
                .values(kind="human", name=name, token_hash=token_hash)
            )
            if done.rowcount != 1:
                raise StoreConflictError(f"seat {seat} of table {table_id} is not open")
            await conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(status=status, updated_at=_now())
            )

    async def append_action(
        self, table_id: str, number: int, seat: int, action: int, *, text: str, status: str
    ) -> None:
        """Store action ``number`` and bump the version to ``number + 1``, atomically.

        Returns once the action is committed. Raises :class:`StoreConflictError`, writing
        nothing, unless the stored version is ``number``. Actions arriving from several
        tables while a commit is under way are stored together in the next transaction
        (a group commit), so that the cost of a commit is shared.
        """
        done = asyncio.get_running_loop().create_future()
        self._queued.append(
            (
                _Append(table_id, number, seat, action, text, status, _now()),
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
        async with self._writing() as conn:
            for i, item in enumerate(batch):
                done = await conn.execute(
                    tables_table.update()
                    .where(
                        tables_table.c.id == item.table_id, tables_table.c.version == item.number
                    )
                    .values(version=item.number + 1, status=item.status, updated_at=item.at)
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
                    }
                )
            if rows:
                await conn.execute(actions_table.insert(), rows)
        return refused

    async def load(self, table_id: str) -> TableRow | None:
        """The table ``table_id`` with its seats and actions, or ``None``."""
        async with self.engine.connect() as conn:
            found = await self._tables(conn, tables_table.c.id == table_id)
            if not found:
                return None
            row = found[0]
            result = await conn.execute(
                sa.select(actions_table.c.number, actions_table.c.action)
                .where(actions_table.c.table_id == table_id)
                .order_by(actions_table.c.number)
            )
            numbered = result.all()
        row.actions = [a for _, a in numbered]
        if [n for n, _ in numbered] != list(range(len(numbered))) or len(numbered) != row.version:
            raise StoreConflictError(f"table {table_id}: actions do not match its version")
        return row

    async def active_ids(self) -> list[str]:
        """The ids of the tables not finished, oldest first."""
        async with self.engine.connect() as conn:
            result = await conn.execute(
                sa.select(tables_table.c.id)
                .where(tables_table.c.status != "finished")
                .order_by(tables_table.c.created_at, tables_table.c.id)
            )
            return [r for (r,) in result.all()]

    async def newest(self, limit: int = 100) -> list[TableRow]:
        """The newest tables with their seats (without actions)."""
        async with self.engine.connect() as conn:
            return await self._tables(conn, None, limit)

    async def _tables(self, conn: Any, where: Any, limit: int | None = None) -> list[TableRow]:
        query = sa.select(tables_table).order_by(
            tables_table.c.created_at.desc(), tables_table.c.id
        )
        if where is not None:
            query = query.where(where)
        if limit is not None:
            query = query.limit(limit)
        rows = {
            r.id: TableRow(
                id=r.id,
                game=r.game,
                options=json.loads(r.options),
                seed=int(r.seed),
                clock=r.clock,
                status=r.status,
                version=r.version,
            )
            for r in (await conn.execute(query)).all()
        }
        if rows:
            seats = await conn.execute(
                sa.select(seats_table)
                .where(seats_table.c.table_id.in_(list(rows)))
                .order_by(seats_table.c.table_id, seats_table.c.seat)
            )
            for s in seats.all():
                rows[s.table_id].seats.append(
                    SeatRow(
                        seat=s.seat,
                        kind=s.kind,
                        bot=s.bot,
                        name=s.name,
                        token_hash=s.token_hash,
                    )
                )
        return list(rows.values())


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", "closingbell.server:migrations")
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def default_database_path() -> Path:
    """The SQLite file used when no database is named: under ``$XDG_DATA_HOME/closingbell``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "closingbell" / "closingbell.db"
