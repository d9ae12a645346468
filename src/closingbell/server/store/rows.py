"""Records to rows and back: a table and its seats written, read one row at a time.

A stored row is read field by field so that one damaged row spoils only its own table
(SQLite keeps any value in any column; a hand-edited PostgreSQL row may hold bad JSON).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from closingbell.core.jsontext import load_json
from closingbell.core.registry import game_class
from closingbell.server.store.records import SeatRow, TableRow, aware, utc_now
from closingbell.server.store.schema import seats_table, tables_table, users_table


async def insert_table(conn: AsyncConnection, row: TableRow, at: dt.datetime | None = None) -> None:
    """Insert a new table and its seats in ``conn``'s transaction (seen ``at``, or now)."""
    now = utc_now()
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


def seats_with_accounts() -> sa.Select[Any]:
    """Seats as stored, each with whether its account is a bot account (``bot_account``)."""
    return sa.select(seats_table, users_table.c.bot.label("bot_account")).select_from(
        seats_table.outerjoin(users_table, seats_table.c.user_id == users_table.c.id)
    )


def read_seat(s: Any) -> SeatRow:
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
        bot_account=bool(getattr(s, "bot_account", False)),
    )


def _read_time(text: Any) -> dt.datetime | None:
    """A stored time read as text (UTC when it names no zone), or ``None`` if unreadable."""
    if not isinstance(text, str):
        return None
    try:
        return aware(dt.datetime.fromisoformat(text.strip()))
    except ValueError:
        return None


def read_table(r: Any) -> TableRow:
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
