"""The messages of the web server, typed and validated with pydantic (docs/protocol.md).

Client messages are parsed strictly: unknown fields, wrong types and missing fields are
refused, so that nothing a browser sends reaches the rules engine unchecked. Server
messages are built from models too, so that their shape is written down in one place.
"""

from __future__ import annotations

import sys
import unicodedata
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from closingbell.core.position import MAX_POSITION_CHARS

PROTOCOL_VERSION = 1
"""Sent in every ``welcome``; bumped whenever a message changes incompatibly."""

Lang = Literal["en", "zh-Hant"]
"""The languages the server's words come in (the terminal's catalogs)."""

NAME_MAX = 32
"""The longest display name, in characters."""

MOVE_TIME_MAX = 14 * 86400.0
"""The longest time per move of a game played over days: two weeks."""

TOKEN_MAX = 100
"""The longest seat token a client may send (real tokens are 32 characters)."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories refused in names: controls, invisible formatting (bidi overrides,
zero-width joiners), surrogates, private-use and unassigned code points, line breaks."""

CHAT_MAX = 500
"""The longest chat message, in characters (after the outer spaces are removed)."""

_CHAT_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Zl", "Zp"})
"""Unicode categories refused in chat messages: controls (line breaks and tabs among them),
surrogates, private-use code points, line and paragraph separators. Other invisible
formatting stays allowed (emoji sequences need the zero-width joiner, flags the tags),
but not the characters that reorder text (:data:`_BIDI_CONTROLS`), nor a message made of
invisible characters only (:func:`shows_nothing`). Unassigned code points are kept among
visible text: Python's Unicode may be older than the sender's (a newer emoji)."""

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The embeddings, overrides and isolates of Unicode's bidirectional algorithm: a message
holding one could make the page show the words around it in another order."""

_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's default-ignorable code points (``Default_Ignorable_Code_Point`` of
DerivedCoreProperties.txt), as ranges: a renderer that does not support one shows nothing
for it. Among them the soft hyphen, the zero-width space and joiners, the Hangul fillers
(letters by their category), the variation selectors, the byte-order mark and the tags.
Python's ``unicodedata`` does not have this property, so it is written out here."""

_BLANK = frozenset("\u2800")
"""Characters drawn as nothing though they are neither spaces nor ignorable: the Braille
pattern blank (a symbol with no dots)."""

_VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
"""The variation selectors: invisible, but they only choose the look of the character
before them (the emoji form of ❤️), so a name may hold them."""


def _within(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def invisible(char: str) -> bool:
    """Whether ``char`` shows nothing by itself.

    Spaces, controls, format characters (zero-width space, byte-order mark, tags), line and
    paragraph separators, unassigned code points (the server cannot know how they will be
    drawn), default-ignorable code points (Hangul fillers, variation selectors) and the
    Braille pattern blank.
    """
    if char.isspace() or char in _BLANK:
        return True
    if unicodedata.category(char) in ("Cc", "Cf", "Cn", "Zs", "Zl", "Zp"):
        return True
    return _within(ord(char), _DEFAULT_IGNORABLE)


def shows_nothing(text: str) -> bool:
    """Whether nothing of ``text`` shows: it is empty or every character is :func:`invisible`.

    The one test of blank text, for display names (:func:`check_name`) and chat messages
    (:func:`check_chat`) alike.
    """
    return all(invisible(char) for char in text)


def _invisible_in_name(char: str) -> bool:
    """Whether a name must not hold ``char``: invisible, yet no space nor variation selector.

    Spaces separate words; a variation selector only picks the look of an emoji.
    """
    if char.isspace() or unicodedata.category(char) == "Zs":
        return False
    return invisible(char) and not _within(ord(char), _VARIATION_SELECTORS)


class ErrorCode(StrEnum):
    """Every error code the server sends, over HTTP and over the WebSocket."""

    BAD_REQUEST = "bad_request"
    """An HTTP body or query that does not have the documented shape (a body that is not
    JSON among them)."""
    NOT_FOUND = "not_found"
    """An HTTP path that names no page, file or route of the server."""
    METHOD_NOT_ALLOWED = "method_not_allowed"
    """An HTTP method the path does not take (the ``Allow`` header lists those it does)."""
    BAD_NAME = "bad_name"
    """A display name that is empty, too long, holds control or invisible characters, or
    shows nothing."""
    NAME_TAKEN = "name_taken"
    """A guest's display name that is an account's username (in any case): only that
    account sits under it."""
    UNKNOWN_GAME = "unknown_game"
    """A game name that is not registered."""
    BAD_SEATS = "bad_seats"
    """A seat count the game does not allow."""
    UNKNOWN_BOT = "unknown_bot"
    """A seat that names no bot (and is not ``open``)."""
    BAD_OPTIONS = "bad_options"
    """A rules option the game's options class refuses."""
    SEED_NOT_ALLOWED = "seed_not_allowed"
    """A seed given to a server that does not accept chosen seeds."""
    BAD_POSITION = "bad_position"
    """A position (``docs/positions.md``) the game refuses, or one too long; the error body
    also gives the position's ``field`` at fault (or ``null``) and the ``reason``."""
    UNKNOWN_TABLE = "unknown_table"
    """No table has that id."""
    TABLE_FULL = "table_full"
    """Every seat of the table is taken."""
    SEAT_TAKEN = "seat_taken"
    """The chosen seat is not open."""
    BAD_SEAT = "bad_seat"
    """The chosen seat number is not a seat of the table."""
    NOT_FINISHED = "not_finished"
    """A record, replay or review asked of a game that is not over, or a rematch offered
    before the end."""
    REVIEW_NOT_STARTED = "review_not_started"
    """A review read before it was asked for (``POST`` it first), or one this server no
    longer keeps."""
    TOO_MANY_REVIEWS = "too_many_reviews"
    """As many reviews as the server works out at once are under way; try again later."""
    BAD_JSON = "bad_json"
    """A WebSocket message that is not JSON text (or holds a number of too many digits)."""
    BAD_MESSAGE = "bad_message"
    """A WebSocket message that is JSON but not one of the documented messages."""
    TOO_LARGE = "too_large"
    """A WebSocket message or HTTP request body longer than the server accepts."""
    TOO_DEEP = "too_deep"
    """JSON whose arrays and objects nest more deeply than the server reads (64 levels), in a
    WebSocket message or an HTTP request body."""
    RATE_LIMITED = "rate_limited"
    """Too many messages too fast from one connection or address; the message was dropped.
    Over HTTP: too many new tables from one address."""
    REQUEST_TIMEOUT = "request_timeout"
    """An HTTP request whose body did not arrive in time."""
    BAD_ORIGIN = "bad_origin"
    """A WebSocket opened by a page of another site (its ``Origin`` is not allowed)."""
    TOO_MANY_CONNECTIONS = "too_many_connections"
    """A connection refused: too many held (or WebSockets opened) from its address, or the
    server is full."""
    NOT_AUTHENTICATED = "not_authenticated"
    """A message other than ``hello`` before ``hello``."""
    ALREADY_AUTHENTICATED = "already_authenticated"
    """A second ``hello`` on the same connection."""
    BAD_TOKEN = "bad_token"
    """A seat token that is not the token of any seat of this table."""
    SPECTATOR = "spectator"
    """An action, or a rematch vote, sent by a spectator."""
    NOT_STARTED = "not_started"
    """An action sent before every seat is filled."""
    GAME_OVER = "game_over"
    """An action sent after the game ended."""
    STALE_VERSION = "stale_version"
    """An action sent for another version of the state than the current one."""
    NOT_YOUR_TURN = "not_your_turn"
    """An action sent by a seat that is not the one to decide."""
    ILLEGAL_ACTION = "illegal_action"
    """An action the rules refuse now, or text that names no action."""
    SERVER_ERROR = "server_error"
    """Storage failed; nothing changed. Over HTTP also: a fault of the server's own (its log
    has the traceback)."""
    TABLE_UNAVAILABLE = "table_unavailable"
    """A table whose stored game cannot be rebuilt (damaged in the database; the log says why)."""
    SIGN_IN_REQUIRED = "sign_in_required"
    """A request that only a signed-in account may make (joining a rated table, "My games")."""
    ALREADY_SEATED = "already_seated"
    """A join by an account that already has a seat at the table."""
    NOT_INVITED = "not_invited"
    """A decline from an account for which no open seat of the table is kept."""
    UNKNOWN_TOURNAMENT = "unknown_tournament"
    """No tournament has that id."""
    TOURNAMENT_OVER = "tournament_over"
    """The tournament is finished or cancelled: nobody enters or withdraws any more."""
    TOURNAMENT_STARTED = "tournament_started"
    """The tournament has started already (or is over)."""
    NOT_CREATOR = "not_creator"
    """Only the tournament's creator may do that (start it early)."""
    NOT_ENTERED = "not_entered"
    """The account has not entered that tournament (or withdrew already)."""
    BOT_ACCOUNTS_NOT_ALLOWED = "bot_accounts_not_allowed"
    """The tournament's creator did not let bot accounts enter."""
    TOO_MANY_GAMES = "too_many_games"
    """A bot account that sits at as many unfinished tables as the server allows
    (``Settings.bot_account_games``) tried to take another seat; nothing changed."""
    TOO_MANY_INVITATIONS = "too_many_invitations"
    """A new table whose invitations would give its maker more open invitations than the
    server allows, in all or to one player; nothing was made."""
    NOT_SEATED = "not_seated"
    """A ``hello`` with ``account`` from a session (or an API token) whose account has no
    seat at the table."""
    BAD_API_TOKEN = "bad_api_token"
    """An ``Authorization: Bearer`` API token that is unknown or was revoked."""
    ALREADY_BOT = "already_bot"
    """Making a bot account of an account that is one already."""
    HAS_GAMES = "has_games"
    """Making a bot account of an account that has sat at a table: only a new one may."""
    NOT_A_BOT = "not_a_bot"
    """An API token asked for by an account that is not a bot account."""
    BAD_TOKEN_NAME = "bad_token_name"
    """An API token's name that is empty, too long or holds control characters."""
    TOO_MANY_TOKENS = "too_many_tokens"
    """A new API token for an account that holds as many as it may."""
    UNKNOWN_TOKEN = "unknown_token"
    """Revoking an API token the account has not got (or revoked already)."""
    BAD_USERNAME = "bad_username"
    """An account name that does not have the documented shape."""
    BAD_PASSWORD = "bad_password"
    """A new password too short or too long, or a wrong current password."""
    USERNAME_TAKEN = "username_taken"
    """A sign-up with an account name already taken (in any case)."""
    BAD_SIGN_IN = "bad_sign_in"
    """A sign-in with an unknown account name or a wrong password (one answer for both)."""
    TOO_MANY_SIGN_INS = "too_many_sign_ins"
    """Too many failed sign-ins for the account or from the address; wait and try again."""
    TOO_MANY_SIGN_UPS = "too_many_sign_ups"
    """Too many sign-ups from the address in a while; wait and try again (``Retry-After``)."""
    BUSY = "busy"
    """The server is checking as many passwords as it takes at once, or this address has as
    many checks waiting as it may: try again in a moment (``Retry-After``)."""
    TOO_MANY_SEARCH_BOTS = "too_many_search_bots"
    """A new table whose search bots (``expert``, ``ismcts``) would take the address's seats
    of search bots at unfinished tables over the server's limit."""
    UNKNOWN_PLAYER = "unknown_player"
    """No account or bot has that name."""
    NOT_READY = "not_ready"
    """``GET /readyz``: the server has not started, is stopping, or its database does not
    answer."""
    CHAT_BAD_TEXT = "chat_bad_text"
    """A chat message that is empty (once its outer spaces are removed), holds a control
    character (a line break among them) or one that reorders text, or shows nothing (only
    invisible characters: :func:`shows_nothing`)."""
    CHAT_TOO_LONG = "chat_too_long"
    """A chat message longer than :data:`CHAT_MAX` characters."""
    CHAT_RATE_LIMITED = "chat_rate_limited"
    """Too many chat messages in a short time from one seat, one account or one spectator's
    connection; the message was dropped."""
    CHAT_NOT_ALLOWED = "chat_not_allowed"
    """A chat message from a spectator at a table whose spectators may only read its chat."""
    NOT_PRACTICE = "not_practice"
    """A hint asked for at a table where another person is seated: hints are given only at
    practice tables, where every other seat is a bot's."""


class BadChat(ValueError):
    """A chat message refused by :func:`check_chat`, with the error code to answer."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        """:attr:`ErrorCode.CHAT_BAD_TEXT` or :attr:`ErrorCode.CHAT_TOO_LONG`."""


def check_chat(value: str) -> str:
    """A chat message as stored (NFC, outer spaces removed), or raise :class:`BadChat`."""
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        raise BadChat(ErrorCode.CHAT_BAD_TEXT, "a chat message must not be empty")
    if len(text) > CHAT_MAX:
        raise BadChat(ErrorCode.CHAT_TOO_LONG, f"a chat message has at most {CHAT_MAX} characters")
    for char in text:
        if char in _BIDI_CONTROLS or unicodedata.category(char) in _CHAT_REFUSED_CATEGORIES:
            raise BadChat(
                ErrorCode.CHAT_BAD_TEXT,
                f"a chat message must not hold the character U+{ord(char):04X}",
            )
    if shows_nothing(text):
        raise BadChat(
            ErrorCode.CHAT_BAD_TEXT,
            "a chat message must show something: this one holds only invisible characters",
        )
    return text


def check_name(value: str) -> str:
    """Normalize a display name (NFC, outer spaces removed) or raise ``ValueError``."""
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("a name must not be empty")
    if len(name) > NAME_MAX:
        raise ValueError(f"a name has at most {NAME_MAX} characters")
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or _invisible_in_name(char):
            raise ValueError(f"a name must not hold the character U+{ord(char):04X}")
    if shows_nothing(name):
        raise ValueError("a name must show something: this one holds only invisible characters")
    return name


class _Strict(BaseModel):
    """Base of client models: no unknown fields, no type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------- HTTP requests


class CreateTable(_Strict):
    """``POST /api/tables``: a new table."""

    game: str = Field(max_length=64)
    """The registered name of the game."""
    seats: list[Annotated[str, Field(max_length=32)]] = Field(min_length=1, max_length=16)
    """One entry per seat: ``open`` for a person, or a bot name or level."""
    options: dict[str, Any] = Field(default_factory=dict)
    """Rules options other than ``players`` (which is the number of seats)."""
    clock: float | None = Field(default=None, gt=0, le=86400)
    """Seconds a disconnected player's turn may wait before a bot stands in."""
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    """The deal's seed: accepted only by servers made with ``allow_seed=True``."""
    position: str | None = Field(default=None, max_length=MAX_POSITION_CHARS)
    """A position to start from instead of a deal (``docs/positions.md``): a practice table,
    one open seat and bots in the others. It names its own seed, so ``seed`` is left out."""
    rated: bool = False
    """Whether the game counts for ratings: only signed-in players may sit, and only a
    signed-in player may make such a table (never from a position)."""
    move_time: float | None = Field(default=None, ge=60, le=MOVE_TIME_MAX)
    """A game played over days: seconds each seat has for a decision, connected or not
    (a bot decides for a seat whose time ran out); ``None``: real time. Not with ``clock``."""
    spectator_chat: bool = False
    """Whether spectators may write in the table's chat (they always read it)."""
    invited: list[Annotated[str, Field(max_length=64)] | None] | None = Field(
        default=None, max_length=16
    )
    """For each seat, the username of the account its open seat is kept for, or ``None``
    (one entry per seat; needs a signed-in creator)."""


class JoinTable(_Strict):
    """``POST /api/tables/{id}/join``: take an open seat."""

    name: str | None = Field(default=None, max_length=200)
    """The display name (checked by :func:`check_name`); a signed-in player's is their
    username, and a guest must give one."""
    seat: int | None = Field(default=None, ge=0)
    """The seat wanted; the first open seat when left out."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else check_name(value)


class StartTutorial(_Strict):
    """``POST /api/learn``: a guided first game of a game, with its learner seated."""

    game: str = Field(max_length=64)
    """The registered name of the game (one with a guided first game)."""
    name: str | None = Field(default=None, max_length=200)
    """The learner's display name (checked by :func:`check_name`); a signed-in player's is
    their username, and a guest must give one."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else check_name(value)


# ---------------------------------------------------------------- HTTP responses


class SeatInfo(BaseModel):
    """One seat as everyone may see it."""

    seat: int
    """The seat number, from 0."""
    kind: Literal["open", "human", "bot"]
    """``open`` until someone joins, then ``human``; or ``bot``."""
    name: str | None
    """The player's display name, or the bot's name."""
    connected: bool
    """Whether the seat's player has a live connection (bots: always)."""
    stand_in: bool
    """Whether a bot is playing for this absent player (turn clock)."""
    account: bool = False
    """Whether a signed-in account sits here (``name`` is its username: its profile's name)."""
    invited: bool = False
    """Whether this open seat is kept for an invited account (``name`` is its username)."""
    bot_account: bool = False
    """Whether the account sitting here is a bot account, played by a program through the API
    (docs/protocol.md, "Bots from outside")."""


class TableInfo(BaseModel):
    """A table in the lobby."""

    id: str
    """The table's id, used in every route."""
    game: str
    """The registered name of the game."""
    title: str
    """The game's title for people."""
    players: int
    """The number of seats."""
    options: dict[str, Any]
    """Every rules option, defaults included."""
    clock: float | None
    """The turn clock in seconds, or ``None``."""
    status: Literal["waiting", "playing", "finished", "abandoned", "unavailable"]
    """``waiting`` for players, ``playing``, ``finished``, ``abandoned`` (nobody came back to
    it for ``Settings.abandon_after``: ended without a result), or ``unavailable``: its stored
    game cannot be rebuilt (its routes answer ``table_unavailable``; its seats are not shown)."""
    version: int
    """The number of actions played so far."""
    seats: list[SeatInfo]
    """Every seat, in order."""
    from_position: bool = False
    """Whether the game started from a position (a practice table) rather than a deal. The
    position itself is never sent while the game goes on: it holds every hidden card."""
    rated: bool = False
    """Whether the table was made to count for ratings (one whose hints were used never does)."""
    hints_used: bool = False
    """Whether a player took a hint at this table: its result then changes no rating."""
    move_time: float | None = None
    """Seconds per decision of a game played over days, or ``None`` (real time)."""
    deadline: float | None = None
    """For a game over days, when the seat to move must have decided (Unix time)."""
    spectator_chat: bool = False
    """Whether spectators may write in the chat."""
    rematch_of: str | None = None
    """The table this one is a rematch of."""
    rematch: str | None = None
    """The rematch opened from this table, once every seated player agreed."""
    tutorial: bool = False
    """Whether it is a guided first game (``POST /api/learn``): the game's fixed deal, the
    learner's seat and bots, with lessons sent to the learner (never rated)."""


class Joined(BaseModel):
    """The answer to a join: the seat and its secret token."""

    table: TableInfo
    """The table after joining."""
    seat: int
    """The seat taken."""
    token: str
    """The seat's token: keep it secret; it is shown once and stored only hashed."""


class ErrorBody(BaseModel):
    """An error: a stable code and a message for people."""

    code: ErrorCode
    """One of :class:`ErrorCode`."""
    message: str
    """What was wrong."""


def error_body(code: ErrorCode, message: str, **details: Any) -> dict[str, Any]:
    """The body of every refused HTTP request: ``{"error": {"code": ..., "message": ...}}``.

    ``details`` add fields of their own to ``error`` (``bad_position``: ``field`` and
    ``reason``).
    """
    return {"error": {"code": code.value, "message": message, **details}}


def not_json(exc: ValueError) -> str:
    """Why text the server read is not JSON it takes, for a client: ``not JSON: ...``.

    Python refuses to read an integer of more than ``sys.get_int_max_str_digits()`` digits
    (4,300 by default: converting longer ones takes quadratic time) with a ``ValueError``
    that tells the reader to change a setting of the server; the client is told instead
    what was wrong with its text.
    """
    if "integer string conversion" in str(exc):
        return f"not JSON: a number has more than {sys.get_int_max_str_digits()} digits"
    if isinstance(exc, UnicodeDecodeError):
        return f"not JSON: not UTF-8 text ({exc.reason} at byte {exc.start})"
    return f"not JSON: {exc}"


# ---------------------------------------------------------------- WebSocket: client


class Hello(_Strict):
    """The first message of a connection: a seat token, or none to watch."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=TOKEN_MAX)
    """The seat token from the join; ``None`` (or left out) to spectate."""
    lang: Lang = "en"
    """The language of the words in ``state`` messages (``label``, ``lines``)."""
    account: bool = False
    """Take the seat of the account signed in with the connection's session cookie instead
    of giving a token (the page of a signed-in player)."""


class Act(_Strict):
    """An action, by id or by text form, for the version the client has seen."""

    type: Literal["action"]
    version: int = Field(ge=0)
    """The ``version`` of the last ``state`` message the client acted on."""
    action: int | None = Field(default=None, ge=0)
    """The action id (one of ``legal``); or give ``text`` instead."""
    text: str | None = Field(default=None, max_length=100)
    """The action's text form, such as ``raise Oil 5``."""


class Ping(_Strict):
    """Asks for a ``pong``: a cheap check that the connection is alive."""

    type: Literal["ping"]


class Say(_Strict):
    """A chat message written at the table (checked by :func:`check_chat` when heard)."""

    type: Literal["chat"]
    text: str = Field(max_length=4096)
    """What was typed: at most :data:`CHAT_MAX` characters once its outer spaces are gone."""


class RematchVote(_Strict):
    """A seated player offers a rematch of the finished game, or accepts the offer."""

    type: Literal["rematch"]


class AskHint(_Strict):
    """A seated player at a practice table asks what the analysis would do now."""

    type: Literal["hint"]
    version: int = Field(ge=0)
    """The ``version`` of the ``state`` message whose decision the hint is for."""


AnyClientMessage = Hello | Act | Ping | Say | RematchVote | AskHint
"""The union of the client messages."""

ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
"""Any message a client may send."""

CLIENT_MESSAGE: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)
"""Validates a decoded client message."""


# ---------------------------------------------------------------- WebSocket: server


class LegalAction(BaseModel):
    """A legal action with its text form."""

    id: int
    """The action id to send back."""
    text: str
    """The text form (the notation, in English)."""
    label: str | None = None
    """The action in words, in the connection's language (the terminal's wording)."""


class LastAction(BaseModel):
    """The action that made this version, as far as the recipient may know it."""

    seat: int
    """The seat that acted."""
    id: int | None
    """The action id; ``None`` for a secret choice of another seat."""
    text: str | None
    """Its text form; ``None`` for a secret choice of another seat."""
    by: Literal["player", "bot", "stand_in"]
    """Who chose it: the seat's player, its bot, or a bot standing in for an absent player."""
    secret: bool = False
    """Whether it answered a secret decision (a Market Downturn discard, options exercised):
    only the acting seat is told which action it was; the log reveals the rest in time."""

    def seen_by(self, seat: int | None) -> LastAction:
        """The action as ``seat`` may know it (``None``: a spectator)."""
        if not self.secret or seat == self.seat:
            return self
        return LastAction(seat=self.seat, id=None, text=None, by=self.by, secret=True)


class Result(BaseModel):
    """The end of a game."""

    scores: list[int]
    """Each seat's final score."""
    winners: list[int]
    """The seats in first place."""


class Welcome(BaseModel):
    """The answer to ``hello``: who the connection is; a ``state`` follows."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    """The protocol version."""
    table: TableInfo
    """The table."""
    seat: int | None
    """The connection's seat; ``None`` for a spectator."""


class StateMessage(BaseModel):
    """The table after a change, as the recipient may see it."""

    type: Literal["state"] = "state"
    table_id: str
    """The table's id."""
    version: int
    """The state version: send it back with an action."""
    status: Literal["waiting", "playing", "finished", "abandoned"]
    """The table's status."""
    seat: int | None
    """The recipient's seat (``None``: spectator)."""
    current_player: int | None
    """The seat that must decide (``None`` before the start and after the end)."""
    decision: str | None
    """The name of the pending decision."""
    view: dict[str, Any] | None
    """The recipient's view (``state.view(seat).to_dict()``), ``None`` while waiting."""
    legal: list[LegalAction]
    """The recipient's legal actions: empty unless it must decide."""
    events: list[dict[str, Any]]
    """The log entries the recipient may read that it has not been sent yet."""
    first_event: int
    """The index of ``events[0]`` in the recipient's whole list (0: a fresh list)."""
    lines: list[str | None] = Field(default_factory=list)
    """Each of ``events`` in words, in the connection's language (``None``: nothing to say)."""
    last_action: LastAction | None
    """The action that made this version, when there is one."""
    result: Result | None
    """The final result once the game is over."""
    seats: list[SeatInfo]
    """Every seat."""
    deadline: float | None = None
    """For a game over days, when the seat to move must have decided (Unix time)."""
    time_left: float | None = None
    """For a game over days, the seconds the seat to move had left when this was sent
    (counted by the server's clock, so that a client whose clock is wrong counts right)."""
    deciding_for: float | None = None
    """Seconds the seat to move had been deciding when this was sent (a bot: thinking),
    to a tenth; ``None`` unless the game is being played."""


class SeatsMessage(BaseModel):
    """Someone connected, disconnected, or a bot stood in or down: the seats now."""

    type: Literal["seats"] = "seats"
    version: int
    """The state version (unchanged by presence)."""
    seats: list[SeatInfo]
    """Every seat."""


class ErrorMessage(BaseModel):
    """A refused message; nothing changed."""

    type: Literal["error"] = "error"
    code: ErrorCode
    """One of :class:`ErrorCode`."""
    message: str
    """What was wrong."""
    version: int | None = None
    """The current state version, when the table is known."""


class Pong(BaseModel):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


class ChatEntry(BaseModel):
    """One chat message: only what someone typed, and who and when."""

    id: int
    """Its number, increasing with each message of the database (messages sort by it)."""
    seat: int | None
    """The writer's seat, or ``None`` for a spectator."""
    name: str | None
    """The writer's name at the time (the seat's name), or ``None`` for a spectator."""
    account: bool = False
    """Whether the writer sat as a signed-in account (``name`` is then its username, its
    profile's name); ``False`` for a guest or a spectator."""
    bot_account: bool = False
    """Whether that account is a bot account (a program plays for it)."""
    text: str
    """What was written (plain text, never markup)."""
    time: float
    """When it was written (Unix time)."""


class ChatMessage(BaseModel):
    """Chat messages: the latest ones after ``hello``, then each new one as it is written."""

    type: Literal["chat"] = "chat"
    messages: list[ChatEntry]
    """The messages, oldest first."""
    history: bool = False
    """Whether these are the latest messages sent after ``hello`` (else: just written)."""


class RematchMessage(BaseModel):
    """A finished table's rematch: who offered and accepted it, and the new table once open."""

    type: Literal["rematch"] = "rematch"
    votes: list[int]
    """The seats that agreed, in the order they did (the first offered the rematch); bots
    agree without voting and are not listed."""
    table: str | None
    """The id of the new table once every seated person agreed, else ``None``."""


class HintValue(BaseModel):
    """What one legal action is worth to the seat asking for a hint."""

    id: int
    """The action id (one of ``legal``)."""
    text: str
    """The text form (the notation, in English)."""
    label: str | None
    """The action in words, in the connection's language (as ``legal[].label``)."""
    margin: float
    """The mean final margin after it: the seat's score minus the best other score."""
    margin_interval: list[float]
    """The 95% interval of ``margin``: ``[low, high]``."""
    win: float
    """The chance of winning after it, from 0 to 1 (a shared first place counts its share)."""
    win_interval: list[float]
    """The 95% interval of ``win``, within 0 and 1."""
    behind: float
    """How much less final margin it gives than the preferred action (0 for that one)."""
    behind_interval: list[float]
    """The 95% interval of ``behind``, paired world by world."""


class HintMessage(BaseModel):
    """The answer to ``hint``, for the asking connection only: the analysis of its decision."""

    type: Literal["hint"] = "hint"
    version: int
    """The state version whose decision was analysed."""
    seat: int
    """The seat that decides."""
    worlds: int
    """How many worlds consistent with the seat's view the analysis dealt."""
    best: HintValue
    """The action the analysis prefers, with what it is worth."""
    reason: str | None = None
    """Why it is preferred, in a sentence in the connection's language (``None``: no
    sentence yet)."""
    actions: list[HintValue]
    """Every legal action, the preferred one first, by mean final margin."""


class LessonEntry(BaseModel):
    """One lesson of a guided game, fired by what the learner saw happen."""

    lesson: str
    """The lesson's id (``first_raise``): the same in every language."""
    title: str
    """A few words naming it, in the connection's language."""
    happened: str | None
    """What just happened, in one sentence."""
    explanation: str
    """The rule or the idea behind it, in a few sentences."""
    version: int
    """The version whose action brought it (0: the deal)."""
    event: int | None
    """The index, in the learner's whole event list, of the event that brought it (show
    the lesson after it); ``None`` when the learner's view did (after the action's events)."""


class LessonSummary(BaseModel):
    """A lesson whose moment never came in the game: its title and explanation only."""

    lesson: str
    """The lesson's id."""
    title: str
    """A few words naming it, in the connection's language."""
    explanation: str
    """The rule or the idea, in a few sentences."""


class LessonsMessage(BaseModel):
    """A guided game's lessons, sent to the learner's connections only."""

    type: Literal["lessons"] = "lessons"
    lessons: list[LessonEntry]
    """The lessons, in the order to show them."""
    history: bool = False
    """Whether these are every lesson of the game so far, sent after ``hello`` (else: the
    ones the last actions just brought)."""
    missed: list[LessonSummary] | None = None
    """Once the game is over, the lessons whose moment never came (maybe none); ``None``
    while it goes on."""
