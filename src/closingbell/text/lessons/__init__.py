"""The words of the guided first games' lessons, in English and Traditional Chinese.

Each game's lessons (:mod:`closingbell.learn`) are worded in a module named after the
game, whose messages are in that game's catalog, so a lesson calls stocks, cards and
events what the game's narrator calls them. A lesson has a title, an explanation that
holds at any time (the summary at the end of a game shows these for lessons whose moment
never came), and, when it fires, a sentence on what just happened, filled from the fields
its trigger saw. Like the narrators, nothing here reads a state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from closingbell.text.narrator import Narrator


@dataclass(frozen=True)
class LessonText:
    """One lesson in words."""

    lesson: str
    """The lesson's id."""
    title: str
    """A few words naming it ("The Limit rule")."""
    happened: str | None
    """What just happened, in one sentence; ``None`` in a summary."""
    explanation: str
    """The rule or the idea, in a few sentences."""


class LessonWords(Protocol):
    """One game's lessons in one language."""

    def ids(self) -> tuple[str, ...]:
        """Every lesson that has words."""

    def tell(self, lesson: str, fields: Mapping[str, Any]) -> LessonText:
        """The lesson ``lesson`` as it fires, with ``fields`` from its trigger."""

    def summary(self, lesson: str) -> LessonText:
        """The lesson ``lesson`` without a moment: its title and explanation."""


Happened = Callable[[Mapping[str, Any]], str]
"""What just happened, in one sentence, from the fields of a lesson's trigger."""


class GameLessons:
    """What one game's lessons hold, by lesson id: a title, an explanation, what happened."""

    titles: dict[str, str]
    """Each lesson's title."""
    explanations: dict[str, str]
    """Each lesson's explanation."""
    happened: dict[str, Happened]
    """For each lesson, what just happened in words, from its fields."""

    def ids(self) -> tuple[str, ...]:
        """Every lesson that has words."""
        return tuple(self.titles)

    def tell(self, lesson: str, fields: Mapping[str, Any]) -> LessonText:
        """The lesson ``lesson`` as it fires, with ``fields`` from its trigger."""
        return LessonText(
            lesson, self.titles[lesson], self.happened[lesson](fields), self.explanations[lesson]
        )

    def summary(self, lesson: str) -> LessonText:
        """The lesson ``lesson`` without a moment: its title and explanation."""
        return LessonText(lesson, self.titles[lesson], None, self.explanations[lesson])


def lesson_words(narrator: Narrator, seat: int) -> LessonWords:
    """The lessons of ``narrator``'s game for the learner at ``seat``, in its language.

    Seats are called by the narrator's names, and the learner's own moves are told as
    "you". Raises ``KeyError`` for a game with no lessons.
    """
    from closingbell.text.lessons import (  # noqa: PLC0415 (each game's words load once asked)
        card_stock_market,
        take_stock,
    )

    name = narrator.game.info.name
    if name == "take_stock":
        return take_stock.TakeStockLessons(narrator, seat)
    if name == "card_stock_market":
        return card_stock_market.CardStockMarketLessons(narrator, seat)
    raise KeyError(f"no lessons for {name!r}")
