"""The words of a hint that are the game's: why the analysis prefers its action.

The terminal and the page show a hint's preferred action as they show any action (the
narrator's ``describe_action``) with what the analysis says it is worth; the sentence saying
why it beats the others comes from here, so that both front ends say the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from closingbell.core.view import View
from closingbell.text.narrator import Narrator

if TYPE_CHECKING:  # the analysis is the bots'; the words only read its result
    from closingbell.bots.analysis import DecisionAnalysis


def hint_reason(narrator: Narrator, view: View, analysis: DecisionAnalysis) -> str | None:
    """Why ``analysis`` prefers its first action at ``view``'s decision, in one sentence.

    ``None`` for now: the narrators do not explain yet why one action beats another. When
    they do, this is the one place to ask them (with the preferred action and the next
    best, ``analysis.actions[0]`` and ``[1]``); the terminal and the page then show the
    sentence under the preferred action, and the ``hint`` message carries it as ``reason``.
    """
    return None
