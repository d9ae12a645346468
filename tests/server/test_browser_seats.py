"""Seats as people count them, from 1, in the page's refusals, in Debian's Chromium.

The protocol counts seats from 0; what a person reads counts them from 1, in both
languages. A player who asks for the second seat just after someone else took it is told
that seat 2 was taken, once, and a refusal shown anywhere else names its seat from the
error's own ``seat`` field. Driven as tests/server/test_browser.py does (its fixtures).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.test_browser import (
    DESKTOP,
    PHONE,
    _api,
    _context,
    _no_overflow,
    _no_script_errors,
    _shot,
    _wait_until,
    browser,
    quick,
)

__all__ = ["_no_script_errors", "browser", "quick"]  # the fixtures, used here too

LATE = """
// The page hears of the taken seat only after asking for it: the seats it is sent after
// its first state are held back, as when another player's join crosses this one's.
const Socket = window.WebSocket;
let states = 0;
window.WebSocket = class extends Socket {
  set onmessage(listener) {
    super.onmessage = (event) => {
      if (event.data.includes('"type":"seats"')) return;
      if (event.data.includes('"type":"state"') && states++ > 0) return;
      listener(event);
    };
  }
};
"""
"""An init script that keeps the page's join form as it was before the seat was taken."""

TAKEN = {"en": "Seat 2 was just taken: choose another seat.", "zh-Hant": "座位 2 剛被別人坐走了"}


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("zh-Hant", PHONE)])
def test_a_seat_taken_meanwhile_is_named_from_1_once(
    browser: Any, quick: str, lang: str, size: dict[str, int]
) -> None:
    table = _api(quick, "/api/tables", {"game": "take_stock", "seats": ["open", "open"]})
    tid = table["table"]["id"]
    context = _context(browser, size, lang)
    context.add_init_script(LATE)
    try:
        page = context.new_page()
        page.goto(f"{quick}/t/{tid}")
        page.wait_for_selector("#join-seat")
        page.select_option("#join-seat", "1")  # the second seat
        _api(quick, f"/api/tables/{tid}/join", {"name": "Bo", "seat": 1})
        page.fill("#name", "Ana")
        page.click("#join-button")
        page.locator("#join-error").filter(has_text=TAKEN[lang]).wait_for()
        # The form then offers the seats still open: the first only.
        _wait_until(page, "!document.querySelector(\"#join-seat option[value='1']\")")
        words = page.inner_text("#join")
        assert words.count(TAKEN[lang]) == 1, words
        assert ("Seat 1 was" if lang == "en" else "座位 1 剛") not in words
        _no_overflow(page)
        _shot(page, "seat-taken-en-desktop" if lang == "en" else "seat-taken-zh-phone")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_refusal_names_its_seat_from_1_wherever_it_is_shown(
    browser: Any, quick: str, lang: str
) -> None:
    context = _context(browser, DESKTOP, lang)
    try:
        page = context.new_page()
        page.goto(f"{quick}/")
        page.wait_for_selector("#create-table")
        said = page.evaluate(
            """async () => {
                const words = await import('/static/i18n.js');
                await words.loadMessages();
                return words.failure({ code: 'seat_taken', details: { seat: 1 } });
            }"""
        )
        assert said.startswith(TAKEN[lang]), said
    finally:
        context.close()
