"""Accounts in the browser: sign up and in through the header's dialog, seats by session.

Driven through Debian's Chromium as tests/server/test_browser.py does (its fixtures and
helpers), on SQLite and PostgreSQL.
"""

# ruff: noqa: F811 (the fixtures of test_browser, imported, are the tests' parameters)
from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.server.test_browser import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    _context,
    _create_in_lobby,
    _join,
    _no_script_errors,
    _seated,
    _shot,
    _wait_until,
    browser,
    on,
    quick,
    server,
)

PASSWORD = "a good long password"
SEATED = _seated(0)


def _sign_up_in_dialog(page: Any, base: str, name: str) -> None:
    """Make an account through the header's dialog; the page reloads signed in."""
    if not page.url.startswith(base):
        page.goto(base + "/")
    page.click("#sign-in")
    page.click("#account-switch")
    page.fill("#account-username", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-button")


def _forget_seat_links(page: Any) -> None:
    page.evaluate(
        "for (const k of Object.keys(localStorage))"
        " if (k.startsWith('closingbell.seat.')) localStorage.removeItem(k)"
    )


@on("sqlite")
def test_a_signed_in_player_finds_their_seat_without_its_link(browser: Any, server: str) -> None:
    context = _context(browser, DESKTOP)
    page = context.new_page()
    name = "p" + secrets.token_hex(4)
    _sign_up_in_dialog(page, server, name)
    assert page.inner_text("#account-button") == name
    assert (
        page.is_hidden("#creator-name") and page.inner_text("#playing-as") == f"You play as {name}."
    )
    url = _create_in_lobby(page, server, "take_stock", ["you", "easy"])
    _wait_until(page, SEATED)
    # Another device: no seat link, only the session.
    _forget_seat_links(page)
    page.goto(url)
    _wait_until(page, SEATED)
    assert page.inner_text("#others").count("Easy") >= 1
    # Signed out, the same browser only watches.
    page.click("#account-button")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in")
    _wait_until(page, _seated("spectator"))
    context.close()


@on("postgresql")
def test_a_guest_who_signs_up_mid_game_keeps_the_seat(browser: Any, server: str) -> None:
    context = _context(browser, PHONE)
    page = context.new_page()
    url = _create_in_lobby(page, server, "card_stock_market", ["open", "medium"])
    _join(page, url, "Guest Gwen")
    _wait_until(page, SEATED)
    _sign_up_in_dialog(page, server, "g" + secrets.token_hex(4))
    _wait_until(page, SEATED)
    _forget_seat_links(page)
    page.reload()
    _wait_until(page, SEATED)  # the seat is the account's now
    # The seat comes with the welcome, the table's drawing with the state after it.
    _wait_until(page, "document.getElementById('main').innerText.includes('Guest Gwen')")
    context.close()


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("zh-Hant", PHONE)])
def test_a_wrong_password_is_said_in_the_page_language(
    browser: Any, quick: str, lang: str, size: dict[str, int]
) -> None:
    context = _context(browser, size, lang)
    page = context.new_page()
    name = "w" + secrets.token_hex(4)
    _sign_up_in_dialog(page, quick, name)
    page.click("#account-button")
    _shot(page, f"account-menu-{lang}")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in")
    page.click("#sign-in")
    _shot(page, f"sign-in-{lang}")
    page.fill("#account-username", name)
    page.fill("#account-password", "not the password")
    page.click("#account-submit")
    page.wait_for_selector("#account-error:not(:empty)")
    expected = {
        "en": "The account name or the password is wrong.",
        "zh-Hant": "帳號名稱或密碼錯誤。",
    }
    assert page.inner_text("#account-error") == expected[lang]
    assert page.locator("#sign-in").count() == 1  # still a guest
    # The right password signs in; the dialog closes with the page's reload.
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-button")
    assert page.locator("#account-dialog").count() == 0
    context.close()


def test_the_password_changes_from_the_account_dialog(browser: Any, quick: str) -> None:
    context = _context(browser, DESKTOP)
    page = context.new_page()
    name = "c" + secrets.token_hex(4)
    _sign_up_in_dialog(page, quick, name)
    page.click("#account-button")
    page.fill("#old-password", "wrong wrong wrong")
    page.fill("#new-password", "a newer password")
    page.click("#password-submit")
    page.wait_for_selector("#password-error:not(:empty)")
    page.fill("#old-password", PASSWORD)
    page.click("#password-submit")
    page.wait_for_selector("#password-done:not(:empty)")
    assert page.inner_text("#password-error") == ""
    answer = page.evaluate(
        """async (name) => (await fetch('/api/account/signin', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({username: name, password: 'a newer password'})})).status""",
        name,
    )
    assert answer == 200
    context.close()
