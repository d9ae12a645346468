"""An abandoned table on the page: the lobby marks it, and its page says it ended."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.server import test_browser
from tests.server.test_browser import DESKTOP, PHONE, _api, _context, _Server, _shot, _wait_until

browser = test_browser.browser
"""Debian's Chromium (the fixture of test_browser.py)."""
_no_script_errors = test_browser._no_script_errors


def test_an_abandoned_table_is_marked_in_the_lobby_and_on_its_page(
    browser: Any, tmp_path: Path
) -> None:
    quick = {"abandon_after": 1.0, "abandon_check": 0.2}
    with _Server(f"sqlite:///{tmp_path / 'gone.db'}", **quick) as base:
        table = _api(base, "/api/tables", {"game": "take_stock", "seats": ["open", "open"]})
        for name in ("Ana", "Bo"):
            _api(base, f"/api/tables/{table['table']['id']}/join", {"name": name})
        deadline = time.monotonic() + 20
        while _api(base, f"/api/tables/{table['table']['id']}")["table"]["status"] != "abandoned":
            assert time.monotonic() < deadline, "the table was never abandoned"
            time.sleep(0.2)
        for lang, size, word, banner in (
            ("en", DESKTOP, "abandoned", "Game abandoned"),
            ("zh-Hant", PHONE, "已放棄", "牌局已放棄"),
        ):
            context = _context(browser, size, lang=lang)
            page = context.new_page()
            page.goto(base + "/")
            row = page.locator(f"li:has(a[href$='{table['table']['id']}'])")
            _wait_until(page, "document.querySelector('.status-abandoned') !== null")
            assert word in row.inner_text()
            page.goto(f"{base}/t/{table['table']['id']}")
            _wait_until(page, "document.body.dataset.status === 'abandoned'")
            assert page.locator("#status").inner_text() == banner
            assert page.locator("#decision").is_hidden()
            _shot(page, f"abandoned-{lang}-{'phone' if size is PHONE else 'desktop'}")
            context.close()
