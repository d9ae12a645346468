"""The tournaments' pages in Debian's Chromium: a player makes a Swiss tournament from the
lobby's link with bots in it, enters, starts it, is seated by the director, plays the round
and finds the final standings; the page in Chinese on a phone. Screenshots go where
tests/server/test_browser.py puts its own (``build/screenshots/`` by default)."""

# ruff: noqa: F811 (the fixtures of test_browser, imported, are the tests' parameters)
from __future__ import annotations

import random
import secrets
from functools import partial
from typing import Any

import pytest

from tests.server.a11y import assert_accessible
from tests.server.test_browser import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    _context,
    _no_overflow,
    _no_script_errors,
    _off_loop,
    _play_seat,
    _shot,
    _wait_until,
    browser,
    quick,
)
from tests.server.test_browser_accounts import _sign_up_in_dialog


def _make(page: Any, base: str, rounds: int, bots: dict[str, int]) -> None:
    page.goto(base + "/")
    page.click("#tournaments-link")
    page.wait_for_selector("#tournament-form")
    page.fill("#t-name", "Friday Swiss")
    page.select_option("#t-game", "card_stock_market")
    page.select_option("#t-size", "2")
    page.fill("#t-rounds", str(rounds))
    for level, n in bots.items():
        page.fill(f"#bots-{level}", str(n))
    page.click("#t-create")
    page.wait_for_url("**/tournaments/*")
    page.wait_for_selector("#standings")


def test_a_swiss_tournament_from_the_lobby_to_its_standings(browser: Any, quick: str) -> None:
    context = _context(browser, DESKTOP)
    try:
        page = context.new_page()
        name = "t" + secrets.token_hex(4)
        _sign_up_in_dialog(page, quick, name)
        _make(page, quick, 1, {"easy": 3})
        tournament = page.url
        assert page.locator("#standings tbody tr").count() == 3  # the bots
        page.click("#t-join")
        _wait_until(page, "document.querySelectorAll('#standings tbody tr').length === 4")
        assert "Starts in" in page.inner_text("#t-countdown")
        _no_overflow(page)
        assert_accessible(page, "a tournament to come (en, desktop)")
        _shot(page, "tournament-open-en-desktop")
        page.click("#t-start")
        page.wait_for_selector("#your-table", timeout=20_000)
        page.click("#your-table")
        page.wait_for_url("**/t/*")
        _wait_until(page, "['0', '1'].includes(document.body.dataset.seat)")
        # The game itself is played over the WebSocket, for the same account: the page's
        # playing is tested with whole games elsewhere.
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())
        table = page.url.rstrip("/").split("/")[-1]
        _off_loop(partial(_play_seat, cookie=cookies), quick, table, "", random.Random(5))
        _wait_until(page, "document.body.dataset.status === 'finished'")
        page.goto(tournament)
        finished = "document.getElementById('t-countdown')?.textContent.startsWith('Finished')"
        _wait_until(page, finished)
        lines = page.locator("#standings tbody tr")
        assert lines.count() == 4
        assert page.locator("#standings tbody tr", has_text=name).count() == 1
        _wait_until(page, "document.querySelectorAll('#t-rounds .t-tables li').length === 2")
        # The player's count of games shows its games alone; "Show every table" all again.
        mine = page.locator(f'.t-games[data-name="{name}"]')
        assert mine.inner_text() == "1"
        assert mine.get_attribute("aria-label") == f"Show the games of {name}"
        mine.click()
        _wait_until(page, "document.querySelectorAll('#t-rounds .t-tables li').length === 1")
        assert name in page.inner_text("#t-rounds .t-tables li")
        assert page.inner_text("#t-only").startswith(f"Games of {name}")
        assert page.locator(f'.t-games[data-name="{name}"]').get_attribute("aria-pressed") == "true"
        page.wait_for_timeout(3500)  # a redraw of the page keeps the choice and the focus
        assert page.locator("#t-rounds .t-tables li").count() == 1
        assert page.evaluate("document.activeElement.dataset.name") == name
        assert_accessible(page, "a tournament's games of one player (en, desktop)")
        _shot(page, "tournament-finished-en-desktop")
        page.click("#t-show-all")
        _wait_until(page, "document.querySelectorAll('#t-rounds .t-tables li').length === 2")
        assert page.locator("#t-only").count() == 0
        assert page.evaluate("document.activeElement.dataset.name") == name
        # A guest on a phone in Chinese looks at a bot's games.
        phone = _context(browser, PHONE, "zh-Hant")
        try:
            guest = phone.new_page()
            guest.goto(tournament)
            guest.wait_for_selector(".t-games")
            bot = guest.locator(f'.t-games:not([data-name="{name}"])').first
            bot.click()
            _wait_until(guest, "document.querySelectorAll('#t-rounds .t-tables li').length === 1")
            assert "的牌局" in guest.inner_text("#t-only")
            assert guest.inner_text("#t-show-all") == "顯示所有牌桌"
            _no_overflow(guest)
            assert_accessible(guest, "a tournament's games of one player (zh, phone)")
            _shot(guest, "tournament-finished-zh-phone")
        finally:
            phone.close()
        page.goto(f"{quick}/players/{name}")
        page.wait_for_selector("#tournaments li")
        assert "Friday Swiss" in page.inner_text("#tournaments")
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "size"), [("zh-Hant", PHONE), ("en", PHONE)])
def test_the_tournaments_page_on_a_phone(
    browser: Any, quick: str, lang: str, size: dict[str, int]
) -> None:
    context = _context(browser, size, lang)
    tag = f"{'zh' if lang == 'zh-Hant' else 'en'}-phone"
    try:
        page = context.new_page()
        _sign_up_in_dialog(page, quick, "z" + secrets.token_hex(4))
        page.goto(quick + "/tournaments")
        page.wait_for_selector("#tournament-form")
        _no_overflow(page)
        assert_accessible(page, f"the tournaments' list ({tag})")
        _shot(page, f"tournaments-{tag}")
        _make(page, quick, 3, {"medium": 2, "hard": 1})
        page.click("#t-join")
        _wait_until(page, "document.querySelectorAll('#standings tbody tr').length === 4")
        _no_overflow(page)
        assert_accessible(page, f"a tournament to come ({tag})")
        _shot(page, f"tournament-open-{tag}")
        if lang == "zh-Hant":
            assert page.inner_text("#t-countdown").endswith("後開始")
            assert page.inner_text("#t-withdraw") == "退出"
    finally:
        context.close()
