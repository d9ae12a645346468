"""The hub: every live table of the server, loaded, created, swept, with what they share.

The hub holds the tables in memory (``server.memory`` drops the unused ones), rebuilds a
table from the database when asked for it (``server.stored``), makes new ones from the
lobby's requests (``server.creation``), and now and then looks for games over days whose
time ran out and for tables nobody came back to (``server.sweeps``). It gives each table
what the server shares (:class:`~closingbell.server.tablebase.Services`): the store, the
settings, the bots' helper processes, the cluster of servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import unicodedata
from collections.abc import Awaitable, Callable

from argon2 import PasswordHasher
from sqlalchemy.exc import SQLAlchemyError

from closingbell.bots import make_bot, searches
from closingbell.core.errors import UnknownGameError
from closingbell.core.game import Game, State
from closingbell.server import tableview
from closingbell.server.accounts import Accounts, Clock, Hashing, SignInThrottle, User, utc_now
from closingbell.server.client import CLOSE_SIGNED_OUT
from closingbell.server.cluster import Cluster, Solo
from closingbell.server.creation import check_practice_seats, make_game, read_position
from closingbell.server.errors import WebError, unavailable
from closingbell.server.logs import TABLES_LOG, bound
from closingbell.server.memory import TableMemory
from closingbell.server.metrics import Metrics
from closingbell.server.online import Visitors
from closingbell.server.protocol import CreateTable, ErrorCode, TableInfo
from closingbell.server.ratelimit import SlidingWindows
from closingbell.server.settings import Settings
from closingbell.server.store import (
    InvitationLimits,
    SeatRow,
    Store,
    StoreConflictError,
    TableRow,
    TooManyInvitationsError,
)
from closingbell.server.stored import rebuild, stored_info, unavailable_info, why
from closingbell.server.sweeps import Sweeps
from closingbell.server.tables import LiveTable
from closingbell.server.thinking import BotPool
from closingbell.server.tournaments import Director

log = logging.getLogger(TABLES_LOG)


class Hub:
    """Every table of the server, with the store behind them."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        metrics: Metrics | None = None,
        *,
        clock: Clock = utc_now,
    ) -> None:
        self.store = store
        """The database."""
        self.clock = clock
        """The time now in UTC: sessions' ages and the deadlines of games over days (tests
        give a clock of their own, to come back "a day later")."""
        self.settings = settings
        """How the server behaves."""
        self.metrics = Metrics() if metrics is None else metrics
        """What the server counts and times (``GET /metrics``), this hub's tables and its
        store's commits among them."""
        self.metrics.count_tables = self._count_tables
        if store.on_commit is None:  # a store told of its commits elsewhere keeps its hook
            store.on_commit = self.metrics.committed
        self.started = False
        """Whether :meth:`start` has finished: the database is open and the tables rebuilt."""
        self.stopping = False
        """Whether :meth:`stop` has begun."""
        self.tables: dict[str, LiveTable] = {}
        """Tables loaded in memory, by id."""
        self.bots = BotPool(settings.bot_processes, settings.address_bot_processes)
        """Where the tables' bots think."""
        self.unavailable: dict[str, str] = {}
        """Tables whose stored game cannot be rebuilt, by id, with the reason (logged once)."""
        self.memory: TableMemory[LiveTable] = TableMemory(
            # Through ``self.cluster`` when called: :meth:`start` replaces it.
            self.tables,
            settings,
            lambda table: self.cluster.dropped(table),  # noqa: PLW0108
        )
        """Drops unused tables from ``tables`` (``server.memory``); started by the app."""
        self.cluster: Solo = Solo()
        """The servers sharing the database: :class:`~closingbell.server.cluster.Solo` until
        :meth:`start` opens a PostgreSQL database, then a
        :class:`~closingbell.server.cluster.Cluster`."""
        self.background: set[asyncio.Task[None]] = set()
        """Tasks following other servers' notices (kept until done)."""
        self.accounts = Accounts(
            store,
            clock=clock,
            throttle=SignInThrottle(
                per_account=settings.sign_ins_per_account,
                per_address=settings.sign_ins_per_address,
                window=settings.sign_in_window,
                sign_ups=settings.sign_ups_per_address,
                sign_up_window=settings.sign_up_window,
            ),
            hasher=PasswordHasher(
                time_cost=settings.hash_time_cost, memory_cost=settings.hash_memory
            ),
            hashing=Hashing(
                threads=settings.hash_threads,
                waiting=settings.hash_waiting,
                per_address=settings.hash_per_address,
            ),
        )
        """Players' accounts and sessions (``server.accounts``)."""
        self.accounts.on_revoked = self.sessions_revoked
        self.chat_windows = SlidingWindows(settings.chat_burst, settings.chat_window)
        """The chat messages written lately by each seat, account and spectator's connection
        of this server's tables (``TableChat.say``)."""
        self.visitors = Visitors(settings.online_window)
        """The visitors whose pages said lately that they are open (``server.online``)."""
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """Waits a number of seconds: the bots' pauses (tests give one of their own)."""
        self._loading = asyncio.Lock()
        self.sweeps = Sweeps(store, settings, clock, self.get)
        """The looks for games over days out of time and abandoned tables (``server.sweeps``)."""
        self.director = Director(store, settings, clock, self.open, self.get)
        """Runs the tournaments whose lease this server holds (``server.tournaments``)."""

    async def start(self) -> None:
        """Open the database and take up its tables.

        Alone on an SQLite file, the server rebuilds every unfinished table from its
        actions. On PostgreSQL it joins the servers sharing the database and takes up the
        tables none of them runs (``server.cluster``). Raises
        :class:`~closingbell.server.store.UnusableDatabaseError` for a database the server
        refuses (another server's SQLite file, not closingbell's, an unknown schema, a
        0-byte file). A table that cannot be rebuilt is logged and becomes unavailable.
        """
        await self.store.open()
        if self.store.shared:
            cluster = Cluster(self.store, self.settings.lease_seconds)
            self.cluster = cluster
            self.metrics.count_servers = lambda: (len(cluster.live), len(cluster.owned))
            await cluster.start(self)
        else:
            for table_id in await self.store.tables.active_ids():
                with contextlib.suppress(WebError):  # logged by get, once
                    await self.get(table_id)
        self.started = True
        self.sweeps.start()
        self.director.start()

    def sessions_revoked(self, digests: list[str], *, tell: bool = True) -> None:
        """Close the WebSockets opened with the sessions ``digests`` (just revoked).

        They are closed on every server: ``tell`` says the others (a notice), unless the
        revocation was heard from one of them.
        """
        wanted = set(digests)
        for table in self.tables.values():
            for conn in table.connections:
                if conn.session is not None and conn.session in wanted and not conn.revoked:
                    conn.revoked = True
                    conn.queue.put_nowait(CLOSE_SIGNED_OUT)
        if tell:
            self.cluster.revoked(digests)

    async def stop(self) -> None:
        """Hand the tables over to other servers, stop every table and close the database."""
        self.stopping = True
        await self.sweeps.stop()
        await self.director.stop()
        await self.cluster.hand_over()
        for table in self.tables.values():
            table.close()
        drivers = [t.driver.task for t in self.tables.values() if t.driver.task is not None]
        for task in [*drivers, *self.background]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)
        await self.cluster.stop()
        await self.bots.stop()
        self.accounts.hashing.stop()
        await self.store.close()

    def _count_tables(self) -> list[tuple[str, str]]:
        """Each table in memory as its game and status (for the metrics)."""
        return [(t.game.info.name, t.status) for t in self.tables.values()]

    async def get(self, table_id: str) -> LiveTable:
        """The table ``table_id``, rebuilt from the database if not in memory."""
        with bound(table=table_id):
            return await self._get(table_id)

    async def _get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            table.used = asyncio.get_running_loop().time()
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if table_id in self.unavailable:
                raise unavailable(table_id)
            try:
                row = None if len(table_id) > 32 else await self.store.tables.load(table_id)
            except SQLAlchemyError as exc:
                log.exception("table %s: not loaded", table_id)
                raise WebError(
                    ErrorCode.SERVER_ERROR, f"the table could not be loaded: {exc}", 500
                ) from None
            except StoreConflictError as exc:
                raise self._unusable(table_id, str(exc)) from None
            if row is None:
                raise WebError(ErrorCode.UNKNOWN_TABLE, f"no table {table_id!r}", 404)
            try:
                table = rebuild(self, row)
            except Exception as exc:  # whatever the stored data makes the rules raise
                raise self._unusable(table_id, why(exc)) from None
            self.memory.restore(table)
            self.tables[table_id] = table
            await self.cluster.loaded(table)
            table.kick()
            return table

    def _unusable(self, table_id: str, reason: str) -> WebError:
        """Record that a table cannot be rebuilt (logged once); the error to answer."""
        if table_id not in self.unavailable:
            log.error("table %s is unavailable: %s", table_id, reason)
            self.unavailable[table_id] = reason
        return unavailable(table_id)

    async def create(
        self, request: CreateTable, user: User | None = None, *, address: str = ""
    ) -> LiveTable:
        """Make, store and open a table; raise :class:`WebError` for a bad request.

        A request with a ``position`` makes a practice table (one open seat, bots in the
        others) that starts from that position, stored as its canonical text. ``user`` is
        the signed-in player making it, if any: only they may make a rated table or invite.
        ``address`` is the client's, whose search bots are counted (:meth:`check_search_bots`).
        """
        game = make_game(request)
        self.check_search_bots(request.seats, address)
        invited = await self._invited(request, user)
        seats: list[SeatRow] = []
        for p, name in enumerate(request.seats):
            if name == "open":
                seats.append(SeatRow(seat=p, kind="open"))
                continue
            try:
                make_bot(name, game)
            except ValueError as exc:
                raise WebError(ErrorCode.UNKNOWN_BOT, f"seat {p}: {exc}", 422) from None
            seats.append(SeatRow(seat=p, kind="bot", bot=name))
        for p, account in enumerate(invited):
            if account is not None:
                if seats[p].kind != "open":
                    raise WebError(
                        ErrorCode.BAD_SEATS, f"seat {p} is a bot's: only open seats are kept", 422
                    )
                seats[p].invited_user_id, seats[p].name = account.id, account.username
                seats[p].invited_by = None if user is None else user.id
        if request.rated and request.position is not None:
            raise WebError(
                ErrorCode.BAD_REQUEST, "a game from a position is practice: it is never rated", 422
            )
        if request.move_time is not None and request.clock is not None:
            raise WebError(
                ErrorCode.BAD_REQUEST,
                "give a turn clock (real time) or a time per move (over days), not both",
                422,
            )
        start: State | None = None
        position = None
        if request.position is not None:
            check_practice_seats(seats)
            if request.seed is not None:
                raise WebError(
                    ErrorCode.BAD_REQUEST,
                    "give a seed or a position, not both: a position names its own seed",
                    422,
                )
            start, position = read_position(game, request.position)
        if request.seed is not None and not self.settings.allow_seed:
            raise WebError(
                ErrorCode.SEED_NOT_ALLOWED, "this server deals with seeds of its own", 422
            )
        if start is not None:
            seed = start.seed
        else:
            seed = secrets.randbits(63) if request.seed is None else request.seed
        full = all(s.kind == "bot" for s in seats)
        row = TableRow(
            id=secrets.token_urlsafe(9),
            game=game.info.name,
            options=game.options_dict(),
            seed=seed,
            clock=request.clock,
            status="playing" if full else "waiting",
            rules_version=game.info.version,
            seats=seats,
            position=position,
            rated=request.rated,
            move_time=request.move_time,
            turn_at=self.clock() if full else None,
            spectator_chat=request.spectator_chat,
        )
        settings = self.settings
        limits = InvitationLimits(
            in_all=settings.invitations_open,
            to_one=settings.invitations_to_one,
            counted_for=dt.timedelta(days=settings.invitation_days),
        )
        try:
            return await self.open(
                row, game, start, limits if any(invited) else None, address=address
            )
        except TooManyInvitationsError as exc:
            message = str(exc)
            named = [a.username for a in invited if a is not None and a.id == exc.recipient]
            if named:
                message += f" ({named[0]!r} has that many of yours)"
            raise WebError(ErrorCode.TOO_MANY_INVITATIONS, message, 409) from None

    def check_search_bots(self, seats: list[str], address: str) -> None:
        """Refuse a new table whose search bots would take ``address`` over its limit.

        Counted over the unfinished tables in this server's memory that the address created
        (``Settings.search_seats_per_address``; 0: no limit).
        """
        limit = self.settings.search_seats_per_address
        asked = sum(1 for name in seats if searches(name))
        if not asked or limit <= 0 or not address:
            return
        held = sum(
            1
            for table in self.tables.values()
            if table.address == address and table.status in ("waiting", "playing")
            for seat in table.seats
            if seat.kind == "bot" and searches(seat.bot or "")
        )
        if held + asked > limit:
            raise WebError(
                ErrorCode.TOO_MANY_SEARCH_BOTS,
                f"an address may keep at most {limit} seats of search bots (expert, ismcts) "
                f"at unfinished tables at once; it has {held}, and this table asks for {asked} "
                "more: finish a game first, or choose other bots",
                429,
            )

    async def open(
        self,
        row: TableRow,
        game: Game,
        start: State | None = None,
        limits: InvitationLimits | None = None,
        *,
        address: str = "",
    ) -> LiveTable:
        """Store the new table ``row`` of ``game`` and open it; raise :class:`WebError`.

        ``start`` is its first state (a position's), or ``None``: the deal of its seed;
        ``address`` is the client's that asked for it.
        With ``limits``, a table whose invitations pass them is not made
        (:class:`~closingbell.server.store.TooManyInvitationsError`).
        """
        try:
            await self.store.tables.create(row, limits, self.clock())
        except SQLAlchemyError as exc:
            with bound(table=row.id):
                log.exception("table not stored")
            raise WebError(
                ErrorCode.SERVER_ERROR, f"the table was not stored: {exc}", 500
            ) from None
        table = LiveTable(self, row, game, game.new_game(row.seed) if start is None else start)
        table.address = address
        self.tables[row.id] = table
        await self.cluster.loaded(table)
        table.kick()
        return table

    async def _invited(self, request: CreateTable, user: User | None) -> list[User | None]:
        """The account each seat of ``request`` is kept for; refuse what cannot be."""
        if (request.rated or request.invited) and user is None:
            raise WebError(
                ErrorCode.SIGN_IN_REQUIRED, "sign in to make a rated table or invite players", 403
            )
        if not request.invited:
            return [None] * len(request.seats)
        if len(request.invited) != len(request.seats):
            raise WebError(
                ErrorCode.BAD_REQUEST,
                f"'invited' has {len(request.invited)} entries for {len(request.seats)} seats",
                422,
            )
        found: list[User | None] = []
        for name in request.invited:
            account = None if name is None else await self.accounts.find(name)
            if name is not None and account is None:
                raise WebError(ErrorCode.UNKNOWN_PLAYER, f"no account is called {name!r}", 422)
            found.append(account)
        ids = [a.id for a in found if a is not None]
        if len(ids) != len(set(ids)):
            raise WebError(ErrorCode.BAD_REQUEST, "a player is invited to two seats", 422)
        return found

    async def check_guest_name(self, name: str) -> None:
        """Refuse a guest's display name that is an account's username (``name_taken``).

        Compared as account names are (any case), and after NFKC normalization, so that
        full-width letters (U+FF41 for "a") do not pass for another spelling of the name.
        """
        try:
            account = await self.accounts.find(unicodedata.normalize("NFKC", name))
        except SQLAlchemyError as exc:
            log.exception("the accounts could not be read")
            raise WebError(
                ErrorCode.SERVER_ERROR, f"the name could not be checked: {exc}", 500
            ) from None
        if account is not None:
            raise WebError(
                ErrorCode.NAME_TAKEN,
                f"{name!r} is the name of an account: sign in as it, or choose another name",
                409,
            )

    async def listing(self) -> list[TableInfo]:
        """The newest tables, live ones as they are now, unreadable ones as ``unavailable``."""
        return [self.info_of(row) for row in await self.store.tables.newest()]

    def info_of(self, row: TableRow) -> TableInfo:
        """A stored table as the lobby shows it.

        As it is now if in memory, else as stored (``unavailable`` if it cannot be read).
        """
        live = self.tables.get(row.id)
        if live is not None:
            return tableview.table_info(live)
        if row.id not in self.unavailable:
            try:
                return stored_info(row)
            except (ValueError, UnknownGameError) as exc:  # pydantic's errors included
                self._unusable(row.id, why(exc))
        return unavailable_info(row)
