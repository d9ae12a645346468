"""The chat of each table: messages stored, told to the other servers, read back."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa

from closingbell.server.store.database import Database
from closingbell.server.store.records import ChatRow, aware, utc_now
from closingbell.server.store.schema import chat_table, users_table


class ChatRepository:
    """The messages written at the database's tables."""

    def __init__(self, database: Database) -> None:
        self.database = database
        """The database written to."""

    async def append(
        self,
        table_id: str,
        seat: int | None,
        name: str | None,
        text: str,
        at: dt.datetime,
        *,
        user_id: str | None = None,
        bot_account: bool = False,
    ) -> ChatRow:
        """Store a chat message of ``table_id`` and tell the other servers; the stored row.

        ``seat`` and ``name`` are ``None`` for a spectator; ``user_id`` is the account seated
        there (``None``: a guest), ``bot_account`` whether it is a bot account. The notice
        carries the whole message (at most some 6,900 bytes: 500 characters escaped as JSON,
        the name and the account's id).
        """
        async with self.database.writing("chat") as conn:
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
            row = ChatRow(
                id=int(key[0]),
                seat=seat,
                name=name,
                text=text,
                at=at,
                user_id=user_id,
                bot_account=bot_account and user_id is not None,
            )
            await self.database.notify(conn, {"k": "chat", "t": table_id, "m": row.notice()})
        return row

    async def of(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        """The last ``limit`` chat messages of ``table_id``, oldest first."""
        async with self.database.engine.connect() as conn:
            result = await conn.execute(
                sa.select(chat_table, users_table.c.bot.label("bot_account"))
                .select_from(
                    chat_table.outerjoin(users_table, users_table.c.id == chat_table.c.user_id)
                )
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
                at=aware(r.created_at) or utc_now(),
                user_id=None if r.seat is None else r.user_id,
                bot_account=r.seat is not None and bool(r.bot_account),
            )
            for r in reversed(rows)
        ]
