"""Rematches of a finished live table: the players' votes, stored, and the new table."""

from __future__ import annotations

import contextlib
import logging
import secrets

from sqlalchemy.exc import SQLAlchemyError

from closingbell.server.client import Connection
from closingbell.server.errors import WebError
from closingbell.server.logs import TABLES_LOG
from closingbell.server.protocol import ErrorCode, RematchMessage
from closingbell.server.store import Rematch, SeatRow, StoreConflictError, TableRow
from closingbell.server.tablebase import TableBase

log = logging.getLogger(TABLES_LOG)


class Rematches:
    """The votes for a rematch of a finished table, and the rematch once open."""

    def __init__(self, table: TableBase) -> None:
        self.table = table
        """The table."""

    def message(self) -> RematchMessage:
        """Who voted for a rematch, and the rematch once open."""
        return RematchMessage(votes=list(self.table.rematch_votes), table=self.table.rematch)

    async def vote(self, conn: Connection) -> None:
        """``conn``'s seat offers or accepts a rematch; raise :class:`WebError` if refused.

        Once every seated person agreed (bots always do), the rematch is opened: a new
        table of the same game and options with a new deal, the same people in the same
        seats (their seat tokens and accounts carry over) and bots of the same levels.
        """
        table = self.table
        async with table.lock:
            if conn.seat is None:
                raise WebError(ErrorCode.SPECTATOR, "spectators do not vote for a rematch")
            if table.status != "finished":
                raise WebError(ErrorCode.NOT_FINISHED, "a rematch is offered once the game is over")
            try:
                found = await table.hub.store.rematch.vote(
                    table.id, conn.seat, self._row, table.hub.clock()
                )
            except StoreConflictError as exc:
                raise WebError(ErrorCode.NOT_FINISHED, str(exc)) from None
            except SQLAlchemyError as exc:
                log.exception("table %s: rematch vote not stored", table.id)
                raise WebError(ErrorCode.SERVER_ERROR, f"the vote was not stored: {exc}") from None
            if not self._show(found):
                conn.send(self.message())  # nothing changed: the voter is told anyway
        if found.table is not None:
            with contextlib.suppress(WebError):  # logged by get; the players' pages retry
                rematch = await table.hub.get(found.table)  # its bots start, here
                rematch.address = rematch.address or table.address

    def _row(self) -> TableRow:
        """The new table of a rematch: a new deal, the same seats, options and settings."""
        table = self.table
        seats = [
            SeatRow(
                seat=p,
                kind=s.kind,
                bot=s.bot,
                name=s.name,
                token_hash=s.token_hash,
                user_id=s.user_id,
                bot_account=s.bot_account,
            )
            for p, s in enumerate(table.seats)
        ]
        return TableRow(
            id=secrets.token_urlsafe(9),
            game=table.game.info.name,
            options=table.game.options_dict(),
            seed=secrets.randbits(63),
            clock=table.clock,
            status="playing",
            seats=seats,
            rated=table.rated,
            move_time=table.move_time,
            turn_at=table.hub.clock(),
            spectator_chat=table.spectator_chat,
            rematch_of=table.id,
        )

    def _show(self, found: Rematch) -> bool:
        """Keep the rematch as stored; tell every connection if it changed (and say so)."""
        table = self.table
        if (found.votes, found.table) == (table.rematch_votes, table.rematch):
            return False
        table.rematch_votes, table.rematch = list(found.votes), found.table
        message = self.message()
        for conn in table.connections:
            conn.send(message)
        return True

    def heard(self) -> None:
        """Another server stored a rematch vote: read the votes again, in a task of their own."""
        self.table.later(self._refresh())

    async def _refresh(self) -> None:
        table = self.table
        async with table.lock:
            try:
                found = await table.hub.store.rematch.of(table.id)
            except SQLAlchemyError:
                log.exception("table %s: the rematch votes could not be read", table.id)
                return
            self._show(found)
