"""A hint at a practice table, in Debian's Chromium with Playwright, on both databases.

The player of an unrated table where only bots sit beside them sees what a hint costs beside
the Hint button, and asks for a hint on their turn: the page shows the preferred action in
words with what it is worth, marks that action's card, row or button on the board, and says
that hints were used here (and the lobby says so too). A spectator gets no Hint button, nor
does the player of a rated table, which the page and the lobby mark as rated. On SQLite the
test runs on a desktop in English, on PostgreSQL on a phone in Chinese, and keeps a
screenshot of each, as tests/server/test_browser.py does.
"""

from __future__ import annotations

import secrets
from typing import Any

from tests.server.a11y import assert_accessible
from tests.server.test_browser import (
    DESKTOP,
    PHONE,
    _api,
    _context,
    _no_overflow,
    _no_script_errors,
    _on_sqlite,
    _seat_in,
    _shot,
    _version,
    _wait_until,
    browser,
    on,
    server,
)

__all__ = ["_no_script_errors", "browser", "server"]  # the fixtures, used here too

YOUR_TURN = "document.body.classList.contains('your-turn')"


@on("sqlite", "postgresql")
def test_a_hint_at_a_practice_table_shows_and_marks_the_preferred_action(
    browser: Any, server: str
) -> None:
    desktop = _on_sqlite(server)
    lang = "en" if desktop else "zh-Hant"
    table = _api(server, "/api/tables", {"game": "take_stock", "seats": ["open", "medium"]})
    tid = table["table"]["id"]
    token = _api(server, f"/api/tables/{tid}/join", {"name": "Ana"})["token"]
    context = _context(browser, DESKTOP if desktop else PHONE, lang)
    _seat_in(context, tid, 0, token)
    watcher_context = _context(browser, DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server}/t/{tid}")
        _wait_until(page, YOUR_TURN)
        assert page.locator("#hint-button").is_visible()
        assert page.locator("#hints-used").is_hidden()
        assert page.locator("#rated-mark").is_hidden()
        # What a hint costs is in sight before one is taken.
        cost = page.locator("#hint-cost")
        assert cost.is_visible()
        assert ("Hints used" if desktop else "已用提示") in cost.inner_text()
        _shot(page, "hint-ask-en-desktop" if desktop else "hint-ask-zh-phone")
        watcher = watcher_context.new_page()
        watcher.goto(f"{server}/t/{tid}")
        watcher.wait_for_selector(".market .row")
        assert watcher.locator("#hint-box").is_hidden()

        page.click("#hint-button")
        page.wait_for_selector("#hint-card")
        words = page.inner_text("#hint-card")
        assert words.startswith("Hint: " if desktop else "提示：")
        assert ("Chance of winning" if desktop else "獲勝機率") in words
        assert "%" in page.inner_text("#hint-win")
        assert page.locator("#hint-button").is_disabled()
        assert page.locator("#hints-used").is_visible()
        assert cost.is_hidden()  # paid: the chip says so now
        # The preferred action's own control is marked: a card or row, or a button.
        marked = page.locator("#table-col .playable.hinted, #decision .button-choice.hinted")
        assert marked.count() >= 1
        assert _api(server, f"/api/tables/{tid}")["table"]["hints_used"] is True
        _no_overflow(page)
        assert_accessible(page, f"a table with a hint ({lang})")
        _shot(page, "hint-en-desktop" if desktop else "hint-zh-phone")

        # Playing it: the hint goes with its decision; the next turn may ask again.
        version = _version(page)
        marked.first.evaluate("e => e.scrollIntoView({block: 'center'})")
        marked.first.click()
        menu = page.locator("#decision .menu-choice.hinted")
        if menu.count():
            menu.first.click()
        _wait_until(page, f"Number(document.body.dataset.version) > {version}")
        _wait_until(page, YOUR_TURN)
        assert page.locator("#hint-card").count() == 0
        assert page.locator(".hinted").count() == 0
        assert page.locator("#hint-button").is_enabled()
        assert page.locator("#hints-used").is_visible()

        # The lobby says which tables took hints.
        watcher.goto(f"{server}/")
        watcher.wait_for_selector(f"a[href='/t/{tid}']")
        row = watcher.locator("li", has=watcher.locator(f"a[href='/t/{tid}']"))
        assert row.locator(".t-hints").inner_text() == "hints used"
    finally:
        context.close()
        watcher_context.close()


@on("sqlite", "postgresql")
def test_a_rated_table_is_marked_and_offers_no_hint(browser: Any, server: str) -> None:
    desktop = _on_sqlite(server)
    lang = "en" if desktop else "zh-Hant"
    context = _context(browser, DESKTOP if desktop else PHONE, lang)
    try:
        api = context.request
        origin = {"Origin": server}
        name = "r" + secrets.token_hex(4)
        account = {"username": name, "password": "a good long password"}
        assert api.post(f"{server}/api/account/signup", data=account, headers=origin).ok
        made = api.post(
            f"{server}/api/tables",
            data={"game": "take_stock", "seats": ["open", "medium"], "rated": True},
            headers=origin,
        )
        assert made.ok, made.text()
        tid = made.json()["table"]["id"]
        assert api.post(f"{server}/api/tables/{tid}/join", data={}, headers=origin).ok
        page = context.new_page()
        page.goto(f"{server}/t/{tid}")
        _wait_until(page, YOUR_TURN)
        mark = page.locator("#rated-mark")
        assert mark.is_visible()
        assert mark.inner_text() == ("Rated" if desktop else "計入積分")
        assert page.locator("#hint-box").is_hidden()
        assert page.locator("#hint-button").is_hidden()
        _no_overflow(page)
        _shot(page, "rated-en-desktop" if desktop else "rated-zh-phone")

        page.goto(f"{server}/")
        page.wait_for_selector(f"a[href='/t/{tid}']")
        row = page.locator("li", has=page.locator(f"a[href='/t/{tid}']"))
        assert row.locator(".t-rated").inner_text() == ("rated" if desktop else "計分")
    finally:
        context.close()
