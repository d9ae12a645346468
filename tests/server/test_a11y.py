"""The accessibility check (``tests/server/a11y.py``) catches what it should, offline, and
the lobby passes it in both languages at desktop and phone sizes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.server.a11y import VIEWPORTS, assert_accessible, report, violations
from tests.server.helpers import HTTP, live_server
from tests.server.test_browser import ARGS, CHROMIUM

FAULTY = """<!doctype html>
<html lang="en"><head><title>Faulty</title></head>
<body><main>
  <p id="faint" style="color: #c8c8c8; background: #ffffff">Hard to read</p>
  <button id="nameless"></button>
  <img id="no-alt" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=">
</main></body></html>"""
"""A page with two critical faults, a serious one and a moderate one (it has no ``h1``)."""

SOUND = """<!doctype html>
<html lang="en"><head><title>Sound</title></head>
<body><main>
  <h1>Sound</h1>
  <p style="color: #333333; background: #ffffff">Easy to read</p>
  <button>Play</button>
  <img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=" alt="">
</main></body></html>"""
"""The same page without its faults."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless."""
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def offline(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A fresh page whose every network request is refused, and the list of them."""
    context = browser.new_context()
    asked: list[str] = []

    def refuse(route: Any) -> None:
        asked.append(route.request.url)
        route.abort()

    context.route("**/*", refuse)
    try:
        yield context.new_page(), asked
    finally:
        context.close()


def test_the_check_names_each_serious_or_critical_fault_and_where(
    offline: tuple[Any, list[str]],
) -> None:
    page, asked = offline
    page.set_content(FAULTY)
    found = {v.rule: v for v in violations(page)}
    assert set(found) == {"button-name", "image-alt", "color-contrast"}
    assert found["button-name"].impact == "critical"
    assert found["color-contrast"].impact == "serious"
    assert [selector for selector, _ in found["image-alt"].targets] == ["#no-alt"]
    assert "contrast" in found["color-contrast"].targets[0][1]
    # Faults below serious are left out unless asked for.
    moderate = violations(page, ("moderate",))
    assert [v.rule for v in moderate] == ["page-has-heading-one"]
    text = report(list(found.values()), "the faulty page")
    assert text.startswith("3 serious or critical accessibility violation(s) on the faulty page")
    assert "#nameless" in text and "Buttons must have discernible text" in text
    with pytest.raises(AssertionError, match="#faint"):
        assert_accessible(page, "the faulty page")
    # axe-core came with the package: nothing was fetched.
    assert asked == []


def test_the_check_passes_a_page_without_faults(offline: tuple[Any, list[str]]) -> None:
    page, asked = offline
    page.set_content(SOUND)
    assert violations(page, ("minor", "moderate", "serious", "critical")) == []
    assert_accessible(page, "the sound page")
    assert asked == []


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server's lobby address, listing a table waiting for players and one being played."""
    url = f"sqlite:///{tmp_path_factory.mktemp('a11y') / 'web.db'}"
    with live_server(url) as (port, _):
        base = f"http://127.0.0.1:{port}"
        for game, seats in (("take_stock", ["open", "easy"]), ("card_stock_market", ["easy"] * 3)):
            answer = HTTP.post(f"{base}/api/tables", json={"game": game, "seats": seats})
            assert answer.status_code == 201, answer.text
        yield base + "/"


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("zh-TW", "zh-Hant")])
def test_the_lobby_has_no_serious_accessibility_fault(
    browser: Any, lobby: str, size: str, locale: str, lang: str
) -> None:
    context = browser.new_context(locale=locale, viewport=VIEWPORTS[size])
    try:
        page = context.new_page()
        page.goto(lobby)
        page.wait_for_selector(f"html[lang='{lang}'] #tables li")
        assert_accessible(page, f"the lobby ({lang}, {size})")
    finally:
        context.close()
