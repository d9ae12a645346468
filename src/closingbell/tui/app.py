"""The terminal game: one play loop for every game, drawn by that game's screen.

A session holds the live state, the seats (``you`` for a person at this terminal, or a
bot's kind) and the record of the game, which is written again after every action so
that quitting at any moment (``q``, Ctrl-C, end of input, a closed terminal) loses
nothing. People see only views and the log events their seat may read: with one person
at the table, their seat's; with several (hot-seat) or none, what everyone sees.
"""

from __future__ import annotations

import contextlib
import gettext
import os
import random
import shlex
import signal
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from closingbell.bots import available_bots, make_bot
from closingbell.bots.analysis import DecisionAnalysis
from closingbell.bots.base import Bot
from closingbell.bots.hints import hint
from closingbell.core.errors import NotationError, OptionError, PositionError, RecordError
from closingbell.core.game import Game, State
from closingbell.core.position import MAX_POSITION_CHARS
from closingbell.core.records import (
    EXTENSION,
    GameRecord,
    RecordedAction,
    RecordResult,
    replay,
    start_from_position,
)
from closingbell.core.registry import available_games, game_class, load_game
from closingbell.core.view import View
from closingbell.text.hints import hint_reason
from closingbell.text.i18n import translations
from closingbell.text.names import HUMAN, game_title, player_names
from closingbell.tui.screen import GameScreen
from closingbell.tui.screens import screen_class

__all__ = ["HUMAN", "Session", "SetupError", "play"]

QUIT_WORDS = frozenset({"q", "quit", "exit"})
"""What a player types to save the game and stop."""

BOARD_WORDS = frozenset({"b", "board"})
"""What a player types to see the table and the choices again."""

HINT_WORDS = frozenset({"h", "hint"})
"""What a player types for a hint: the analysis's preferred choice and what it is worth."""

RECENT = 6
"""How many of the last things that happened the table shows."""

EXIT_USAGE = 2
"""The exit code for a command that cannot start (bad arguments, unreadable record)."""


class Hangup(Exception):
    """The terminal went away (SIGHUP) or the process was asked to stop (SIGTERM)."""


class _Quit(Exception):
    """The player asked to stop."""


class SetupError(Exception):
    """A game that cannot start; the message is already in the user's language."""


# ---------------------------------------------------------------------- files


def data_dir() -> Path:
    """Where games are saved unless ``--save`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "closingbell" / "games"


def default_record_path(game_name: str, seed: int) -> Path:
    """A new file name for a game, made of the game, the date and time, and the seed."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = data_dir()
    path = folder / f"{game_name}-{stamp}-{seed}{EXTENSION}"
    n = 2
    while path.exists():
        path = folder / f"{game_name}-{stamp}-{seed}-{n}{EXTENSION}"
        n += 1
    return path


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------- words


def parse_seats(text: str, tr: gettext.NullTranslations) -> list[str]:
    """The seat kinds of ``--seats``; raises ``SetupError`` for an unknown kind."""
    _ = tr.gettext
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    known = available_bots()
    for s in seats:
        if s != HUMAN and s not in known:
            raise SetupError(
                _("unknown seat “{seat}”: use “you” or a bot ({bots})").format(
                    seat=s, bots=", ".join(known)
                )
            )
    return seats


# ---------------------------------------------------------------------- input


LineReader = Callable[[Text], str]
"""Reads one line after showing a prompt; raises ``EOFError`` at the end of input."""


def console_reader(console: Console) -> LineReader:
    """Read lines from the terminal through Rich (with line editing when available)."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401, PLC0415 (only loaded for its side effect on input())

    def read(prompt: Text) -> str:
        return console.input(prompt)

    return read


def scripted_reader(lines: Sequence[str], console: Console) -> LineReader:
    """Read from a list of lines, echoing them (for tests); ``EOFError`` when none are left."""
    it: Iterator[str] = iter(lines)

    def read(prompt: Text) -> str:
        console.print(prompt, end="")
        try:
            line = next(it)
        except StopIteration:
            raise EOFError from None
        console.print(line, markup=False, highlight=False)
        return line

    return read


# ---------------------------------------------------------------------- the session


class Session:
    """One game at the terminal: the state, the seats, the record and the screen."""

    def __init__(
        self,
        *,
        game: Game,
        state: State,
        seats: Sequence[str],
        seed: int,
        screen: GameScreen,
        tr: gettext.NullTranslations,
        console: Console,
        read_line: LineReader,
        path: Path,
        pace: float = 0.0,
        resumed: bool = False,
        program: str = "closingbell",
        position: str | None = None,
        hinted: bool = False,
    ) -> None:
        self.game = game
        """The game being played."""
        self.state = state
        """The live state (replaced by a new copy after each action)."""
        self.seats = list(seats)
        """Each seat's kind: ``you`` or a bot's name."""
        self.seed = seed
        """The seed the game was dealt with (or the seed its starting position names)."""
        self.position = position
        """The canonical text of the position the game started from, or ``None`` (a deal)."""
        self.screen = screen
        """The game's layout."""
        self.narrator = screen.narrator
        """The game's words."""
        self._ = tr.gettext
        self.tr = tr
        """The user's language."""
        self.console = console
        """Where everything is shown."""
        self.read_line = read_line
        """Where the players' answers come from."""
        self.path = path
        """The record file, rewritten after every action."""
        self.pace = pace
        """Seconds to wait after each bot move, so that moves can be followed."""
        self.resumed = resumed
        """Whether the game was read back from a record."""
        self.program = program
        """How to run closingbell from this shell, for the hint on resuming."""
        self.hinted = hinted
        """Whether a hint was shown in this game (its record says so)."""
        self.names = list(self.narrator.names)
        self.humans = [q for q, k in enumerate(self.seats) if k == HUMAN]
        self.watcher: int | None = self.humans[0] if len(self.humans) == 1 else None
        """Whose eyes the narration uses: the one person, or everyone's when several share."""
        self.bots: dict[int, Bot] = {
            q: make_bot(kind, game, seed=seed * 31 + q)
            for q, kind in enumerate(self.seats)
            if kind != HUMAN
        }
        self.recorded: list[RecordedAction] = _recorded_actions(game, state, self.start())
        self.shown = 0
        """How much of the log has been narrated."""
        self.recent: deque[str] = deque(maxlen=RECENT)
        self.last_human: int | None = None
        self.resume_with = "play"
        """The subcommand that goes on with this game, for the hint on resuming."""

    # ------------------------------------------------------------------ record

    def start(self) -> State:
        """A fresh copy of the game's first state: the deal of the seed, or the position."""
        if self.position is None:
            return self.game.new_game(self.seed)
        return start_from_position(self.game, self.position)

    def record(self) -> GameRecord:
        """The game so far as a record (with its result once it is over)."""
        state = self.state
        return GameRecord(
            game=self.game.info.name,
            version=self.game.info.version,
            options=self.game.options_dict(),
            seed=self.seed,
            seats=tuple(self.seats),
            # An interrupted action may have been noted before its state took over.
            actions=tuple(self.recorded[: len(state.history)]),
            result=RecordResult.of(state),
            position=self.position,
            hinted=self.hinted,
        )

    def save(self) -> None:
        """Write the record (atomically) to ``path``."""
        write_atomically(self.path, self.record().dumps())

    def apply(self, action: int) -> None:
        """Apply ``action`` to a copy, then keep the copy and save: never a half-done state."""
        seat = self.state.current_player
        assert seat is not None
        after = self.state.clone()
        after.apply(action)
        self.recorded[len(self.state.history) :] = [
            RecordedAction(seat, self.game.action_to_string(action))
        ]
        self.state = after
        self.save()

    # ------------------------------------------------------------------ output

    def say(self, text: str, style: str = "") -> None:
        """Print one message, never read as markup.

        The terminal wraps it rather than Rich, so that a file name in it stays whole.
        """
        self.console.print(Text(text, style=style), soft_wrap=True)

    def narrate(self, *, quiet: bool = False) -> None:
        """Tell what happened since the last call, as the watcher may know it."""
        events = self.state.visible_events(self.watcher, self.shown)
        self.shown = len(self.state.log)
        go_on = self._("Press Enter to go on (q to save and quit).")
        for i, event in enumerate(events):
            text = self.narrator.describe_event(event)
            if text:
                self.recent.append(text)
                if not quiet:
                    self.console.print(Text("  • " + text))
            if quiet:
                continue
            summary = self.screen.round_summary(self.state.view(self.watcher), event)
            if summary is not None:
                self.console.print(summary)
            explained = self.explain(events, i)
            if (summary is not None or explained) and self.humans and not self.state.is_terminal():
                next_round = self._("Press Enter for the next round (q to save and quit).")
                self.wait_enter(next_round if summary is not None else go_on)
        explained = not quiet and self.explain(events, None)
        if explained and self.humans and not self.state.is_terminal():
            self.wait_enter(go_on)

    def explain(self, events: Sequence[dict[str, Any]], index: int | None) -> bool:
        """Add to the narration after ``events[index]`` (``None``: after all of ``events``).

        Returns whether anything was shown. A plain game adds nothing; a guided game adds
        its lessons (:mod:`closingbell.tui.learn`).
        """
        return False

    def show_table(self, seat: int) -> None:
        """The recent events, the table as ``seat`` sees it and its decision."""
        view = self.state.view(seat)
        parts: list[RenderableType] = []
        if self.recent:
            parts.append(
                Panel(
                    Text("\n".join(self.recent)),
                    title=self._("What happened last"),
                    title_align="left",
                    border_style="dim",
                )
            )
        parts.append(self.screen.board(view))
        self.console.print(Group(*parts))

    def show_menu(self, seat: int) -> list[int]:
        """Print the numbered choices of ``seat``'s decision; return them in menu order."""
        view = self.state.view(seat)
        legal = list(getattr(view, "legal_actions", ()))
        self.console.print(
            Text(
                self._("{name}: {question}").format(
                    name=self.names[seat], question=self.narrator.prompt(view)
                ),
                style="bold",
            )
        )
        width = len(str(len(legal)))
        for i, action in enumerate(legal, 1):
            line = Text(f"  {i:>{width}}. ", style="bold cyan")
            line.append(self.narrator.describe_action(view, action))
            line.append(f"   [{self.game.action_to_string(action)}]", style="dim")
            self.console.print(line)
        return legal

    def closing(self) -> None:
        """What follows the final scores and the record's place (nothing in a plain game)."""

    def saved_message(self) -> None:
        """Tell where the game is saved and how to go on with it."""
        self.say(self._("The game is saved in {path}").format(path=self.path), "bold")
        command = f"{self.program} {self.resume_with} --resume {shlex.quote(str(self.path))}"
        self.say(self._("To go on with it: {command}").format(command=command))

    # ------------------------------------------------------------------ input

    def ask(self, prompt: str) -> str:
        """Read one line (quit words raise ``_Quit``)."""
        line = self.read_line(Text(prompt + " ", style="bold green"))
        if line.strip().lower() in QUIT_WORDS:
            raise _Quit
        return line

    def wait_enter(self, prompt: str) -> None:
        """Wait for Enter alone (``q`` quits); any other answer asks again."""
        while True:
            if not self.ask(prompt).strip():
                return
            self.say(self._("Just press Enter to go on, or type q to save and quit."), "red")

    @property
    def hints_allowed(self) -> bool:
        """Whether hints may be shown: one person at the terminal, bots in every other seat.

        In a game of several people, a hint would help one of them against the others.
        """
        return len(self.humans) == 1

    def show_hint(self, seat: int, legal: Sequence[int]) -> None:
        """Work out and show the hint for ``seat``'s decision, and mark the game as hinted.

        The same analysis, budget and seed as a hint on the web server
        (:func:`closingbell.bots.hints.hint`), from ``seat``'s view only.
        """
        _ = self._
        view = self.state.view(seat)
        with self.console.status(_("Working out a hint…")):
            found = hint(self.game, view, self.seed, len(self.state.history))
        self.hinted = True
        self.save()
        self.console.print(self.hint_panel(view, found, legal))

    def hint_panel(self, view: View, found: DecisionAnalysis, legal: Sequence[int]) -> Panel:
        """A hint as the terminal shows it: the preferred choice, its number and its worth."""
        _ = self._
        best = found.actions[0]
        money = self.game.info.name == "card_stock_market"

        def margin(x: float) -> str:
            if money:
                dollars = round(x)
                return f"+${dollars}" if dollars > 0 else f"-${-dollars}" if dollars else "$0"
            return f"{x:+.1f}" if round(x, 1) else "0"

        def chance(x: float) -> str:
            return f"{round(100 * x)}%"

        action = self.narrator.describe_action(view, best.action)
        head = Text(
            _("Hint: {number}. {action}").format(
                number=legal.index(best.action) + 1, action=action
            ),
            style="bold",
        )
        head.append(f"   [{self.game.action_to_string(best.action)}]", style="dim")
        lines: list[RenderableType] = [head]
        reason = hint_reason(self.narrator, view, found)
        if reason:  # the narrator's explanation, once it gives one
            lines.append(Text(reason))
        lines.append(
            Text(
                _("Expected lead at the end: {margin} (95%: {low} to {high})").format(
                    margin=margin(best.margin.mean),
                    low=margin(best.margin.low),
                    high=margin(best.margin.high),
                )
            )
        )
        lines.append(
            Text(
                _("Chance of winning: {win} (95%: {low} to {high})").format(
                    win=chance(best.win.mean),
                    low=chance(max(0.0, best.win.low)),
                    high=chance(min(1.0, best.win.high)),
                )
            )
        )
        lines.append(
            Text(
                _(
                    "Worked out from {n} deals of the cards you cannot see: it knows what "
                    "you know, no more. The game's record says that hints were used."
                ).format(n=found.worlds),
                style="dim",
            )
        )
        return Panel(Group(*lines), title=_("Hint"), title_align="left", border_style="blue")

    def choose(self, seat: int) -> int:
        """Ask ``seat``'s person for a decision until the answer is a legal choice."""
        _ = self._
        legal = self.show_menu(seat)
        n = len(legal)
        if self.hints_allowed:
            prompt = _(
                "Your choice (1-{n}, or an action; ? explains, h hints, b shows the table, "
                "q quits):"
            )
        else:
            prompt = _("Your choice (1-{n}, or an action; ? explains, b shows the table, q quits):")
        while True:
            text = self.ask(prompt.format(n=n)).strip()
            if not text:
                self.say(_("Type the number of your choice, from 1 to {n}.").format(n=n), "red")
                continue
            if text in {"?", "？"}:  # the full-width one comes from Chinese input methods
                view = self.state.view(seat)
                self.console.print(
                    Panel(
                        Text(self.narrator.help(view)), title=_("The rule"), border_style="yellow"
                    )
                )
                continue
            if text.lower() in BOARD_WORDS:
                self.show_table(seat)
                legal = self.show_menu(seat)
                continue
            if text.lower() in HINT_WORDS:
                if self.hints_allowed:
                    self.show_hint(seat, legal)
                else:
                    self.say(
                        _(
                            "Hints are for games with one person at the terminal: here a hint "
                            "would help one of you against the others."
                        ),
                        "red",
                    )
                continue
            number = text.rstrip(".")
            if number.isdigit():
                i = int(number)
                if 1 <= i <= n:
                    return legal[i - 1]
                self.say(
                    _("There is no choice {number}: type a number from 1 to {n}.").format(
                        number=number, n=n
                    ),
                    "red",
                )
                continue
            try:
                action = self.game.string_to_action(text)
            except NotationError:
                self.say(
                    _(
                        "“{text}” is neither a number from the list nor an action "
                        "(such as “{example}”). Type ? for the rule."
                    ).format(text=text, example=self.game.action_to_string(legal[0])),
                    "red",
                )
                continue
            if action not in legal:
                self.say(
                    _("“{text}” is not one of your choices now: pick one from the list.").format(
                        text=text
                    ),
                    "red",
                )
                continue
            return action

    # ------------------------------------------------------------------ turns

    def pass_screen(self, seat: int) -> None:
        """Hide the last hand and wait for ``seat``'s person to take the terminal."""
        self.console.clear()
        if self.console.is_terminal:
            # Clear the scrollback too, where the previous hand still is.
            self.console.file.write("\x1b[3J")
            self.console.file.flush()
        name = self.names[seat]
        self.console.print(
            Panel(
                Text(self._("Pass the terminal to {name}.").format(name=name), style="bold"),
                border_style="magenta",
            )
        )
        self.wait_enter(
            self._(
                "{name}: press Enter when only you can see the screen (q to save and quit)."
            ).format(name=name)
        )

    def human_turn(self, seat: int) -> None:
        """Show the table to ``seat``'s person and apply their choice."""
        if len(self.humans) > 1 and self.last_human != seat:
            self.pass_screen(seat)
        self.last_human = seat
        self.console.print()
        self.show_table(seat)
        action = self.choose(seat)
        self.apply(action)
        self.narrate()

    def bot_action(self, seat: int) -> int:
        """What the bot of ``seat`` chooses from its view."""
        bot = self.bots[seat]
        # Reseeded at each decision, a bot chooses the same after a resume as it would have.
        bot.rng.seed(f"play/{self.seed}/{seat}/{len(self.state.history)}")
        return bot.choose(self.state.view(seat))

    def bot_turn(self, seat: int) -> None:
        """Let the bot of ``seat`` choose from its view, then tell what happened."""
        if self.bots[seat].searches:
            # A search takes up to its time budget: show that the game has not stalled.
            thinking = self._("{name} is thinking…").format(name=self.names[seat])
            with self.console.status(thinking):
                action = self.bot_action(seat)
        else:
            action = self.bot_action(seat)
        self.apply(action)
        self.narrate()
        if self.pace > 0:
            time.sleep(self.pace)

    # ------------------------------------------------------------------ the game

    def run(self) -> int:
        """Play until the game ends or a player quits; return the exit code."""
        _ = self._
        try:
            self.save()
            title = game_title(self.game.info.name, self.narrator.lang)
            heading = (
                _("{game} · seed {seed} · {seats}")
                if self.position is None
                else _("{game} · from a position (seed {seed}) · {seats}")
            )
            self.say(
                heading.format(game=title, seed=self.seed, seats=_(", ").join(self.names)),
                "bold",
            )
            if self.resumed:
                self.narrate(quiet=True)
                self.say(
                    _("Resumed from {path} after {n} actions.").format(
                        path=self.path, n=len(self.state.history)
                    )
                )
            else:
                self.say(_("The game is saved after every move in {path}").format(path=self.path))
                self.narrate()
            if self.hints_allowed:
                intro = _(
                    "Answer with a number or an action; ? explains the rule, h gives a hint "
                    "(the game's record then says so), b shows the table, q saves and quits."
                )
            else:
                intro = _(
                    "Answer with a number or an action; ? explains the rule, b shows the "
                    "table, q saves and quits."
                )
            self.say(intro, "dim")
            while not self.state.is_terminal():
                seat = self.state.current_player
                assert seat is not None
                if self.seats[seat] == HUMAN:
                    self.human_turn(seat)
                else:
                    self.bot_turn(seat)
            self.narrate()
            self.console.print(self.screen.final_summary(self.state.view(self.watcher)))
            self.say(_("The record of this game is in {path}").format(path=self.path))
            self.closing()
            return 0
        except _Quit:
            self.save()
            self.saved_message()
            return 0
        except EOFError:
            self.save()
            self.console.print()
            self.saved_message()
            return 0
        except KeyboardInterrupt:
            self.save()
            self.console.print()
            self.saved_message()
            return 130
        except (Hangup, BrokenPipeError):
            # Nobody is left to read a message: keep the game and go.
            self.save()
            return 129


def _recorded_actions(game: Game, state: State, fresh: State) -> list[RecordedAction]:
    """The record lines of ``state``'s history, replayed on ``fresh`` to learn the seats.

    ``fresh`` is the game's first state: the deal, or the position it started from.
    """
    out = []
    for action in state.history:
        seat = fresh.current_player
        assert seat is not None
        out.append(RecordedAction(seat, game.action_to_string(action)))
        fresh.apply(action)
    return out


# ---------------------------------------------------------------------- starting


def _raise_hangup(signum: int, frame: FrameType | None) -> None:
    raise Hangup


@contextlib.contextmanager
def _hangup_handlers() -> Iterator[None]:
    """Turn SIGHUP and SIGTERM into ``Hangup`` while a game runs (main thread only)."""
    saved: dict[int, Any] = {}
    for name in ("SIGHUP", "SIGTERM"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        with contextlib.suppress(ValueError):
            saved[sig] = signal.signal(sig, _raise_hangup)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def read_position_argument(text: str, tr: gettext.NullTranslations) -> str:
    """The position ``--position`` gives: its text, or with ``@FILE`` the file's (UTF-8).

    Raises ``SetupError`` for a file that cannot be read or is longer than a position may be.
    """
    _ = tr.gettext
    if not text.startswith("@"):
        return text
    path = text[1:]
    try:
        with open(path, encoding="utf-8") as file:
            content = file.read(MAX_POSITION_CHARS + 1)
    except OSError as exc:
        raise SetupError(
            _("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        ) from None
    except UnicodeDecodeError as exc:
        raise SetupError(
            _("cannot read {path}: {reason}").format(path=path, reason=f"not UTF-8 ({exc.reason})")
        ) from None
    if len(content) > MAX_POSITION_CHARS:
        raise SetupError(
            _("{path} is longer than a position may be ({n} characters)").format(
                path=path, n=MAX_POSITION_CHARS
            )
        )
    return content.removeprefix("\ufeff")


def position_refused(exc: PositionError, tr: gettext.NullTranslations) -> SetupError:
    """The error for a position the game refuses: its field and reason, in the user's words."""
    _ = tr.gettext
    if exc.field is None:
        return SetupError(_("the position is refused: {reason}").format(reason=exc.reason))
    return SetupError(
        _("the position is refused, field “{field}”: {reason}").format(
            field=exc.field, reason=exc.reason
        )
    )


def new_session(
    *,
    game_name: str,
    seats_text: str,
    seed: int | None,
    lang: str,
    save: str | None,
    options: dict[str, Any] | None = None,
    position: str | None = None,
) -> tuple[Game, State, list[str], int, Path, str | None]:
    """Set up a new game from the command line's choices (raises ``SetupError``).

    ``options`` are the rules options besides the player count (the number of seats).
    With ``position`` (its text), the game starts from that position instead of a deal:
    the position's own seed decides later shuffles. Returns the game, its first state, the
    seat kinds, the seed, the record's path and the position's canonical text (or ``None``).
    """
    tr = translations(lang)
    _ = tr.gettext
    if game_name not in available_games():
        raise SetupError(
            _("unknown game “{game}” (known: {games})").format(
                game=game_name, games=", ".join(available_games())
            )
        )
    seats = parse_seats(seats_text, tr)
    info = game_class(game_name).info
    if not info.min_players <= len(seats) <= info.max_players:
        raise SetupError(
            _("{game} needs {low} to {high} seats, not {n}").format(
                game=game_title(game_name, lang),
                low=info.min_players,
                high=info.max_players,
                n=len(seats),
            )
        )
    chosen = dict(options or {})
    if chosen.pop("players", len(seats)) != len(seats):
        raise SetupError(_("the number of players is the number of seats: leave out players"))
    try:
        game = load_game(game_name, players=len(seats), **chosen)
    except (OptionError, TypeError, ValueError) as exc:
        raise SetupError(
            _("bad rules option: {reason}").format(reason=_one_line(str(exc)))
        ) from None
    canonical = None
    if position is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        state = game.new_game(seed)
    else:
        if seed is not None:
            raise SetupError(
                _("a position names its own seed (its “seed” field): leave out --seed")
            )
        reader = getattr(game, "state_from_position", None)
        if not callable(reader):
            raise SetupError(
                _("{game} has no position notation yet").format(game=game_title(game_name, lang))
            )
        try:
            # Played from its canonical text, as the record replays it.
            canonical = str(reader(position).to_position())
            state = reader(canonical)
        except PositionError as exc:
            raise position_refused(exc, tr) from None
        if state.is_terminal():
            raise SetupError(_("the game is over in this position: there is nothing to play"))
        seed = state.seed
    path = Path(save) if save else default_record_path(game_name, seed)
    return game, state, seats, seed, path, canonical


def resumed_session(
    *, resume: str, tr: gettext.NullTranslations, save: str | None
) -> tuple[Game, State, list[str], int, Path, str | None, bool]:
    """Read the game of a record file back (raises ``SetupError`` naming what is wrong).

    Returns the game, its state, the seat kinds, the seed, the record's path, the position's
    canonical text (or ``None``) and whether a hint was shown.
    """
    _ = tr.gettext
    try:
        record = GameRecord.read(resume)
        state = replay(record)
    except OSError as exc:
        raise SetupError(
            _("cannot read {path}: {reason}").format(path=resume, reason=exc.strerror or exc)
        ) from None
    except (RecordError, ValueError) as exc:
        raise SetupError(
            _("{path} is not a game that can be resumed: {reason}").format(
                path=resume, reason=_one_line(str(exc))
            )
        ) from None
    known = {HUMAN, *available_bots()}
    if not all(s in known for s in record.seats):
        raise SetupError(
            _(
                "{path} was not saved by closingbell play: its seats ({seats}) are not "
                "“you” or bots"
            ).format(path=resume, seats=", ".join(record.seats))
        )
    return (
        state.game,
        state,
        list(record.seats),
        record.seed,
        Path(save or resume),
        record.position,
        record.hinted,
    )


def play(
    *,
    game_name: str = "take_stock",
    seats: str | None = None,
    seed: int | None = None,
    lang: str = "en",
    resume: str | None = None,
    save: str | None = None,
    pace: float = 0.0,
    console: Console | None = None,
    read_line: LineReader | None = None,
    game_given: bool = False,
    program: str = "closingbell",
    options: dict[str, Any] | None = None,
    position: str | None = None,
) -> int:
    """Start (or resume) a game at the terminal and play it; return the exit code.

    ``program`` is how closingbell is run from the user's shell (``.venv/bin/closingbell``),
    for the hint on resuming a saved game. ``options`` are rules options (the player count
    is the number of seats); ``position`` is a position's text, or ``@FILE`` for a file
    holding one: the game starts from it (docs/positions.md).
    """
    tr = translations(lang)
    _ = tr.gettext
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        if resume is not None:
            if seats is not None or seed is not None or game_given or options or position:
                raise SetupError(
                    _(
                        "--resume goes on with the saved game: leave out --game, --seats, "
                        "--seed, --option and --position"
                    )
                )
            game, state, seat_kinds, seed, path, start, hinted = resumed_session(
                resume=resume, tr=tr, save=save
            )
        else:
            hinted = False
            game, state, seat_kinds, seed, path, start = new_session(
                game_name=game_name,
                seats_text=seats if seats is not None else "you,medium,medium",
                seed=seed,
                lang=lang,
                save=save,
                options=options,
                position=None if position is None else read_position_argument(position, tr),
            )
        cls = screen_class(game.info.name)
        if cls is None:
            raise SetupError(
                _("there is no terminal screen for {game} yet").format(
                    game=game_title(game.info.name, lang)
                )
            )
        console = console or Console(highlight=False)
        names = player_names(seat_kinds, lang)
        session = Session(
            game=game,
            state=state,
            seats=seat_kinds,
            seed=seed,
            screen=cls(game, names, lang),
            tr=tr,
            console=console,
            read_line=read_line or console_reader(console),
            path=path,
            pace=pace,
            resumed=resume is not None,
            program=program,
            position=start,
            hinted=hinted,
        )
        try:
            session.save()
        except OSError as exc:
            raise SetupError(
                _("cannot save the game in {path}: {reason}").format(
                    path=path, reason=exc.strerror or exc
                )
            ) from None
    except SetupError as exc:
        err.print(Text(_("closingbell play: {message}").format(message=str(exc))))
        return EXIT_USAGE
    with _hangup_handlers():
        return session.run()
