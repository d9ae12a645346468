"""The puzzles page in Debian's Chromium: the board as the seat saw it, the choices, the answer.

A guest and a signed-in player each solve a puzzle, desktop and phone, English and Chinese;
the page must read well (axe), never scroll sideways, raise no script error, and show the
answer only after a choice. Screenshots go where tests/server/test_browser.py puts its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from closingbell.puzzles import Puzzle, write_puzzles
from closingbell.server import puzzles as served
from tests.puzzles.test_finder import SELL_CLUBS
from tests.puzzles.test_themes import LIMIT
from tests.server import test_browser
from tests.server.a11y import assert_accessible
from tests.server.test_browser import PAGE_ERRORS, PHONE, _context, _no_overflow, _Server, _shot
from tests.server.test_puzzles import made
from tests.server.test_standings_browser import PASSWORD, SIGN_UP

DESKTOP = {"width": 1280, "height": 800}

browser = test_browser.browser
"""Debian's Chromium (the fixture of test_browser.py)."""


@pytest.fixture(autouse=True)
def _no_script_errors() -> Iterator[None]:
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == []


@pytest.fixture(scope="module")
def puzzles() -> list[Puzzle]:
    return [
        made("card_stock_market", 4, SELL_CLUBS, ("sell",)),
        made("take_stock", 3, LIMIT, ("limit", "save"), horizon="round"),
    ]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, puzzles: list[Puzzle]) -> Iterator[str]:
    """A server on SQLite whose shipped puzzles are the test's."""
    folder = tmp_path_factory.mktemp("puzzles")
    path = folder / "shipped.jsonl"
    write_puzzles(path, puzzles)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(served, "shipped_files", lambda: [Path(path)])
        with _Server(f"sqlite:///{folder / 'web.db'}") as base:
            yield base


def _open(page: Any, site: str, game: str) -> None:
    page.goto(f"{site}/puzzles?game={game}")
    page.wait_for_selector(".choice-list button")


def test_a_guest_answers_wrong_and_sees_the_best_choice_and_why(
    browser: Any, site: str, puzzles: list[Puzzle]
) -> None:
    context = _context(browser, DESKTOP)
    page = context.new_page()
    _open(page, site, "card_stock_market")
    puzzle = puzzles[0]
    assert page.inner_text("h1") == "Puzzle: Card Stock Market"
    assert "clearly best" in page.inner_text(".question")
    assert page.locator(".choice-list button").count() == len(puzzle.worths)
    assert (
        page.locator("#mine .seat-area").count() == 1
        and page.locator("#others .seat-area").count() == 3
    )
    # Nothing of the answer is on the page before the choice.
    assert page.locator("#puzzle-result").is_hidden()
    assert puzzle.reason["en"] not in page.content()
    assert "Sign in to keep your puzzle rating" in page.inner_text("#my-puzzle-rating")
    assert_accessible(page, "puzzles (en, desktop)")
    _no_overflow(page)
    _shot(page, "puzzles-en-desktop")
    wrong = puzzle.worths[1].action
    page.click(f".choice-list button[data-action='{wrong}']")
    page.wait_for_selector("#puzzle-result:not([hidden]) .verdict")
    assert page.inner_text(".verdict") == "Not the best choice."
    assert page.inner_text(".puzzle-result .reason") == puzzle.reason["en"]
    assert page.locator(f".choice-list button.best[data-action='{puzzle.best}']").count() == 1
    assert page.locator(f".choice-list button.wrong[data-action='{wrong}']").count() == 1
    assert page.locator(".choice-list .worth").count() == len(puzzle.worths)
    assert "Final margin" in page.inner_text(".choice-list .worth >> nth=0")
    assert page.locator(".choice-list button").first.get_attribute("data-action") == str(
        puzzle.best
    )
    assert page.locator(".rating-change").count() == 0  # a guest is not rated
    assert_accessible(page, "puzzles answered (en, desktop)")
    _no_overflow(page)
    _shot(page, "puzzles-answer-en-desktop")
    context.close()


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "phone"), ("zh-Hant", "desktop"), ("zh-Hant", "phone")]
)
def test_a_player_solves_a_puzzle_and_the_rating_moves(
    browser: Any, site: str, puzzles: list[Puzzle], lang: str, size: str
) -> None:
    context = _context(browser, PHONE if size == "phone" else DESKTOP, lang)
    page = context.new_page()
    page.goto(site + "/puzzles")
    page.wait_for_selector(".choice-list button")
    assert page.evaluate(SIGN_UP, [f"Solver-{lang}-{size}", PASSWORD]) == 201
    _open(page, site, "take_stock")
    puzzle = puzzles[1]
    short = "zh" if lang == "zh-Hant" else "en"
    assert_accessible(page, f"puzzles ({lang}, {size})")
    _no_overflow(page)
    _shot(page, f"puzzles-{short}-{size}")
    # A card on the board lights its choices in the list.
    card = page.locator("#mine .playable").first
    if card.count():
        card.click()
        assert page.locator(".choice-list button.lit").count() >= 1
    page.click(f".choice-list button[data-action='{puzzle.best}']")
    page.wait_for_selector("#puzzle-result:not([hidden]) .rating-change")
    right = "答對了：這就是最好的選擇。" if short == "zh" else "Right: that is the best choice."
    assert page.inner_text(".verdict") == right
    assert page.inner_text(".puzzle-result .reason") == puzzle.reason[lang]
    # A Take Stock puzzle's worths are standings at the round's end, and say so.
    at_round_end = "本回合結束時的差距" if short == "zh" else "Standing at the round's end"
    assert at_round_end in page.inner_text(".choice-list .worth >> nth=0")
    solved = "1 題中第一次就答對 1 題" if short == "zh" else "1 of 1 solved at the first try"
    assert solved in page.inner_text("#my-puzzle-rating")
    assert_accessible(page, f"puzzles answered ({lang}, {size})")
    _no_overflow(page)
    _shot(page, f"puzzles-answer-{short}-{size}")
    # The answer is kept: the last puzzles list it, and its link shows the puzzle again.
    page.wait_for_selector("#puzzle-history:not([hidden])")
    page.click("#puzzle-history summary")
    assert page.locator("#puzzle-history li").count() == 1
    page.click("#puzzle-history li a")
    page.wait_for_url(f"**/puzzles?id={puzzle.id}")
    page.wait_for_selector(".choice-list button")
    assert page.locator("#puzzle-result").is_hidden()
    page.click(f".choice-list button[data-action='{puzzle.worths[1].action}']")
    page.wait_for_selector("#puzzle-result:not([hidden]) .rating-change")
    assert page.locator(".choice-list button.wrong").count() == 1
    assert solved in page.inner_text("#my-puzzle-rating")  # a second answer is not rated
    page.click("#next-puzzle")
    page.wait_for_selector("#puzzle-result[hidden]", state="attached")
    context.close()
