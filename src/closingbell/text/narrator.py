"""What every game's narrator offers: its game in words, in one language.

A narrator turns views, actions and the log events a seat may read into sentences, and
names the game's cards. It sees only views and visible events, never a state, so it can
say nothing its reader may not know. The terminal (:mod:`closingbell.tui`) and the web
server both use it; it imports neither.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from closingbell.core.game import Game
from closingbell.core.view import View


class Narrator(Protocol):
    """One game's words for one table, in one language."""

    game: Game
    """The game being played (its rules options change some words)."""
    names: Sequence[str]
    """Each seat's name, as the sentences call it."""
    lang: str
    """The language of every word (a key of :data:`closingbell.text.i18n.LANGS`)."""
    tr: gettext.NullTranslations
    """The game's message catalog in ``lang``."""

    def prompt(self, view: View) -> str:
        """The question the current decision asks, such as "Your turn: choose one action."."""

    def help(self, view: View) -> str:
        """The rule behind the current decision, in a few sentences."""

    def describe_action(self, view: View, action: int) -> str:
        """``action`` in words, in the position ``view`` shows ("Raise Oil to 7 (+3)")."""

    def describe_event(self, event: dict[str, Any]) -> str | None:
        """One visible log event in words, or ``None`` for events not worth a line."""

    def vocabulary(self) -> dict[str, Any]:
        """The game's names as data (cards by id, stocks or suits, events), for drawing."""


@dataclass(frozen=True)
class OptionWords:
    """One rules option for people, in one language."""

    label: str
    """Its name ("Rounds")."""
    help: str
    """One or two sentences saying what it changes."""
    choices: Mapping[object, str] = field(default_factory=dict)
    """For an option with a fixed set of values: each value's label."""
