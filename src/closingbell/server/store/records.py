"""What the store reads and writes, as plain records: tables, seats, chat, rematches.

A game is stored as what reproduces it, never as a snapshot: its game name, the rules
version it was made under, its rules options, seed (and, for a game started from a
position, that position's text), seats (kind, name, bot, and the SHA-256 of the seat token,
never the token) and its list of actions, one row per action.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from typing import Any

from closingbell.server.ratings import Finish


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token, as stored (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


ENDED = ("finished", "abandoned")
"""The statuses of a table that is over: played to its end, or abandoned."""


def utc_now() -> dt.datetime:
    """The time now, in UTC (what the store writes when no time is given)."""
    return dt.datetime.now(dt.UTC)


def aware(value: dt.datetime | None) -> dt.datetime | None:
    """A stored time in UTC (SQLite gives it back without its time zone)."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=dt.UTC)


@dataclass
class SeatRow:
    """A stored seat."""

    seat: int
    """The seat number."""
    kind: str
    """``open``, ``human`` or ``bot``."""
    bot: str | None = None
    """The bot's name or level, for a bot seat."""
    name: str | None = None
    """The player's display name, once joined."""
    token_hash: str | None = None
    """The SHA-256 of the seat token, once joined."""
    user_id: str | None = None
    """The account seated here (``None``: a guest, a bot or an open seat)."""
    invited_user_id: str | None = None
    """The account this open seat is kept for (an invitation), or ``None``."""
    invited_by: str | None = None
    """The account that made the invitation (``None``: none, or one stored before the
    inviter was)."""
    bot_account: bool = False
    """Whether the account seated here is a bot account (read from the account, not stored
    with the seat)."""


@dataclass
class TableRow:
    """A stored table with its seats and, when loaded for play, its actions."""

    id: str
    """The table's id."""
    game: str
    """The registered name of the game."""
    options: dict[str, Any]
    """Every rules option."""
    seed: int
    """The deal's seed."""
    clock: float | None
    """The turn clock in seconds."""
    status: str
    """``waiting``, ``playing``, ``finished`` or ``abandoned`` (see
    :meth:`TableRepository.abandon`)."""
    version: int = 0
    """The number of actions stored."""
    rules_version: int | None = None
    """The game's rules version when the table was made (``None`` in a new row: the
    game's current version, filled in when it is stored)."""
    seats: list[SeatRow] = field(default_factory=list)
    """Every seat, in order."""
    actions: list[int] = field(default_factory=list)
    """The action ids, in order (filled by :meth:`TableRepository.load`)."""
    chosen_by: list[str | None] = field(default_factory=list)
    """Who chose each action (``player``, ``bot``, ``stand_in``, or ``None`` when not
    recorded), in order (filled by :meth:`TableRepository.load`)."""
    position: str | None = None
    """The canonical text of the position the game started from, or ``None`` (a deal)."""
    problem: str | None = None
    """What in the stored row cannot be read (its fields then hold neutral values), or ``None``."""
    rated: bool = False
    """Whether the game counts for ratings."""
    move_time: float | None = None
    """Seconds per move of a game played over days, or ``None`` (real time)."""
    turn_at: dt.datetime | None = None
    """When the seat to move began its turn (games over days; filled by
    :meth:`TableRepository.load`)."""
    spectator_chat: bool = False
    """Whether spectators may write in the table's chat."""
    rematch_of: str | None = None
    """The table this one is a rematch of, or ``None``."""
    rematch: str | None = None
    """The rematch opened from this table, or ``None``."""
    rematch_votes: list[int] = field(default_factory=list)
    """The seats that voted for a rematch, first voter first (filled by
    :meth:`TableRepository.load`)."""
    hints_used: bool = False
    """Whether a player took a hint at this table (its result then rates nobody)."""
    updated_at: dt.datetime | None = None
    """When the table last changed (a finished table: when its game ended), as stored."""


@dataclass(frozen=True)
class QueuedAction:
    """One action waiting to be stored (``ActionRepository.append``'s group commit)."""

    table_id: str
    number: int
    seat: int
    action: int
    text: str
    status: str
    at: dt.datetime
    by: str = "player"
    turn_at: dt.datetime | None = None
    finish: Finish | None = None


@dataclass(frozen=True)
class ChatRow:
    """A stored chat message."""

    id: int
    """Its number (increasing)."""
    seat: int | None
    """The writer's seat, or ``None`` for a spectator."""
    name: str | None
    """The writer's name, or ``None`` for a spectator."""
    text: str
    """What was written."""
    at: dt.datetime
    """When."""
    user_id: str | None = None
    """The account seated where it was written (``None``: a guest or a spectator)."""
    bot_account: bool = False
    """Whether that account is a bot account."""

    def notice(self) -> list[Any]:
        """The message as a notice to the other servers carries it."""
        return [
            self.id,
            self.seat,
            self.name,
            self.text,
            self.at.timestamp(),
            self.user_id,
            self.bot_account,
        ]

    @classmethod
    def from_notice(cls, note: list[Any]) -> ChatRow:
        """The message a notice carried (see :meth:`notice`).

        A server of the release before accounts were marked sends five fields, no account;
        one of the release before bot accounts sends six.
        """
        number, seat, name, text, at = note[:5]
        user_id = note[5] if len(note) > 5 else None
        bot = bool(note[6]) if len(note) > 6 else False
        return cls(
            id=int(number),
            seat=None if seat is None else int(seat),
            name=None if name is None else str(name),
            text=str(text),
            at=dt.datetime.fromtimestamp(float(at), dt.UTC),
            user_id=None if user_id is None else str(user_id),
            bot_account=bot and user_id is not None,
        )


@dataclass(frozen=True)
class Rematch:
    """A finished table's rematch as stored."""

    votes: list[int]
    """The seats that voted for it, first voter first."""
    table: str | None
    """The new table's id once opened."""


@dataclass(frozen=True)
class AccountTables:
    """An account's tables as :meth:`TableRepository.of_account` reads them, newest first."""

    seated: list[TableRow]
    """Tables not over where the account has a seat."""
    invited: list[TableRow]
    """Tables with an open seat kept for the account (its invitations)."""
    finished: list[TableRow]
    """Finished tables where the account had a seat, the last finished first."""
    invitations: int
    """How many open seats are kept for the account, in all."""


@dataclass(frozen=True)
class InvitationLimits:
    """How many open invitations one account may have made at once (``Settings`` say).

    An invitation is open while its seat is open and kept for the invited account, and
    counts against its maker's limits for ``counted_for`` after its table was made: an
    invitation nobody answers does not hold its place for ever.
    """

    in_all: int
    """Open invitations an account may have made, to anyone."""
    to_one: int
    """Open invitations an account may have made to one other account."""
    counted_for: dt.timedelta
    """How long after its table was made an open invitation counts."""
