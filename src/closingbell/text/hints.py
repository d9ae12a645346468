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
    """Why ``analysis`` prefers its first action at ``view``'s decision to the next best.

    The narrator's :meth:`~closingbell.text.narrator.Narrator.explain` of the preferred action
    against the second (what each changes in the game, then what taking the second instead
    would cost); ``None`` when the decision has one action only.
    """
    if len(analysis.actions) < 2:
        return None
    return narrator.explain(view, analysis.actions[1].action, analysis.best, analysis)
