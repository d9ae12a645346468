"""Checks every field of every message a client of the web server receives.

A :class:`Game` holds what the test knows of a finished table: each version's full state,
who made each action, the seats, the names and the languages of the connections. Each
message a connection received is then rebuilt field by field from what its recipient may
read: the rules engine's view for that seat, the log as that seat may read it, the words a
narrator in the connection's language gives them, and public facts (versions, whose turn,
seats). Message types and their keys are fixed here, not taken from the server's models,
so that a field the server adds fails the check until it is added here, on purpose.

An action is told to a recipient other than its actor only when that recipient could
have told it apart, from what it sees, from every other legal choice of the moment
(:func:`could_tell`): an independent reading of "others see what the log shows them",
which does not rely on the server's list of secret decisions.

A finished game's record is public, so what is derived from it may be sent: a seat's review
is rebuilt here from the record's states alone, each decision analysed from the seat's view
(``check_review``), and a seat's replay from its views (``check_seat_replay``); neither may
hold anything else.

A table may start from a position (``docs/positions.md``): its text holds every hidden card,
so no message may hold it, nor any of its fields' text; the messages are rebuilt from the
states that follow from the position.

A ``hint`` goes to the player of a practice table only, for their own decision, and is
rebuilt whole from that seat's view: the analysis of the view on the hints' budget and seed
(:func:`closingbell.bots.hints.hint`, which reads nothing else), each action in the
narrator's words, the figures rounded as docs/protocol.md says.

A guided first game (``POST /api/learn``) sends its learner ``lessons`` messages: they are
rebuilt from the learner's views and the events the learner may read, by a guide of the
test's own, in the connection's language, and any other connection that gets one fails.
Its deal is public (closingbell's source holds it), so its seed may appear in messages.

A tournament's answers (``check_tournament``) hold its entrants' names, points and table
ids, each table's points only once it is over, and nothing of any game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from closingbell.bots.analysis import ActionValue, Analyst, DecisionAnalysis
from closingbell.bots.hints import HINT_WORLDS, hint
from closingbell.core.game import Game as RulesGame
from closingbell.core.game import State
from closingbell.core.view import View
from closingbell.learn import Fired, Guide, Tutorial
from closingbell.text.games import narrator_class
from closingbell.text.hints import hint_reason
from closingbell.text.lessons import LessonWords, lesson_words
from closingbell.text.names import bot_labels
from closingbell.text.narrator import Narrator
from closingbell.text.review import review_data
from tests.conformance.common import could_tell

STATE_KEYS = frozenset(
    {
        "type",
        "table_id",
        "version",
        "status",
        "seat",
        "current_player",
        "decision",
        "view",
        "legal",
        "events",
        "first_event",
        "lines",
        "last_action",
        "result",
        "seats",
        "deadline",
        "time_left",
        "deciding_for",
    }
)
WELCOME_KEYS = frozenset({"type", "protocol", "table", "seat"})
SEATS_KEYS = frozenset({"type", "version", "seats"})
TABLE_KEYS = frozenset(
    {
        "id",
        "game",
        "title",
        "players",
        "options",
        "clock",
        "status",
        "version",
        "seats",
        "from_position",
        "rated",
        "move_time",
        "deadline",
        "spectator_chat",
        "rematch_of",
        "rematch",
        "hints_used",
        "tutorial",
    }
)
SEAT_KEYS = frozenset(
    {"seat", "kind", "name", "connected", "stand_in", "account", "invited", "bot_account"}
)
CHAT_KEYS = frozenset({"type", "messages", "history"})
CHAT_ENTRY_KEYS = frozenset({"id", "seat", "name", "account", "bot_account", "text", "time"})
REMATCH_KEYS = frozenset({"type", "votes", "table"})
LEGAL_KEYS = frozenset({"id", "text", "label"})
REVIEW_ANSWER_KEYS = frozenset(
    {"table_id", "seat", "status", "done", "total", "seconds_left", "review"}
)
REVIEW_KEYS = frozenset(
    {"game", "seat", "name", "budget", "seed", "scores", "decisions", "mistakes"}
)
DECISION_KEYS = frozenset({"index", "taken", "best", "mistake", "checked", "actions"})
VALUE_KEYS = frozenset(
    {
        "action",
        "label",
        "margin",
        "margin_interval",
        "win",
        "win_interval",
        "behind",
        "behind_interval",
    }
)
STEP_KEYS = frozenset({"index", "action", "view", "events", "lines"})
STEP_ACTION_KEYS = frozenset({"seat", "id", "text", "label"})
LAST_ACTION_KEYS = frozenset({"seat", "id", "text", "by", "secret"})
HINT_KEYS = frozenset({"type", "version", "seat", "worlds", "best", "reason", "actions"})
HINT_VALUE_KEYS = frozenset(
    {
        "id",
        "text",
        "label",
        "margin",
        "margin_interval",
        "win",
        "win_interval",
        "behind",
        "behind_interval",
    }
)
LESSONS_KEYS = frozenset({"type", "lessons", "history", "missed"})
LESSON_KEYS = frozenset({"lesson", "title", "happened", "explanation", "version", "event"})
MISSED_KEYS = frozenset({"lesson", "title", "explanation"})


class Leak(AssertionError):
    """A message said something its recipient may not know, or something untrue."""


BOT_MARK = {"en": "BOT", "zh-Hant": "機器人"}
"""The mark before a bot account's name in each language (docs/web.md)."""


def require(condition: bool, what: str) -> None:
    """Raise :class:`Leak` saying ``what`` unless ``condition`` holds."""
    if not condition:
        raise Leak(what)


@dataclass
class Game:
    """What the test knows of one table, to check the messages of its connections."""

    game: RulesGame
    table_id: str
    states: list[State]
    """The full state at each version (``states[v]`` after ``v`` actions)."""
    kinds: list[str]
    """Each seat's kind once the game started: ``human`` or ``bot``."""
    names: list[str | None]
    """Each seat's name as seat infos give it (display name, or the bot's name)."""
    seed: int
    tokens: dict[int, str]
    """The seat tokens handed out, by seat."""
    position: str | None = None
    """The position the table started from (its canonical text), or ``None``: a deal."""
    move_time: float | None = None
    """The time per move of a game over days, or ``None``: real time."""
    said: list[tuple[int | None, str]] = field(default_factory=list)
    """Every chat message written at the table: the writer's seat (``None``: a spectator)
    and the text as typed."""
    spectator_chat: bool = False
    """Whether the table lets spectators write in its chat."""
    accounts: frozenset[int] = frozenset()
    """The seats where signed-in accounts sat (their names are marked in the chat)."""
    bot_accounts: frozenset[int] = frozenset()
    """Those of ``accounts`` that are bot accounts (marked as bots wherever named)."""
    rated: bool = False
    """Whether the table's game counts for the ratings."""
    clock: float | None = None
    """The table's seconds a turn (a tournament's tables have one), or ``None``."""
    secrets: tuple[str, ...] = ()
    """Other texts no message may hold: the API tokens and session cookies of its players."""
    votes: list[int] = field(default_factory=list)
    """The seats that voted for a rematch, in order."""
    rematch: str | None = None
    """The rematch's table id, once every person voted."""
    hinted: bool = False
    """Whether a player asked for a hint at the table."""
    _tell: dict[tuple[int, int | None], bool] = field(default_factory=dict)
    _narrators: dict[str, Narrator] = field(default_factory=dict)
    _hints: dict[tuple[int, int, str | None], dict[str, Any]] = field(default_factory=dict)
    _reviews: dict[tuple[int, int, int], dict[int, DecisionAnalysis]] = field(default_factory=dict)
    tutorial: Tutorial | None = None
    """The guided first game the table deals, or ``None``: an ordinary table."""
    _lessons: list[tuple[int, Fired, int | None]] | None = None

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.kinds)

    def names_in(self, lang: str) -> list[str]:
        """What the server calls each seat in ``lang``.

        A bot is its level in ``lang`` and its seat from 1 (docs/protocol.md: "Medium 2",
        普通電腦 2), as the page names it too; a bot account is its name after the bot mark
        ("BOT robo", 機器人 robo).
        """
        labels = bot_labels(lang)
        mark = BOT_MARK[lang]
        return [
            f"{labels[name]} {p + 1}"
            if kind == "bot" and name
            else f"{mark} {name}"
            if p in self.bot_accounts
            else (name or f"#{p + 1}")
            for p, (kind, name) in enumerate(zip(self.kinds, self.names, strict=True))
        ]

    def narrator(self, lang: str) -> Narrator:
        """The game's narrator in ``lang``, with the names the server gives the seats."""
        if lang not in self._narrators:
            factory = narrator_class(self.game.info.name)
            assert factory is not None
            self._narrators[lang] = factory(self.game, self.names_in(lang), lang)
        return self._narrators[lang]

    def lessons(self) -> list[tuple[int, Fired, int | None]]:
        """Every lesson of the guided game: the version that brought it, the lesson and its
        fields, and the event's index in the learner's whole list (``None``: the view's).

        A guide of the test's own, given the learner's views and the events the learner
        may read after the deal and after each action, and nothing else.
        """
        if self._lessons is None:
            assert self.tutorial is not None
            seat = self.tutorial.seat
            guide = Guide(self.tutorial, self.game)
            found: list[tuple[int, Fired, int | None]] = []
            seen = 0
            for version, state in enumerate(self.states):
                start = 0 if version == 0 else len(self.states[version - 1].log)
                events = state.visible_events(seat, start)
                for fired in guide.observe(state.view(seat), events):
                    found.append(
                        (version, fired, None if fired.event is None else seen + fired.event)
                    )
                seen += len(events)
            self._lessons = found
        return self._lessons

    def lesson_words(self, lang: str) -> LessonWords:
        """The lessons' words in ``lang``, for the learner."""
        assert self.tutorial is not None
        return lesson_words(self.narrator(lang), self.tutorial.seat)

    def may_tell(self, version: int, seat: int | None) -> bool:
        """Whether the action that made ``version`` may be told to ``seat``."""
        key = (version, seat)
        if key not in self._tell:
            before = self.states[version - 1]
            action = self.states[version].history[-1]
            self._tell[key] = before.current_player == seat or could_tell(before, action, seat)
        return self._tell[key]


@dataclass
class Stream:
    """One connection's messages, in the order received."""

    seat: int | None
    lang: str | None
    raw: list[str]
    messages: list[dict[str, Any]]


def check_seats(game: Game, seats: Any, started: bool) -> None:
    """Every seat as everyone may see it: presence, names and kinds, nothing else."""
    require(isinstance(seats, list) and len(seats) == game.players, f"seats: {seats!r}")
    for p, info in enumerate(seats):
        require(isinstance(info, dict) and set(info) == SEAT_KEYS, f"seat {p}: keys {info!r}")
        require(info["seat"] == p, f"seat {p}: number {info['seat']!r}")
        kind = game.kinds[p]
        if started:
            require(info["kind"] == kind, f"seat {p}: kind {info['kind']!r}")
        require(info["kind"] in (kind, "open"), f"seat {p}: kind {info['kind']!r}")
        name = game.names[p] if info["kind"] != "open" else None
        require(info["name"] == name, f"seat {p}: name {info['name']!r}")
        require(type(info["connected"]) is bool, f"seat {p}: connected {info['connected']!r}")
        require(info["stand_in"] is False, f"seat {p}: stand_in {info['stand_in']!r}")
        # The games checked here seat guests, bots and maybe accounts; no invitation.
        account = p in game.accounts and info["kind"] != "open"
        require(info["account"] is account, f"seat {p}: account {info['account']!r}")
        require(info["invited"] is False, f"seat {p}: invited {info['invited']!r}")
        bot_account = p in game.bot_accounts and info["kind"] != "open"
        require(
            info["bot_account"] is bot_account, f"seat {p}: bot_account {info['bot_account']!r}"
        )


def check_table_info(game: Game, table: Any) -> None:
    """A table as the lobby shows it."""
    require(isinstance(table, dict) and set(table) == TABLE_KEYS, f"table keys: {table!r}")
    require(table["id"] == game.table_id, f"table id {table['id']!r}")
    require(table["game"] == game.game.info.name, f"game {table['game']!r}")
    require(table["title"] == game.game.info.title, f"title {table['title']!r}")
    require(table["players"] == game.players, f"players {table['players']!r}")
    require(table["options"] == game.game.options_dict(), f"options {table['options']!r}")
    require(table["clock"] == game.clock, f"clock {table['clock']!r}")
    version = table["version"]
    require(type(version) is int and 0 <= version < len(game.states), f"version {version!r}")
    finished = game.states[version].is_terminal()
    require(
        table["status"] == "finished" if finished else table["status"] in ("waiting", "playing"),
        f"status {table['status']!r} at version {version}",
    )
    check_seats(game, table["seats"], table["status"] != "waiting")
    from_position = game.position is not None
    require(table["from_position"] is from_position, f"from_position {table['from_position']!r}")
    require(table["rated"] is game.rated, f"rated {table['rated']!r}")
    hints_used = table["hints_used"]
    require(hints_used is False or (hints_used is True and game.hinted), f"hints {hints_used!r}")
    require(
        table["spectator_chat"] is game.spectator_chat,
        f"spectator_chat {table['spectator_chat']!r}",
    )
    for name in ("rematch_of", "rematch"):
        require(table[name] is None, f"{name} {table[name]!r}")
    tutorial = game.tutorial is not None
    require(table["tutorial"] is tutorial, f"tutorial {table['tutorial']!r}")
    require(table["move_time"] == game.move_time, f"move_time {table['move_time']!r}")
    deadline = table["deadline"]
    if game.move_time is None or table["status"] != "playing":
        require(deadline is None, f"deadline {deadline!r}")
    else:
        require(isinstance(deadline, float), f"deadline {deadline!r}")


SUMMARY_KEYS = frozenset(
    {
        "id",
        "kind",
        "name",
        "game",
        "options",
        "table_size",
        "rounds",
        "minutes",
        "clock",
        "rated",
        "bots",
        "bot_accounts",
        "status",
        "round",
        "starts_at",
        "round_at",
        "ends_at",
        "finished_at",
        "entrants",
    }
)
STANDING_KEYS = frozenset(
    {
        "place",
        "name",
        "bot",
        "bot_account",
        "score",
        "tiebreak",
        "games",
        "byes",
        "absences",
        "withdrawn",
        "paused",
    }
)
TOURNAMENT_TABLE_KEYS = frozenset({"table", "status", "seats", "points"})
YOU_KEYS = frozenset({"entered", "paused", "table", "may_enter", "creator"})
TOURNAMENT_ENTRY_KEYS = frozenset(
    {"id", "name", "kind", "game", "place", "entrants", "score", "finished_at"}
)
"""The fields of a tournament's answers (docs/protocol.md, "Tournaments")."""


def check_tournament_summary(summary: Any) -> None:
    """A tournament as lists show it: its facts, nothing of its tables."""
    require(isinstance(summary, dict) and set(summary) == SUMMARY_KEYS, f"summary: {summary!r}")


def check_tournament(game: Game, body: Any, entrants: dict[str, Any]) -> None:
    """One ``GET /api/tournaments/{id}`` answer: names, points and table ids, nothing more.

    ``entrants`` maps each entrant's name to its ``(bot, bot_account)``. The table of the
    round is ``game``'s: its points come only once it is over.
    """
    require(
        isinstance(body, dict) and set(body) == {"tournament", "standings", "rounds", "you", "now"},
        f"tournament keys: {body!r}",
    )
    check_tournament_summary(body["tournament"])
    for line in body["standings"]:
        require(set(line) == STANDING_KEYS, f"standing keys: {sorted(line)}")
        require(entrants.get(line["name"]) == (line["bot"], line["bot_account"]), f"line {line}")
    for r in body["rounds"]:
        require(set(r) == {"round", "tables"}, f"round keys: {sorted(r)}")
        for table in r["tables"]:
            require(set(table) == TOURNAMENT_TABLE_KEYS, f"table keys: {sorted(table)}")
            require(table["table"] == game.table_id, f"table {table['table']!r}")
            for seat in table["seats"]:
                require(set(seat) == {"name", "bot", "bot_account"}, f"seat keys: {seat}")
                require(entrants.get(seat["name"]) == (seat["bot"], seat["bot_account"]), f"{seat}")
            over = table["status"] == "finished"
            require(table["points"] is None or over, f"points before the end: {table}")
    you = body["you"]
    require(you is None or set(you) == YOU_KEYS, f"you: {you!r}")
    require(you is None or you["table"] in (None, game.table_id), f"you: {you!r}")


HIDDEN_FIELDS = frozenset({"hands", "draw", "aside", "events"})
"""Fields of the games' positions that hold hidden cards (hands, piles face down)."""


def position_parts(position: str) -> list[str]:
    """The text of a position and of its hidden fields' values, to look for in a message.

    A value too short to tell apart from ordinary text is left out: the field-by-field
    rebuild of every message covers it.
    """
    parts = [position]
    for text in position.split(";"):
        name, _, value = text.partition(":")
        value = value.strip()
        if name.strip() not in HIDDEN_FIELDS:
            continue
        for piece in [value, *(p.strip() for p in value.split("/"))]:
            if len(piece) >= 8:
                parts.append(piece)
    return parts


def expected_last_action(game: Game, version: int, seat: int | None) -> list[Any]:
    """The forms of the last action that ``seat`` may be sent at ``version``."""
    if version == 0:
        return [None]
    before = game.states[version - 1]
    actor = before.current_player
    assert actor is not None
    action = game.states[version].history[-1]
    by = "bot" if game.kinds[actor] == "bot" else "player"
    secret = before.choice_is_secret()
    hidden = {"seat": actor, "id": None, "text": None, "by": by, "secret": True}
    full = {
        "seat": actor,
        "id": action,
        "text": game.game.action_to_string(action),
        "by": by,
        "secret": secret,
    }
    if seat == actor:
        return [full]
    if game.may_tell(version, seat):
        return [full, hidden]
    return [hidden]


def check_state(game: Game, stream: Stream, message: dict[str, Any], sent: int) -> int:
    """Check a ``state`` message; return how many events the connection has been sent."""
    seat, lang = stream.seat, stream.lang
    require(set(message) == STATE_KEYS, f"state keys: {sorted(message)}")
    require(message["table_id"] == game.table_id, f"table_id {message['table_id']!r}")
    require(message["seat"] == seat, f"seat {message['seat']!r} for seat {seat}")
    version = message["version"]
    require(type(version) is int and 0 <= version < len(game.states), f"version {version!r}")
    state = game.states[version]
    status = message["status"]
    if state.is_terminal():
        require(status == "finished", f"status {status!r} after the end")
    else:
        require(status == "playing" or (status == "waiting" and version == 0), f"status {status}")
    require(message["first_event"] == sent, f"first_event {message['first_event']} != {sent}")
    check_seats(game, message["seats"], status != "waiting")
    if status == "waiting":
        for key, value in (
            ("view", None),
            ("current_player", None),
            ("decision", None),
            ("legal", []),
            ("events", []),
            ("lines", []),
            ("last_action", None),
            ("result", None),
            ("deadline", None),
            ("time_left", None),
            ("deciding_for", None),
        ):
            require(message[key] == value, f"{key} {message[key]!r} while waiting")
        return sent
    view = state.view(seat)
    require(message["view"] == view.to_dict(), f"view of seat {seat} at version {version}")
    require(message["current_player"] == state.current_player, "current_player")
    decision = state.decision if status == "playing" else None
    require(message["decision"] == decision, f"decision {message['decision']!r}")
    narrator = game.narrator(lang) if lang is not None else None
    legal: list[dict[str, Any]] = []
    if status == "playing" and seat is not None and seat == state.current_player:
        legal = [
            {
                "id": a,
                "text": game.game.action_to_string(a),
                "label": None if narrator is None else narrator.describe_action(view, a),
            }
            for a in view.legal_actions  # type: ignore[attr-defined]
        ]
    require(message["legal"] == legal, f"legal for seat {seat} at version {version}")
    visible = state.visible_events(seat)
    require(message["events"] == visible[sent:], f"events {sent}: of seat {seat} at {version}")
    lines = [] if narrator is None else [narrator.describe_event(e) for e in visible[sent:]]
    require(message["lines"] == lines, f"lines of seat {seat} at version {version}")
    allowed = expected_last_action(game, version, seat)
    require(
        message["last_action"] in allowed,
        f"last_action {message['last_action']!r} for seat {seat} at version {version}: "
        f"may be one of {allowed!r}",
    )
    result = None
    if status == "finished":
        result = {"scores": state.scores(), "winners": state.winners()}
    require(message["result"] == result, f"result {message['result']!r} at version {version}")
    check_deadline(game, message)
    check_deciding(message)
    return len(visible)


def check_deciding(message: dict[str, Any]) -> None:
    """How long the seat to move has been deciding: a time, while the game is played only."""
    deciding = message["deciding_for"]
    if message["status"] != "playing":
        require(deciding is None, f"deciding_for {deciding!r} once {message['status']}")
        return
    require(isinstance(deciding, float) and deciding >= 0, f"deciding_for {deciding!r}")


def check_deadline(game: Game, message: dict[str, Any]) -> None:
    """A game over days being played: its seat to move's deadline and time left, else none."""
    deadline, left = message["deadline"], message["time_left"]
    if game.move_time is None or message["status"] != "playing":
        require(deadline is None and left is None, f"deadline {deadline!r}, time left {left!r}")
        return
    require(isinstance(deadline, float), f"deadline {deadline!r}")
    require(isinstance(left, float) and 0 <= left <= game.move_time, f"time left {left!r}")


def check_raw(game: Game, raw: str) -> None:
    """Neither the seed nor the position (nor a hidden field of it) is in ``raw``."""
    # The seed would reveal every shuffle, the position every hidden card. (A guided first
    # game's deal is public: its seed is in closingbell's source.)
    if game.tutorial is None:
        require(str(game.seed) not in raw, "the seed was sent")
    if game.position is not None:
        for part in position_parts(game.position):
            require(part not in raw, f"the position's text {part[:40]!r} was sent")
    for secret in game.secrets:
        require(secret not in raw, f"a token or cookie {secret[:6]!r}... was sent")


def check_message(
    game: Game, stream: Stream, raw: str, message: Any, sent: int, *, version: int | None = None
) -> int:
    """Check one message (``raw`` as received); return how many events have been sent.

    ``version`` is that of the last ``state`` the connection received before it (``None``:
    the game's last).
    """
    # Another seat's token would let one act for it.
    check_raw(game, raw)
    for other, token in game.tokens.items():
        require(other == stream.seat or token not in raw, f"seat {other}'s token was sent")
    require(isinstance(message, dict), f"a message that is not an object: {message!r}")
    kind = message.get("type")
    if kind == "state":
        return check_state(game, stream, message, sent)
    if kind == "welcome":
        require(set(message) == WELCOME_KEYS, f"welcome keys: {sorted(message)}")
        require(message["protocol"] == 1, f"protocol {message['protocol']!r}")
        require(message["seat"] == stream.seat, f"welcome seat {message['seat']!r}")
        check_table_info(game, message["table"])
    elif kind == "seats":
        require(set(message) == SEATS_KEYS, f"seats keys: {sorted(message)}")
        version = message["version"]
        require(type(version) is int and 0 <= version < len(game.states), "seats version")
        check_seats(game, message["seats"], True)
    elif kind == "chat":
        check_chat(game, message)
    elif kind == "rematch":
        check_rematch(game, message)
    elif kind == "hint":
        check_hint(game, stream, message)
    elif kind == "lessons":
        check_lessons(game, stream, message, len(game.states) - 1 if version is None else version)
    else:
        raise Leak(f"a message of type {kind!r} in a game played without mistakes")
    return sent


def check_chat(game: Game, message: dict[str, Any]) -> None:
    """A ``chat`` message: only what people typed, by whom (their seat and its name) and when."""
    require(set(message) == CHAT_KEYS, f"chat keys: {sorted(message)}")
    require(type(message["history"]) is bool, f"chat history {message['history']!r}")
    entries = message["messages"]
    require(isinstance(entries, list) and entries, f"chat messages: {entries!r}")
    for entry in entries:
        require(isinstance(entry, dict) and set(entry) == CHAT_ENTRY_KEYS, f"chat entry: {entry!r}")
        require(type(entry["id"]) is int and entry["id"] > 0, f"chat id {entry['id']!r}")
        require(type(entry["time"]) is float, f"chat time {entry['time']!r}")
        seat = entry["seat"]
        require(seat is None or seat in range(game.players), f"chat seat {seat!r}")
        name = None if seat is None else game.names[seat]
        require(entry["name"] == name, f"chat name {entry['name']!r} for seat {seat!r}")
        account = seat is not None and seat in game.accounts
        require(entry["account"] is account, f"chat account {entry['account']!r} for seat {seat!r}")
        bot_account = seat is not None and seat in game.bot_accounts
        require(entry["bot_account"] is bot_account, f"chat bot_account {entry['bot_account']!r}")
        typed = [text.strip() for who, text in game.said if who == seat]
        require(entry["text"] in typed, f"chat text {entry['text']!r}: nobody typed it")
        if seat is None:
            require(game.spectator_chat, "a spectator wrote where spectators only read")


def check_rematch(game: Game, message: dict[str, Any]) -> None:
    """A ``rematch`` message: the seats that agreed so far, in order, and the new table."""
    require(set(message) == REMATCH_KEYS, f"rematch keys: {sorted(message)}")
    votes = message["votes"]
    require(isinstance(votes, list) and len(votes) > 0, f"rematch votes {votes!r}")
    require(votes == game.votes[: len(votes)], f"rematch votes {votes!r} of {game.votes!r}")
    humans = {p for p, kind in enumerate(game.kinds) if kind == "human"}
    done = set(votes) == humans
    table = message["table"]
    require(table == (game.rematch if done else None), f"rematch table {table!r}")


def expected_hint(
    game: RulesGame, view: View, seed: int, version: int, narrator: Narrator | None
) -> dict[str, Any]:
    """The ``hint`` message for ``view``'s decision at ``version`` of a table dealt with
    ``seed``, in ``narrator``'s words: rebuilt from the view alone."""
    found = hint(game, view, seed, version)

    def value(v: ActionValue) -> dict[str, Any]:
        return {
            "id": v.action,
            "text": game.action_to_string(v.action),
            "label": None if narrator is None else narrator.describe_action(view, v.action),
            "margin": round(v.margin.mean, 3),
            "margin_interval": [round(v.margin.low, 3), round(v.margin.high, 3)],
            "win": round(v.win.mean, 4),
            "win_interval": [round(max(0.0, v.win.low), 4), round(min(1.0, v.win.high), 4)],
            "behind": round(v.behind.mean, 3),
            "behind_interval": [round(v.behind.low, 3), round(v.behind.high, 3)],
        }

    values = [value(v) for v in found.actions]
    return {
        "type": "hint",
        "version": version,
        "seat": view.seat,
        "worlds": HINT_WORLDS,
        "best": values[0],
        "reason": None if narrator is None else hint_reason(narrator, view, found),
        "actions": values,
    }


def check_hint(game: Game, stream: Stream, message: dict[str, Any]) -> None:
    """A ``hint``: to the only person of the table, for their own decision, from their view."""
    require(set(message) == HINT_KEYS, f"hint keys: {sorted(message)}")
    seat = stream.seat
    require(seat is not None, "a hint sent to a spectator")
    assert seat is not None
    others = [kind for p, kind in enumerate(game.kinds) if p != seat]
    require(all(kind == "bot" for kind in others), "a hint at a table with another person")
    require(game.hinted, "a hint nobody asked for")
    version = message["version"]
    require(type(version) is int and 0 <= version < len(game.states), f"hint version {version!r}")
    state = game.states[version]
    require(
        not state.is_terminal() and state.current_player == seat,
        f"a hint at version {version}, where seat {seat} does not decide",
    )
    for value in [message["best"], *message["actions"]]:
        require(isinstance(value, dict) and set(value) == HINT_VALUE_KEYS, f"hint value {value!r}")
    key = (version, seat, stream.lang)
    if key not in game._hints:
        narrator = game.narrator(stream.lang) if stream.lang is not None else None
        game._hints[key] = expected_hint(game.game, state.view(seat), game.seed, version, narrator)
    expected = game._hints[key]
    require(message == expected, f"a hint at version {version} that is not its view's analysis")


def check_lessons(game: Game, stream: Stream, message: dict[str, Any], version: int) -> None:
    """A ``lessons`` message: to the learner only, each lesson the learner's own views and
    events brought by ``version``, in the connection's words, and the lessons missed once
    the game is over."""
    tutorial = game.tutorial
    require(tutorial is not None, "lessons at a table that is not a guided game")
    assert tutorial is not None
    require(stream.seat == tutorial.seat, f"lessons sent to seat {stream.seat}")
    require(stream.lang is not None, "lessons to a connection without words")
    assert stream.lang is not None
    require(set(message) == LESSONS_KEYS, f"lessons keys: {sorted(message)}")
    require(type(message["history"]) is bool, f"lessons history {message['history']!r}")
    words = game.lesson_words(stream.lang)
    fired = game.lessons()
    known = {(v, f.lesson): (f, at) for v, f, at in fired}
    entries = message["lessons"]
    require(isinstance(entries, list), f"lessons: {entries!r}")
    for entry in entries:
        require(isinstance(entry, dict) and set(entry) == LESSON_KEYS, f"lesson: {entry!r}")
        require(type(entry["version"]) is int, f"lesson version {entry['version']!r}")
        require(isinstance(entry["lesson"], str), f"lesson id {entry['lesson']!r}")
        key = (entry["version"], entry["lesson"])
        require(key in known, f"a lesson that did not fire then: {key!r}")
        require(entry["version"] <= version, f"lesson {key!r} before version {entry['version']}")
        f, at = known[key]
        told = words.tell(f.lesson, f.fields)
        expected = {
            "lesson": f.lesson,
            "title": told.title,
            "happened": told.happened,
            "explanation": told.explanation,
            "version": entry["version"],
            "event": at,
        }
        require(entry == expected, f"lesson {key!r}: {entry!r}, not {expected!r}")
    if message["history"]:
        so_far = [(v, f.lesson) for v, f, _at in fired if v <= version]
        got = [(e["version"], e["lesson"]) for e in entries]
        require(got == so_far, f"lessons history {got!r}, not {so_far!r}")
    missed = message["missed"]
    if not game.states[version].is_terminal():
        require(missed is None, f"lessons missed {missed!r} before the end")
        return
    shown = {f.lesson for _v, f, _at in fired}
    expected_missed = []
    for lesson in tutorial.lesson_ids:
        if lesson not in shown:
            said = words.summary(lesson)
            expected_missed.append(
                {"lesson": lesson, "title": said.title, "explanation": said.explanation}
            )
    require(missed == expected_missed, f"lessons missed {missed!r}, not {expected_missed!r}")


def check_stream(game: Game, stream: Stream) -> int:
    """Check every message of one connection; return the number of ``state`` messages."""
    sent = 0
    version = 0
    for raw, message in zip(stream.raw, stream.messages, strict=True):
        sent = check_message(game, stream, raw, message, sent, version=version)
        if isinstance(message, dict) and message.get("type") == "state":
            version = message["version"]
    require(
        sent == len(game.states[-1].visible_events(stream.seat)),
        f"seat {stream.seat} was sent {sent} events of its whole log",
    )
    return sum(m["type"] == "state" for m in stream.messages)


def check_spectator_answer(game: Game, body: dict[str, Any]) -> None:
    """``GET /api/tables/{id}/view``: a spectator's ``state`` message from a fresh start."""
    check_state(game, Stream(None, None, [], []), body, 0)


def check_review(
    game: Game, seat: int, lang: str, raw: str, answer: Any, *, budget: int, seed: int
) -> None:
    """A finished ``GET /api/tables/{id}/review`` answer: what the record gives, no more.

    The review is worked out again from the record's states: each of the seat's decisions
    analysed from that seat's view (never the full state), in the server's words.
    """
    check_raw(game, raw)
    for token in game.tokens.values():
        require(token not in raw, "a seat's token was sent")
    require(isinstance(answer, dict) and set(answer) == REVIEW_ANSWER_KEYS, f"keys {answer!r}")
    require(answer["table_id"] == game.table_id, f"table_id {answer['table_id']!r}")
    require(answer["seat"] == seat and answer["status"] == "done", f"answer {answer!r}")
    review = answer["review"]
    require(isinstance(review, dict) and set(review) == REVIEW_KEYS, "review keys")
    history = game.states[-1].history
    # A seat's analyses are the same in every language: worked out once for all its checks.
    if (seat, budget, seed) not in game._reviews:
        analysed = {}
        for index, state in enumerate(game.states[:-1]):
            if state.current_player == seat and len(state.legal_actions()) > 1:
                analyst = Analyst(game.game, worlds=budget, seed=seed)
                analysed[index] = analyst.analyze(state.view(seat), history[index])
        game._reviews[seat, budget, seed] = analysed
    analyses = game._reviews[seat, budget, seed]
    require(answer["done"] == answer["total"] == len(analyses), "done and total")
    for decision in review["decisions"]:
        keys = DECISION_KEYS | ({"reason"} if decision["mistake"] else set())
        require(set(decision) == keys, f"decision keys {sorted(decision)}")
        for value in [decision["taken"], decision["best"], *decision["actions"]]:
            require(set(value) == VALUE_KEYS, f"value keys {sorted(value)}")
    expected = review_data(
        game.states[0],
        history,
        seat,
        analyses,
        names=game.names_in(lang),
        budget=budget,
        seed=seed,
        lang=lang,
    )
    require(review == json.loads(json.dumps(expected)), f"the review of seat {seat}")


def check_seat_replay(game: Game, seat: int, lang: str, raw: str, steps: Any) -> None:
    """A finished game's replay as ``seat`` saw it: its views and log, in the server's words."""
    check_raw(game, raw)
    require(isinstance(steps, list) and len(steps) == len(game.states), "every step")
    narrator = game.narrator(lang)
    seen = 0
    for index, (step, state) in enumerate(zip(steps, game.states, strict=True)):
        require(set(step) == STEP_KEYS, f"step keys {sorted(step)}")
        require(step["index"] == index, f"step {step['index']!r}")
        require(step["view"] == state.view(seat).to_dict(), f"the view at step {index}")
        visible = state.visible_events(seat)
        require(step["events"] == visible[seen:], f"the events of step {index}")
        lines = [narrator.describe_event(e) for e in visible[seen:]]
        require(step["lines"] == lines, f"the lines of step {index}")
        seen = len(visible)
        if index == 0:
            require(step["action"] is None, "an action before the first step")
            continue
        before = game.states[index - 1]
        actor = before.current_player
        assert actor is not None
        action = state.history[-1]
        told = {
            "seat": actor,
            "id": action,
            "text": game.game.action_to_string(action),
            "label": game.narrator(lang).describe_action(before.view(actor), action),
        }
        require(set(step["action"]) == STEP_ACTION_KEYS, "step action keys")
        require(step["action"] == told, f"the action of step {index}")
