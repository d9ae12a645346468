"""Guided first games: a fixed deal, and a short lesson at each moment that matters.

A :class:`Tutorial` is data, the same for every front end: the game and its rules options,
the seed of the deal, the learner's seat, the bots in the other seats, and its
:class:`Lesson` list. Each lesson has a trigger that recognises its moment from what the
learner may know: an event of the last action as the learner reads it (their first raise,
a round's scoring), or the learner's view (the Limit rule keeping them from saving). A
:class:`Guide` follows one game and says which lessons fire after each action; each fires
once, and :meth:`Guide.missed` names those whose moment never came, for a summary at the
end. The words of every lesson live in :mod:`closingbell.text.lessons`, keyed by the
lesson's id.

A front end plays the tutorial like any game, and after every action (the learner's or a
bot's) asks the guide::

    guide = Guide(tutorial)
    bots = TutorialBots(tutorial)
    state = tutorial.new_game()
    fired = guide.observe(state.view(tutorial.seat), state.visible_events(tutorial.seat))
    while not state.is_terminal():
        seat = state.current_player
        shown = len(state.log)
        if seat == tutorial.seat:
            action = ...  # the learner's choice
        else:
            action = bots.choose(seat, state.view(seat), len(state.history))
        state.apply(action)
        fired = guide.observe(
            state.view(tutorial.seat), state.visible_events(tutorial.seat, shown)
        )

The bots choose from their views with generators seeded by the deal, the seat and the
number of actions so far, so the same deal and the same choices of the learner give the
same game at every front end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from closingbell.bots import make_bot
from closingbell.bots.base import Bot
from closingbell.core.game import Game, State
from closingbell.core.records import GameRecord
from closingbell.core.registry import load_game
from closingbell.core.view import View
from closingbell.text.names import HUMAN

__all__ = [
    "HUMAN",
    "Event",
    "EventTrigger",
    "Fired",
    "Guide",
    "Learner",
    "Lesson",
    "Moment",
    "Step",
    "Tutorial",
    "TutorialBots",
    "ViewTrigger",
    "available_tutorials",
    "play_through",
    "scripted",
    "tutorial",
]

Event = dict[str, Any]
"""One log event as a seat reads it (:meth:`closingbell.core.game.State.visible_events`)."""


@dataclass(frozen=True)
class Moment:
    """What a trigger may look at: only what the learner may know after one action."""

    game: Game
    """The game being played (its rules options; no cards)."""
    seat: int
    """The learner's seat."""
    view: View
    """The learner's view after the action."""
    before: View | None
    """The learner's view before the action (``None`` before the first one)."""
    events: tuple[Event, ...]
    """The events of the action that the learner may read, in order."""


EventTrigger = Callable[[Moment, Event], Mapping[str, Any] | None]
"""Recognises a lesson's moment in one event: the lesson's fields when it fires, else
``None``."""

ViewTrigger = Callable[[Moment], Mapping[str, Any] | None]
"""Recognises a lesson's moment in the learner's view: the lesson's fields, else ``None``."""


@dataclass(frozen=True)
class Lesson:
    """One explanation of a guided game and the moment it waits for.

    A lesson has an event trigger, a view trigger or both; the event trigger is asked first,
    once per event. What a trigger returns (JSON-ready values: seats, cards, stocks,
    numbers) fills the lesson's words (:mod:`closingbell.text.lessons`).
    """

    id: str
    """Its name, the key of its words in every language (``first_raise``)."""
    on_event: EventTrigger | None = None
    """Fires on one event of the last action."""
    on_view: ViewTrigger | None = None
    """Fires on the learner's view after the last action."""


@dataclass(frozen=True)
class Fired:
    """A lesson whose moment has come."""

    lesson: str
    """The lesson's id."""
    fields: Mapping[str, Any]
    """What the trigger saw, for the lesson's words (seats, cards, numbers)."""
    event: int | None
    """The index, in the events given to :meth:`Guide.observe`, of the event that fired
    it (a front end shows the lesson right after that event); ``None`` when the view
    fired it (shown after the action's events)."""


@dataclass(frozen=True, kw_only=True)
class Tutorial:
    """A guided first game: the deal, the seats and the lessons, as data."""

    game: str
    """The registered name of the game."""
    options: Mapping[str, Any]
    """The rules options, the number of players among them."""
    seed: int
    """The seed of the deal, chosen so that the lessons' moments come early."""
    seat: int
    """The learner's seat."""
    seats: tuple[str, ...]
    """Each seat's kind: ``you`` at the learner's seat, a bot's name at the others."""
    lessons: tuple[Lesson, ...]
    """The lessons, in the order they are shown when several fire at once."""
    script: tuple[str, ...] = ()
    """Choices of the learner, in action notation, with which every lesson fires (the
    tests play them); the learner is free to play anything else."""
    notes: Mapping[str, str] = field(default_factory=dict)
    """Why the deal is what it is, for maintainers (English)."""

    def __post_init__(self) -> None:
        if self.seats[self.seat] != HUMAN or self.seats.count(HUMAN) != 1:
            raise ValueError("a tutorial has one learner, 'you' at its seat")
        ids = [lesson.id for lesson in self.lessons]
        if len(set(ids)) != len(ids):
            raise ValueError("lesson ids must differ")
        if self.options.get("players") != len(self.seats):
            raise ValueError("the 'players' option must be the number of seats")

    def load(self) -> Game:
        """The game with the tutorial's rules options."""
        return load_game(self.game, **self.options)

    def new_game(self) -> State:
        """The tutorial's deal."""
        return self.load().new_game(self.seed)

    def lesson(self, lesson_id: str) -> Lesson:
        """The lesson called ``lesson_id`` (``KeyError`` if there is none)."""
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise KeyError(lesson_id)

    def deals(self, record: GameRecord) -> bool:
        """Whether ``record`` is a game of this tutorial.

        That is: its game, rules options, seed and seats, dealt (not from a position).
        """
        return (
            record.game == self.game
            and record.position is None
            and record.seed == self.seed
            and tuple(record.seats) == self.seats
            and dict(record.options) == self.load().options_dict()
        )

    @property
    def lesson_ids(self) -> tuple[str, ...]:
        """Every lesson's id, in order."""
        return tuple(lesson.id for lesson in self.lessons)


class TutorialBots:
    """The bots of a tutorial's seats, choosing the same wherever the game is played."""

    def __init__(self, tutorial: Tutorial, game: Game | None = None) -> None:
        self.tutorial = tutorial
        """The tutorial whose seats they take."""
        game = game or tutorial.load()
        self.bots: dict[int, Bot] = {
            q: make_bot(kind, game, seed=tutorial.seed)
            for q, kind in enumerate(tutorial.seats)
            if kind != HUMAN
        }
        """The bot of each seat but the learner's."""

    def choose(self, seat: int, view: View, ply: int) -> int:
        """The choice of ``seat``'s bot from its ``view``, after ``ply`` actions of the game.

        The bot's generator is seeded from the deal, the seat and ``ply`` before it
        chooses, so that a choice never depends on what the bot chose before (nor on the
        front end, nor on a game saved and resumed).
        """
        return self.ready(seat, ply).choose(view)

    def ready(self, seat: int, ply: int) -> Bot:
        """``seat``'s bot with its generator seeded for the decision after ``ply`` actions.

        For a front end that lets the bot choose elsewhere (a helper process or thread):
        its ``choose(view)`` then gives what :meth:`choose` gives. A front end that puts
        another bot object in :attr:`bots` (the one a helper process sent back) keeps
        choosing the same.
        """
        bot = self.bots[seat]
        t = self.tutorial
        bot.rng.seed(f"learn/{t.game}/{t.seed}/{seat}/{ply}")
        return bot


class Guide:
    """Follows one guided game and tells which lessons fire after each action.

    Only the learner's views and the events the learner may read reach it, so a lesson
    can never tell what the learner may not know.
    """

    def __init__(self, tutorial: Tutorial, game: Game | None = None) -> None:
        self.tutorial = tutorial
        """The tutorial being played."""
        self.game = game or tutorial.load()
        """The game (its rules options)."""
        self.shown: list[str] = []
        """The ids of the lessons fired so far, in order."""
        self.before: View | None = None
        """The learner's view after the last action observed."""

    def observe(self, view: View, events: Iterable[Event]) -> list[Fired]:
        """The lessons that fire after one action, each marked as shown.

        ``view`` is the learner's view after the action and ``events`` the events of the
        action that the learner may read (after the deal: the deal's own events). Call it
        once per action, in order, for the bots' actions as for the learner's.
        """
        moment = Moment(
            game=self.game,
            seat=self.tutorial.seat,
            view=view,
            before=self.before,
            events=tuple(events),
        )
        fired: list[Fired] = []
        waiting = [lesson for lesson in self.tutorial.lessons if lesson.id not in self.shown]
        for i, event in enumerate(moment.events):
            for lesson in waiting:
                if lesson.on_event is None or lesson.id in self.shown:
                    continue
                fields = lesson.on_event(moment, event)
                if fields is not None:
                    self.shown.append(lesson.id)
                    fired.append(Fired(lesson.id, dict(fields), i))
        for lesson in waiting:
            if lesson.on_view is None or lesson.id in self.shown:
                continue
            fields = lesson.on_view(moment)
            if fields is not None:
                self.shown.append(lesson.id)
                fired.append(Fired(lesson.id, dict(fields), None))
        self.before = view
        return fired

    def missed(self) -> list[str]:
        """The ids of the lessons that have not fired, in the tutorial's order."""
        return [i for i in self.tutorial.lesson_ids if i not in self.shown]

    @classmethod
    def replayed(
        cls, tutorial: Tutorial, actions: Sequence[int], game: Game | None = None
    ) -> Guide:
        """The guide of a game of ``tutorial`` after ``actions``, as if it had followed it.

        The deal is replayed and every action observed, so a game saved and resumed (or a
        server restarted) goes on with the lessons already shown marked as shown. Raises
        the game's ``IllegalActionError`` for actions that do not replay.
        """
        guide = cls(tutorial, game)
        seat = tutorial.seat
        state = guide.game.new_game(tutorial.seed)
        guide.observe(state.view(seat), state.visible_events(seat))
        for action in actions:
            shown = len(state.log)
            state.apply(action)
            guide.observe(state.view(seat), state.visible_events(seat, shown))
        return guide


@dataclass(frozen=True)
class Step:
    """One action of a guided game played through, with the lessons it fired."""

    ply: int
    """How many actions came before it (0 for the deal)."""
    seat: int | None
    """Who acted (``None`` for the deal)."""
    action: str | None
    """The action in notation (``None`` for the deal)."""
    fired: tuple[Fired, ...]
    """The lessons that fired after it."""


Learner = Callable[[State, View], int]
"""Chooses the learner's action from the learner's view (the state is for bookkeeping
only, such as counting actions; a front end would ask a person)."""


def play_through(tutorial: Tutorial, learner: Learner) -> Iterator[Step]:
    """Play ``tutorial`` to its end with ``learner`` in the learner's seat.

    Yields the deal's step, then one step per action, each with the lessons it fired; the
    last step's state is over. Tests play a tutorial's script this way.
    """
    game = tutorial.load()
    guide = Guide(tutorial, game)
    bots = TutorialBots(tutorial, game)
    seat = tutorial.seat
    state = game.new_game(tutorial.seed)
    fired = guide.observe(state.view(seat), state.visible_events(seat))
    yield Step(0, None, None, tuple(fired))
    while not state.is_terminal():
        mover = state.current_player
        assert mover is not None
        ply = len(state.history)
        shown = len(state.log)
        if mover == seat:
            action = learner(state, state.view(seat))
        else:
            action = bots.choose(mover, state.view(mover), ply)
        state.apply(action)
        fired = guide.observe(state.view(seat), state.visible_events(seat, shown))
        yield Step(ply + 1, mover, game.action_to_string(action), tuple(fired))


def scripted(tutorial: Tutorial, script: Sequence[str] | None = None) -> Learner:
    """A learner that plays ``script`` (default: the tutorial's), one choice per decision.

    Raises ``IndexError`` when the script runs out before the game ends, and the game's
    ``IllegalActionError`` (when applied) for a choice that is not legal then.
    """
    choices = iter(tutorial.script if script is None else script)
    game = tutorial.load()

    def choose(state: State, view: View) -> int:
        try:
            return game.string_to_action(next(choices))
        except StopIteration:
            raise IndexError("the script ended before the game") from None

    return choose


def _registry() -> dict[str, Tutorial]:
    from closingbell.learn import card_stock_market, take_stock  # noqa: PLC0415 (no circle)

    return {"take_stock": take_stock.TUTORIAL, "card_stock_market": card_stock_market.TUTORIAL}


def available_tutorials() -> list[str]:
    """The games that have a guided first game, by registered name."""
    return list(_registry())


def tutorial(game_name: str) -> Tutorial:
    """The guided first game of ``game_name`` (``KeyError`` naming the choices if none)."""
    tutorials = _registry()
    if game_name not in tutorials:
        raise KeyError(f"no guided game for {game_name!r} (there are: {', '.join(tutorials)})")
    return tutorials[game_name]
