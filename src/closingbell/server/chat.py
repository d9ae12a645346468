"""A live table's chat: stored first, sent to every connection, on every server."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math

from sqlalchemy.exc import SQLAlchemyError

from closingbell.server.client import Connection
from closingbell.server.errors import WebError
from closingbell.server.logs import TABLES_LOG
from closingbell.server.protocol import BadChat, ChatEntry, ChatMessage, ErrorCode, check_chat
from closingbell.server.store import ChatRow
from closingbell.server.tablebase import TableBase

log = logging.getLogger(TABLES_LOG)


class TableChat:
    """A table's chat: its history, the messages written, and the ones heard."""

    def __init__(self, table: TableBase) -> None:
        self.table = table
        """The table."""

    async def latest(self, limit: int) -> list[ChatEntry]:
        """The table's last ``limit`` chat messages, oldest first; raise :class:`WebError`."""
        table = self.table
        try:
            rows = await table.hub.store.chat.of(table.id, limit)
        except SQLAlchemyError as exc:
            log.exception("table %s: the chat could not be read", table.id)
            raise WebError(
                ErrorCode.SERVER_ERROR, f"the chat could not be read: {exc}", 500
            ) from None
        return [chat_entry(r) for r in rows]

    async def send_history(self, conn: Connection) -> None:
        """Send ``conn`` the table's latest chat messages, if there are any.

        Read from the database, which every server writes. The messages written meanwhile
        are held back and sent after them as new messages (not history), each once, in
        order, whether the read saw them or not.
        """
        entries: list[ChatEntry] = []
        with contextlib.suppress(WebError):  # logged; the connection goes on without them
            entries = await self.latest(self.table.hub.settings.chat_history)
        held, conn.chat_held = conn.chat_held or [], None
        fresh = {e.id for e in held}
        past = [e for e in entries if e.id not in fresh]
        if past:
            conn.send(ChatMessage(messages=sorted(past, key=lambda e: e.id), history=True))
        if held:
            conn.send(ChatMessage(messages=sorted(held, key=lambda e: e.id), history=False))

    async def say(self, conn: Connection, text: str) -> None:
        """Store and send everyone a chat message of ``conn``; raise :class:`WebError`.

        A spectator writes only where the table lets spectators chat. The text is checked
        (:func:`~closingbell.server.protocol.check_chat`), and ``chat_burst`` messages may be
        written in ``chat_window`` seconds by each seat, whatever the number of its
        connections, by each account, whatever the number of its tables on this server,
        and by each spectator's connection (:meth:`_writers`).
        """
        table = self.table
        if conn.seat is None and not table.spectator_chat:
            raise WebError(
                ErrorCode.CHAT_NOT_ALLOWED, "spectators only read the chat of this table"
            )
        try:
            clean = check_chat(text)
        except BadChat as exc:
            raise WebError(exc.code, str(exc)) from None
        settings = table.hub.settings
        now = asyncio.get_running_loop().time()
        wait = table.hub.chat_windows.take(self._writers(conn), now)
        if wait > 0:
            who = "a spectator" if conn.seat is None else "a seat or an account"
            raise WebError(
                ErrorCode.CHAT_RATE_LIMITED,
                f"at most {settings.chat_burst} chat messages from {who} in "
                f"{settings.chat_window:g} s; write again in {max(1, math.ceil(wait))} s",
            )
        seat = None if conn.seat is None else table.seats[conn.seat]
        try:
            row = await table.hub.store.chat.append(
                table.id,
                conn.seat,
                None if seat is None else seat.name,
                clean,
                table.hub.clock(),
                user_id=None if seat is None else seat.user_id,
                bot_account=seat is not None and seat.bot_account,
            )
        except SQLAlchemyError as exc:
            log.exception("table %s: chat message not stored", table.id)
            raise WebError(ErrorCode.SERVER_ERROR, f"the message was not stored: {exc}") from None
        self.heard(row)

    def _writers(self, conn: Connection) -> list[object]:
        """Who a chat message of ``conn`` counts against (:meth:`say`).

        Its seat and the account seated there; a spectator, who names no seat nor account,
        its own connection.
        """
        if conn.seat is None:
            # By its id, not itself: the windows must not keep a closed connection alive.
            # A new connection given a recent one's id inherits at most a few seconds' count.
            return [("connection", id(conn))]
        writers: list[object] = [("seat", self.table.id, conn.seat)]
        user_id = self.table.seats[conn.seat].user_id
        if user_id is not None:
            writers.append(("account", user_id))
        return writers

    def heard(self, row: ChatRow) -> None:
        """Send every connection a chat message stored here or by another server."""
        entry = chat_entry(row)
        message = ChatMessage(messages=[entry])
        for conn in self.table.connections:
            if conn.chat_held is not None:
                conn.chat_held.append(entry)  # sent with the history being read for it
            else:
                conn.send(message)


def chat_entry(row: ChatRow) -> ChatEntry:
    """A stored chat message as clients are sent it: whether an account wrote it, never which."""
    return ChatEntry(
        id=row.id,
        seat=row.seat,
        name=row.name,
        account=row.seat is not None and row.user_id is not None,
        bot_account=row.seat is not None and row.bot_account,
        text=row.text,
        time=row.at.timestamp(),
    )
