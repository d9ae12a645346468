"""The words of a hint that are the game's: why the analysis prefers its action.

The terminal and the page show a hint's preferred action as they show any action (the
narrator's ``describe_action``) with what the analysis says it is worth; the sentences saying
why it is preferred come from here, so that both front ends say the same.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from closingbell.core.view import View
from closingbell.text.i18n import translations
from closingbell.text.narrator import (
    Narrator,
    alike,
    capital,
    check_explained,
    cost_of,
    telling,
)

_common = cache(translations)
"""The common catalog of a language, read once."""

if TYPE_CHECKING:  # the analysis is the bots'; the words only read its result
    from closingbell.bots.analysis import DecisionAnalysis


def hint_reason(narrator: Narrator, view: View, analysis: DecisionAnalysis) -> str | None:
    """Why ``analysis`` prefers its first action at ``view``'s decision to the next best.

    Two sentences, from the preferred action's side: what it does in the game that the next
    best does not (the narrator's facts, read from ``view`` alone; or, when every fact of
    each is the other's too, that little the seat sees sets the two apart, and that the
    play-outs favour it when they do), then how far it leads,
    with the interval, only when the analysis tells the two apart (the interval is above
    zero); otherwise that the next best is about as good. ``None`` when the decision has one
    action only; ``ValueError`` for an analysis of another seat.
    """
    if len(analysis.actions) < 2:
        return None
    best, other = analysis.best, analysis.actions[1].action
    check_explained(view, other, best, analysis)
    _ = _common(narrator.lang).gettext
    facts, other_facts = narrator.facts(view, best), narrator.facts(view, other)
    fact, other_fact = telling(facts, other_facts)
    words = {"preferred": narrator.doing(view, best), "other": narrator.doing(view, other)}
    lead = cost_of(analysis, other, best)
    if alike(facts, other_facts) and lead.low > 0:
        why = _(
            "From what you can see now, {preferred} and {other} differ little, yet "
            "{preferred} did better when the deals that fit what you can see were played out."
        )
    elif alike(facts, other_facts):
        why = _("From what you can see now, {preferred} and {other} differ little.")
    elif fact is not None and other_fact is not None:
        why = _("{preferred} {fact}, while {other} {other_fact}.")
    elif fact is not None:
        why = _("{preferred} {fact}, which {other} does not.")
    elif other_fact is not None:
        why = _("The analysis prefers {preferred} to {other}, which {other_fact}.")
    else:
        why = _("{preferred} does better than {other} in the deals that fit what you can see.")
    why = capital(why.format(fact=fact, other_fact=other_fact, **words))
    if lead.low > 0:
        worth = _("It leads by about {margin} of final margin ({low} to {high}).").format(
            margin=narrator.amount(lead.margin),
            low=narrator.amount(lead.low, unit=False),
            high=narrator.amount(lead.high, unit=False),
        )
    else:
        worth = capital(
            _("{other} is about as good: the analysis cannot tell the two apart.").format(**words)
        )
    return _("{why} {worth}").format(why=why, worth=worth)
