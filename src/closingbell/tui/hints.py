"""The hint panel: the analysis's preferred choice, its number in the menu and its worth."""

from __future__ import annotations

import gettext
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from closingbell.bots.analysis import DecisionAnalysis
from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.text.hints import hint_reason
from closingbell.text.narrator import Narrator


def hint_panel(
    view: View,
    found: DecisionAnalysis,
    legal: Sequence[int],
    *,
    game: Game,
    narrator: Narrator,
    tr: gettext.NullTranslations,
) -> Panel:
    """A hint as the terminal shows it: the preferred choice, its number and its worth."""
    _ = tr.gettext
    best = found.actions[0]
    money = game.info.name == "card_stock_market"

    def margin(x: float) -> str:
        if money:
            dollars = round(x)
            return f"+${dollars}" if dollars > 0 else f"-${-dollars}" if dollars else "$0"
        return f"{x:+.1f}" if round(x, 1) else "0"

    def chance(x: float) -> str:
        return f"{round(100 * x)}%"

    action = narrator.describe_action(view, best.action)
    head = Text(
        _("Hint: {number}. {action}").format(number=legal.index(best.action) + 1, action=action),
        style="bold",
    )
    head.append(f"   [{game.action_to_string(best.action)}]", style="dim")
    lines: list[RenderableType] = [head]
    reason = hint_reason(narrator, view, found)
    if reason:  # the narrator's explanation, once it gives one
        lines.append(Text(reason))
    lines.append(
        Text(
            _("Expected lead at the end: {margin} (95%: {low} to {high})").format(
                margin=margin(best.margin.mean),
                low=margin(best.margin.low),
                high=margin(best.margin.high),
            )
        )
    )
    lines.append(
        Text(
            _("Chance of winning: {win} (95%: {low} to {high})").format(
                win=chance(best.win.mean),
                low=chance(max(0.0, best.win.low)),
                high=chance(min(1.0, best.win.high)),
            )
        )
    )
    lines.append(
        Text(
            _(
                "Worked out from {n} deals of the cards you cannot see: it knows what "
                "you know, no more. The game's record says that hints were used."
            ).format(n=found.worlds),
            style="dim",
        )
    )
    return Panel(Group(*lines), title=_("Hint"), title_align="left", border_style="blue")
