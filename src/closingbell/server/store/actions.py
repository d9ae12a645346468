"""Actions: each table's list of actions, one row per action, appended in group commits.

Appending an action and bumping the table's version happen in one transaction, guarded by
the version the table had, so a row is never lost nor written twice; on start the server
rebuilds every table by replaying its actions through the rules engine, under the rules
version the table was made with. A game's last action is stored with its results and
ratings in the same transaction (``server.store.ratings``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import sqlalchemy as sa

from closingbell.server.ratings import Finish
from closingbell.server.store.database import Database, notice_chunks
from closingbell.server.store.errors import StoreConflictError
from closingbell.server.store.ratings import RatingRepository
from closingbell.server.store.records import QueuedAction, utc_now
from closingbell.server.store.schema import actions_table, tables_table


class ActionRepository:
    """The actions of the database's tables."""

    def __init__(self, database: Database, ratings: RatingRepository) -> None:
        self.database = database
        """The database written to."""
        self.ratings = ratings
        """Where a game's results and ratings are written, with its last action."""
        self._queued: list[tuple[QueuedAction, asyncio.Future[None]]] = []
        """Actions waiting for the next commit, each with its caller's future."""
        self._writer: asyncio.Future[None] | None = None
        """The task committing queued actions, while there are any."""

    async def append(
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
        are stored in the same transaction (:meth:`RatingRepository.store_finishes`).
        """
        done = asyncio.get_running_loop().create_future()
        self._queued.append(
            (
                QueuedAction(
                    table_id, number, seat, action, text, status, utc_now(), by, turn_at, finish
                ),
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

    async def _write_batch(self, batch: list[QueuedAction]) -> set[int]:
        """Store ``batch`` in one transaction; the indexes of the actions refused."""
        refused: set[int] = set()
        rows: list[dict[str, Any]] = []
        notes: list[list[Any]] = []
        finished: list[QueuedAction] = []
        async with self.database.writing("actions") as conn:
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
                await self.ratings.store_finishes(conn, finished)
            for chunk in notice_chunks(notes):
                await self.database.notify(conn, {"k": "actions", "x": chunk})
        return refused

    async def since(self, table_id: str, first: int) -> list[tuple[int, int, int]]:
        """The stored actions of ``table_id`` numbered ``first`` on: (number, seat, action)."""
        async with self.database.engine.connect() as conn:
            result = await conn.execute(
                sa.select(actions_table.c.number, actions_table.c.seat, actions_table.c.action)
                .where(actions_table.c.table_id == table_id, actions_table.c.number >= first)
                .order_by(actions_table.c.number)
            )
            return [(int(n), int(s), int(a)) for n, s, a in result.all()]
