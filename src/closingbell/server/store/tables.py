"""Tables and their seats: made, joined, seen, abandoned, loaded to play, listed.

A table is stored with its seats in one transaction; filling a seat and starting the game
happen under the table row's lock; loading a table for play reads its row, seats and
actions in one snapshot. Each row is read on its own (``server.store.rows``), so that a
damaged row spoils only its own table.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from closingbell.server.store.database import Database
from closingbell.server.store.errors import StoreConflictError, TooManyGamesError
from closingbell.server.store.invitations import InvitationRepository
from closingbell.server.store.records import (
    ENDED,
    AccountTables,
    InvitationLimits,
    SeatRow,
    TableRow,
    aware,
    utc_now,
)
from closingbell.server.store.rematch import read_rematch
from closingbell.server.store.rows import insert_table, read_seat, read_table, seats_with_accounts
from closingbell.server.store.schema import actions_table, seats_table, tables_table, users_table


class TableRepository:
    """The tables of the database, with their seats."""

    def __init__(self, database: Database, invitations: InvitationRepository) -> None:
        self.database = database
        """The database written to."""
        self.invitations = invitations
        """Where a new table's invitations are counted against their maker's limits."""

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
        async with self.database.writing("table") as conn:
            if limits is not None:
                await self.invitations.check(conn, row, limits)
            await insert_table(conn, row, at)

    async def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        user_id: str | None = None,
        *,
        at: dt.datetime | None = None,
        most_games: int = 0,
    ) -> str:
        """Fill an open seat and set the table's status, in one transaction; the status.

        The status is ``playing`` once no seat is open, else ``waiting``: worked out under
        the table row's lock, so that servers filling the last seats at once start it.
        ``user_id`` is the signed-in account taking the seat (``None``: a guest); ``at``, when
        the game's first turn begins if this join starts it (default: now). Raises
        :class:`StoreConflictError`, writing nothing, if the seat is not open or is kept for
        another account. With ``most_games`` (above 0) and an account, raises
        :class:`TooManyGamesError`, writing nothing, if the account already sits at that
        many unfinished tables (counted under its account row's lock: two servers seating
        it at once count one after the other).
        """
        async with self.database.writing("join") as conn:
            if self.database.shared:
                await conn.execute(
                    sa.select(tables_table.c.id)
                    .where(tables_table.c.id == table_id)
                    .with_for_update()
                )
            if most_games > 0 and user_id is not None:
                held = await self._unfinished(conn, user_id)
                if held >= most_games:
                    raise TooManyGamesError(
                        f"an account like this one sits at {most_games} unfinished tables at "
                        f"most, and this one sits at {held}"
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
            now = at or utc_now()
            await conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(status=status, updated_at=now, turn_at=None if still_open else (at or now))
            )
            await self.database.notify(conn, {"k": "join", "t": table_id})
        return status

    async def _unfinished(self, conn: AsyncConnection, user_id: str) -> int:
        """The unfinished tables (waiting or playing) where ``user_id`` has a seat.

        On a shared database the account's row is locked first, until the transaction ends.
        """
        if self.database.shared:
            await conn.execute(
                sa.select(users_table.c.id).where(users_table.c.id == user_id).with_for_update()
            )
        found = await conn.scalar(
            sa.select(sa.func.count(sa.distinct(seats_table.c.table_id)))
            .select_from(seats_table.join(tables_table))
            .where(
                seats_table.c.user_id == user_id,
                tables_table.c.status.in_(("waiting", "playing")),
            )
        )
        return int(found or 0)

    async def seen(self, table_id: str, at: dt.datetime) -> None:
        """Record that the people of an unfinished table were last there ``at``.

        Kept in ``updated_at``, as an action is: a table is abandoned once nobody has been
        at it for long enough (:meth:`abandoned`).
        """
        async with self.database.writing("table") as conn:
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
        if self.database.shared:
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
        async with self.database.engine.connect() as conn:
            return [str(i) for (i,) in (await conn.execute(query)).all()]

    async def abandon(self, table_id: str, version: int, at: dt.datetime) -> bool:
        """End an unfinished table without a result, unless it moved on from ``version``.

        Its status becomes ``abandoned``: it takes no more joins nor actions, and the
        other servers are told. Whether it was ended here.
        """
        async with self.database.writing("table") as conn:
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
            await self.database.notify(conn, {"k": "abandoned", "t": table_id})
        return True

    async def use_hints(self, table_id: str) -> None:
        """Record that a player took a hint at ``table_id``, and tell the other servers.

        From then on the table's result changes no rating
        (``RatingRepository.store_finishes`` reads the flag in the transaction that stores
        the last action, whichever server stores it).
        """
        async with self.database.writing("table") as conn:
            await conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(hints_used=True, updated_at=utc_now())
            )
            await self.database.notify(conn, {"k": "hints", "t": table_id})

    async def seats_of(self, table_id: str) -> tuple[str, list[SeatRow]] | None:
        """The status and seats of ``table_id`` as stored, or ``None``."""
        async with self.database.engine.connect() as conn:
            status = await conn.scalar(
                sa.select(tables_table.c.status).where(tables_table.c.id == table_id)
            )
            if status is None:
                return None
            result = await conn.execute(
                seats_with_accounts()
                .where(seats_table.c.table_id == table_id)
                .order_by(seats_table.c.seat)
            )
            return str(status), [read_seat(s) for s in result.all()]

    async def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids`` (those that exist)."""
        ids = list(table_ids)
        found: dict[str, int] = {}
        async with self.database.engine.connect() as conn:
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
        async with self.database.engine.connect() as conn:
            if self.database.shared:
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
                row.rematch_votes = (await read_rematch(conn, table_id)).votes
        row.actions = [a for _, a, _ in numbered]
        row.chosen_by = [b if b in ("player", "bot", "stand_in") else None for _, _, b in numbered]
        if [n for n, _, _ in numbered] != list(range(len(numbered))) or len(
            numbered
        ) != row.version:
            raise StoreConflictError(f"table {table_id}: actions do not match its version")
        return row

    async def active_ids(self) -> list[str]:
        """The ids of the tables not over (neither finished nor abandoned), oldest first."""
        async with self.database.engine.connect() as conn:
            result = await conn.execute(
                sa.select(tables_table.c.id)
                .where(tables_table.c.status.not_in(ENDED))
                .order_by(tables_table.c.created_at, tables_table.c.id)
            )
            return [r for (r,) in result.all()]

    async def newest(self, limit: int = 100) -> list[TableRow]:
        """The newest tables with their seats (without actions)."""
        async with self.database.engine.connect() as conn:
            return await self._tables(conn, None, limit)

    async def overdue(self, now: dt.datetime, limit: int = 500) -> list[str]:
        """The games over days whose seat to move is past its deadline at ``now``.

        The deadline is ``turn_at`` + ``move_time`` seconds; the longest overdue come first,
        at most ``limit``.
        """
        c = tables_table.c
        if self.database.shared:  # PostgreSQL: a time plus an interval
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
        async with self.database.engine.connect() as conn:
            return [str(i) for (i,) in (await conn.execute(query)).all()]

    async def of_account(
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
        async with self.database.engine.connect() as conn:
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
        rows = {r.id: read_table(r) for r in (await conn.execute(query)).all()}
        if rows:
            seats = await conn.execute(
                seats_with_accounts()
                .where(seats_table.c.table_id.in_(list(rows)))
                .order_by(seats_table.c.table_id, seats_table.c.seat)
            )
            for s in seats.all():
                rows[s.table_id].seats.append(read_seat(s))
        return list(rows.values())
