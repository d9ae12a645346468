"""The guided first game in the terminal: ``closingbell play``'s loop, with lessons.

A :class:`GuidedSession` is the play loop of :mod:`closingbell.tui.session` with three
additions: after every action it asks the tutorial's :class:`~closingbell.learn.Guide`
which lessons fire, and shows each right after the event that brought it (or, for a
lesson its view brought, after all the action's events); its bots choose as the tutorial
says, so that the game is the same at every front end; and at the end it sums up the
lessons whose moment never came and says what to try next. The game is saved after every
move like any other and ``closingbell learn --resume FILE`` goes on with it, lessons and
all.
"""

from __future__ import annotations

import gettext
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from closingbell.core.errors import IllegalActionError
from closingbell.core.game import Game, State
from closingbell.core.records import GameRecord
from closingbell.learn import Fired, Guide, Tutorial, TutorialBots, tutorial
from closingbell.text.i18n import translations
from closingbell.text.lessons import LessonText, lesson_words
from closingbell.text.names import game_title
from closingbell.tui.reading import LineReader
from closingbell.tui.saving import default_record_path
from closingbell.tui.session import Session
from closingbell.tui.signals import hangup_handlers
from closingbell.tui.starting import EXIT_USAGE, SetupError, open_session, resumed_session

__all__ = ["GuidedSession", "learn"]


class GuidedSession(Session):
    """A terminal game of a tutorial, its lessons shown as their moments come."""

    def __init__(
        self, *, tutorial: Tutorial, guide: Guide, next_command: str, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.tutorial = tutorial
        """The guided game being played."""
        self.guide = guide
        """Which lessons have fired, and which fire now."""
        self.tutor_bots = TutorialBots(tutorial, self.game)
        """The bots, choosing as the tutorial says."""
        self.lessons = lesson_words(self.narrator, tutorial.seat)
        """The lessons' words, in the player's language."""
        self.next_command = next_command
        """The command to try after the guided game."""
        self.resume_with = "learn"
        self.fired: list[Fired] = []
        """The lessons fired by the action being narrated, not yet shown."""
        self.observed = len(self.state.history) if self.resumed else -1
        """How many actions the guide has seen (a resumed game's guide has seen them all)."""

    def bot_action(self, seat: int) -> int:
        """What the tutorial's bot of ``seat`` chooses from its view."""
        return self.tutor_bots.choose(seat, self.state.view(seat), len(self.state.history))

    def narrate(self, *, quiet: bool = False) -> None:
        """Tell what happened since the last call, with the lessons it brings."""
        self.fired = []
        ply = len(self.state.history)
        # Once per action: the loop also narrates when nothing has happened since.
        if not quiet and ply != self.observed:
            events = self.state.visible_events(self.tutorial.seat, self.shown)
            self.fired = self.guide.observe(self.state.view(self.tutorial.seat), events)
        self.observed = ply
        super().narrate(quiet=quiet)

    def explain(self, events: Sequence[dict[str, Any]], index: int | None) -> bool:
        """Show the lessons fired by ``events[index]`` (``None``: by the learner's view)."""
        due = [f for f in self.fired if f.event == index]
        for fired in due:
            self.show_lesson(self.lessons.tell(fired.lesson, fired.fields))
        return bool(due)

    def show_lesson(self, lesson: LessonText) -> None:
        """One lesson, in a panel of its own."""
        parts: list[RenderableType] = []
        if lesson.happened:
            parts.append(Text(lesson.happened, style="bold"))
        parts.append(Text(lesson.explanation))
        title = self._("Lesson: {title}").format(title=lesson.title)
        self.console.print(
            Panel(Group(*parts), title=Text(title, style="bold"), border_style="magenta")
        )

    def closing(self) -> None:
        """The lessons whose moment never came, then what to try next."""
        _ = self._
        missed = self.guide.missed()
        if missed:
            parts: list[RenderableType] = []
            for lesson in missed:
                said = self.lessons.summary(lesson)
                parts.append(Text(said.title, style="bold"))
                parts.append(Text(said.explanation))
            title = _("What this game did not show")
            self.console.print(
                Panel(Group(*parts), title=Text(title, style="bold"), border_style="magenta")
            )
        self.say(
            _("What to try next: a whole game against the bots, with {command}").format(
                command=self.next_command
            ),
            "bold",
        )


def _next_command(program: str, game_name: str, lang: str) -> str:
    words = [program, "play", "--game", game_name]
    if lang != "en":
        words += ["--lang", lang]
    return " ".join([words[0], *map(shlex.quote, words[1:])])


def _resumed(
    resume: str, tr: gettext.NullTranslations, save: str | None, program: str
) -> tuple[Tutorial, Guide, Game, State, Path, bool]:
    """The tutorial, guide, game, state, path and hints-taken flag of a saved guided game."""
    _ = tr.gettext
    game, state, _seats, _seed, path, _position, hinted = resumed_session(
        resume=resume, tr=tr, save=save
    )
    record = GameRecord.read(resume)
    try:
        t = tutorial(game.info.name)
    except KeyError:
        t = None
    if t is None or not t.deals(record):
        command = f"{program} play --resume {shlex.quote(resume)}"
        raise SetupError(
            _("{path} is not a guided game: go on with it with {command}").format(
                path=resume, command=command
            )
        )
    try:
        guide = Guide.replayed(t, state.history, game)
    except IllegalActionError as exc:  # pragma: no cover (the record replayed already)
        raise SetupError(str(exc)) from None
    return t, guide, game, state, path, hinted


def learn(
    *,
    game_name: str = "take_stock",
    lang: str = "en",
    resume: str | None = None,
    save: str | None = None,
    pace: float = 0.0,
    console: Console | None = None,
    read_line: LineReader | None = None,
    program: str = "closingbell",
) -> int:
    """Play (or resume) the guided first game of ``game_name``; return the exit code.

    ``program`` is how closingbell is run from the user's shell, for the hints on resuming
    and on what to try next.
    """
    tr = translations(lang)
    _ = tr.gettext
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        if resume is not None:
            t, guide, game, state, path, hinted = _resumed(resume, tr, save, program)
        else:
            hinted = False
            try:
                t = tutorial(game_name)
            except KeyError:
                raise SetupError(
                    _("there is no guided game of {game}").format(game=game_title(game_name, lang))
                ) from None
            game = t.load()
            state = game.new_game(t.seed)
            guide = Guide(t, game)
            path = Path(save) if save else default_record_path(f"learn-{t.game}", t.seed)
        session = open_session(
            GuidedSession,
            game=game,
            seats=t.seats,
            lang=lang,
            tr=tr,
            console=console,
            read_line=read_line,
            path=path,
            tutorial=t,
            guide=guide,
            next_command=_next_command(program, t.game, lang),
            state=state,
            seed=t.seed,
            pace=pace,
            resumed=resume is not None,
            program=program,
            hinted=hinted,
        )
    except SetupError as exc:
        err.print(Text(_("closingbell learn: {message}").format(message=str(exc))))
        return EXIT_USAGE
    if resume is None:
        session.say(
            _(
                "A guided first game of {game}: short lessons explain the moments that "
                "matter as they come. Play as you like; what the game does not show is "
                "summed up at the end."
            ).format(game=game_title(t.game, lang)),
            "bold magenta",
        )
    with hangup_handlers():
        return session.run()
