"""Live tables: the games being played, their seats, connections, bots and turn clocks.

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
processes (:class:`BotPool`), so that a second of thinking uses another core instead of
competing with the event loop for the interpreter.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hmac
import logging
import math
import secrets
import sys
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError

from closingbell.bots import Bot, make_bot, searches
from closingbell.bots.analysis import ActionValue, DecisionAnalysis
from closingbell.bots.hints import hint
from closingbell.core.errors import (
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    UnknownGameError,
)
from closingbell.core.game import Game, State
from closingbell.core.position import MAX_POSITION_CHARS, names_field
from closingbell.core.records import start_from_position
from closingbell.core.registry import game_class
from closingbell.core.rng import digest_seed
from closingbell.core.view import View
from closingbell.server.accounts import Accounts, Clock, Hashing, SignInThrottle, User, utc_now
from closingbell.server.cluster import Cluster, Solo
from closingbell.server.logs import bound, table_context
from closingbell.server.memory import TableMemory
from closingbell.server.metrics import Metrics
from closingbell.server.online import Visitors
from closingbell.server.protocol import (
    Act,
    AskHint,
    BadChat,
    ChatEntry,
    ChatMessage,
    CreateTable,
    ErrorCode,
    HintMessage,
    HintValue,
    LastAction,
    LegalAction,
    RematchMessage,
    Result,
    SeatInfo,
    SeatsMessage,
    StateMessage,
    TableInfo,
    Welcome,
    check_chat,
)
from closingbell.server.ratelimit import ADDRESS_CONNECTIONS, ADDRESS_RATE, SlidingWindows
from closingbell.server.ratings import Finish, bot_player, ranks, user_player
from closingbell.server.store import (
    ChatRow,
    InvitationLimits,
    Rematch,
    SeatRow,
    Store,
    StoreConflictError,
    TableRow,
    TooManyInvitationsError,
    hash_token,
)
from closingbell.server.thinking import Asker, BotPool
from closingbell.server.tutorials import Tutor, tutorial_of
from closingbell.text.games import narrator_for
from closingbell.text.hints import hint_reason
from closingbell.text.names import seat_name
from closingbell.text.narrator import Narrator

log = logging.getLogger(__name__)

CLOSE_RESTART = 1012
"""WebSocket close code: the server is stopping or restarting; connect again (another
server sharing the database, or this one once restarted, takes the connection)."""

CLOSE_SIGNED_OUT = 4401
"""WebSocket close code: the session the connection was opened with was revoked (signed
out, its password changed); sign in again."""

STAND_IN_BOT = "medium"
"""The bot that plays for a player whose turn clock ran out while away, and that decides
once for a seat of a game over days whose time per move ran out."""

OVERDUE_AT_ONCE = 500
"""Games over days looked at, at most, in one look for seats that ran out of time."""

ABANDONED_AT_ONCE = 500
"""Tables looked at, at most, in one look for abandoned tables."""

Status = Literal["waiting", "playing", "finished", "abandoned"]


class WebError(Exception):
    """A refused request: an :class:`ErrorCode`, a message and the HTTP status to answer."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        status: int = 400,
        details: dict[str, Any] | None = None,
        *,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        """The error code."""
        self.message = message
        """What was wrong."""
        self.status = status
        """The HTTP status code (unused over the WebSocket)."""
        self.details = dict(details or {})
        """More fields of the HTTP error body (``bad_position``: ``field`` and ``reason``)."""
        self.retry_after = retry_after
        """Seconds after which asking again may be heard (the ``Retry-After`` header)."""


def bot_seed(seed: int, seat: int, role: str = "bot") -> int:
    """The seed of the bot in ``seat`` (a ``role``) at a table dealt with ``seed``.

    Used only by servers that take seeds (``Settings.allow_seed``): a SHA-256 digest, so
    the bots' own draws say nothing of the deal's shuffles.
    """
    return digest_seed(role, seed, seat)


@dataclass
class Settings:
    """How the server behaves; the defaults suit people playing in browsers."""

    bot_delay: float = 0.3
    """Seconds a bot waits before the first decision of its turn, so that people can follow
    (thinking meanwhile: a search bot that thinks longer waits no more)."""
    bot_step_delay: float = 0.15
    """Seconds a bot waits before each following decision of the same turn (never more than
    ``bot_delay``); shorter once the turn's pauses near ``bot_turn`` (:func:`bot_pause`)."""
    bot_turn: float = 1.0
    """Seconds a bot's turn lasts at most, pauses and a quick bot's thinking together: its
    following decisions' pauses shrink to fit (a search bot's thinking may take longer)."""
    allow_seed: bool = False
    """Whether a new table may be given its seed (tests only: a known seed reveals the deal).

    Such a server also seeds each table's bots from the deal's seed and the seat
    (:func:`bot_seed`), so that a seeded game of bots is the same every time."""
    max_message: int = 4096
    """The longest WebSocket message accepted, in bytes."""
    rate: float = 10.0
    """Messages per second one connection may send in the long run."""
    burst: float = 30.0
    """Messages one connection may send at once."""
    hello_timeout: float = 30.0
    """Seconds a new connection has to send ``hello``."""
    refusal_window: float = 1.0
    """Seconds in which a connection over its rate gets at most one ``rate_limited``
    answer; its other messages over the rate are dropped unanswered."""
    flood_limit: int = 100
    """Messages over the rate dropped in one window after which the connection is closed
    (close code 4429)."""
    send_buffer: int = 1 << 20
    """The most memory, in bytes, a connection's unsent messages may take before it is
    closed as too slow a reader (close code 4413)."""
    address_connections: int = ADDRESS_CONNECTIONS
    """WebSocket connections one client address may hold at once, and open in a burst
    (0: no limit on connections, nor on how fast they are opened). Behind a proxy every
    client may share one address."""
    address_connect_rate: float = 2.0
    """New WebSocket connections a second one client address may open after its burst."""
    address_rate: float = ADDRESS_RATE
    """Messages a second one client address may send over all its connections (0: no
    limit)."""
    address_burst: float = 3 * ADDRESS_RATE
    """Messages one client address may send at once over all its connections."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://play.example.com``) whose pages may open WebSockets besides the
    site's own (the host a request came to); for deployments behind a proxy."""
    bot_processes: int | None = None
    """Helper processes for search bots' moves: ``None``, one per core; ``0``, none (a
    thread of the server process thinks instead)."""
    address_bot_processes: int | None = None
    """Helper processes the search work of one client address may hold at once
    (``server.thinking``): ``None``, half of them, at least one."""
    search_seats_per_address: int = 12
    """Seats of search bots (``expert``, ``ismcts``) one client address may keep at its
    unfinished tables on this server at once (0: no limit); a table over it is refused
    with ``too_many_search_bots``."""
    max_body: int = 65536
    """The longest HTTP request body accepted, in bytes (``413 too_large`` beyond)."""
    body_timeout: float = 10.0
    """Seconds a client has to send a request's body once its head has arrived."""
    tables_per_minute: float = 10.0
    """Tables one client address may create a minute in the long run (0: no limit)."""
    tables_burst: float = 20.0
    """Tables one client address may create at once."""
    table_idle: float = 1800.0
    """Seconds an unfinished table nobody uses stays in memory (it stays in the database)."""
    finished_idle: float = 300.0
    """Seconds a finished table nobody uses stays in memory."""
    tables_in_memory: int = 2000
    """Tables kept in memory beyond which the longest unused ones go first, however recent."""
    replay_cache: int = 64 * 2**20
    """Bytes of finished games' replays and records kept ready to send."""
    review_budget: int = 128
    """Worlds dealt for each decision of a seat's review (``server.reviews``): fixed, so that
    a review is the same every time; tests choose fewer."""
    reviews_at_once: int = 2
    """Reviews worked out at a time; asking for one more is refused (``too_many_reviews``)."""
    review_cache: int = 32 * 2**20
    """Bytes of finished reviews kept ready to send."""
    lease_seconds: float = 5.0
    """On a PostgreSQL database shared by several servers: seconds without a heartbeat
    after which a server is taken for dead and its tables are taken over by the others
    (``server.cluster``); each server beats five times in that time."""
    deadline_check: float = 30.0
    """Seconds between two looks for games over days whose seat to move ran out of time."""
    abandon_after: float = 86400.0
    """Seconds after which a real-time table that nobody has been at is abandoned: no person
    seated connected, no action, no join all that time (0: never). It ends without a result
    (``abandoned``) and leaves the lobby's live tables; games over days are left alone."""
    abandon_check: float = 600.0
    """Seconds between two looks for abandoned tables."""
    sign_ins_per_account: int = 5
    """Failed sign-ins to one account name heard in ``sign_in_window`` (then refused)."""
    sign_ins_per_address: int = 20
    """Failed sign-ins from one client address heard in ``sign_in_window`` (then refused)."""
    sign_in_window: float = 900.0
    """Seconds over which failed sign-ins are counted."""
    sign_ups_per_address: int = 5
    """Sign-ups (failed ones too) from one client address heard in ``sign_up_window``
    (then refused with ``too_many_sign_ups``; 0: no limit)."""
    sign_up_window: float = 3600.0
    """Seconds over which sign-ups are counted."""
    hash_threads: int = 1
    """Threads that hash and check passwords (each hash takes about 80 ms and 64 MiB)."""
    hash_waiting: int = 8
    """Password checks that may wait for a hashing thread; more are refused with ``busy``."""
    hash_per_address: int = 2
    """Password checks one client address may have running or waiting (0: no limit)."""
    chat_burst: int = 5
    """Chat messages one seat (over all its connections), one account (over all its seats
    on this server) and one spectator's connection may each write in ``chat_window``
    seconds (then refused with ``chat_rate_limited`` until the oldest leaves the window)."""
    chat_window: float = 10.0
    """Seconds over which chat messages are counted."""
    chat_history: int = 100
    """The latest chat messages sent to a connection after its ``welcome`` and ``state``."""
    online_window: float = 60.0
    """Seconds a visitor counts as online after its page's last heartbeat (``server.online``)."""
    warm_for_hints: bool = True
    """Whether a player sitting down at a practice table starts a bots' helper process at
    once, if none runs yet, so that their first hint does not wait for one to start."""
    invitations_open: int = 10
    """Open invitations (seats kept for other accounts, not yet taken nor declined) one
    account may have made at once, counted in the database by every server; a table that
    would make more is refused (``too_many_invitations``)."""
    invitations_to_one: int = 3
    """Open invitations one account may have made to one other account at once."""
    invitation_days: float = 14.0
    """Days after its table was made that an open invitation counts against its maker's
    limits: one nobody answers does not hold its place for ever (it stays listed)."""


def bot_pause(settings: Settings, first: bool, elapsed: float) -> float:
    """Seconds a bot waits before a decision, thinking meanwhile.

    ``first``: the decision begins the bot's turn, which waits ``bot_delay``; a following
    decision of the same turn waits ``bot_step_delay``, at most half of what is left of
    ``bot_turn`` after ``elapsed`` seconds of the turn, so that however many decisions a
    turn has, each is seen and the whole turn takes ``bot_turn`` at most.
    """
    if first:
        return max(0.0, settings.bot_delay)
    left = max(0.0, settings.bot_turn - elapsed)
    return max(0.0, min(settings.bot_step_delay, settings.bot_delay, left / 2))


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a table: its seat and what it has been sent."""

    seat: int | None
    """The seat it plays, or ``None`` for a spectator."""
    queue: asyncio.Queue[str | int] = field(default_factory=asyncio.Queue)
    """JSON texts waiting to be sent; an integer closes the socket with that code."""
    send_buffer: int = 0
    """The most memory (bytes) its unsent texts may take (0: no bound); see :meth:`send`."""
    queued: int = 0
    """The memory (bytes) its unsent texts take now."""
    behind: bool = False
    """Whether it fell behind: it is sent nothing more and is being closed."""
    on_behind: Callable[[], object] | None = None
    """Called once, when it falls behind."""
    log_pos: int = 0
    """How much of the state's log has been considered for it."""
    sent_events: int = 0
    """How many visible events it has been sent."""
    lang: str | None = None
    """The language of its words (``hello``'s ``lang``); ``None``: no words."""
    narrator: Narrator | None = None
    """The game's narrator in ``lang``, made when the game starts; it turns views into words."""
    texts_queued: int = 0
    """How many texts have ever been queued for it."""
    texts_sent: int = 0
    """How many of them have been sent."""
    awaiting: deque[tuple[int, float]] = field(default_factory=deque)
    """Its actions whose answer has not been sent yet: the number of the text that answers
    each (counted as :attr:`texts_queued`) and when the action was received
    (``time.perf_counter()``)."""
    chat_held: list[ChatEntry] | None = None
    """Chat messages written while its history is read, sent with it (``None``: none held)."""
    session: str | None = None
    """The SHA-256 of the session its seat was found with (``hello`` with ``account``)."""
    revoked: bool = False
    """Whether that session was revoked: the connection is being closed, and heard no more."""

    def send(self, message: BaseModel) -> None:
        """Queue a message for sending, unless the client has fallen behind.

        A client that does not read as fast as it is sent falls behind when its unsent
        texts would take more than ``send_buffer``: they are dropped and it is sent
        nothing more. One text is always taken into an empty queue, however long.
        """
        if self.behind:
            return
        text = message.model_dump_json()
        size = sys.getsizeof(text)
        if self.send_buffer and self.queued and self.queued + size > self.send_buffer:
            self.behind = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queued = 0
            self.awaiting.clear()
            if self.on_behind is not None:
                self.on_behind()
            return
        self.queued += size
        self.queue.put_nowait(text)
        self.texts_queued += 1

    def expect_answer(self, received: float) -> None:
        """Note that the text queued last answers an action received at ``received``."""
        if not self.behind:
            self.awaiting.append((self.texts_queued, received))

    def sent(self) -> list[float]:
        """Note that one more text was sent; when the actions it answered were received."""
        self.texts_sent += 1
        answered = []
        while self.awaiting and self.awaiting[0][0] <= self.texts_sent:
            answered.append(self.awaiting.popleft()[1])
        return answered

    async def next_message(self) -> str | int:
        """The next text (or close code) to send, waiting for one."""
        item = await self.queue.get()
        if isinstance(item, str):
            self.queued -= sys.getsizeof(item)
        return item


@dataclass
class LiveSeat:
    """A seat as the running server knows it."""

    kind: str
    """``open``, ``human`` or ``bot``."""
    bot: str | None
    """The bot's name or level."""
    name: str | None
    """The player's display name."""
    token_hash: str | None
    """The SHA-256 of the seat token."""
    connections: int = 0
    """Live connections holding this seat's token, on this server."""
    elsewhere: dict[str, int] = field(default_factory=dict)
    """Live connections holding this seat's token on other servers, by server id."""
    away_since: float = 0.0
    """When (event-loop time) the seat was last left without a connection."""
    stand_in: bool = False
    """Whether a bot is playing for this absent player."""
    user_id: str | None = None
    """The signed-in account seated here (``None``: a guest, a bot or an open seat)."""
    invited: str | None = None
    """The account an open seat is kept for (an invitation; ``name`` is its username)."""

    @property
    def present(self) -> int:
        """Live connections holding this seat's token, on every server."""
        return self.connections + sum(self.elsewhere.values())


class LiveTable:
    """One table: its game state, seats, connections, bots and turn clock."""

    def __init__(self, hub: Hub, row: TableRow, game: Game, state: State) -> None:
        loop = asyncio.get_running_loop()
        self.hub = hub
        """The server's set of tables."""
        self.id = row.id
        """The table's id."""
        self.game = game
        """The game with its options."""
        self.seed = row.seed
        """The deal's seed (or the position's): never sent before the game is over."""
        self.position = row.position
        """The canonical text of the position the game started from (``None``: a deal).
        It holds every hidden card: never sent before the game is over."""
        self.clock = row.clock
        """The turn clock in seconds, or ``None``."""
        self.rated = row.rated
        """Whether the game counts for ratings (only accounts and bots are seated)."""
        self.move_time = row.move_time
        """Seconds per move of a game played over days, or ``None`` (real time)."""
        self.turn_at = row.turn_at
        """When (wall-clock time, UTC) the seat to move began its turn, for games over days."""
        self.spectator_chat = row.spectator_chat
        """Whether spectators may write in the chat."""
        self.rematch_of = row.rematch_of
        """The table this one is a rematch of, or ``None``."""
        self.rematch = row.rematch
        """The rematch opened from this table, or ``None``."""
        self.hints_used = row.hints_used
        """Whether a player took a hint here: the result then changes no rating."""
        self.rematch_votes = list(row.rematch_votes)
        """The seats that voted for a rematch, first voter (who offered it) first."""
        self.status: Status = row.status  # type: ignore[assignment]
        """``waiting``, ``playing`` or ``finished``."""
        self.state = state
        """The current state (replaced, never changed in place)."""
        self.seats = [
            LiveSeat(
                s.kind, s.bot, s.name, s.token_hash, user_id=s.user_id, invited=s.invited_user_id
            )
            for s in row.seats
        ]
        """Every seat."""
        for seat in self.seats:
            seat.away_since = loop.time()
        self.lock = asyncio.Lock()
        """Held for every change."""
        self.connections: set[Connection] = set()
        """Live connections, seats and spectators."""
        found = tutorial_of(row, game.options_dict())
        self.tutor = None if found is None else Tutor(found, game, state)
        """A guided first game's teacher (``server.tutorials``): its lessons and its bots."""
        self.bots: dict[int, Bot] = (
            self.tutor.bots
            if self.tutor is not None
            else {
                p: make_bot(s.bot or "", game, seed=self._bot_seed(p))
                for p, s in enumerate(self.seats)
                if s.kind == "bot"
            }
        )
        self.stand_ins: dict[int, Bot] = {}
        self.last_action: LastAction | None = None
        self.turn_since = loop.time()
        self.version_since = loop.time()
        """When (event-loop time) the table reached its version: the seat to move has been
        deciding since."""
        self.loaded_at = loop.time()
        """When (event-loop time) the table was made or loaded here."""
        self.used = loop.time()
        """When (event-loop time) the table was last fetched or busy (see ``server.memory``)."""
        self.gone = False
        """Whether this table has left memory (``Hub.get`` makes a new one)."""
        self._driver: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._hint: tuple[int, asyncio.Task[DecisionAnalysis]] | None = None
        """The hint being worked out or last worked out, with the version it is for."""
        self.address = ""
        """The client address that created the table on this server (``""``: unknown, as
        for a table loaded from the database): its bots' thinking is counted against it."""

    @property
    def asker(self) -> Asker:
        """Whom this table's search work is done for (``server.thinking``).

        Its creator's address, else the table alone.
        """
        return Asker(self.address or f"table {self.id}", self.id)

    @property
    def version(self) -> int:
        """The number of actions played."""
        return len(self.state.history)

    @property
    def owner(self) -> bool:
        """Whether this server runs the table's bots and turn clock (holds its lease)."""
        return self.hub.cluster.owns(self.id)

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
            and (seat in self.bots or self.seats[seat].stand_in or self.overdue())
        )
        driving = self._driver is not None and not self._driver.done()
        return bool(self.connections or self.lock.locked() or driving or self._timer or bot_to_move)

    # ------------------------------------------------------------ what is sent

    def seat_infos(self) -> list[SeatInfo]:
        """Every seat as everyone may see it."""
        return [
            SeatInfo(
                seat=p,
                kind=s.kind,  # type: ignore[arg-type]
                name=s.bot if s.kind == "bot" else s.name,
                connected=s.kind == "bot" or s.present > 0,
                stand_in=s.stand_in,
                account=s.user_id is not None,
                invited=s.kind == "open" and s.invited is not None,
            )
            for p, s in enumerate(self.seats)
        ]

    def info(self) -> TableInfo:
        """The table as the lobby shows it."""
        return TableInfo(
            id=self.id,
            game=self.game.info.name,
            title=self.game.info.title,
            players=self.game.players,
            options=self.game.options_dict(),
            clock=self.clock,
            status=self.status,
            version=self.version,
            seats=self.seat_infos(),
            from_position=self.position is not None,
            rated=self.rated,
            move_time=self.move_time,
            deadline=self.deadline(),
            spectator_chat=self.spectator_chat,
            rematch_of=self.rematch_of,
            rematch=self.rematch,
            hints_used=self.hints_used,
            tutorial=self.tutor is not None,
        )

    def deadline(self) -> float | None:
        """For a game over days, when (Unix time) the seat to move must have decided."""
        if self.move_time is None or self.status != "playing" or self.turn_at is None:
            return None
        return self.turn_at.timestamp() + self.move_time

    def time_left(self) -> float | None:
        """For a game over days, the seconds the seat to move has left to decide (0: none)."""
        deadline = self.deadline()
        if deadline is None:
            return None
        return max(0.0, deadline - self.hub.clock().timestamp())

    def overdue(self) -> bool:
        """Whether the person to move in a game over days ran out of time to decide.

        A bot (:data:`STAND_IN_BOT`) then makes that one decision for them; their next
        decision has a whole time per move again.
        """
        seat = self.state.current_player
        left = self.time_left()
        return left == 0 and seat is not None and self.seats[seat].kind == "human"

    def message_for(self, conn: Connection) -> StateMessage:
        """The ``state`` message for ``conn``, with the events it has not been sent yet."""
        state = self.state
        seat = conn.seat
        view = None
        legal: list[LegalAction] = []
        events: list[dict[str, object]] = []
        first = conn.sent_events
        lines: list[str | None] = []
        if self.status != "waiting":
            narrator = self._narrator(conn)
            shown = state.view(seat)
            view = shown.to_dict()
            if seat is not None and self.status == "playing":
                legal = [
                    LegalAction(
                        id=a,
                        text=self.game.action_to_string(a),
                        label=None if narrator is None else narrator.describe_action(shown, a),
                    )
                    for a in getattr(shown, "legal_actions", ())
                ]
            events = state.visible_events(seat, conn.log_pos)
            conn.log_pos = len(state.log)
            conn.sent_events += len(events)
            if narrator is not None:
                lines = [narrator.describe_event(e) for e in events]
        over = self.status == "finished"
        return StateMessage(
            table_id=self.id,
            version=self.version,
            status=self.status,
            seat=seat,
            current_player=None
            if self.status in ("waiting", "abandoned")
            else state.current_player,
            decision=None if self.status != "playing" else state.decision,
            view=view,
            legal=legal,
            events=events,
            first_event=first,
            lines=lines,
            last_action=None if self.last_action is None else self.last_action.seen_by(seat),
            result=Result(scores=state.scores(), winners=state.winners()) if over else None,
            seats=self.seat_infos(),
            deadline=self.deadline(),
            time_left=self.time_left(),
            deciding_for=self.deciding_for(),
        )

    def deciding_for(self) -> float | None:
        """Seconds the seat to move has been deciding (a bot: thinking), to a tenth."""
        if self.status != "playing":
            return None
        return round(max(0.0, asyncio.get_running_loop().time() - self.version_since), 1)

    def names(self, lang: str) -> list[str]:
        """Each seat's name in ``lang``: a person's own, a bot's level and seat ("Medium 2")."""
        return [
            seat_name(p, lang, name=s.name, bot=s.bot if s.kind == "bot" else None)
            for p, s in enumerate(self.seats)
        ]

    def _narrator(self, conn: Connection) -> Narrator | None:
        """``conn``'s narrator, made on first use once every seat has its name."""
        if conn.narrator is None and conn.lang is not None:
            conn.narrator = narrator_for(self.game, self.names(conn.lang), conn.lang)
        return conn.narrator

    def broadcast_state(self) -> None:
        """Send every connection its ``state`` message."""
        for conn in self.connections:
            conn.send(self.message_for(conn))
        if self.tutor is not None:
            self.tutor.flush(self.connections, self._narrator)  # the lessons, after the state

    def broadcast_seats(self, skip: Connection | None = None) -> None:
        """Send every connection (but ``skip``) the seats."""
        message = SeatsMessage(version=self.version, seats=self.seat_infos())
        for conn in self.connections:
            if conn is not skip:
                conn.send(message)

    # ------------------------------------------------------------ seats and connections

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token is ``token``, or ``None``."""
        digest = hash_token(token)
        found = None
        for p, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = p
        return found

    async def join(
        self, name: str, seat: int | None, user_id: str | None = None
    ) -> tuple[int, str]:
        """Give ``name`` an open seat (``seat``, or the first open one); return it and its token.

        ``user_id`` is the signed-in account joining (``None``: a guest). A seat kept for an
        account (an invitation) is that account's only; a rated table seats accounts only; a
        guest may not sit under an account's name (:meth:`Hub.check_guest_name`).
        """
        with bound(table=self.id):
            if user_id is None:
                await self.hub.check_guest_name(name)
            return await self._join(name, seat, user_id)

    async def _join(self, name: str, seat: int | None, user_id: str | None) -> tuple[int, str]:
        async with self.lock:
            for _ in range(len(self.seats)):
                try:
                    return await self._join_once(name, seat, user_id)
                except StoreConflictError:
                    # Another server filled the seat first: see the seats as stored, then
                    # refuse a named seat, or try the next open one.
                    await self._refresh_seats()
            raise WebError(ErrorCode.TABLE_FULL, "every seat of this table is taken", 409)

    def _free_for(self, user_id: str | None) -> list[int]:
        """The open seats ``user_id`` may take, the ones kept for that account first."""
        free = [
            p
            for p, s in enumerate(self.seats)
            if s.kind == "open" and (s.invited is None or s.invited == user_id)
        ]
        return sorted(free, key=lambda p: self.seats[p].invited is None)

    async def _join_once(self, name: str, seat: int | None, user_id: str | None) -> tuple[int, str]:
        if self.status == "abandoned":
            raise WebError(ErrorCode.GAME_OVER, "the table was abandoned: nobody came back", 409)
        if self.rated and user_id is None:
            raise WebError(ErrorCode.SIGN_IN_REQUIRED, "sign in to play at a rated table", 403)
        if user_id is not None and any(s.user_id == user_id for s in self.seats):
            raise WebError(ErrorCode.ALREADY_SEATED, "your account already has a seat here", 409)
        if seat is not None:
            # The refusal names the seat as the protocol does (from 0), in its message and
            # in a field of its own, from which a page writes "Seat 2" for people.
            if seat >= len(self.seats):
                raise WebError(
                    ErrorCode.BAD_SEAT,
                    f"seat {seat} is not a seat of this table (0 to {len(self.seats) - 1})",
                    422,
                    {"seat": seat},
                )
            if self.seats[seat].kind != "open":
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
            status = await self.hub.store.tables.join(
                self.id, seat, name, digest, user_id, at=self.hub.clock()
            )
            full = status == "playing"
        except StoreConflictError:
            if self.hub.cluster.shared:
                raise
            log.exception("table %s: join not stored", self.id)
            raise WebError(
                ErrorCode.SERVER_ERROR, "the join was not stored: the seat is not open", 500
            ) from None
        except SQLAlchemyError as exc:
            log.exception("table %s: join not stored", self.id)
            raise WebError(ErrorCode.SERVER_ERROR, f"the join was not stored: {exc}", 500) from None
        target = self.seats[seat]
        target.kind, target.name, target.token_hash = "human", name, digest
        target.user_id, target.invited = user_id, None
        target.away_since = asyncio.get_running_loop().time()
        if full and any(s.kind == "open" for s in self.seats):
            await self._refresh_seats()  # another server filled the others: start with them
        elif full:
            self._start()
        else:
            self.broadcast_state()
        return seat, token

    async def decline(self, user_id: str) -> None:
        """Decline the invitation of ``user_id``: the seat kept for it becomes an open seat.

        Anyone may then take it. Every connection, on every server, is sent the seats as
        after a join. Raises :class:`WebError` (``not_invited``) when no open seat is kept
        for that account.
        """
        with bound(table=self.id):
            async with self.lock:
                try:
                    declined = await self.hub.store.invitations.decline(self.id, user_id)
                except SQLAlchemyError as exc:
                    log.exception("table %s: decline not stored", self.id)
                    raise WebError(
                        ErrorCode.SERVER_ERROR, f"the decline was not stored: {exc}", 500
                    ) from None
                if not declined:
                    raise WebError(
                        ErrorCode.NOT_INVITED, "no open seat of this table is kept for you", 409
                    )
                await self._refresh_seats()

    def _start(self) -> None:
        self.status = "playing"
        self.turn_at = self.hub.clock()
        self.turn_since = self.version_since = asyncio.get_running_loop().time()
        self.broadcast_state()
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
                self.broadcast_seats(skip=conn)
                self.hub.cluster.presence(self)
            conn.send(Welcome(table=self.info(), seat=conn.seat))
            conn.send(self.message_for(conn))
            if self.tutor is not None:
                self.tutor.greet(conn, self._narrator(conn))
            if self.rematch_votes or self.rematch is not None:
                conn.send(self.rematch_message())
            if (
                self.hub.settings.warm_for_hints
                and conn.seat is not None
                and self.status == "playing"
                and self.practice(conn.seat)
            ):
                self.hub.bots.warm()  # a hint may be asked for: its helper starts now
            self.kick()
        await self.send_chat_history(conn)

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
                self.broadcast_seats()
                self._later(self._note_seen())
            self.hub.cluster.presence(self)
        self.kick()

    async def _note_seen(self) -> None:
        """Store that a person was at the table until now (see :meth:`abandon_if_left`)."""
        if self.status not in ("waiting", "playing") or self.move_time is not None:
            return
        try:
            await self.hub.store.tables.seen(self.id, self.hub.clock())
        except SQLAlchemyError:
            log.exception("table %s: when its people left was not stored", self.id)

    def people_here(self) -> bool:
        """Whether a person seated here is connected, on any server."""
        return any(s.kind == "human" and s.present > 0 for s in self.seats)

    async def abandon_if_left(self) -> bool:
        """End the table as abandoned if nobody is at it; whether it was (the lock is taken).

        Called for a table whose stored activity is old (:meth:`Hub.check_abandoned`), on
        the server that runs it only. A person connected keeps it going: their presence is
        stored as activity, to be looked at again later. Sharing the database with other
        servers, a table just loaded waits for their word on who is connected.
        """
        async with self.lock:
            if not self.owner or self.status not in ("waiting", "playing"):
                return False
            if self.move_time is not None or all(s.kind == "bot" for s in self.seats):
                return False
            if self.people_here():
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
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.broadcast_state()

    def seat_of_user(self, user_id: str) -> int | None:
        """The seat of the signed-in account ``user_id``, or ``None``."""
        for p, s in enumerate(self.seats):
            if s.user_id == user_id:
                return p
        return None

    async def find_seat(self, token: str) -> int | None:
        """The seat whose token is ``token``, looking at the stored seats if none has it here.

        A seat joined through another server sharing the database may not be known here
        yet (its notice is on its way).
        """
        seat = self.seat_of_token(token)
        if seat is None and self.hub.cluster.shared:
            await self.refresh_seats()
            seat = self.seat_of_token(token)
        return seat

    # ------------------------------------------------------------ other servers

    def _later(self, work: Any) -> None:
        """Run ``work`` (a coroutine) in a task of the table's own, kept by the hub."""
        if self.hub.stopping or self.gone:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work, context=table_context(self.id))
        self.hub.background.add(task)
        task.add_done_callback(self.hub.background.discard)

    def catch_up_later(self, notes: list[tuple[int, int, int, str]] | None = None) -> None:
        """Apply actions committed by other servers, in a task of their own.

        ``notes`` (number, seat, action, by) come from a notice; without them, whatever
        the database holds beyond this table's version is applied.
        """
        self._later(self.catch_up(notes))

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
            await self._refresh_seats()  # its last join's notice was missed
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
            self.broadcast_state()
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

    def refresh_seats_later(self) -> None:
        """Read the seats as stored (another server filled one), in a task of their own."""
        self._later(self.refresh_seats())

    async def refresh_seats(self) -> None:
        """Read the seats as stored and show what changed; start the game once full."""
        async with self.lock:
            await self._refresh_seats()

    async def _refresh_seats(self) -> None:
        found = await self.hub.store.tables.seats_of(self.id)
        if found is None:
            return
        status, rows = found
        changed = False
        now = asyncio.get_running_loop().time()
        for row in rows:
            if row.seat >= len(self.seats):
                continue
            seat = self.seats[row.seat]
            stored = (row.kind, row.name, row.token_hash, row.user_id, row.invited_user_id)
            if (seat.kind, seat.name, seat.token_hash, seat.user_id, seat.invited) != stored:
                seat.kind, seat.name, seat.token_hash, seat.user_id, seat.invited = stored
                seat.away_since = now
                changed = True
        if self.status == "waiting" and status != "waiting":
            self._start()
        elif changed:
            self.broadcast_state()

    def heard_presence(self, server: str, counts: list[int] | None) -> None:
        """Another server's connections to each seat (``None``: it is gone)."""
        before = [s.present > 0 for s in self.seats]
        for p, seat in enumerate(self.seats):
            n = counts[p] if counts is not None and p < len(counts) else 0
            if n > 0:
                seat.elsewhere[server] = n
            else:
                seat.elsewhere.pop(server, None)
        now = asyncio.get_running_loop().time()
        changed = False
        for seat, was in zip(self.seats, before, strict=True):
            if was != (seat.present > 0):
                changed = True
                if seat.present:
                    seat.stand_in = False
                else:
                    seat.away_since = now
        if changed:
            self.broadcast_seats()
            self.kick()

    def heard_stand_in(self, seat: int) -> None:
        """The server running the table put a bot in for ``seat``'s absent player."""
        if not 0 <= seat < len(self.seats):
            return
        s = self.seats[seat]
        if s.kind == "human" and s.present == 0 and not s.stand_in:
            s.stand_in = True
            self.broadcast_seats()

    def owner_changed(self) -> None:
        """Start or stop the bots and clock: the server took the table's lease, or lost it."""
        self.kick()

    # ------------------------------------------------------------ chat and rematch

    async def latest_chat(self, limit: int) -> list[ChatEntry]:
        """The table's last ``limit`` chat messages, oldest first; raise :class:`WebError`."""
        try:
            rows = await self.hub.store.chat.of(self.id, limit)
        except SQLAlchemyError as exc:
            log.exception("table %s: the chat could not be read", self.id)
            raise WebError(
                ErrorCode.SERVER_ERROR, f"the chat could not be read: {exc}", 500
            ) from None
        return [chat_entry(r) for r in rows]

    async def send_chat_history(self, conn: Connection) -> None:
        """Send ``conn`` the table's latest chat messages, if there are any.

        Read from the database, which every server writes. The messages written meanwhile
        are held back and sent after them as new messages (not history), each once, in
        order, whether the read saw them or not.
        """
        entries: list[ChatEntry] = []
        with contextlib.suppress(WebError):  # logged; the connection goes on without them
            entries = await self.latest_chat(self.hub.settings.chat_history)
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
        and by each spectator's connection (:meth:`_chat_writers`).
        """
        if conn.seat is None and not self.spectator_chat:
            raise WebError(
                ErrorCode.CHAT_NOT_ALLOWED, "spectators only read the chat of this table"
            )
        try:
            clean = check_chat(text)
        except BadChat as exc:
            raise WebError(exc.code, str(exc)) from None
        settings = self.hub.settings
        now = asyncio.get_running_loop().time()
        wait = self.hub.chat_windows.take(self._chat_writers(conn), now)
        if wait > 0:
            who = "a spectator" if conn.seat is None else "a seat or an account"
            raise WebError(
                ErrorCode.CHAT_RATE_LIMITED,
                f"at most {settings.chat_burst} chat messages from {who} in "
                f"{settings.chat_window:g} s; write again in {max(1, math.ceil(wait))} s",
            )
        seat = None if conn.seat is None else self.seats[conn.seat]
        try:
            row = await self.hub.store.chat.append(
                self.id,
                conn.seat,
                None if seat is None else seat.name,
                clean,
                self.hub.clock(),
                user_id=None if seat is None else seat.user_id,
            )
        except SQLAlchemyError as exc:
            log.exception("table %s: chat message not stored", self.id)
            raise WebError(ErrorCode.SERVER_ERROR, f"the message was not stored: {exc}") from None
        self.heard_chat(row)

    def _chat_writers(self, conn: Connection) -> list[object]:
        """Who a chat message of ``conn`` counts against (:meth:`say`).

        Its seat and the account seated there; a spectator, who names no seat nor account,
        its own connection.
        """
        if conn.seat is None:
            # By its id, not itself: the windows must not keep a closed connection alive.
            # A new connection given a recent one's id inherits at most a few seconds' count.
            return [("connection", id(conn))]
        writers: list[object] = [("seat", self.id, conn.seat)]
        user_id = self.seats[conn.seat].user_id
        if user_id is not None:
            writers.append(("account", user_id))
        return writers

    def heard_chat(self, row: ChatRow) -> None:
        """Send every connection a chat message stored here or by another server."""
        entry = chat_entry(row)
        message = ChatMessage(messages=[entry])
        for conn in self.connections:
            if conn.chat_held is not None:
                conn.chat_held.append(entry)  # sent with the history being read for it
            else:
                conn.send(message)

    def rematch_message(self) -> RematchMessage:
        """Who voted for a rematch, and the rematch once open."""
        return RematchMessage(votes=list(self.rematch_votes), table=self.rematch)

    async def vote_rematch(self, conn: Connection) -> None:
        """``conn``'s seat offers or accepts a rematch; raise :class:`WebError` if refused.

        Once every seated person agreed (bots always do), the rematch is opened: a new
        table of the same game and options with a new deal, the same people in the same
        seats (their seat tokens and accounts carry over) and bots of the same levels.
        """
        async with self.lock:
            if conn.seat is None:
                raise WebError(ErrorCode.SPECTATOR, "spectators do not vote for a rematch")
            if self.status != "finished":
                raise WebError(ErrorCode.NOT_FINISHED, "a rematch is offered once the game is over")
            try:
                found = await self.hub.store.rematch.vote(
                    self.id, conn.seat, self._rematch_row, self.hub.clock()
                )
            except StoreConflictError as exc:
                raise WebError(ErrorCode.NOT_FINISHED, str(exc)) from None
            except SQLAlchemyError as exc:
                log.exception("table %s: rematch vote not stored", self.id)
                raise WebError(ErrorCode.SERVER_ERROR, f"the vote was not stored: {exc}") from None
            if not self._show_rematch(found):
                conn.send(self.rematch_message())  # nothing changed: the voter is told anyway
        if found.table is not None:
            with contextlib.suppress(WebError):  # logged by get; the players' pages retry
                rematch = await self.hub.get(found.table)  # its bots start, here
                rematch.address = rematch.address or self.address

    def _rematch_row(self) -> TableRow:
        """The new table of a rematch: a new deal, the same seats, options and settings."""
        seats = [
            SeatRow(
                seat=p,
                kind=s.kind,
                bot=s.bot,
                name=s.name,
                token_hash=s.token_hash,
                user_id=s.user_id,
            )
            for p, s in enumerate(self.seats)
        ]
        return TableRow(
            id=secrets.token_urlsafe(9),
            game=self.game.info.name,
            options=self.game.options_dict(),
            seed=secrets.randbits(63),
            clock=self.clock,
            status="playing",
            seats=seats,
            rated=self.rated,
            move_time=self.move_time,
            turn_at=self.hub.clock(),
            spectator_chat=self.spectator_chat,
            rematch_of=self.id,
        )

    def _show_rematch(self, found: Rematch) -> bool:
        """Keep the rematch as stored; tell every connection if it changed (and say so)."""
        if (found.votes, found.table) == (self.rematch_votes, self.rematch):
            return False
        self.rematch_votes, self.rematch = list(found.votes), found.table
        message = self.rematch_message()
        for conn in self.connections:
            conn.send(message)
        return True

    def heard_rematch(self) -> None:
        """Another server stored a rematch vote: read the votes again, in a task of their own."""
        self._later(self._refresh_rematch())

    async def _refresh_rematch(self) -> None:
        async with self.lock:
            try:
                found = await self.hub.store.rematch.of(self.id)
            except SQLAlchemyError:
                log.exception("table %s: the rematch votes could not be read", self.id)
                return
            self._show_rematch(found)

    # ------------------------------------------------------------ hints

    def practice(self, seat: int) -> bool:
        """Whether this is a practice table for ``seat``: unrated, and every other seat a bot's.

        A rated table is never one, even against bots only: a hint there would help a result
        that counts for ratings.
        """
        if self.rated:
            return False
        return all(s.kind == "bot" for p, s in enumerate(self.seats) if p != seat)

    async def hint(self, conn: Connection, message: AskHint) -> None:
        """Send ``conn`` the analysis of its seat's decision; raise :class:`WebError` if refused.

        Only at a practice table (:meth:`practice`, never a rated one), for the seat to
        decide, at the version the message names. The analysis
        (:func:`closingbell.bots.hints.hint`) reads that seat's view only, in the bots' helper
        processes, seeded by the table's seed and the version: asked again for the same
        decision, the same hint is sent without being worked out again. Before it is sent,
        the table records for good that hints were used (``hints_used``, stored first): its
        result changes no rating.
        """
        async with self.lock:
            seat = conn.seat
            if seat is None:
                raise WebError(ErrorCode.SPECTATOR, "spectators are given no hints")
            if not self.practice(seat):
                raise WebError(
                    ErrorCode.NOT_PRACTICE,
                    "hints are given only at practice tables: unrated, and every other seat a "
                    "bot's",
                )
            await self._check_turn(seat, message.version)
            version = self.version
            view = self.state.view(seat)
            working = self._hint_work(version, view)
        try:
            # Shielded: a connection that leaves does not stop the work others may share.
            found = await asyncio.shield(working)
        except Exception:
            log.exception("table %s: a hint could not be worked out", self.id)
            raise WebError(
                ErrorCode.SERVER_ERROR, "the hint could not be worked out (the log says why)"
            ) from None
        async with self.lock:
            if self.version != version:
                raise WebError(
                    ErrorCode.STALE_VERSION,
                    f"the game moved on to version {self.version} while the hint was worked out",
                )
            if not self.hints_used:
                try:
                    await self.hub.store.tables.use_hints(self.id)
                except SQLAlchemyError as exc:
                    log.exception("table %s: the use of hints was not stored", self.id)
                    raise WebError(
                        ErrorCode.SERVER_ERROR, f"no hint: its use could not be stored: {exc}"
                    ) from None
                self.hints_used = True
            conn.send(self.hint_message(conn, view, found, version))

    def _hint_work(self, version: int, view: View) -> asyncio.Task[DecisionAnalysis]:
        """The analysis of ``version``'s decision: the one under way or done, else a new one."""
        if self._hint is not None and self._hint[0] == version:
            task = self._hint[1]
            if not task.done() or (not task.cancelled() and task.exception() is None):
                return task
        task = asyncio.get_running_loop().create_task(
            self._work_out_hint(view, version), context=table_context(self.id)
        )
        # Its failure is logged by whoever awaits it; none may be left (their connection
        # closed), so it is marked as seen here.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        self._hint = (version, task)
        return task

    async def _work_out_hint(self, view: View, version: int) -> DecisionAnalysis:
        started = time.perf_counter()
        found = await self.hub.bots.run(hint, self.game, view, self.seed, version, asker=self.asker)
        self.hub.metrics.hinted(self.game.info.name, time.perf_counter() - started)
        return found

    def hint_message(
        self, conn: Connection, view: View, found: DecisionAnalysis, version: int
    ) -> HintMessage:
        """The ``hint`` message of ``found`` (the analysis of ``view``) in ``conn``'s words.

        Figures are rounded as ``closingbell analyze --json`` rounds them: margins to 3
        decimals, chances of winning to 4, their intervals kept within 0 and 1.
        """
        narrator = self._narrator(conn)

        def value(v: ActionValue) -> HintValue:
            return HintValue(
                id=v.action,
                text=self.game.action_to_string(v.action),
                label=None if narrator is None else narrator.describe_action(view, v.action),
                margin=round(v.margin.mean, 3),
                margin_interval=[round(v.margin.low, 3), round(v.margin.high, 3)],
                win=round(v.win.mean, 4),
                win_interval=[round(max(0.0, v.win.low), 4), round(min(1.0, v.win.high), 4)],
                behind=round(v.behind.mean, 3),
                behind_interval=[round(v.behind.low, 3), round(v.behind.high, 3)],
            )

        values = [value(v) for v in found.actions]
        return HintMessage(
            version=version,
            seat=found.seat,
            worlds=found.worlds,
            best=values[0],
            reason=None if narrator is None else hint_reason(narrator, view, found),
            actions=values,
        )

    def heard_hints(self) -> None:
        """Another server recorded that a hint was taken here."""
        self.hints_used = True

    # ------------------------------------------------------------ actions

    async def _check_turn(self, seat: int, version: int) -> None:
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
            await self._check_turn(conn.seat, message.version)
            if (message.action is None) == (message.text is None):
                raise WebError(ErrorCode.BAD_MESSAGE, "give exactly one of 'action' and 'text'")
            action = message.action
            if action is None:
                try:
                    action = self.game.string_to_action(message.text or "")
                except NotationError as exc:
                    raise WebError(ErrorCode.ILLEGAL_ACTION, str(exc)) from None
            await self._commit(conn.seat, action, "player")
            if received is not None and conn in self.connections:
                conn.expect_answer(received)  # _commit has just queued its state

    async def _commit(
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
        self.broadcast_state()
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
            players=tuple(_player(s) for s in self.seats),
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

    # ------------------------------------------------------------ bots and the clock

    def _bot_seed(self, seat: int, role: str = "bot") -> int:
        """The seed of the bot in ``seat``: random, or from the deal if the server takes seeds."""
        if self.hub.settings.allow_seed:
            return bot_seed(self.seed, seat, role)
        return secrets.randbits(63)

    def _controller(self, seat: int | None) -> tuple[Bot, Literal["bot", "stand_in"]] | None:
        if seat is None:
            return None
        if seat in self.bots:
            return self.bots[seat], "bot"
        if self.seats[seat].stand_in or (seat == self.state.current_player and self.overdue()):
            bot = self.stand_ins.get(seat)
            if bot is None:
                bot = make_bot(STAND_IN_BOT, self.game, seed=self._bot_seed(seat, "stand-in"))
                self.stand_ins[seat] = bot
            return bot, "stand_in"
        return None

    def _keep(self, seat: int, before: Bot, after: Bot) -> None:
        """Put ``after`` (the bot as a helper process left it) where ``before`` was."""
        for bots in (self.bots, self.stand_ins):
            if bots.get(seat) is before:
                bots[seat] = after

    def kick(self) -> None:
        """Start the bot driver if a bot must move, and re-arm the turn clock.

        Only on the server that runs the table (its lease holder); elsewhere the clock is
        disarmed, and a bot driver left running stops before its next move.
        """
        if not self.owner:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            return
        bot_moves = self._controller(self.state.current_player) is not None
        idle = self._driver is None or self._driver.done()
        if self.status == "playing" and bot_moves and idle:
            # In a context of the table's own: its log lines carry the table, not the
            # request that happened to wake the bot.
            self._driver = asyncio.create_task(self._drive(), context=table_context(self.id))
        self._arm_clock()

    async def _drive(self) -> None:
        """Play bots' moves (and stand-ins') until a person must decide."""
        while True:
            async with self.lock:
                seat = self.state.current_player
                playing = self.status == "playing" and self.owner
                found = self._controller(seat) if playing else None
                if found is None or seat is None:
                    return
                bot, by = found
                if by == "bot" and self.tutor is not None:
                    bot = self.tutor.ready(seat, self.version)  # as the tutorial's bots choose
                view = self.state.view(seat)
                version = self.version
                # A decision long overdue is made at once: the player coming back finds it.
                pause = 0.0
                if not self.overdue():
                    first = self.last_action is None or self.last_action.seat != seat
                    elapsed = asyncio.get_running_loop().time() - self.turn_since
                    pause = bot_pause(self.hub.settings, first, elapsed)
            # The bot thinks during the pause: a search that takes longer adds no pause.
            thinking = asyncio.ensure_future(self._think(bot, view))
            try:
                if pause > 0:
                    await self.hub.sleep(pause)
                action, thought, took = await thinking
            except asyncio.CancelledError:
                thinking.cancel()
                raise
            except Exception:
                log.exception("table %s: bot of seat %s failed", self.id, seat)
                return
            name = self.seats[seat].bot if by == "bot" else STAND_IN_BOT
            self.hub.metrics.thought(name or "", took)
            async with self.lock:
                self._keep(seat, bot, thought)
                if self.version != version or self._controller(seat) is None:
                    continue
                try:
                    await self._commit(seat, action, by)
                except WebError as exc:
                    if exc.code == ErrorCode.STALE_VERSION:
                        continue  # another server's action came first: think again
                    log.error("table %s: bot move refused: %s", self.id, exc.message)
                    return

    async def _think(self, bot: Bot, view: View) -> tuple[int, Bot, float]:
        """The bot's action, the bot to keep, and the seconds it took to choose."""
        started = time.perf_counter()
        action, thought = await self.hub.bots.choose(bot, view, self.asker)
        return action, thought, time.perf_counter() - started

    def _arm_clock(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.clock is None or self.status != "playing":
            return
        seat = self.state.current_player
        if seat is None:
            return
        s = self.seats[seat]
        if s.kind != "human" or s.present > 0 or s.stand_in:
            return
        deadline = max(s.away_since, self.turn_since) + self.clock
        self._timer = asyncio.get_running_loop().call_at(
            deadline, self._clock_ran_out, context=table_context(self.id)
        )

    def _clock_ran_out(self) -> None:
        self._timer = None
        seat = self.state.current_player
        if self.status != "playing" or seat is None:
            return
        s = self.seats[seat]
        if s.kind == "human" and s.present == 0 and not s.stand_in and self.owner:
            log.info("table %s: a bot stands in for seat %s", self.id, seat)
            s.stand_in = True
            self.broadcast_seats()
            self.hub.cluster.stand_in(self, seat)
            self.kick()

    def close(self) -> None:
        """Stop the bot driver and the clock, and end every connection's writer."""
        if self._timer is not None:
            self._timer.cancel()
        if self._driver is not None:
            self._driver.cancel()
        for conn in self.connections:
            conn.queue.put_nowait(CLOSE_RESTART)


def _player(seat: LiveSeat) -> str | None:
    """Who a seat's results belong to: its account, its bot level, or ``None`` (a guest)."""
    if seat.kind == "bot" and seat.bot:
        return bot_player(seat.bot)
    return None if seat.user_id is None else user_player(seat.user_id)


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
        self.memory = TableMemory(self)
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
        of this server's tables (``LiveTable.say``)."""
        self.visitors = Visitors(settings.online_window)
        """The visitors whose pages said lately that they are open (``server.online``)."""
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """Waits a number of seconds: the bots' pauses (tests give one of their own)."""
        self._loading = asyncio.Lock()
        self._deadlines: asyncio.Task[None] | None = None
        self._abandoned: asyncio.Task[None] | None = None

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
        self._deadlines = asyncio.create_task(
            self._every(
                lambda: self.settings.deadline_check,
                self.check_deadlines,
                "the games over days could not be checked for deadlines",
            )
        )
        self._abandoned = asyncio.create_task(
            self._every(
                lambda: self.settings.abandon_check,
                self.check_abandoned,
                "the tables could not be checked for abandonment",
            )
        )

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
        for task in (self._deadlines, self._abandoned):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.cluster.hand_over()
        for table in self.tables.values():
            table.close()
        drivers = [t._driver for t in self.tables.values() if t._driver is not None]
        for task in [*drivers, *self.background]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)
        await self.cluster.stop()
        await self.bots.stop()
        self.accounts.hashing.stop()
        await self.store.close()

    async def _every(
        self, seconds: Callable[[], float], look: Callable[[], Awaitable[object]], failed: str
    ) -> None:
        """Run ``look`` every ``seconds()`` for ever; a failure is logged as ``failed``."""
        while True:
            await asyncio.sleep(seconds())
            try:
                await look()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away for a while: look again later
                log.exception(failed)

    async def check_deadlines(self) -> list[str]:
        """Let a bot decide for every seat of a game over days that ran out of time.

        Looks in the database for the games whose seat to move is past its deadline, in
        memory or not, loads them and, on the server that runs each (its lease holder),
        has :data:`STAND_IN_BOT` make that one decision. Returns once those decisions (and
        the bots' moves that follow) are made: the ids of the tables this server played.
        """
        played: list[str] = []
        drivers: list[asyncio.Task[None]] = []
        for table_id in await self.store.tables.overdue(self.clock(), OVERDUE_AT_ONCE):
            try:
                table = await self.get(table_id)
            except WebError:
                continue  # unavailable (logged once) or gone
            if not table.owner or not table.overdue():
                continue
            table.kick()
            played.append(table_id)
            if table._driver is not None:
                drivers.append(table._driver)
        if drivers:
            await asyncio.wait(drivers)
        return played

    async def check_abandoned(self) -> list[str]:
        """End the real-time tables that nobody has been at for ``abandon_after`` seconds.

        Looks in the database for the unfinished tables with people seated or awaited whose
        last action, join or person leaving is that old, in memory or not, loads them and, on
        the server that runs each (its lease holder), ends those with nobody connected
        (:meth:`LiveTable.abandon_if_left`). Returns the ids of the tables ended here.
        """
        after = self.settings.abandon_after
        if after <= 0:
            return []
        before = self.clock() - dt.timedelta(seconds=after)
        ended: list[str] = []
        for table_id in await self.store.tables.abandoned(before, ABANDONED_AT_ONCE):
            try:
                table = await self.get(table_id)
            except WebError:
                continue  # unavailable (logged once) or gone
            if await table.abandon_if_left():
                ended.append(table_id)
        return ended

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
                raise _unavailable(table_id)
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
                table = self._rebuild(row)
            except Exception as exc:  # whatever the stored data makes the rules raise
                raise self._unusable(table_id, _why(exc)) from None
            self.memory.restore(table)
            self.tables[table_id] = table
            await self.cluster.loaded(table)
            table.kick()
            return table

    def _rebuild(self, row: TableRow) -> LiveTable:
        """The live table of a stored row, its actions replayed; raise if they do not fit."""
        if row.problem is not None:
            raise ValueError(row.problem)
        if row.status not in ("waiting", "playing", "finished", "abandoned"):
            raise ValueError(f"its status {row.status!r} is not one of the server's")
        if row.clock is not None and not 0 < row.clock <= 86400:
            raise ValueError(f"its clock {row.clock} is out of range")
        # A table made under an older rules version goes on under the rules it began with.
        game = game_class(row.game).for_version(row.rules_version, row.options)
        kinds = [s.kind for s in row.seats]
        if [s.seat for s in row.seats] != list(range(game.players)):
            raise ValueError(
                f"it has seats {[s.seat for s in row.seats]} for {game.players} players"
            )
        if any(k not in ("open", "human", "bot") for k in kinds):
            raise ValueError(f"its seats are of kinds {kinds}")
        if row.status != "abandoned" and (row.status == "waiting") != ("open" in kinds):
            raise ValueError(f"it is {row.status} with seats of kinds {kinds}")
        if row.status == "waiting" and row.actions:
            raise ValueError(f"it is waiting for players after {len(row.actions)} actions")
        if row.position is None:
            state = game.new_game(row.seed)
        else:
            state = start_from_position(game, row.position)
            if state.seed != row.seed:
                raise ValueError(f"its seed {row.seed} is not its position's seed {state.seed}")
        last = None
        for number, action in enumerate(row.actions):
            seat = state.current_player
            if seat is None:
                raise ValueError(f"action {number} follows the end of the game")
            secret = state.choice_is_secret()
            try:
                state.apply(action)
            except (IllegalActionError, TypeError) as exc:
                raise ValueError(f"action {number} ({action!r}) is refused: {exc}") from None
            by: Literal["player", "bot", "stand_in"] = (
                "bot" if row.seats[seat].kind == "bot" else "player"
            )
            stored = row.chosen_by[number] if number < len(row.chosen_by) else None
            if stored in ("player", "bot", "stand_in"):
                by = stored  # type: ignore[assignment]
            text = game.action_to_string(action)
            last = LastAction(seat=seat, id=action, text=text, by=by, secret=secret)
        if (row.status == "finished") != state.is_terminal():
            raise ValueError(
                f"it is {row.status}, but its game is {'' if state.is_terminal() else 'not '}over"
            )
        table = LiveTable(self, row, game, state)
        table.last_action = last
        return table

    def _unusable(self, table_id: str, reason: str) -> WebError:
        """Record that a table cannot be rebuilt (logged once); the error to answer."""
        if table_id not in self.unavailable:
            log.error("table %s is unavailable: %s", table_id, reason)
            self.unavailable[table_id] = reason
        return _unavailable(table_id)

    async def create(
        self, request: CreateTable, user: User | None = None, *, address: str = ""
    ) -> LiveTable:
        """Make, store and open a table; raise :class:`WebError` for a bad request.

        A request with a ``position`` makes a practice table (one open seat, bots in the
        others) that starts from that position, stored as its canonical text. ``user`` is
        the signed-in player making it, if any: only they may make a rated table or invite.
        ``address`` is the client's, whose search bots are counted (:meth:`check_search_bots`).
        """
        game = _make_game(request)
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
            _check_practice_seats(seats)
            if request.seed is not None:
                raise WebError(
                    ErrorCode.BAD_REQUEST,
                    "give a seed or a position, not both: a position names its own seed",
                    422,
                )
            start, position = _read_position(game, request.position)
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
            return live.info()
        if row.id not in self.unavailable:
            try:
                return _stored_info(row)
            except (ValueError, UnknownGameError) as exc:  # pydantic's errors included
                self._unusable(row.id, _why(exc))
        return _unavailable_info(row)


def chat_entry(row: ChatRow) -> ChatEntry:
    """A stored chat message as clients are sent it: whether an account wrote it, never which."""
    return ChatEntry(
        id=row.id,
        seat=row.seat,
        name=row.name,
        account=row.seat is not None and row.user_id is not None,
        text=row.text,
        time=row.at.timestamp(),
    )


def _stored_info(row: TableRow) -> TableInfo:
    """A table as stored, for the lobby; raises ``ValueError`` for a row it cannot show."""
    if row.problem is not None:
        raise ValueError(row.problem)
    cls = game_class(row.game)
    options = cls.options_for_version(row.rules_version, row.options)
    return TableInfo(
        id=row.id,
        game=row.game,
        title=cls.info.title,
        players=len(row.seats),
        options=options,
        clock=row.clock,
        status=row.status,  # type: ignore[arg-type]
        version=row.version,
        seats=[
            SeatInfo(
                seat=s.seat,
                kind=s.kind,  # type: ignore[arg-type]
                name=s.bot if s.kind == "bot" else s.name,
                connected=s.kind == "bot",
                stand_in=False,
                account=s.user_id is not None,
                invited=s.kind == "open" and s.invited_user_id is not None,
            )
            for s in row.seats
        ],
        from_position=row.position is not None,
        rated=row.rated,
        move_time=row.move_time,
        spectator_chat=row.spectator_chat,
        rematch_of=row.rematch_of,
        rematch=row.rematch,
        hints_used=row.hints_used,
        tutorial=tutorial_of(row, options) is not None,
    )


def _unavailable_info(row: TableRow) -> TableInfo:
    """A table that cannot be rebuilt, for the lobby: what can be read of it."""
    try:
        title = game_class(row.game).info.title
    except UnknownGameError:
        title = row.game
    return TableInfo(
        id=row.id,
        game=row.game,
        title=title,
        players=len(row.seats),
        options=row.options,
        clock=None,
        status="unavailable",
        version=row.version,
        seats=[],
        from_position=row.position is not None,
    )


def _unavailable(table_id: str) -> WebError:
    return WebError(
        ErrorCode.TABLE_UNAVAILABLE,
        f"table {table_id!r} is unavailable: its stored game cannot be rebuilt "
        "(the server's log says why)",
        503,
    )


def _why(exc: Exception) -> str:
    """Why a stored table cannot be used, in one line."""
    text = " ".join(str(exc).split())
    if isinstance(exc, ValueError | KeyError) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _check_practice_seats(seats: list[SeatRow]) -> None:
    """Refuse seats other than a practice table's: one open seat, bots in the others.

    Whoever writes a position knows every hidden card in it, so a table started from one
    is for practice against bots only: no second person could play it fairly.
    """
    people = sum(s.kind == "open" for s in seats)
    if people != 1:
        raise WebError(
            ErrorCode.BAD_SEATS,
            "a table started from a position is a practice table: one open seat for a "
            f"person and bots in the others, not {people} open seats",
            422,
        )


def _read_position(game: Game, text: str) -> tuple[State, str]:
    """The state a position's text makes, and its canonical text; raise ``bad_position``.

    The state is made from the canonical text, as a restart will make it. A position that
    names no seed is given a random one, as a deal is.
    """
    reader = game.state_from_position
    if len(text) <= MAX_POSITION_CHARS and not names_field(text, "seed"):
        # Later shuffles (and a short position's unnamed cards) follow from the seed: a
        # position that names none gets a fresh one, so that nobody can foresee its draws.
        text = f"seed: {secrets.randbits(63)}\n{text}"
    try:
        first = reader(text)
        canonical = str(first.to_position())
        state = reader(canonical)
    except PositionError as exc:
        raise _bad_position(exc.field, exc.reason) from None
    except Exception:  # a reader's bug must not become a 500 for a typed position
        log.exception("a position could not be read")
        raise _bad_position(
            None, "the position could not be read (the server's log says why)"
        ) from None
    if not isinstance(state, State):
        raise _bad_position(None, "the position made no state of the game")
    if state.is_terminal():
        raise _bad_position(None, "the game is over in this position: there is nothing to play")
    return state, canonical


def _bad_position(field: str | None, reason: str) -> WebError:
    where = "position" if field is None else f"position field {field!r}"
    return WebError(
        ErrorCode.BAD_POSITION,
        f"{where}: {reason}",
        422,
        {"field": field, "reason": reason},
    )


def _make_game(request: CreateTable) -> Game:
    """The game a create request asks for, its options checked by the game's options class."""
    try:
        cls = game_class(request.game)
    except UnknownGameError as exc:
        raise WebError(ErrorCode.UNKNOWN_GAME, str(exc), 422) from None
    players = len(request.seats)
    info = cls.info
    if not info.min_players <= players <= info.max_players:
        raise WebError(
            ErrorCode.BAD_SEATS,
            f"{info.title} takes {info.min_players} to {info.max_players} seats, not {players}",
            422,
        )
    options = dict(request.options)
    if options.get("players", players) != players:
        raise WebError(ErrorCode.BAD_OPTIONS, "option 'players' must be the number of seats", 422)
    options["players"] = players
    try:
        return cls(**options)
    except (OptionError, TypeError, ValueError) as exc:
        raise WebError(ErrorCode.BAD_OPTIONS, str(exc), 422) from None
