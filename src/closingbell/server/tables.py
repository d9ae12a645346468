"""Live tables: the games being played, each ordering its changes and telling its seats.

Every change to a table (a join, an action, a bot's move) happens under that table's
lock, is written to the :class:`~closingbell.server.store.Store` first and only then made
visible: an action is applied to a clone of the state, stored, and the clone replaces the
state, so a failed write changes nothing. After each change every connection is sent a
``state`` message built from ``state.view(seat)`` (``None`` for spectators): the rules
engine's view is the only thing that ever leaves the server about a game.

On SQLite the server is a single process: tables live in its memory and its database.
On PostgreSQL any number of servers may share the database (``server.cluster``): each
holds the tables its clients use, applies their actions under the version rule, and
follows the others' actions from their notices; one of them, the table's lease holder,
runs its bots and turn clock. Search bots' moves are worked out in a pool of helper
processes (``server.thinking``), so that a second of thinking uses another core instead of
competing with the event loop for the interpreter.

A table orders its changes and tells its seats; its rooms do the rest, each in a module of its
own (``server.seats``, ``server.chat``, ``server.rematch``, ``server.hinting``,
``server.botdriver``, ``server.turnclock``), and ``server.tableview`` builds what is sent.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from sqlalchemy.exc import SQLAlchemyError

from closingbell.core.errors import IllegalActionError, NotationError
from closingbell.core.game import Game, State
from closingbell.server import notices, tableview
from closingbell.server.botdriver import BotDriver
from closingbell.server.chat import TableChat
from closingbell.server.client import CLOSE_RESTART, Connection
from closingbell.server.errors import WebError
from closingbell.server.hinting import Hints
from closingbell.server.protocol import Act, ErrorCode, LastAction, Welcome
from closingbell.server.ratings import Finish, ranks
from closingbell.server.rematch import Rematches
from closingbell.server.seats import Seating, player_of
from closingbell.server.store import StoreConflictError, TableRow
from closingbell.server.tablebase import Services, Status, TableBase
from closingbell.server.turnclock import TurnClock

log = logging.getLogger(__name__)


class LiveTable(TableBase):
    """One table: orders its changes (joins, actions, other servers' word) and tells the seats.

    Its rooms do the rest: :attr:`seating`, :attr:`chat`, :attr:`rematches`, :attr:`hints`,
    :attr:`driver` (the bots) and :attr:`turn_clock`.
    """

    def __init__(self, hub: Services, row: TableRow, game: Game, state: State) -> None:
        super().__init__(hub, row, game, state)
        self.seating = Seating(self)
        """Who sits where (``server.seats``)."""
        self.chat = TableChat(self)
        """The chat (``server.chat``)."""
        self.rematches = Rematches(self)
        """The votes for a rematch (``server.rematch``)."""
        self.hints = Hints(self)
        """Hints at a practice table (``server.hinting``)."""
        self.driver = BotDriver(self)
        """The bots and the task that plays them (``server.botdriver``)."""
        self.turn_clock = TurnClock(self, self._clock_ran_out)
        """The turn clock (``server.turnclock``)."""

    @property
    def busy(self) -> bool:
        """Whether the table must stay in memory.

        It must while it has a connection, a change under way, a bot or stand-in thinking
        or about to move (on the server that runs them), or an armed turn clock.
        """
        seat = self.state.current_player
        bot_to_move = (
            self.owner
            and self.status == "playing"
            and seat is not None
            and (seat in self.driver.bots or self.seats[seat].stand_in or self.overdue())
        )
        driving = self.driver.running
        timer = self.turn_clock.timer
        return bool(self.connections or self.lock.locked() or driving or timer or bot_to_move)

    def start(self) -> None:
        """Start the game: every seat is taken."""
        self.status = "playing"
        self.turn_at = self.hub.clock()
        self.turn_since = self.version_since = asyncio.get_running_loop().time()
        tableview.broadcast_state(self)
        self.kick()

    async def connect(self, conn: Connection) -> None:
        """Attach a connection: send it ``welcome`` and its ``state``; tell the others."""
        async with self.lock:
            if self.gone:
                raise WebError(ErrorCode.SERVER_ERROR, "the table was reloaded; connect again", 503)
            conn.chat_held = []
            self.connections.add(conn)
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                seat.connections += 1
                seat.stand_in = False
                tableview.broadcast_seats(self, skip=conn)
                self.hub.cluster.presence(self)
            conn.send(Welcome(table=tableview.table_info(self), seat=conn.seat))
            conn.send(tableview.message_for(self, conn))
            if self.tutor is not None:
                self.tutor.greet(conn, tableview.narrator_of(self, conn))
            if self.rematch_votes or self.rematch is not None:
                conn.send(self.rematches.message())
            if (
                self.hub.settings.warm_for_hints
                and conn.seat is not None
                and self.status == "playing"
                and self.hints.practice(conn.seat)
            ):
                self.hub.bots.warm()  # a hint may be asked for: its helper starts now
            self.kick()
        await self.chat.send_history(conn)

    def disconnect(self, conn: Connection) -> None:
        """Detach a connection; start its seat's turn clock when it was the last one.

        Synchronous, without the lock: it touches no game state, and it must run even in
        a handler being cancelled (a cancelled task cannot wait for the lock).
        """
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connections -= 1
            if seat.present == 0:
                seat.away_since = asyncio.get_running_loop().time()
                tableview.broadcast_seats(self)
                self.later(self.seating.note_seen())
            self.hub.cluster.presence(self)
        self.kick()

    async def abandon_if_left(self) -> bool:
        """End the table as abandoned if nobody is at it; whether it was (the lock is taken).

        Called for a table whose stored activity is old (``Sweeps.check_abandoned``), on
        the server that runs it only. A person connected keeps it going: their presence is
        stored as activity, to be looked at again later. Sharing the database with other
        servers, a table just loaded waits for their word on who is connected.
        """
        async with self.lock:
            if not self.owner or self.status not in ("waiting", "playing"):
                return False
            if self.move_time is not None or all(s.kind == "bot" for s in self.seats):
                return False
            if self.seating.people_here():
                await self.hub.store.tables.seen(self.id, self.hub.clock())
                return False
            cluster = self.hub.cluster
            waited = asyncio.get_running_loop().time() - self.loaded_at
            if not cluster.alone and waited < self.hub.settings.lease_seconds:
                return False
            if not await self.hub.store.tables.abandon(self.id, self.version, self.hub.clock()):
                return False
            log.info("table %s: abandoned, nobody came back", self.id)
            self._ended()
            return True

    def heard_abandoned(self) -> None:
        """The server running the table ended it as abandoned."""
        if self.status in ("waiting", "playing"):
            self._ended()

    def _ended(self) -> None:
        """The table is abandoned: its clock stops, and everyone is told."""
        self.status = "abandoned"
        self.turn_at = None
        self.turn_clock.disarm()
        tableview.broadcast_state(self)

    def catch_up_later(self, notes: list[tuple[int, int, int, str]] | None = None) -> None:
        """Apply actions committed by other servers, in a task of their own.

        ``notes`` (number, seat, action, by) come from a notice; without them, whatever
        the database holds beyond this table's version is applied.
        """
        self.later(self.catch_up(notes))

    async def catch_up(self, notes: list[tuple[int, int, int, str]] | None = None) -> None:
        """Bring the table up to the stored actions (see :meth:`catch_up_later`)."""
        async with self.lock:
            await self._catch_up(notes)

    async def _catch_up(self, notes: list[tuple[int, int, int, str]] | None = None) -> None:
        """:meth:`catch_up` with the lock held: notes first, the database for any gap."""
        version = self.version
        pending = {n: (seat, action, by) for n, seat, action, by in notes or () if n >= version}
        if notes is not None and not pending:
            return
        if self.status == "waiting":
            await self.seating.read_stored()  # its last join's notice was missed
        followed = False
        while self.version in pending:
            seat, action, by = pending.pop(self.version)
            if not self._follow(seat, action, by):
                return
            followed = True
        if notes is None or pending:
            for number, seat, action in await self.hub.store.actions.since(self.id, self.version):
                if number != self.version:
                    break
                if not self._follow(seat, action, None):
                    break
                followed = True
        if followed:
            tableview.broadcast_state(self)
            self.kick()

    def _follow(self, seat: int, action: int, by: str | None) -> bool:
        """Apply an action another server stored; whether it could be (it always should)."""
        state = self.state
        if self.status != "playing" or state.current_player != seat:
            log.error("table %s: a stored action of seat %s does not follow", self.id, seat)
            return False
        secret = state.choice_is_secret()
        new = state.clone()
        try:
            new.apply(action)
        except IllegalActionError as exc:
            log.error("table %s: a stored action is refused here: %s", self.id, exc)
            return False
        if by not in ("player", "bot", "stand_in"):
            by = "bot" if self.seats[seat].kind == "bot" else "player"
        text = self.game.action_to_string(action)
        if self._new_turn(state, new, by):
            self.turn_at = self.hub.clock()
        self._advance(new, seat, action, by=by, secret=secret, text=text)  # type: ignore[arg-type]
        self.hub.metrics.followed.labels(game=self.game.info.name).inc()
        return True

    def heard_presence(self, server: str, counts: list[int] | None) -> None:
        """Another server's connections to each seat (``None``: it is gone)."""
        self.seating.heard_presence(server, counts)

    def refresh_seats_later(self) -> None:
        """Read the seats as stored (another server filled one), in a task of their own."""
        self.seating.refresh_later()

    def owner_changed(self) -> None:
        """Start or stop the bots and clock: the server took the table's lease, or lost it."""
        self.kick()

    def hear(self, notice: notices.TableNotice, sender: str) -> None:
        """A notice about this table from the server ``sender`` (``server.notices``)."""
        if isinstance(notice, notices.Join):
            self.seating.refresh_later()
        elif isinstance(notice, notices.Here):
            self.seating.heard_presence(sender, notice.counts)
        elif isinstance(notice, notices.StandIn):
            self.seating.heard_stand_in(notice.seat)
        elif isinstance(notice, notices.Chat):
            self.chat.heard(notice.row)
        elif isinstance(notice, notices.Rematch):
            self.rematches.heard()
        elif isinstance(notice, notices.Hints):
            self.hints.heard()
        else:
            self.heard_abandoned()

    async def check_turn(self, seat: int, version: int) -> None:
        """Raise :class:`WebError` unless ``seat`` decides now at state ``version``.

        Called under the lock. A version newer than this server's, on a shared database,
        is caught up with first.
        """
        if self.status == "waiting":
            raise WebError(ErrorCode.NOT_STARTED, "the game starts when every seat is taken")
        if self.status == "finished":
            raise WebError(ErrorCode.GAME_OVER, "the game is over")
        if self.status == "abandoned":
            raise WebError(ErrorCode.GAME_OVER, "the table was abandoned: nobody came back")
        if version > self.version and self.hub.cluster.shared:
            await self._catch_up()  # the client saw a newer state on another server
        if version != self.version:
            raise WebError(
                ErrorCode.STALE_VERSION, f"the state is at version {self.version}, not {version}"
            )
        if self.state.current_player != seat:
            raise WebError(
                ErrorCode.NOT_YOUR_TURN,
                f"seat {self.state.current_player} must decide, not seat {seat}",
            )

    async def act(self, conn: Connection, message: Act, received: float | None = None) -> None:
        """Play a client's action after every check; raise :class:`WebError` if refused.

        ``received`` (``time.perf_counter()``) is when the action arrived: the time until
        the state it led to is sent to ``conn`` is the action's round trip (metrics).
        """
        async with self.lock:
            if conn.seat is None:
                raise WebError(ErrorCode.SPECTATOR, "spectators cannot act")
            await self.check_turn(conn.seat, message.version)
            if (message.action is None) == (message.text is None):
                raise WebError(ErrorCode.BAD_MESSAGE, "give exactly one of 'action' and 'text'")
            action = message.action
            if action is None:
                try:
                    action = self.game.string_to_action(message.text or "")
                except NotationError as exc:
                    raise WebError(ErrorCode.ILLEGAL_ACTION, str(exc)) from None
            await self.commit(conn.seat, action, "player")
            if received is not None and conn in self.connections:
                conn.expect_answer(received)  # commit has just queued its state

    async def commit(
        self, seat: int, action: int, by: Literal["player", "bot", "stand_in"]
    ) -> None:
        """Apply, store, then publish one action (the lock is held)."""
        secret = self.state.choice_is_secret()
        new = self.state.clone()
        try:
            new.apply(action)
        except IllegalActionError as exc:
            raise WebError(ErrorCode.ILLEGAL_ACTION, str(exc)) from None
        status: Status = "finished" if new.is_terminal() else "playing"
        text = self.game.action_to_string(action)
        turn_at = self.hub.clock() if self._new_turn(self.state, new, by) else None
        try:
            await self.hub.store.actions.append(
                self.id,
                self.version,
                seat,
                action,
                text=text,
                status=status,
                by=by,
                turn_at=turn_at,
                finish=self._finish(new) if status == "finished" else None,
            )
        except StoreConflictError as exc:
            if not self.hub.cluster.shared:
                log.exception("table %s: action not stored", self.id)
                raise WebError(
                    ErrorCode.SERVER_ERROR, f"the action was not stored: {exc}"
                ) from None
            # Another server stored an action at this version first: follow it.
            version = self.version
            await self._catch_up()
            raise WebError(
                ErrorCode.STALE_VERSION,
                f"the state moved on from version {version} to {self.version}",
            ) from None
        except SQLAlchemyError as exc:
            log.exception("table %s: action not stored", self.id)
            raise WebError(ErrorCode.SERVER_ERROR, f"the action was not stored: {exc}") from None
        self.hub.metrics.action(self.game.info.name, by)
        if turn_at is not None:
            self.turn_at = turn_at
        self._advance(new, seat, action, by=by, secret=secret, text=text)
        tableview.broadcast_state(self)
        self.kick()

    def _new_turn(self, before: State, after: State, by: str) -> bool:
        """Whether the action from ``before`` to ``after`` starts a turn (``turn_at``).

        It does when another seat must decide, and in a game over days after a bot decided
        for a seat that ran out of time: that seat's next decision has a whole time per move.
        """
        if after.current_player != before.current_player:
            return True
        return by == "stand_in" and self.move_time is not None

    def _finish(self, final: State) -> Finish:
        """The results of the game that ``final`` ends, stored with its last action."""
        scores = final.scores()
        return Finish(
            game=self.game.info.name,
            rated=self.rated and not self.hints_used,
            players=tuple(player_of(s) for s in self.seats),
            scores=tuple(float(x) for x in scores),
            ranks=tuple(ranks(scores, final.winners())),
        )

    def _advance(
        self,
        new: State,
        seat: int,
        action: int,
        *,
        by: Literal["player", "bot", "stand_in"],
        secret: bool,
        text: str,
    ) -> None:
        """Make ``new`` (``action`` of ``seat``, written ``text``, stored) the table's state."""
        before = self.state.current_player
        if self.tutor is not None:
            self.tutor.observe(self.state, new)
        self.state = new
        self.status = "finished" if new.is_terminal() else "playing"
        self.last_action = LastAction(seat=seat, id=action, text=text, by=by, secret=secret)
        now = asyncio.get_running_loop().time()
        self.version_since = now
        if new.current_player != before:
            self.turn_since = now

    def kick(self) -> None:
        """Start the bot driver if a bot must move, and re-arm the turn clock.

        Only on the server that runs the table (its lease holder); elsewhere the clock is
        disarmed, and a bot driver left running stops before its next move.
        """
        if not self.owner:
            self.turn_clock.disarm()
            return
        self.driver.wake()
        self.turn_clock.arm()

    def _clock_ran_out(self) -> None:
        seat = self.state.current_player
        if self.status != "playing" or seat is None:
            return
        s = self.seats[seat]
        if s.kind == "human" and s.present == 0 and not s.stand_in and self.owner:
            log.info("table %s: a bot stands in for seat %s", self.id, seat)
            s.stand_in = True
            tableview.broadcast_seats(self)
            self.hub.cluster.stand_in(self, seat)
            self.kick()

    def close(self) -> None:
        """Stop the bot driver and the clock, and end every connection's writer."""
        self.turn_clock.disarm()
        if self.driver.task is not None:
            self.driver.task.cancel()
        for conn in self.connections:
            conn.queue.put_nowait(CLOSE_RESTART)
