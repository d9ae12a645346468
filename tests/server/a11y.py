"""Accessibility checks of a page in the browser tests: axe-core run by Playwright.

axe-core comes inside the ``axe-playwright-python`` package (``axe.min.js``, pinned in
pyproject.toml's dev extra): it is injected into the page and run there, and fetches
nothing. Use::

    from tests.server.a11y import assert_accessible

    page.goto(base + "/")
    page.wait_for_selector("#create-table")
    assert_accessible(page, "lobby, zh-Hant, phone")

which fails with one readable paragraph per serious or critical violation (the rule, its
impact, what it asks, each offending element's selector and what axe found wrong there).
:func:`violations` returns them as data instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from axe_playwright_python.sync_playwright import Axe

SEVERE = ("serious", "critical")
"""The impacts that fail a page: axe-core's two highest of four."""

VIEWPORTS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
"""The window sizes the pages are checked at (Playwright's ``viewport``)."""

_AXE = Axe()


@dataclass(frozen=True)
class Violation:
    """One axe-core rule that elements of a page break."""

    rule: str
    """The rule's id, such as ``color-contrast``."""
    impact: str
    """How much it hurts: ``minor``, ``moderate``, ``serious`` or ``critical``."""
    help: str
    """What the rule asks, in one sentence."""
    url: str
    """The rule's explanation and fixes on Deque's site."""
    targets: tuple[tuple[str, str], ...]
    """Each offending element: its CSS selector and what axe found wrong there."""

    def __str__(self) -> str:
        lines = [f"{self.rule} ({self.impact}): {self.help}  <{self.url}>"]
        for selector, summary in self.targets:
            lines.append(f"    {selector}")
            lines += [f"        {line.strip()}" for line in summary.splitlines() if line.strip()]
        return "\n".join(lines)


def _selector(target: list[Any]) -> str:
    # A target is a list of selectors, one per frame or shadow root on the way in.
    return " >>> ".join(" ".join(part) if isinstance(part, list) else part for part in target)


def violations(page: Any, impacts: tuple[str, ...] = SEVERE) -> list[Violation]:
    """The axe-core violations of ``page`` as it is now, of the given ``impacts``."""
    found = _AXE.run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [
        Violation(
            rule=v["id"],
            impact=v["impact"],
            help=v["help"],
            url=v["helpUrl"],
            targets=tuple(
                (_selector(node["target"]), node.get("failureSummary") or "") for node in v["nodes"]
            ),
        )
        for v in found
        if v["impact"] in impacts
    ]


def report(found: list[Violation], where: str = "the page") -> str:
    """``found`` as readable text, one paragraph per violation."""
    head = f"{len(found)} serious or critical accessibility violation(s) on {where}:"
    return "\n".join([head, *map(str, found)])


def assert_accessible(page: Any, where: str = "the page") -> None:
    """Fail, with :func:`report`, if ``page`` has serious or critical violations."""
    found = violations(page)
    assert not found, report(found, where)
