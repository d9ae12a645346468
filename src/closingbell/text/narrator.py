"""What every game's narrator offers: its game in words, in one language.

A narrator turns views, actions and the log events a seat may read into sentences, and
names the game's cards. It sees only views and visible events, never a state, so it can
say nothing its reader may not know. The terminal (:mod:`closingbell.tui`) and the web
server both use it; it imports neither. Why one action beats another (:func:`explanation`)
is told the same way in every game: each game's facts say what an action does, and this
module sets two actions apart by them, in the ``common`` catalog's words.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.text.i18n import translations

if TYPE_CHECKING:
    from closingbell.bots.analysis import DecisionAnalysis


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

    def explain(self, view: View, taken: int, preferred: int, analysis: DecisionAnalysis) -> str:
        """Why ``preferred`` beats ``taken`` in ``view``'s decision, in the game's terms.

        One sentence names what the two actions change in the game (a price, the Limit, a
        purchase, the bank...), read from ``view`` alone, then one gives what ``analysis``
        (of that same view) measured the choice to cost. Raises ``ValueError`` when either
        action is not legal in ``view`` or ``analysis`` is of another seat.
        """

    def doing(self, view: View, action: int) -> str:
        """``action`` as a short phrase that can begin a sentence ("raising Oil to 9")."""

    def facts(self, view: View, action: int) -> list[Fact]:
        """What ``action`` does in ``view``'s position, as phrases that follow :meth:`doing`."""

    def amount(self, margin: float, *, unit: bool = True) -> str:
        """A mean final margin in the game's unit: "3.3 points", "$42".

        Without ``unit``, as the ends of an interval that follows the figure: "3.3", "$42".
        """


@dataclass(frozen=True)
class OptionWords:
    """One rules option for people, in one language."""

    label: str
    """Its name ("Rounds")."""
    help: str
    """One or two sentences saying what it changes."""
    choices: Mapping[object, str] = field(default_factory=dict)
    """For an option with a fixed set of values: each value's label."""


@dataclass(frozen=True)
class Cost:
    """What choosing one action rather than another cost, as an analysis measured it."""

    margin: float
    """The final margin lost, on average over the worlds (positive: the choice was worse)."""
    low: float
    """The lower end of the loss's 95% interval."""
    high: float
    """The upper end of the loss's 95% interval."""
    win_taken: float
    """The chance of winning after the action taken."""
    win_preferred: float
    """The chance of winning after the preferred action."""
    horizon: str = "game"
    """Where the analysis looked: ``"game"`` (the margin and chances are final) or ``"round"``
    (Take Stock: the standing and the chance of leading at the round's end)."""


def cost_of(analysis: DecisionAnalysis, taken: int, preferred: int) -> Cost:
    """What ``taken`` cost against ``preferred`` in ``analysis`` (``KeyError``: not legal).

    Against the analysis's best action the interval is the paired one it measured (over the
    fresh worlds when the analysis measured ``taken`` again, ``analysis.checked``). Against
    another action it is wider, the two actions' half-widths added (never narrower than the
    paired interval would be).
    """
    took, prefer = analysis.value_of(taken), analysis.value_of(preferred)
    margin = prefer.margin.mean - took.margin.mean
    checked = analysis.checked
    if preferred == analysis.best and checked is not None and checked[0] == taken:
        margin, half = -checked[1].mean, checked[1].half_width  # over the fresh worlds
    elif preferred == analysis.best:
        half = took.behind.half_width
    else:
        half = took.behind.half_width + prefer.behind.half_width
    return Cost(
        margin=margin,
        low=margin - half,
        high=margin + half,
        win_taken=took.win.mean,
        win_preferred=prefer.win.mean,
        horizon=analysis.horizon,
    )


def cost_sentence(cost: Cost, amount: Callable[[float], str], *, falls: str, stays: str) -> str:
    """What a choice cost, in one sentence of a game's words.

    ``falls`` (when the chance of winning falls, in whole percents) and ``stays`` are
    templates with ``{margin}``, ``{low}`` and ``{high}``, figures in the game's unit by
    ``amount``, and the chances of winning ``{before}`` and ``{after}``.
    """
    figures = {
        "margin": amount(cost.margin),
        "low": amount(cost.low),
        "high": amount(cost.high),
        "before": percent(cost.win_preferred),
        "after": percent(cost.win_taken),
    }
    fell = round(100 * cost.win_preferred) > round(100 * cost.win_taken)
    return (falls if fell else stays).format(**figures)


def check_explained(view: View, taken: int, preferred: int, analysis: DecisionAnalysis) -> None:
    """Refuse, with the reason, what :meth:`Narrator.explain` cannot explain."""
    if view.seat is None or analysis.seat != view.seat:
        raise ValueError(f"the analysis is of seat {analysis.seat}, not of this view's seat")
    legal = set(getattr(view, "legal_actions", ()))
    for name, action in (("taken", taken), ("preferred", preferred)):
        if action not in legal:
            raise ValueError(f"the {name} action {action!r} is not legal in this view")
    known = {v.action for v in analysis.actions}
    if not {taken, preferred} <= known:
        raise ValueError("the analysis does not value both actions: it is of another decision")


@dataclass(frozen=True)
class Fact:
    """One thing an action does in a position, as a phrase, with how much it tells."""

    text: str
    """The phrase, which follows the action's own short name ("adds 16 points to ...")."""
    weight: int
    """How telling it is: of an action's facts, the heaviest is the one said."""
    same: tuple[object, ...] | None = None
    """What it says with the card, stock or suit it is about left out, or ``None``: its text.
    Two actions' facts with the same ``same`` say one thing of each ("a certificate worth
    6 points", of Gem and of Corn), so neither tells the two apart."""

    @property
    def gist(self) -> object:
        """What the fact says, to compare with another action's facts."""
        return self.text if self.same is None else self.same


def telling(taken: Sequence[Fact], preferred: Sequence[Fact]) -> tuple[str | None, str | None]:
    """The fact to tell of each action: its heaviest one that the other does not share.

    A fact is shared when the other action has one with the same text or the same
    :attr:`Fact.gist`: both are ``None`` when every fact of each is shared (see
    :func:`alike`).
    """
    texts = {f.text for f in taken} & {f.text for f in preferred}
    gists = {f.gist for f in taken} & {f.gist for f in preferred}

    def pick(facts: Sequence[Fact]) -> str | None:
        kept = [f for f in facts if f.text not in texts and f.gist not in gists]
        kept.sort(key=lambda f: -f.weight)
        return kept[0].text if kept else None

    return pick(taken), pick(preferred)


def alike(taken: Sequence[Fact], preferred: Sequence[Fact]) -> bool:
    """Whether the two actions' facts say the same things: some, and none told apart.

    Then no fact sets them apart in what the seat sees, and a reason says so rather than
    state one clause twice.
    """
    return bool(taken) and bool(preferred) and telling(taken, preferred) == (None, None)


def capital(text: str) -> str:
    """``text`` with its first letter in capitals (a sentence may begin with a phrase)."""
    return text[:1].upper() + text[1:]


def percent(chance: float) -> str:
    """A chance as a whole percentage: ``"46%"``."""
    return f"{round(100 * chance)}%"


class Telling(Protocol):
    """What :func:`explanation` asks of a game's narrator: its language and its facts."""

    lang: str
    """The language of every word."""

    def doing(self, view: View, action: int) -> str:
        """``action`` as a short phrase that can begin a sentence (:meth:`Narrator.doing`)."""

    def facts(self, view: View, action: int) -> list[Fact]:
        """What ``action`` does in ``view``'s position (:meth:`Narrator.facts`)."""


def explanation(
    words: Telling,
    view: View,
    taken: int,
    preferred: int,
    analysis: DecisionAnalysis,
    *,
    cost: Callable[[Cost], str],
) -> str:
    """Why ``preferred`` beats ``taken`` in ``view``'s decision: :meth:`Narrator.explain`.

    The first sentence sets the two actions apart by their :meth:`Telling.facts` (see
    :func:`telling`); the second is ``cost`` of what ``analysis`` measured the choice to
    cost, in the game's unit. ``ValueError`` as :func:`check_explained` says.
    """
    check_explained(view, taken, preferred, analysis)
    _ = translations(words.lang).gettext
    if taken == preferred:
        return _("This is the action the analysis prefers.")
    why = _why(words, view, taken, preferred)
    return _("{why} {cost}").format(why=why, cost=cost(cost_of(analysis, taken, preferred)))


def _why(words: Telling, view: View, taken: int, preferred: int) -> str:
    """What sets ``taken`` and ``preferred`` apart in ``view``, as one sentence."""
    _ = translations(words.lang).gettext
    taken_facts, preferred_facts = words.facts(view, taken), words.facts(view, preferred)
    told, prefer = telling(taken_facts, preferred_facts)
    said = {"taken": words.doing(view, taken), "preferred": words.doing(view, preferred)}
    if alike(taken_facts, preferred_facts):
        text = _(
            "From what you can see now, {taken} and {preferred} differ little; the "
            "analysis prefers {preferred} because it did better when the deals that fit "
            "what you can see were played out."
        ).format(**said)
    elif told is not None and prefer is not None:
        text = _("{taken} {taken_fact}, while {preferred} {preferred_fact}.").format(
            taken_fact=told, preferred_fact=prefer, **said
        )
    elif told is not None:
        text = _("{taken} {taken_fact}; the analysis prefers {preferred}.").format(
            taken_fact=told, **said
        )
    elif prefer is not None:
        text = _("The analysis prefers {preferred}, which {preferred_fact}.").format(
            preferred_fact=prefer, **said
        )
    else:
        text = _(
            "The analysis prefers {preferred} to {taken}: it does better in the deals "
            "that fit what you can see."
        ).format(**said)
    return capital(text)
