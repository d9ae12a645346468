"""What the players type at the terminal: where lines come from, and what an answer names."""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Callable, Iterator, Sequence

from rich.console import Console
from rich.text import Text

from closingbell.core.errors import NotationError
from closingbell.core.game import Game

QUIT_WORDS = frozenset({"q", "quit", "exit"})
"""What a player types to save the game and stop."""

BOARD_WORDS = frozenset({"b", "board"})
"""What a player types to see the table and the choices again."""

HINT_WORDS = frozenset({"h", "hint"})
"""What a player types for a hint: the analysis's preferred choice and what it is worth."""


class Quit(Exception):
    """The player asked to stop."""


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


def read_choice(
    text: str, legal: Sequence[int], game: Game, tr: gettext.NullTranslations
) -> int | str:
    """The action of ``legal`` that ``text`` names, or why it names none (in the user's words).

    ``text`` names an action by its number in the menu or by the action's own text form.
    """
    _ = tr.gettext
    n = len(legal)
    number = text.rstrip(".")
    if number.isdigit():
        i = int(number)
        if 1 <= i <= n:
            return legal[i - 1]
        return _("There is no choice {number}: type a number from 1 to {n}.").format(
            number=number, n=n
        )
    try:
        action = game.string_to_action(text)
    except NotationError:
        return _(
            "“{text}” is neither a number from the list nor an action "
            "(such as “{example}”). Type ? for the rule."
        ).format(text=text, example=game.action_to_string(legal[0]))
    if action not in legal:
        return _("“{text}” is not one of your choices now: pick one from the list.").format(
            text=text
        )
    return action
