"""Guided first games at the web server: tutorial tables and the lessons of their learner.

A tutorial table deals a tutorial of :mod:`closingbell.learn`: the game's rules options,
the fixed seed and the seats, the learner's seat open for a person and the tutorial's bots
in the others. It is never rated and never starts from a position. Nothing more is stored:
the mark of a tutorial is its deal, by the rule ``closingbell learn --resume`` uses
(:meth:`~closingbell.learn.Tutorial.deals`), so a restarted server, or another server
sharing the database, knows a tutorial table from its row and follows it with the same
lessons. (The deal is no secret: it is written in closingbell's source.)

A table's :class:`Tutor` follows its game: after the deal and after every action it asks
the tutorial's :class:`~closingbell.learn.Guide` which lessons fire, giving it only the
learner's view and the events the learner may read, and keeps each lesson with the version
and the event that brought it. The table sends the lessons just fired to the learner's
connections after the ``state`` of that action, and every lesson so far after ``hello``;
spectators and other seats get none. Its bots choose as the tutorial's
:class:`~closingbell.learn.TutorialBots` do, so the game is the one the terminal plays for
the same choices. The words are made for each connection in its language
(:mod:`closingbell.text.lessons`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from closingbell.bots.base import Bot
from closingbell.core.game import Game, State
from closingbell.core.records import GameRecord
from closingbell.learn import HUMAN, Fired, Guide, Tutorial, TutorialBots, tutorial
from closingbell.server.protocol import LessonEntry, LessonsMessage, LessonSummary
from closingbell.server.store import SeatRow, TableRow
from closingbell.text.lessons import LessonWords, lesson_words
from closingbell.text.narrator import Narrator

__all__ = ["Given", "NoTutorial", "Tutor", "tutorial_of", "tutorial_row"]


class NoTutorial(KeyError):
    """A game without a guided first game."""


class Recipient(Protocol):
    """A connection as the tutor sees it: its seat, and where its messages go."""

    seat: int | None
    """Its seat, or ``None`` for a spectator."""

    def send(self, message: LessonsMessage) -> None:
        """Queue ``message`` for sending."""


@dataclass(frozen=True)
class Given:
    """A lesson that fired in the game, with where it came."""

    fired: Fired
    """The lesson and the fields its trigger saw."""
    version: int
    """The version whose action brought it (0: the deal)."""
    event: int | None
    """The index of the event that brought it in the learner's whole event list, or
    ``None`` when the learner's view did."""


def _kinds(seats: Iterable[SeatRow]) -> tuple[str, ...]:
    """Each seat as a tutorial names it: ``you`` for a person's seat, else the bot's name."""
    return tuple(HUMAN if s.kind in ("open", "human") else (s.bot or s.kind) for s in seats)


def tutorial_of(row: TableRow, options: Mapping[str, Any]) -> Tutorial | None:
    """The tutorial whose deal the stored table ``row`` plays, or ``None``.

    ``options`` are the table's rules options in full (defaults included). A table is a
    tutorial's when it is unrated and deals the tutorial: its game, options and seed, not
    from a position, with a person's seat where the tutorial has its learner and the
    tutorial's bots in the others.
    """
    try:
        found = tutorial(row.game)
    except KeyError:
        return None
    if row.rated or row.position is not None or row.seed != found.seed:
        return None
    record = GameRecord(
        game=row.game,
        version=row.rules_version or 0,
        options=dict(options),
        seed=row.seed,
        seats=_kinds(row.seats),
        position=row.position,
    )
    return found if found.deals(record) else None


def tutorial_row(game_name: str) -> tuple[TableRow, Tutorial]:
    """A new table of ``game_name``'s guided first game, waiting for its learner.

    Raises :class:`NoTutorial` for a game without one.
    """
    try:
        found = tutorial(game_name)
    except KeyError as exc:
        raise NoTutorial(str(exc.args[0])) from None
    game = found.load()
    seats = [
        SeatRow(seat=p, kind="open") if kind == HUMAN else SeatRow(seat=p, kind="bot", bot=kind)
        for p, kind in enumerate(found.seats)
    ]
    row = TableRow(
        id=secrets.token_urlsafe(9),
        game=game.info.name,
        options=game.options_dict(),
        seed=found.seed,
        clock=None,
        status="waiting",
        rules_version=game.info.version,
        seats=seats,
    )
    return row, found


class Tutor:
    """A tutorial table's teacher: its guide, its bots and the lessons its learner is sent.

    Made from the table's state, whose actions it replays from the deal, observing each
    as it was played: a table rebuilt after a restart goes on with the same lessons.
    """

    def __init__(self, tutorial: Tutorial, game: Game, state: State) -> None:
        self.tutorial = tutorial
        """The guided game."""
        self.seat = tutorial.seat
        """The learner's seat."""
        self.guide = Guide(tutorial, game)
        """Which lessons have fired (it sees only the learner's views and events)."""
        self.tutor_bots = TutorialBots(tutorial, game)
        """The bots of the other seats, choosing as the tutorial says."""
        self.given: list[Given] = []
        """Every lesson fired so far, in order."""
        self.fresh: list[Given] = []
        """The lessons fired since the learner's connections were last sent any."""
        self.seen = 0
        """How many events the learner may read so far."""
        self.over = False
        """Whether the game is over."""
        self.told_end = False
        """Whether the learner's connections were sent the end (the lessons missed)."""
        replay = game.new_game(tutorial.seed)
        self._observe(replay, None)
        for action in state.history:
            shown = len(replay.log)
            replay.apply(action)
            self._observe(replay, shown)
        # What came before this table was made (or rebuilt) is sent after hello, as history.
        self.fresh.clear()
        self.told_end = self.over

    @property
    def bots(self) -> dict[int, Bot]:
        """The bot of each seat but the learner's (the table plays them)."""
        return self.tutor_bots.bots

    def ready(self, seat: int, ply: int) -> Bot:
        """``seat``'s bot, seeded for its decision after ``ply`` actions."""
        return self.tutor_bots.ready(seat, ply)

    def observe(self, before: State, after: State) -> None:
        """Follow one action of the game, from ``before`` to ``after``."""
        self._observe(after, len(before.log))

    def _observe(self, state: State, shown: int | None) -> None:
        seat = self.seat
        events = state.visible_events(seat) if shown is None else state.visible_events(seat, shown)
        version = len(state.history)
        for fired in self.guide.observe(state.view(seat), events):
            at = None if fired.event is None else self.seen + fired.event
            given = Given(fired, version, at)
            self.given.append(given)
            self.fresh.append(given)
        self.seen += len(events)
        self.over = state.is_terminal()

    # ------------------------------------------------------------ what is sent

    def words(self, narrator: Narrator) -> LessonWords:
        """The lessons' words in ``narrator``'s language, for the learner."""
        return lesson_words(narrator, self.seat)

    def message(
        self, narrator: Narrator, lessons: Iterable[Given], *, history: bool
    ) -> LessonsMessage:
        """``lessons`` in ``narrator``'s language, with the lessons missed once it is over."""
        words = self.words(narrator)
        entries = []
        for given in lessons:
            text = words.tell(given.fired.lesson, given.fired.fields)
            entries.append(
                LessonEntry(
                    lesson=text.lesson,
                    title=text.title,
                    happened=text.happened,
                    explanation=text.explanation,
                    version=given.version,
                    event=given.event,
                )
            )
        missed = None
        if self.over:
            missed = []
            for lesson in self.guide.missed():
                said = words.summary(lesson)
                missed.append(
                    LessonSummary(
                        lesson=said.lesson, title=said.title, explanation=said.explanation
                    )
                )
        return LessonsMessage(lessons=entries, history=history, missed=missed)

    def greet(self, conn: Recipient, narrator: Narrator | None) -> None:
        """After ``hello``: every lesson so far, to a connection of the learner's seat."""
        if conn.seat == self.seat and narrator is not None:
            conn.send(self.message(narrator, self.given, history=True))

    def flush(
        self, connections: Iterable[Recipient], narrator_of: Callable[[Any], Narrator | None]
    ) -> None:
        """Send the learner's connections the lessons just fired (and the end, once over).

        ``narrator_of(conn)`` is a connection's narrator (``None``: it has no words).
        """
        if not self.fresh and (self.told_end or not self.over):
            return
        for conn in connections:
            if conn.seat != self.seat:
                continue
            narrator = narrator_of(conn)
            if narrator is not None:
                conn.send(self.message(narrator, self.fresh, history=False))
        self.fresh = []
        self.told_end = self.over
