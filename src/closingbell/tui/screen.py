"""What the terminal front end needs from each game: its screen.

The play loop (``closingbell.tui.session``) is written once for every game. Each game gives a
``GameScreen``: the game's narrator (:mod:`closingbell.text`), which says everything in
words, and the Rich layout of the table and the results. A screen sees only views and the
events a seat may read, never a state, so it cannot show another seat's hidden
information.
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.console import RenderableType

from closingbell.core.view import View
from closingbell.text.narrator import Narrator


class GameScreen(Protocol):
    """One game's layout for the terminal, around its narrator."""

    @property
    def narrator(self) -> Narrator:
        """The game's words: prompts, help, actions and events."""

    def board(self, view: View) -> RenderableType:
        """The table as ``view``'s seat sees it: everything public plus its own hand."""

    def round_summary(self, view: View, event: dict[str, Any]) -> RenderableType | None:
        """The end-of-round screen for a round-scoring event (``None``: not such an event)."""

    def final_summary(self, view: View) -> RenderableType:
        """The end-of-game screen: the final scores broken down by player (and stock)."""
