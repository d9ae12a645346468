"""The lobby's tables and its count of people online, in a real browser.

Each table in the list says how many seats are open, whether it is rated, and its pace (real
time with its turn clock, or over days with the time per move); the header counts the people
whose pages are open, the lobby's own visitor included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server import test_browser
from tests.server.test_browser import DESKTOP, PHONE, _api, _context, _Server, _shot, _wait_until
from tests.server.test_browser_days import _post, _sign_up

browser = test_browser.browser
"""Debian's Chromium (the fixture of test_browser.py)."""
_no_script_errors = test_browser._no_script_errors

ONLINE = "document.getElementById('online') && document.getElementById('online').textContent"


def _row(page: Any, table_id: str) -> str:
    """The text of the lobby's row of ``table_id``."""
    return page.locator(f"li:has(a[href$='{table_id}'])").inner_text()  # type: ignore[no-any-return]


def test_each_table_says_its_open_seats_whether_rated_and_its_pace(
    browser: Any, tmp_path: Path
) -> None:
    with _Server(f"sqlite:///{tmp_path / 'lobby.db'}") as base:
        clocked = _api(
            base,
            "/api/tables",
            {"game": "take_stock", "seats": ["open", "open", "easy"], "clock": 90},
        )["table"]["id"]
        untimed = _api(
            base,
            "/api/tables",
            {"game": "card_stock_market", "seats": ["open", "easy"], "clock": 30},
        )["table"]["id"]
        host = _context(browser, DESKTOP)
        _sign_up(host, base, "carol")
        days = _post(
            host,
            base,
            "/api/tables",
            {"game": "take_stock", "seats": ["open", "open"], "move_time": 86400, "rated": True},
        )["table"]["id"]
        page = host.new_page()
        page.goto(base + "/")
        _wait_until(page, f"document.querySelector(\"a[href$='{days}']\") !== null")
        assert "2 open seats" in _row(page, clocked)
        assert "not rated" in _row(page, clocked)
        assert "real time, turn clock 1 min 30 s" not in _row(page, clocked)  # minutes, rounded
        assert "real time, turn clock 2 min" in _row(page, clocked)
        assert "1 open seat" in _row(page, untimed)
        assert "real time, turn clock 30 s" in _row(page, untimed)
        row = _row(page, days)
        assert "2 open seats" in row and "rated" in row and "not rated" not in row
        assert "1 day a move" in row
        _shot(page, "lobby-tables-en-desktop")
        host.close()
        phone = _context(browser, PHONE, lang="zh-Hant")
        page = phone.new_page()
        page.goto(base + "/")
        _wait_until(page, f"document.querySelector(\"a[href$='{days}']\") !== null")
        row = _row(page, clocked)
        assert "2 個空位" in row and "回合計時" in row
        assert "計分" in _row(page, days)
        _shot(page, "lobby-tables-zh-phone")
        phone.close()


def test_the_lobby_counts_the_people_whose_pages_are_open(browser: Any, tmp_path: Path) -> None:
    with _Server(f"sqlite:///{tmp_path / 'online.db'}") as base:
        table = _api(base, "/api/tables", {"game": "take_stock", "seats": ["open", "open"]})
        table_id = table["table"]["id"]
        # Someone at a table, in another browser: their page says it is open.
        player = _context(browser, DESKTOP)
        at_table = player.new_page()
        at_table.goto(f"{base}/t/{table_id}")
        visitor = _context(browser, DESKTOP)
        lobby = visitor.new_page()
        lobby.goto(base + "/")
        _wait_until(lobby, f"{ONLINE} === 'Players online: 2'")
        # A second page of the same browser is the same person.
        again = visitor.new_page()
        again.goto(base + "/")
        _wait_until(again, f"{ONLINE} === 'Players online: 2'")
        assert _api(base, "/api/online")["players"] == 2
        player.close()
        visitor.close()
