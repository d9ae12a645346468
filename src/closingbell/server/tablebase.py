"""What every room of a live table shares: its record, its seats and the server's services.

:class:`TableBase` is the table as its rooms (``server.seats``, ``server.chat``,
``server.rematch``, ``server.hinting``, ``server.botdriver``, ``server.turnclock``) see it,
and :class:`Services` what the server (``server.hub``) gives it; both are below the rooms,
so that no room imports the table (``server.tables``) nor the hub.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from closingbell.core.game import Game, State
from closingbell.server.accounts import Accounts, Clock
from closingbell.server.client import Connection
from closingbell.server.cluster import Solo
from closingbell.server.logs import table_context
from closingbell.server.metrics import Metrics
from closingbell.server.protocol import LastAction
from closingbell.server.ratelimit import SlidingWindows
from closingbell.server.settings import Settings
from closingbell.server.store import Store, TableRow
from closingbell.server.thinking import Asker, BotPool
from closingbell.server.tutorials import Tutor, tutorial_of

Status = Literal["waiting", "playing", "finished", "abandoned"]


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
    bot_account: bool = False
    """Whether the account seated here is a bot account, played by a program."""

    @property
    def present(self) -> int:
        """Live connections holding this seat's token, on every server."""
        return self.connections + sum(self.elsewhere.values())


class Services(Protocol):
    """What a live table is given by its server (the hub): the store, the settings, the bots..."""

    store: Store
    """The database."""
    settings: Settings
    """How the server behaves."""
    clock: Clock
    """The time now in UTC."""
    metrics: Metrics
    """What the server counts and times."""
    bots: BotPool
    """Where the tables' bots think."""
    cluster: Solo
    """The servers sharing the database."""
    accounts: Accounts
    """Players' accounts and sessions."""
    chat_windows: SlidingWindows
    """The chat messages written lately by each writer."""
    background: set[asyncio.Task[None]]
    """Tasks of the tables' own (kept until done)."""
    stopping: bool
    """Whether the server is stopping."""
    sleep: Callable[[float], Awaitable[None]]
    """Waits a number of seconds: the bots' pauses."""

    async def get(self, table_id: str) -> TableBase:
        """The table ``table_id``, rebuilt from the database if not in memory."""
        ...

    async def check_guest_name(self, name: str) -> None:
        """Refuse a guest's display name that is an account's username."""


class TableBase(ABC):
    """A live table as its rooms share it: its record, and the verbs of the table they call.

    :class:`~closingbell.server.tables.LiveTable` orders the changes; its rooms (seats, chat,
    rematch, hints, bot driver, turn clock) are each given the table as this class.
    """

    def __init__(self, hub: Services, row: TableRow, game: Game, state: State) -> None:
        loop = asyncio.get_running_loop()
        self.hub = hub
        """What the server gives its tables (the hub)."""
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
                s.kind,
                s.bot,
                s.name,
                s.token_hash,
                user_id=s.user_id,
                invited=s.invited_user_id,
                bot_account=s.bot_account,
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

        A bot (``STAND_IN_BOT``) then makes that one decision for them; their next
        decision has a whole time per move again.
        """
        seat = self.state.current_player
        left = self.time_left()
        return left == 0 and seat is not None and self.seats[seat].kind == "human"

    def later(self, work: Any) -> None:
        """Run ``work`` (a coroutine) in a task of the table's own, kept by the hub."""
        if self.hub.stopping or self.gone:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work, context=table_context(self.id))
        self.hub.background.add(task)
        task.add_done_callback(self.hub.background.discard)

    @abstractmethod
    def kick(self) -> None:
        """Start the bot driver if a bot must move, and re-arm the turn clock."""

    @abstractmethod
    def start(self) -> None:
        """Start the game: every seat is taken."""

    @abstractmethod
    async def check_turn(self, seat: int, version: int) -> None:
        """Raise :class:`WebError` unless ``seat`` decides now at state ``version`` (lock held)."""

    @abstractmethod
    async def commit(
        self, seat: int, action: int, by: Literal["player", "bot", "stand_in"]
    ) -> None:
        """Apply, store, then publish one action (the lock is held)."""
