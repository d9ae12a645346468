"""Bot accounts in Debian's Chromium: the account page's panel, and a bot account played by a
program through its API token against a person on the page, rated, to the game's end.

Driven as tests/server/test_browser.py does (its fixtures and helpers); screenshots go where
it puts its own (``build/screenshots/`` by default).
"""

# ruff: noqa: F811 (the fixtures of test_browser, imported, are the tests' parameters)
from __future__ import annotations

import random
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.server.a11y import assert_accessible
from tests.server.test_browser import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    _context,
    _no_overflow,
    _no_script_errors,
    _play,
    _play_seat,
    _shot,
    _status,
    _wait_until,
    browser,
    on,
    quick,
    server,
)
from tests.server.test_browser_accounts import PASSWORD, _sign_up_in_dialog

TOKEN_WORDS = {
    "en": ("Name the token first: the name tells your tokens apart.", "Revoke: sure?"),
    "zh-Hant": ("請先為權杖命名：名稱讓你分辨各個權杖。", "確定撤銷？"),
}


def _bot_account(base: str, name: str) -> str:
    """A new bot account made through the API, as its owner's program would; one API token."""
    with httpx.Client(base_url=base, headers={"Origin": base}, timeout=10) as owner:
        made = owner.post("/api/account/signup", json={"username": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        assert owner.post("/api/account/bot").json()["user"] == {"username": name, "bot": True}
        answer = owner.post("/api/account/tokens", json={"name": "agent"})
        assert answer.status_code == 201, answer.text
        return str(answer.json()["token"])


def _as_token(base: str, token: str, method: str, path: str, body: Any = None) -> httpx.Response:
    """A request with an API token, as a program outside sends it (no cookie, no Origin)."""
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.request(method, base + path, json=body, headers=headers, timeout=10)


@on("postgresql")
def test_a_bot_account_plays_a_rated_game_against_a_person_on_the_page(
    browser: Any, server: str
) -> None:
    robot = "r" + secrets.token_hex(4)
    token = _bot_account(server, robot)
    context = _context(browser, DESKTOP)
    pool = ThreadPoolExecutor(1)
    try:
        page = context.new_page()
        person = "p" + secrets.token_hex(4)
        _sign_up_in_dialog(page, server, person)
        # A rated one-round table from the lobby: the person's seat and an open one.
        page.wait_for_selector("#create-table")
        page.select_option("#game", "take_stock")
        page.select_option("#players", "2")
        page.select_option("#seat-0", "you")
        page.select_option("#seat-1", "open")
        page.click("#options summary")
        page.fill("#opt-rounds", "1")
        page.check("#rated")
        page.click("#create-table")
        page.wait_for_url("**/t/*")
        table = page.url.rstrip("/").split("/")[-1]
        joined = _as_token(server, token, "POST", f"/api/tables/{table}/join", {})
        assert joined.status_code == 200, joined.text
        assert joined.json()["table"]["rated"] is True
        playing = pool.submit(
            _play_seat, server, table, "", random.Random(3), api_token=token, say="good game"
        )
        # The bot account's seat and its chat message carry the mark.
        page.wait_for_selector(".seat-area .pname .bot-mark")
        marked = page.locator(".seat-area .pname", has=page.locator(".bot-mark"))
        assert marked.count() == 1 and marked.inner_text().split() == ["BOT", robot]
        page.wait_for_selector(".chat-msg .bot-mark")
        _shot(page, "bot-account-table-en-desktop")
        # The person plays on the page, by clicking, to the game's end.
        _play([page], lambda: _status(page) == "finished", random.Random(4))
        playing.result(timeout=60)
        page.wait_for_selector("#overlay[open] #final")
        page.wait_for_selector("#rating-change")
        assert f"BOT {robot}" in page.inner_text("#final")
        page.click("#overlay-close")
        log = page.inner_text("#log")
        assert f"BOT {robot}" in log and f"{person} " in log
        # Rated on its own line, marked, on the leaderboard and its profile.
        page.goto(f"{server}/leaderboard?game=take_stock")
        row = page.locator("#leaderboard-table tbody tr", has_text=robot)
        row.locator(".bot-mark").wait_for()
        assert page.locator("#leaderboard-table tbody tr", has_text=person).count() == 1
        assert (
            page.locator("#leaderboard-table tbody tr", has_text=person)
            .locator(".bot-mark")
            .count()
            == 0
        )
        page.goto(f"{server}/players/{robot}")
        page.wait_for_selector("h1 .bot-mark")
        assert page.is_visible("#bot-account-note")
        _shot(page, "bot-account-profile-en-desktop")
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        context.close()


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("zh-Hant", PHONE)])
def test_the_account_page_makes_a_bot_account_and_its_tokens(
    browser: Any, quick: str, lang: str, size: dict[str, int]
) -> None:
    tag = f"{'zh' if lang == 'zh-Hant' else 'en'}-{'desktop' if size is DESKTOP else 'phone'}"
    context = _context(browser, size, lang)
    try:
        page = context.new_page()
        name = "b" + secrets.token_hex(4)
        _sign_up_in_dialog(page, quick, name)
        page.click("#account-button")
        page.click("#account-page-link")
        page.wait_for_selector("#make-bot")
        assert page.is_disabled("#make-bot")
        _no_overflow(page)
        assert_accessible(page, f"the account page of a person ({tag})")
        _shot(page, f"account-page-person-{tag}")
        page.check("#bot-sure")
        page.click("#make-bot")
        page.wait_for_selector("#token-form")
        assert page.locator("#account-button .bot-mark").count() == 1
        assert page.is_visible("#no-tokens")
        # A token needs a name, said in the page's language; then it is shown once.
        empty, sure = TOKEN_WORDS[lang]
        page.click("#make-token")
        assert page.inner_text("#token-error") == empty
        page.fill("#token-name", "my agent")
        page.click("#make-token")
        page.wait_for_selector("#new-token")
        token = page.input_value("#new-token")
        assert len(token) >= 32
        assert page.locator("#token-list li").count() == 1
        assert "my agent" in page.inner_text("#token-list")
        _no_overflow(page)
        assert_accessible(page, f"the account page with a new token ({tag})")
        _shot(page, f"account-page-token-{tag}")
        me = _as_token(quick, token, "GET", "/api/account").json()
        assert me == {"user": {"username": name, "bot": True}}
        # The token is not shown again.
        page.reload()
        page.wait_for_selector("#token-list")
        assert page.locator("#new-token").count() == 0 and token not in page.content()
        # Revoking asks once more; the token then opens nothing.
        page.click("#token-list .revoke")
        assert page.inner_text("#token-list .revoke") == sure
        page.click("#token-list .revoke")
        page.wait_for_selector("#no-tokens")
        assert _as_token(quick, token, "GET", "/api/account").status_code == 401
    finally:
        context.close()


def test_an_account_that_sat_at_a_table_stays_a_persons(browser: Any, quick: str) -> None:
    context = _context(browser, PHONE, "zh-Hant")
    try:
        page = context.new_page()
        _sign_up_in_dialog(page, quick, "s" + secrets.token_hex(4))
        sat = page.evaluate(
            """async () => {
              const post = async (path, body) => (await fetch(path, {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)}));
              const made = await (await post('/api/tables',
                {game: 'take_stock', seats: ['open', 'easy']})).json();
              return (await post(`/api/tables/${made.table.id}/join`, {})).status;
            }"""
        )
        assert sat == 200
        page.goto(quick + "/account")
        page.check("#bot-sure")
        page.click("#make-bot")
        _wait_until(page, "document.getElementById('make-bot-error').textContent !== ''")
        assert page.inner_text("#make-bot-error") == (
            "只有新帳號才能變成機器人帳號：這個帳號已經入座過牌桌。"
        )
        assert page.locator("#token-form").count() == 0
    finally:
        context.close()
