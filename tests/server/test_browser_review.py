"""A finished game's review on the table page, in Debian's Chromium with Playwright.

Bots finish a game; a visitor opens its review from the final screen, sees the progress,
then the chart of the seat's chance of winning with its mistakes marked and the list of
decisions, and steps the board to a mistake, where every legal action's worth and the
mistake's reason are shown. On SQLite (the page shows the same on PostgreSQL, which other
browser tests serve), on a desktop in English and a phone in Chinese (the phone picks the
other seat). The server's reviews deal a few worlds here
(``review_budget``), so that they take seconds and mark mistakes; the default is 128.
Screenshots go where tests/server/test_browser.py puts its own.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.a11y import assert_accessible
from tests.server.test_browser import (
    DESKTOP,
    _api,
    _context,
    _no_overflow,
    _no_script_errors,
    _served,
    _shot,
    _wait_until,
    browser,
)

__all__ = ["_no_script_errors", "browser"]  # the fixtures, used here too

BUDGET = 4
"""Worlds per decision of the reviews here: quick, and wide intervals mark mistakes."""
PHONE = {"width": 360, "height": 800}
"""The narrowest phone the page is made for."""


@pytest.fixture
def reviewing(tmp_path: Path) -> Iterator[str]:
    """A server on a fresh SQLite file whose reviews deal ``BUDGET`` worlds."""
    with _served("sqlite", tmp_path, allow_seed=True, review_budget=BUDGET) as base:
        yield base


SEED = 2
"""The deal of the reviewed game. On a server that takes seeds the bots' seeds follow from
it, so the game is the same every run; each seat's review marks a few mistakes (3 and 5)."""


def _finished_game(base: str) -> str:
    """A Take Stock game the bots played to its end from the deal ``SEED``; its table id."""
    table = _api(
        base, "/api/tables", {"game": "take_stock", "seats": ["random", "random"], "seed": SEED}
    )
    table_id: str = table["table"]["id"]
    deadline = time.monotonic() + 60
    while _api(base, f"/api/tables/{table_id}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return table_id


def _open_review(page: Any, base: str, table_id: str) -> None:
    """Open the table's page and its review from the final screen."""
    page.goto(f"{base}/t/{table_id}")
    page.wait_for_selector("#overlay[open] #final")
    page.click("#review-overlay")
    page.wait_for_selector("#review:not([hidden])")
    assert page.locator("#overlay[open]").count() == 0
    # The statement about views, before anything else is known.
    assert page.inner_text("#review-views").strip()


def _step_to(page: Any, index: int) -> None:
    """Wait until the replay shows the state before action ``index`` and its decision."""
    _wait_until(
        page,
        "document.getElementById('replay-slider') !== null"
        f" && document.getElementById('replay-slider').value === '{index}'",
    )
    page.wait_for_selector("#review-detail:not([hidden])")


OWN_POINTS = """mark => {
    const r = mark.getBoundingClientRect();
    const points = [[.5, .5], [.1, .1], [.9, .1], [.1, .9], [.9, .9]];
    return points.every(([fx, fy]) => {
        const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
        return hit !== null && hit.closest('.mistake-mark') === mark;
    });
}"""
"""Whether every part of a mark's box is the mark's own: no other covers it."""


IN_SIGHT = """() => {
    const box = document.getElementById('review-worth-box');
    const rect = (e) => e.getBoundingClientRect();
    const top = rect(box).top + box.clientTop;
    const bottom = Math.min(top + box.clientHeight, window.innerHeight);
    // The cells, not the rows: a row's box stays where it was when its cells stick.
    const head = rect(document.querySelector('#review-worth thead th')).bottom;
    const rows = [...document.querySelectorAll('#review-worth tbody tr')];
    const best = rows.find(r => r.querySelector('.best-tag'));
    const taken = rows.find(r => r.querySelector('.taken-tag'));
    const cell = (r) => rect(r.cells[0]);
    const pinned = cell(best).bottom;
    const whole = (r, above) => cell(r).top >= above - 1 && cell(r).bottom <= bottom + 1;
    return {
        best: whole(best, head),
        taken: taken === best || whole(taken, pinned),
        halfHidden: rows.filter(r => r !== best)
            .filter(r => cell(r).top < pinned - 1 && cell(r).bottom > pinned + 1).length,
    };
}"""
"""Whether the preferred row and the row played show whole, in the worth table's box and in
the window, and how many rows are half hidden under the header and the preferred row."""


def _every_mark_opens_its_decision(page: Any, decisions: list[dict[str, Any]], lang: str) -> None:
    """Each mistake's mark on the chart is a target of its own, of a size to tap, reached by
    the keyboard in order, and clicking it opens that decision, with both the preferred
    action's row and the played one in sight."""
    positions = {d["index"]: k for k, d in enumerate(decisions)}
    mistakes = [d for d in decisions if d["mistake"]]
    marks = page.locator("#review-chart .mistake-mark")
    assert [int(i) for i in marks.evaluate_all("ms => ms.map(m => m.dataset.index)")] == [
        d["index"] for d in mistakes
    ]
    boxes = []
    for i in range(marks.count()):
        marks.nth(i).scroll_into_view_if_needed()
        box = marks.nth(i).bounding_box()
        assert box is not None and box["width"] >= 24 and box["height"] >= 22, box
        assert marks.nth(i).evaluate(OWN_POINTS), f"mark {i} is covered"
        boxes.append(box)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"]
                or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"]
                or b["y"] + b["height"] <= a["y"]
            )
            assert apart, (a, b)
    # The keyboard goes from one mark to the next.
    marks.first.focus()
    for d in mistakes[1:]:
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.index") == str(d["index"])
    # A click on each opens its own decision.
    heading = "Decision {k} of" if lang == "en" else "第 {k} 個決定"
    for d in mistakes:
        page.locator(f"#review-chart .mistake-mark[data-index='{d['index']}']").click()
        _step_to(page, d["index"])
        current = page.get_attribute("#review-list button[aria-current='true']", "data-index")
        assert current == str(d["index"])
        assert heading.format(k=positions[d["index"]] + 1) in page.inner_text("#review-detail h2")
        # Both the preferred action and the one played are in sight, none half hidden.
        sight = page.evaluate(IN_SIGHT)
        assert sight == {"best": True, "taken": True, "halfHidden": 0}, (d["index"], sight)


def test_a_finished_games_review_steps_the_board_to_its_mistakes(
    browser: Any, reviewing: str
) -> None:
    base = reviewing
    table_id = _finished_game(base)

    # A desktop in English: the first seat (random bots make mistakes the review confirms).
    context = _context(browser, DESKTOP, "en")
    try:
        page = context.new_page()
        _open_review(page, base, table_id)
        assert "only what Random 1 knew" in page.inner_text("#review-views")
        assert "not the luck" in page.inner_text("#review-views")
        # Progress while it is worked out, then the review (a few seconds at this budget).
        page.wait_for_selector("#review-list", timeout=120_000)
        review = _api(base, f"/api/tables/{table_id}/review?seat=0&lang=en")["review"]
        decisions = review["decisions"]
        mistakes = [d for d in decisions if d["mistake"]]
        assert mistakes, "no mistake was marked at this budget"
        assert page.locator("#review-list li").count() == len(decisions)
        assert page.locator("#review-list li.mistake").count() == len(mistakes)
        summary = page.inner_text("#review-summary")
        assert f"{len(mistakes)} mistake" in summary and f"{len(decisions)} decisions" in summary
        # The chart: an inline SVG with the chance of winning and the mistakes marked.
        assert page.locator("#review-chart svg polyline.line").count() == 2
        assert page.locator("#review-chart .mistake-mark").count() == len(mistakes)
        assert page.get_attribute("#review-chart svg", "aria-labelledby")
        _no_overflow(page)
        _shot(page, "review-en-desktop")
        _every_mark_opens_its_decision(page, decisions, "en")
        # A mistake chosen on the chart (with the keyboard) steps the board to it.
        first = mistakes[0]
        page.locator("#review-chart .mistake-mark").first.focus()
        page.keyboard.press("Enter")
        _step_to(page, first["index"])
        assert page.inner_text("#replay-step").startswith(f"Step {first['index']} of")
        assert "Mistake" in page.inner_text("#review-detail h2")
        assert page.inner_text("#review-reason") == first["reason"]
        assert first["taken"]["label"] in page.inner_text("#review-detail .review-taken")
        rows = page.locator("#review-worth tbody tr")
        assert rows.count() == len(first["actions"])
        assert page.locator("#review-worth tbody tr.taken.mistake").count() == 1
        for i, value in enumerate(first["actions"]):
            assert value["label"] in rows.nth(i).inner_text()
        # The board is the seat's view at that moment: its hand too, the game being over.
        assert page.locator("#mine .seat-area .hand").count() == 1
        # A visitor sees that seat's hand, named for its player, not "Your hand".
        assert page.get_attribute("#mine .seat-area .hand", "aria-label") == "Random 1's hand"
        assert page.get_attribute("#review-list button[aria-current='true']", "data-index") == str(
            first["index"]
        )
        _no_overflow(page)
        _shot(page, "review-mistake-en-desktop")
        # The replay's own controls keep the review in step.
        page.click("#replay-next")
        following = next((d for d in decisions if d["index"] == first["index"] + 1), None)
        if following is None:
            page.wait_for_selector("#review-detail", state="hidden")
        else:
            current = f"#review-list button[aria-current='true'][data-index='{following['index']}']"
            page.wait_for_selector(current)
        assert_accessible(page, "the review (en, desktop)")
        page.click("#review-close")
        page.wait_for_selector("#review", state="hidden")
        page.wait_for_selector("#replay-controls", state="hidden")
    finally:
        context.close()

    # A phone in Chinese: the other seat, chosen in the review, and a mistake from the list.
    context = _context(browser, PHONE, "zh-Hant")
    try:
        page = context.new_page()
        _open_review(page, base, table_id)
        page.select_option("#review-seat", "1")
        _wait_until(page, "document.getElementById('review-views').textContent.includes('2')")
        page.wait_for_selector("#review-list", timeout=120_000)
        review = _api(base, f"/api/tables/{table_id}/review?seat=1&lang=zh-Hant")["review"]
        mistakes = [d for d in review["decisions"] if d["mistake"]]
        assert mistakes and review["seat"] == 2
        assert "失誤" in page.inner_text("#review-summary")
        assert re.search(r"[\u4e00-\u9fff]", page.inner_text("#review-views"))
        _no_overflow(page)
        page.check("#review-only-mistakes")
        assert page.locator("#review-list li").count() == len(mistakes)
        _shot(page, "review-zh-phone")
        last = mistakes[-1]
        page.locator(f"#review-list button[data-index='{last['index']}']").click()
        _step_to(page, last["index"])
        assert page.inner_text("#review-reason") == last["reason"]
        assert page.locator("#review-worth tbody tr").count() == len(last["actions"])
        assert page.locator("#mine .seat-area .hand").count() == 1
        label = page.get_attribute("#mine .seat-area .hand", "aria-label")
        assert label is not None and label.endswith("的手牌") and label != "你的手牌", label
        _no_overflow(page)
        _shot(page, "review-mistake-zh-phone")
        page.uncheck("#review-only-mistakes")
        _every_mark_opens_its_decision(page, review["decisions"], "zh-Hant")
    finally:
        context.close()
