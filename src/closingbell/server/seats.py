"""The seats of a live table: who sits where, joins and declines, who is connected.

A seat is joined under the table's lock, stored first; a seat filled or declined through
another server sharing the database is read again from the store. Presence counts a seat's
connections on every server.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets

from sqlalchemy.exc import SQLAlchemyError

from closingbell.server import tableview
from closingbell.server.errors import WebError
from closingbell.server.logs import TABLES_LOG, bound
from closingbell.server.protocol import ErrorCode
from closingbell.server.ratings import bot_player, user_player
from closingbell.server.store import StoreConflictError, TooManyGamesError, hash_token
from closingbell.server.tablebase import LiveSeat, TableBase

log = logging.getLogger(TABLES_LOG)


class Seating:
    """Who sits where at a table: joins, declines, seats found by token or account, presence."""

    def __init__(self, table: TableBase) -> None:
        self.table = table
        """The table."""

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token is ``token``, or ``None``."""
        digest = hash_token(token)
        found = None
        for p, s in enumerate(self.table.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = p
        return found

    async def join(
        self, name: str, seat: int | None, user_id: str | None = None, *, bot: bool = False
    ) -> tuple[int, str]:
        """Give ``name`` an open seat (``seat``, or the first open one); return it and its token.

        ``user_id`` is the signed-in account joining (``None``: a guest), ``bot`` whether it is a
        bot account. A seat kept for an
        account (an invitation) is that account's only; a rated table seats accounts only; a
        guest may not sit under an account's name (``Hub.check_guest_name``).
        """
        with bound(table=self.table.id):
            if user_id is None:
                await self.table.hub.check_guest_name(name)
            return await self._join(name, seat, user_id, bot)

    async def _join(
        self, name: str, seat: int | None, user_id: str | None, bot: bool
    ) -> tuple[int, str]:
        async with self.table.lock:
            for _ in range(len(self.table.seats)):
                try:
                    return await self._join_once(name, seat, user_id, bot)
                except StoreConflictError:
                    # Another server filled the seat first: see the seats as stored, then
                    # refuse a named seat, or try the next open one.
                    await self.read_stored()
            raise WebError(ErrorCode.TABLE_FULL, "every seat of this table is taken", 409)

    def _free_for(self, user_id: str | None) -> list[int]:
        """The open seats ``user_id`` may take, the ones kept for that account first."""
        free = [
            p
            for p, s in enumerate(self.table.seats)
            if s.kind == "open" and (s.invited is None or s.invited == user_id)
        ]
        return sorted(free, key=lambda p: self.table.seats[p].invited is None)

    async def _join_once(
        self, name: str, seat: int | None, user_id: str | None, bot: bool
    ) -> tuple[int, str]:
        table = self.table
        if table.status == "abandoned":
            raise WebError(ErrorCode.GAME_OVER, "the table was abandoned: nobody came back", 409)
        if table.rated and user_id is None:
            raise WebError(ErrorCode.SIGN_IN_REQUIRED, "sign in to play at a rated table", 403)
        if user_id is not None and any(s.user_id == user_id for s in table.seats):
            raise WebError(ErrorCode.ALREADY_SEATED, "your account already has a seat here", 409)
        if seat is not None:
            # The refusal names the seat as the protocol does (from 0), in its message and
            # in a field of its own, from which a page writes "Seat 2" for people.
            if seat >= len(table.seats):
                raise WebError(
                    ErrorCode.BAD_SEAT,
                    f"seat {seat} is not a seat of this table (0 to {len(table.seats) - 1})",
                    422,
                    {"seat": seat},
                )
            if table.seats[seat].kind != "open":
                raise WebError(
                    ErrorCode.SEAT_TAKEN, f"seat {seat} is not open", 409, {"seat": seat}
                )
            if seat not in self._free_for(user_id):
                raise WebError(
                    ErrorCode.SEAT_TAKEN,
                    f"seat {seat} is kept for an invited player",
                    409,
                    {"seat": seat},
                )
        else:
            open_seats = self._free_for(user_id)
            if not open_seats:
                raise WebError(ErrorCode.TABLE_FULL, "every seat of this table is taken", 409)
            seat = open_seats[0]
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        try:
            status = await table.hub.store.tables.join(
                table.id,
                seat,
                name,
                digest,
                user_id,
                at=table.hub.clock(),
                most_games=table.hub.settings.bot_account_games if bot else 0,
            )
            full = status == "playing"
        except TooManyGamesError as exc:
            raise WebError(ErrorCode.TOO_MANY_GAMES, f"{exc}: finish a game first", 409) from None
        except StoreConflictError:
            if table.hub.cluster.shared:
                raise
            log.exception("table %s: join not stored", table.id)
            raise WebError(
                ErrorCode.SERVER_ERROR, "the join was not stored: the seat is not open", 500
            ) from None
        except SQLAlchemyError as exc:
            log.exception("table %s: join not stored", table.id)
            raise WebError(ErrorCode.SERVER_ERROR, f"the join was not stored: {exc}", 500) from None
        target = table.seats[seat]
        target.kind, target.name, target.token_hash = "human", name, digest
        target.user_id, target.invited, target.bot_account = user_id, None, bot
        target.away_since = asyncio.get_running_loop().time()
        if full and any(s.kind == "open" for s in table.seats):
            await self.read_stored()  # another server filled the others: start with them
        elif full:
            table.start()
        else:
            tableview.broadcast_state(self.table)
        return seat, token

    async def decline(self, user_id: str) -> None:
        """Decline the invitation of ``user_id``: the seat kept for it becomes an open seat.

        Anyone may then take it. Every connection, on every server, is sent the seats as
        after a join. Raises :class:`WebError` (``not_invited``) when no open seat is kept
        for that account.
        """
        table = self.table
        with bound(table=table.id):
            async with table.lock:
                try:
                    declined = await table.hub.store.invitations.decline(table.id, user_id)
                except SQLAlchemyError as exc:
                    log.exception("table %s: decline not stored", table.id)
                    raise WebError(
                        ErrorCode.SERVER_ERROR, f"the decline was not stored: {exc}", 500
                    ) from None
                if not declined:
                    raise WebError(
                        ErrorCode.NOT_INVITED, "no open seat of this table is kept for you", 409
                    )
                await self.read_stored()

    def seat_of_user(self, user_id: str) -> int | None:
        """The seat of the signed-in account ``user_id``, or ``None``."""
        for p, s in enumerate(self.table.seats):
            if s.user_id == user_id:
                return p
        return None

    async def find_seat(self, token: str) -> int | None:
        """The seat whose token is ``token``, looking at the stored seats if none has it here.

        A seat joined through another server sharing the database may not be known here
        yet (its notice is on its way).
        """
        seat = self.seat_of_token(token)
        if seat is None and self.table.hub.cluster.shared:
            await self.refresh()
            seat = self.seat_of_token(token)
        return seat

    def refresh_later(self) -> None:
        """Read the seats as stored (another server filled one), in a task of their own."""
        self.table.later(self.refresh())

    async def refresh(self) -> None:
        """Read the seats as stored and show what changed; start the game once full."""
        async with self.table.lock:
            await self.read_stored()

    async def read_stored(self) -> None:
        """:meth:`refresh` with the lock held."""
        table = self.table
        found = await table.hub.store.tables.seats_of(table.id)
        if found is None:
            return
        status, rows = found
        changed = False
        now = asyncio.get_running_loop().time()
        for row in rows:
            if row.seat >= len(table.seats):
                continue
            seat = table.seats[row.seat]
            stored = (row.kind, row.name, row.token_hash, row.user_id, row.invited_user_id)
            if (seat.kind, seat.name, seat.token_hash, seat.user_id, seat.invited) != stored:
                seat.kind, seat.name, seat.token_hash, seat.user_id, seat.invited = stored
                seat.away_since = now
                changed = True
            seat.bot_account = row.bot_account
        if table.status == "waiting" and status != "waiting":
            table.start()
        elif changed:
            tableview.broadcast_state(self.table)

    def heard_presence(self, server: str, counts: list[int] | None) -> None:
        """Another server's connections to each seat (``None``: it is gone)."""
        table = self.table
        before = [s.present > 0 for s in table.seats]
        for p, seat in enumerate(table.seats):
            n = counts[p] if counts is not None and p < len(counts) else 0
            if n > 0:
                seat.elsewhere[server] = n
            else:
                seat.elsewhere.pop(server, None)
        now = asyncio.get_running_loop().time()
        changed = False
        for seat, was in zip(table.seats, before, strict=True):
            if was != (seat.present > 0):
                changed = True
                if seat.present:
                    seat.stand_in = False
                else:
                    seat.away_since = now
        if changed:
            tableview.broadcast_seats(self.table)
            table.kick()

    def heard_stand_in(self, seat: int) -> None:
        """The server running the table put a bot in for ``seat``'s absent player."""
        if not 0 <= seat < len(self.table.seats):
            return
        s = self.table.seats[seat]
        if s.kind == "human" and s.present == 0 and not s.stand_in:
            s.stand_in = True
            tableview.broadcast_seats(self.table)

    def people_here(self) -> bool:
        """Whether a person seated here is connected, on any server."""
        return any(s.kind == "human" and s.present > 0 for s in self.table.seats)

    async def note_seen(self) -> None:
        """Store that a person was at the table until now.

        See :meth:`~closingbell.server.tables.LiveTable.abandon_if_left`.
        """
        table = self.table
        if table.status not in ("waiting", "playing") or table.move_time is not None:
            return
        try:
            await table.hub.store.tables.seen(table.id, table.hub.clock())
        except SQLAlchemyError:
            log.exception("table %s: when its people left was not stored", table.id)


def player_of(seat: LiveSeat) -> str | None:
    """Who a seat's results belong to: its account, its bot level, or ``None`` (a guest)."""
    if seat.kind == "bot" and seat.bot:
        return bot_player(seat.bot)
    return None if seat.user_id is None else user_player(seat.user_id)
