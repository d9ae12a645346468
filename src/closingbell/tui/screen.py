"""What the terminal front end needs from each game: its screen.

The play loop (``closingbell.tui.app``) is written once for every game. Each game gives a
``GameScreen`` that turns views, actions and log events into words and Rich renderables,
in the user's language. A screen sees only views and the events a seat may read, never a
state, so it cannot show another seat's hidden information.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from typing import Any, Protocol

from rich.console import RenderableType

from closingbell.core.game import Game
from closingbell.core.view import View


class GameScreen(Protocol):
    """One game's words and layout for the terminal."""

    game: Game
    names: Sequence[str]
    tr: gettext.NullTranslations

    def board(self, view: View) -> RenderableType:
        """The table as ``view``'s seat sees it: everything public plus its own hand."""

    def prompt(self, view: View) -> str:
        """The question the current decision asks, such as "Choose your turn action."."""

    def help(self, view: View) -> str:
        """The rule behind the current decision, shown when the player types ``?``."""

    def describe_action(self, view: View, action: int) -> str:
        """``action`` in words, in the position ``view`` shows ("Raise Oil to 7 (+3)")."""

    def describe_event(self, event: dict[str, Any]) -> str | None:
        """One visible log event in words, or ``None`` for events not worth a line."""

    def round_summary(self, view: View, event: dict[str, Any]) -> RenderableType | None:
        """The end-of-round screen for a round-scoring event (``None``: not such an event)."""

    def final_summary(self, view: View) -> RenderableType:
        """The end-of-game screen: the final scores broken down by player (and stock)."""
