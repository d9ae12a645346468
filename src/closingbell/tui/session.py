"""The terminal game's session: one play loop for every game, drawn by that game's screen.

A session holds the live state, the seats (``you`` for a person at this terminal, or a
bot's kind) and the record of the game, which is written again after every action so
that quitting at any moment (``q``, Ctrl-C, end of input, a closed terminal) loses
nothing. People see only views and the log events their seat may read: with one person
at the table, their seat's; with several (hot-seat) or none, what everyone sees.
"""

from __future__ import annotations

import gettext
import shlex
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from closingbell.bots import make_bot
from closingbell.bots.base import Bot
from closingbell.bots.hints import hint
from closingbell.core.game import Game, State
from closingbell.core.records import GameRecord, RecordedAction, RecordResult, start_from_position
from closingbell.text.names import HUMAN, game_title
from closingbell.tui.hints import hint_panel
from closingbell.tui.reading import (
    BOARD_WORDS,
    HINT_WORDS,
    QUIT_WORDS,
    LineReader,
    Quit,
    read_choice,
)
from closingbell.tui.saving import recorded_actions, write_atomically
from closingbell.tui.screen import GameScreen
from closingbell.tui.signals import Hangup

RECENT = 6
"""How many of the last things that happened the table shows."""


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
        self.recorded: list[RecordedAction] = recorded_actions(game, state, self.start())
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
        """Read one line (quit words raise ``Quit``)."""
        line = self.read_line(Text(prompt + " ", style="bold green"))
        if line.strip().lower() in QUIT_WORDS:
            raise Quit
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
        self.console.print(
            hint_panel(view, found, legal, game=self.game, narrator=self.narrator, tr=self.tr)
        )

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
            answer = read_choice(text, legal, self.game, self.tr)
            if isinstance(answer, str):
                self.say(answer, "red")
                continue
            return answer

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
        except Quit:
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
