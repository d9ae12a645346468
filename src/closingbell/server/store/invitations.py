"""Invitations: an open seat kept for an account, counted against its maker's limits.

A table's invitations are counted when it is made (:meth:`InvitationRepository.check`, in
the transaction that stores the table), and an invited account may decline its seat.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from closingbell.server.store.database import Database
from closingbell.server.store.errors import TooManyInvitationsError
from closingbell.server.store.records import InvitationLimits, TableRow, utc_now
from closingbell.server.store.schema import seats_table, tables_table, users_table


class InvitationRepository:
    """The invitations of the database's tables."""

    def __init__(self, database: Database) -> None:
        self.database = database
        """The database written to."""

    async def check(self, conn: AsyncConnection, row: TableRow, limits: InvitationLimits) -> None:
        """Raise :class:`TooManyInvitationsError` if ``row``'s invitations are too many.

        Counted in ``conn``'s transaction, under a lock of each maker's account row on
        PostgreSQL, so that servers making that account's tables at once agree.
        """
        invited = [s for s in row.seats if s.invited_user_id is not None]
        if not invited:
            return
        for maker in {s.invited_by for s in invited}:
            if maker is None:
                continue
            if self.database.shared:
                await conn.execute(
                    sa.select(users_table.c.id).where(users_table.c.id == maker).with_for_update()
                )
            since = utc_now() - limits.counted_for
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
        async with self.database.writing("join") as conn:
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
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(updated_at=utc_now())
            )
            await self.database.notify(conn, {"k": "join", "t": table_id})
        return True
