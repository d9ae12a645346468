"""Rematches: the votes of a finished table's seats, and the new table opened when all agree."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from closingbell.server.store.database import Database
from closingbell.server.store.errors import StoreConflictError
from closingbell.server.store.records import Rematch, TableRow
from closingbell.server.store.rows import insert_table
from closingbell.server.store.schema import rematch_votes_table, seats_table, tables_table


class RematchRepository:
    """The rematches of the database's finished tables."""

    def __init__(self, database: Database) -> None:
        self.database = database
        """The database written to."""

    async def of(self, table_id: str) -> Rematch:
        """The rematch votes of ``table_id`` (in the order given) and its rematch, if open."""
        async with self.database.engine.connect() as conn:
            return await read_rematch(conn, table_id)

    async def vote(
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
        async with self.database.writing("rematch") as conn:
            query = sa.select(tables_table.c.status, tables_table.c.rematch).where(
                tables_table.c.id == table_id
            )
            if self.database.shared:
                query = query.with_for_update()
            found = (await conn.execute(query)).first()
            if found is None or found.status != "finished":
                raise StoreConflictError(f"table {table_id} is not finished")
            if found.rematch is not None:
                return await read_rematch(conn, table_id)
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
            state = await read_rematch(conn, table_id)
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
                    await insert_table(conn, row)
                    state = Rematch(votes=state.votes, table=row.id)
            await self.database.notify(conn, {"k": "rematch", "t": table_id})
        return state


async def read_rematch(conn: AsyncConnection, table_id: str) -> Rematch:
    """The rematch votes of ``table_id`` (in the order given) and its rematch, in ``conn``."""
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
