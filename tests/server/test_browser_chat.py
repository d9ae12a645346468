"""The chat panel and the rematch on the table page, in Debian's Chromium with Playwright.

Two people (two browser contexts) write at a table, one of them markup that must show as
text; a spectator reads; a muted player's messages are hidden and stay so after a reload.
Two signed-in players finish a short game and rematch, and both pages move to the new
table, in their own seats. Screenshots go where tests/server/test_browser.py puts its own.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from tests.server.a11y import assert_accessible
from tests.server.test_browser import (
    DESKTOP,
    PHONE,
    _api,
    _context,
    _no_overflow,
    _no_script_errors,
    _play_seat,
    _seat_in,
    _seated,
    _shot,
    _wait_until,
    browser,
    on,
    quick,
    server,
)

__all__ = ["_no_script_errors", "browser", "quick", "server"]  # the fixtures, used here too

MARKUP = "<img src=x onerror=alert(1)><b>hi</b>"
"""What a player types to see whether the page runs it."""

ALERTS = "window.alert = () => { window.alerted = true; };"
"""Counts an alert instead of showing one (the markup's ``onerror`` would call it)."""


def _seated_page(browser: Any, base: str, table: str, seat: int, token: str, **kw: Any) -> Any:
    """A page of a new context seated at ``table``, its first state drawn."""
    context = _context(browser, kw.pop("size", DESKTOP), **kw)
    context.add_init_script(ALERTS)
    _seat_in(context, table, seat, token)
    page = context.new_page()
    page.goto(f"{base}/t/{table}")
    _wait_until(page, _seated(seat))
    page.wait_for_selector(".market .row")
    return page


def _write(page: Any, text: str) -> None:
    """Type a message in the chat and send it with Enter, as a keyboard player does."""
    page.focus("#chat-input")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


@on("postgresql")
def test_messages_are_text_spectators_read_and_mutes_stay(browser: Any, server: str) -> None:
    table = _api(server, "/api/tables", {"game": "take_stock", "seats": ["open", "open"]})["table"]
    tid = table["id"]
    ana = _api(server, f"/api/tables/{tid}/join", {"name": "Ana"})["token"]
    bo = _api(server, f"/api/tables/{tid}/join", {"name": "Bo"})["token"]
    one = _seated_page(browser, server, tid, 0, ana)
    two = _seated_page(browser, server, tid, 1, bo, size=PHONE, lang="zh-Hant")
    watcher_context = _context(browser, DESKTOP)
    try:
        watcher = watcher_context.new_page()
        watcher.goto(f"{server}/t/{tid}")
        watcher.wait_for_selector(".market .row")
        # The input is labelled; the list says new messages to screen readers.
        assert one.get_attribute("#chat-list", "aria-live") == "polite"
        assert one.locator("label[for='chat-input']").count() == 1
        assert watcher.locator("#chat-form").is_hidden()
        assert watcher.locator("#chat-read-only").is_visible()
        _write(one, MARKUP)
        two.click("#chat-panel > summary")  # closed on a phone at first
        for page in (one, two, watcher):
            page.wait_for_selector("#chat-list .chat-msg")
            assert page.inner_text("#chat-list .chat-text") == MARKUP
            assert page.locator("#chat-list img, #chat-list b").count() == 0
            assert page.locator("img[src='x']").count() == 0
        assert one.input_value("#chat-input") == ""
        _write(two, "好 gg")
        one.wait_for_selector("#chat-list .chat-msg:nth-child(2)")
        assert one.inner_text("#chat-list .chat-msg:nth-child(2) .chat-name") == "Bo"
        _shot(one, "chat-en-desktop")
        _shot(two, "chat-zh-phone")
        # The page refuses as the server does, in words.
        _write(one, "\u202eevil")
        one.wait_for_selector("#chat-error:not(:empty)")
        assert "invisible" in one.inner_text("#chat-error")
        assert one.input_value("#chat-input") == "\u202eevil"  # given back, to fix
        _shot(one, "chat-refused-en-desktop")
        for page in (one, two):
            _no_overflow(page)
            assert_accessible(page, "a table with its chat")
        # Bo mutes Ana: her message is hidden, counted, and stays hidden after a reload.
        two.click("#chat-mutes > summary")
        two.check("#mute-0")
        assert two.locator("#chat-list .chat-msg[data-seat='0']").is_hidden()
        assert two.locator("#chat-hidden").is_visible()
        muted = json.loads(two.evaluate("localStorage.getItem('closingbell.muted')"))
        assert muted == {"names": ["Ana"], "spectators": False}
        two.reload()
        two.wait_for_selector("#chat-list .chat-msg[data-seat='1']", state="attached")
        assert two.locator("#chat-list .chat-msg[data-seat='0']").count() == 1
        assert two.locator("#chat-list .chat-msg[data-seat='0']").is_hidden()
        assert watcher.locator("#chat-list .chat-msg[data-seat='0']").is_visible()
        assert not any(p.evaluate("window.alerted === true") for p in (one, two))
    finally:
        for page in (one, two):
            page.context.close()
        watcher_context.close()


SIGN_UP = """async (name) => {
  const answer = await fetch('/api/account/signup', {
    method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({username: name, password: 'correct horse battery'}),
  });
  return answer.status;
}"""

TAKE_SEAT = """async ([table, seat]) => {
  const answer = await fetch(`/api/tables/${table}/join`, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({seat}),
  });
  const body = await answer.json();
  const kept = JSON.stringify({seat: body.seat, token: body.token});
  localStorage.setItem(`closingbell.seat.${table}`, kept);
  return body.table.seats[seat].name;
}"""


@on("sqlite")
def test_two_signed_in_players_finish_a_game_and_rematch(browser: Any, server: str) -> None:
    contexts = [_context(browser, DESKTOP), _context(browser, PHONE, lang="zh-Hant")]
    try:
        pages = [context.new_page() for context in contexts]
        for page, name in zip(pages, ("mona", "ned"), strict=True):
            page.goto(server + "/")
            page.wait_for_selector("#create-table")
            assert page.evaluate(SIGN_UP, name) == 201
        body = {"game": "take_stock", "seats": ["open", "open"], "options": {"rounds": 1}}
        old = _api(server, "/api/tables", body)["table"]["id"]
        for seat, (page, name) in enumerate(zip(pages, ("mona", "ned"), strict=True)):
            assert page.evaluate(TAKE_SEAT, [old, seat]) == name
            page.goto(f"{server}/t/{old}")
        for seat, page in enumerate(pages):
            _wait_until(page, _seated(seat))
        # The game is played over the WebSocket, each account in its own seat (whole games
        # through the page are tested in test_browser.py); the pages show it to its end.
        cookies = [
            "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())
            for context in contexts
        ]
        with ThreadPoolExecutor(2) as pool:
            playing = [
                pool.submit(partial(_play_seat, cookie=cookie), server, old, "", random.Random(i))
                for i, cookie in enumerate(cookies)
            ]
            for done in playing:
                done.result(timeout=120)
        for page in pages:
            _wait_until(page, "document.body.dataset.status === 'finished'")
        mona, ned = pages
        for page in pages:
            page.wait_for_selector("#overlay[open] #rematch-button-overlay")
        mona.click("#rematch-button-overlay")
        ned.wait_for_selector("#overlay[open] #rematch-status-overlay")
        assert "mona" in ned.inner_text("#rematch-status-overlay")
        assert ned.inner_text("#rematch-button-overlay") == "接受再戰"
        assert mona.locator("#rematch-button-overlay").is_disabled()
        assert "ned" in mona.inner_text("#rematch-status-overlay")
        _shot(mona, "rematch-offered-en-desktop")
        _shot(ned, "rematch-offered-zh-phone")
        ned.click("#overlay-close")
        assert "mona" in ned.inner_text("#rematch-status-side")  # the side panel says so too
        for page in pages:
            _no_overflow(page)
        assert_accessible(ned, "the final screen with a rematch offered")
        _shot(ned, "rematch-side-zh-phone")
        ned.click("#rematch-button-side")
        # Both pages move to the new table by themselves, each in its own seat.
        for page in pages:
            page.wait_for_url(lambda url: old not in url)
        new = mona.url.rstrip("/").split("/")[-1]
        assert ned.url == mona.url
        for seat, page in enumerate(pages):
            _wait_until(page, _seated(seat))
            page.wait_for_selector(".market .row")
        table = _api(server, f"/api/tables/{new}")["table"]
        assert table["rematch_of"] == old and table["status"] == "playing"
        assert [(s["name"], s["account"]) for s in table["seats"]] == [
            ("mona", True),
            ("ned", True),
        ]
        assert _api(server, f"/api/tables/{old}")["table"]["rematch"] == new
        # The old table's page now leads to the rematch.
        mona.goto(f"{server}/t/{old}")
        mona.wait_for_selector("#overlay[open] #rematch-go-overlay")
        assert mona.get_attribute("#rematch-go-overlay", "href") == f"/t/{new}"
    finally:
        for context in contexts:
            context.close()


def test_a_table_made_in_the_lobby_may_let_spectators_write(browser: Any, quick: str) -> None:
    context = _context(browser, PHONE, lang="zh-Hant")
    try:
        page = context.new_page()
        page.goto(quick + "/")
        page.wait_for_selector("#create-table")
        page.select_option("#players", "2")
        page.select_option("#seat-0", "open")  # a table waiting for its player
        page.select_option("#seat-1", "easy")
        page.check("#spectator-chat")
        page.click("#create-table")
        page.wait_for_url("**/t/*")
        _wait_until(page, _seated("spectator"))
        tid = page.url.rstrip("/").split("/")[-1]
        assert _api(quick, f"/api/tables/{tid}")["table"]["spectator_chat"] is True
        page.click("#chat-panel > summary")
        assert page.locator("#chat-read-only").is_hidden()
        _write(page, "加油")
        page.wait_for_selector("#chat-list .chat-msg")
        assert page.inner_text("#chat-list .chat-name") == "旁觀者"
        assert page.inner_text("#chat-list .chat-text") == "加油"
        assert _api(quick, f"/api/tables/{tid}/chat")["messages"][0]["seat"] is None
    finally:
        context.close()


def test_account_names_are_marked_in_the_chat(browser: Any, quick: str) -> None:
    table = _api(quick, "/api/tables", {"game": "take_stock", "seats": ["open", "open"]})["table"]
    tid = table["id"]
    mona_context = _context(browser, DESKTOP)
    guest_context = _context(browser, PHONE, lang="zh-Hant")
    try:
        mona = mona_context.new_page()
        mona.goto(quick + "/")
        mona.wait_for_selector("#create-table")
        assert mona.evaluate(SIGN_UP, "mona") == 201
        assert mona.evaluate(TAKE_SEAT, [tid, 0]) == "mona"
        # A guest may not sit as her, in any case: the page says why, in words.
        guest = guest_context.new_page()
        guest.goto(f"{quick}/t/{tid}")
        guest.wait_for_selector("#join-form")
        guest.fill("#name", "MONA")
        guest.click("#join-button")
        guest.wait_for_selector("#join-error:not(:empty)")
        assert "帳號" in guest.inner_text("#join-error")
        guest.fill("#name", "Bo")
        guest.click("#join-button")
        _wait_until(guest, _seated(1))
        mona.goto(f"{quick}/t/{tid}")
        _wait_until(mona, _seated(0))
        mona.wait_for_selector(".market .row")
        _write(mona, "hello from mona")
        guest.click("#chat-panel > summary")  # closed on a phone at first
        guest.wait_for_selector("#chat-list .chat-msg[data-seat='0']")
        _write(guest, "hi from bo")
        for page in (mona, guest):
            page.wait_for_selector("#chat-list .chat-msg[data-seat='1']")
            # Mona's name links to her profile, marked; Bo's is plain text.
            link = page.locator("#chat-list .chat-msg[data-seat='0'] a.chat-account")
            assert link.get_attribute("href") == "/players/mona"
            assert link.inner_text() == "mona"
            assert page.locator("#chat-list .chat-msg[data-seat='1'] .chat-account").count() == 0
            assert page.inner_text("#chat-list .chat-msg[data-seat='1'] .chat-name") == "Bo"
        badge = guest.locator("#chat-list .chat-msg[data-seat='0'] .chat-badge")
        assert badge.get_attribute("aria-label") == "已登入的玩家"
        badge = mona.locator("#chat-list .chat-msg[data-seat='0'] .chat-badge")
        assert badge.get_attribute("aria-label") == "Signed-in player"
        _no_overflow(guest)
        assert_accessible(guest, "a chat with an account's name marked")
    finally:
        mona_context.close()
        guest_context.close()
