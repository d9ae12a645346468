"""The guided first game in Debian's Chromium with Playwright, from the lobby to its end.

A learner opens "Learn to play" in the lobby and plays the tutorial's script
(``tutorial.script``) by clicking, as a person does: a card, row or pile, then what to do
with it, or a button. Each lesson shows in its panel over the board, is read out through
the dialog's name and description, and goes with "OK, go on" by the keyboard; the end shows
the scores, what the game did not show and the way to a real game. Both games, both
languages, a desktop and a 360-pixel phone, on SQLite and PostgreSQL. Screenshots go where
tests/server/test_browser.py puts its own.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from closingbell.learn import Fired, Tutorial, play_through, scripted, tutorial
from tests.server.a11y import assert_accessible
from tests.server.test_browser import (
    DESKTOP,
    SCREENSHOTS,
    _api,
    _context,
    _no_overflow,
    _no_script_errors,
    _seat_in,
    _served,
    _status,
    _version,
    _wait_until,
    browser,
)
from tests.server.test_tutorials import words_of

__all__ = ["_no_script_errors", "browser"]  # the fixtures, used here too

NARROW = {"width": 360, "height": 740}
"""The narrowest phone the page is made for."""

CASES = [
    ("take_stock", "en", DESKTOP, "sqlite"),
    ("card_stock_market", "zh-Hant", NARROW, "postgresql"),
]
"""Each game, each language, a desktop and a phone, each database: every one once."""
if os.environ.get("CLOSINGBELL_SCREENSHOTS"):
    # Refreshing docs/web.md's pictures: each game in each language too (some 35 s more).
    CASES += [
        ("take_stock", "zh-Hant", NARROW, "postgresql"),
        ("card_stock_market", "en", DESKTOP, "sqlite"),
    ]

FIRST_LESSON = {"take_stock": "first_raise", "card_stock_market": "purchase"}
"""The lesson pictured for docs/web.md: the first that an action of the learner's brings."""


def _plan(t: Tutorial) -> tuple[list[tuple[int, str, dict[str, Any]]], list[tuple[int, Fired]]]:
    """The scripted game as the terminal plays it: the learner's decisions (the version
    it decides at, the action, the view it decides from) and each lesson with its version."""
    game = t.load()
    state = t.new_game()
    decisions = []
    lessons = []
    for step in play_through(t, scripted(t)):
        lessons += [(step.ply, f) for f in step.fired]
        if step.action is None:
            continue
        if step.seat == t.seat:
            decisions.append((len(state.history), step.action, state.view(t.seat).to_dict()))
        state.apply(game.string_to_action(step.action))
    return decisions, lessons


DECODE = """async ([file, id, view]) => {
  const board = await import(`/static/${file}`);
  return board.decode(id, view).target;
}"""
"""Where the page's board takes the action ``id`` from ``view``: a card, row or pile's key
(``data-target``), or ``null`` for a button."""


def _shoot(page: Any, name: str) -> None:
    """A screenshot of what the window shows now (the lesson over the board, in place)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


class Learner:
    """The learner's page, and the lessons it has shown."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.seen: list[str] = []
        """The titles of the lessons shown, in order."""
        self.shots: dict[str, str] = {}
        """Lessons to picture when they show, by title: the screenshot's name."""

    def read_lessons(self, until: int, limit: float = 30) -> None:
        """Read every lesson that shows until ``until`` of them were, with the keyboard."""
        page = self.page
        deadline = time.monotonic() + limit
        while len(self.seen) < until:
            assert time.monotonic() < deadline, f"lessons shown: {self.seen}"
            if not page.locator("#lesson[open]").count():
                page.wait_for_timeout(20)
                continue
            title = page.inner_text("#lesson-title")
            if title in self.shots:
                page.wait_for_timeout(150)  # the cards' movement (off here) and the layout
                _no_overflow(page)
                _shoot(page, self.shots.pop(title))
            # Focus is on "OK, go on": Enter reads on, as a keyboard player does.
            assert page.evaluate("document.activeElement.id") == "lesson-ok"
            self.seen.append(title)
            page.keyboard.press("Enter")
            gone = (
                "!document.querySelector('#lesson[open]')"
                f" || document.querySelector('#lesson-title').textContent !== {title!r}"
            )
            for _ in range(10):
                try:
                    _wait_until(page, gone, limit=3)
                    break
                except AssertionError:
                    # A redraw as the key went down can take the press (seen under load):
                    # a person presses again.
                    same = page.evaluate(
                        "document.activeElement.id === 'lesson-ok'"
                        f" && document.querySelector('#lesson-title').textContent === {title!r}"
                    )
                    if same:
                        page.keyboard.press("Enter")
            else:
                raise AssertionError(f"the lesson {title!r} did not close")

    def close_round_results(self) -> None:
        if self.page.locator("#overlay[open] #round-results").count():
            self.page.click("#overlay-close")

    def decide(self, file: str, version: int, action: int, view: dict[str, Any]) -> None:
        """Make the decision of ``version`` by clicking as a person does."""
        page = self.page
        _wait_until(
            page,
            f"document.body.dataset.version === '{version}'"
            " && !document.body.classList.contains('busy')"
            " && !document.querySelector('#decision[hidden]')",
        )
        self.close_round_results()
        target = page.evaluate(DECODE, [file, action, view])
        if target is None:
            page.click(f"#decision .button-choice[data-action='{action}']")
        else:
            place = page.locator(f"#table-col .playable[data-target='{target}']").first
            place.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
            place.click()
            menu = f"#decision .menu-choice[data-action='{action}']"
            moved = f"document.body.dataset.version !== '{version}'"
            _wait_until(page, f'{moved} || !!document.querySelector("{menu}")')
            if _version(page) == version:
                page.locator(menu).click()
        _wait_until(page, f"document.body.dataset.version !== '{version}'")


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{g}-{lang}-{size['width']}-{db}" for g, lang, size, db in CASES]
)
def test_the_guided_first_game_from_the_lobby_to_its_end(
    browser: Any, tmp_path: Path, case: tuple[str, str, dict[str, int], str]
) -> None:
    game, lang, size, db = case
    t = tutorial(game)
    decisions, lessons = _plan(t)
    words = words_of(t, lang)
    titles = [words.tell(f.lesson, f.fields).title for _v, f in lessons]
    file = f"board-{game.replace('_', '-')}.js"
    where = f"{lang.split('-')[0]}-{'phone' if size is NARROW else 'desktop'}"
    shot = f"learn-{game.replace('_', '-')}-{{}}-{where}"
    with _served(db, tmp_path) as base:
        context = _context(browser, size, lang)
        try:
            page = context.new_page()
            page.goto(base + "/")
            page.wait_for_selector("#learn")
            _no_overflow(page)
            assert_accessible(page, f"the lobby with Learn to play, {where}")
            if game == "take_stock":
                _shoot(page, f"learn-lobby-{where}")
            page.fill("#learn-name", "Ana")
            page.click(f"#learn-{game}")
            page.wait_for_url("**/t/*")
            learner = Learner(page)
            page.wait_for_selector("#lesson[open]")
            # The lesson is a dialog named by its title and described by its words.
            assert page.get_attribute("#lesson", "aria-labelledby") == "lesson-title"
            described = page.get_attribute("#lesson", "aria-describedby")
            assert (
                page.inner_text(f"#{described}")
                .strip()
                .endswith(words.summary("welcome").explanation)
            )
            assert_accessible(page, f"a lesson, {where}")
            if lang == "en":
                # A reload before reading it shows it again; once read, it stays read.
                page.reload()
                page.wait_for_selector("#lesson[open]")
                learner.read_lessons(1)
                page.reload()
                page.wait_for_selector(".market")
                page.wait_for_timeout(500)
                assert page.locator("#lesson[open]").count() == 0
                assert page.inner_text("#lessons-summary") == "Lessons (1)"
            pictured = next(
                i for i, (_v, f) in enumerate(lessons) if f.lesson == FIRST_LESSON[game]
            )
            learner.shots[titles[pictured]] = shot.format("lesson")
            for version, action_text, view in decisions:
                learner.read_lessons(sum(v <= version for v, _x in lessons))
                action = t.load().string_to_action(action_text)
                learner.decide(file, version, action, view)
            learner.read_lessons(len(lessons))
            _wait_until(page, "document.body.dataset.status === 'finished'")
            assert _status(page) == "finished"
            assert learner.seen == titles
            # The end: the scores, what the game did not show (nothing: the script brings
            # every lesson's moment), and the way to a real game.
            page.wait_for_selector("#overlay[open] #final")
            page.wait_for_selector("#overlay #lessons-end:not([hidden])")
            assert page.locator("#final .winners").inner_text().strip()
            assert page.locator("#lessons-end .lessons-missed-none").count() == 1
            assert page.get_attribute("#real-game-overlay", "href") == "/"
            assert page.locator("#play-again-overlay").count() == 0
            assert page.locator("#lesson[open]").count() == 0
            _no_overflow(page)
            _shoot(page, shot.format("end"))
            assert_accessible(page, f"the end of a guided game, {where}")
            page.click("#overlay-close")
            assert str(len(lessons)) in page.inner_text("#lessons-summary")  # all, to read again
            page.click("#real-game-side")
            page.wait_for_selector("#create-table")
        finally:
            context.close()


def _play_without_saving(base: str, table: str, token: str) -> list[str]:
    """Play a guided Take Stock game over the WebSocket, never keeping a certificate; the ids
    of the lessons it missed."""
    with connect(f"ws{base.removeprefix('http')}/ws/tables/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "lessons" and message["missed"] is not None:
                return [m["lesson"] for m in message["missed"]]
            if message["type"] == "state" and message["status"] == "playing" and message["legal"]:
                texts = [a["text"] for a in message["legal"]]
                keep = [x for x in texts if not x.startswith(("save", "exercise"))] or texts
                if "exercise done" in texts:
                    keep = ["exercise done"]
                ws.send(
                    json.dumps({"type": "action", "version": message["version"], "text": keep[0]})
                )


def test_the_end_tells_what_the_game_did_not_show(browser: Any, tmp_path: Path) -> None:
    """A learner who never kept a certificate, back on a phone in Chinese after the end."""
    t = tutorial("take_stock")
    with _served("sqlite", tmp_path) as base:
        answer = _api(base, "/api/learn", {"game": "take_stock", "name": "Bo"})
        table = answer["table"]["id"]
        missed = _play_without_saving(base, table, answer["token"])
        assert "certificate" in missed
        context = _context(browser, NARROW, "zh-Hant")
        _seat_in(context, table, answer["seat"], answer["token"])
        try:
            page = context.new_page()
            page.goto(f"{base}/t/{table}")
            # A browser that has shown none of the game's lessons shows the last ones only.
            page.wait_for_selector("#lesson[open]")
            page.keyboard.press("Enter")
            page.wait_for_selector("#overlay[open] #lessons-missed")
            assert page.locator("#lesson[open]").count() == 0
            words = words_of(t, "zh-Hant", "Bo")
            titles = page.locator("#lessons-missed li strong").all_inner_texts()
            assert titles == [words.summary(x).title for x in missed]
            assert words.summary("certificate").explanation in page.inner_text("#lessons-missed")
            assert page.get_attribute("#real-game-overlay", "href") == "/"
            _no_overflow(page)
            page.locator("#lessons-end").scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOTS / "learn-take-stock-missed-zh-phone.png"))
        finally:
            context.close()
