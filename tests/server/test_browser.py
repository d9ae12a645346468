"""The browser page, driven through Debian's Chromium with Playwright against a real server.

Never ``playwright install``: the tests launch ``/usr/bin/chromium`` (``scripts/test.sh``
installs it). Players click the page's first legal choice button whenever it is their turn.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import sync_playwright

from closingbell.server.app import create_app
from tests.server.conftest import STORAGE
from tests.server.helpers import client_for, create, database, run_sql

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]
CLICK_FIRST = """() => {
  const b = document.querySelector('#choices button.choice:not([disabled])');
  if (b) { b.click(); return true; }
  return false;
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Server:
    """A uvicorn server in a thread on a free port."""

    def __init__(self, url: str) -> None:
        self.port = _free_port()
        config = uvicorn.Config(
            create_app(url, bot_delay=0), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test.sh does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@contextmanager
def _served(kind: str, tmp_path: Path) -> Iterator[str]:
    """A server on a fresh database of ``kind``; its address.

    The database is made and dropped in another thread: Playwright's sync API keeps an
    event loop running in this one, and the PostgreSQL helper runs its own.
    """
    made = database(kind, tmp_path)
    with ThreadPoolExecutor(1) as pool:
        url = pool.submit(made.__enter__).result()
    try:
        with _Server(url) as base:
            yield base
    finally:
        with ThreadPoolExecutor(1) as pool:
            pool.submit(made.__exit__, None, None, None).result()


@pytest.fixture(params=STORAGE)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A server on a fresh database: every browser test runs on SQLite and on PostgreSQL."""
    with _served(request.param, tmp_path) as base:
        yield base


def _create(page: Any, base: str, game: str, seats: list[str], **options: Any) -> str:
    """Create a table through the lobby form; return the table page's address."""
    page.goto(base + "/")
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    if options:
        page.click("#options summary")
        for name, value in options.items():
            page.fill(f"#opt-{name}", str(value))
    page.click("#create-table")
    page.wait_for_url("**/t/*")
    return str(page.url)


def _join(page: Any, url: str, name: str) -> None:
    if page.url != url:
        page.goto(url)
    page.fill("#name", name)
    page.click("#join-button")
    _wait_until(
        page,
        "document.body.dataset.seat !== undefined && document.body.dataset.seat !== 'spectator'",
    )


def _wait_until(page: Any, expression: str, limit: float = 30) -> None:
    """Wait until ``expression`` is true in ``page``.

    Playwright's ``wait_for_function`` evaluates its predicate with ``eval`` in the page,
    which the page's Content-Security-Policy forbids; ``evaluate`` is not subject to it.
    """
    deadline = time.monotonic() + limit
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        page.wait_for_timeout(15)


def _play(pages: list[Any], until: Any, limit: float = 120) -> int:
    """Click the first legal choice on each page in turn until ``until()``; return clicks."""
    clicks = 0
    deadline = time.monotonic() + limit
    while not until():
        assert time.monotonic() < deadline, "the game did not get there in time"
        moved = False
        for page in pages:
            if page.evaluate(CLICK_FIRST):
                clicks += 1
                moved = True
        if not moved:
            pages[0].wait_for_timeout(15)
    return clicks


def _status(page: Any) -> str | None:
    return page.evaluate("document.body.dataset.status || null")  # type: ignore[no-any-return]


def _version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version || '0'"))


REPORT_CSP = """document.addEventListener('securitypolicyviolation', (e) =>
  console.error(`Content Security Policy blocked ${e.violatedDirective} ${e.blockedURI}`));"""


def _watch_csp(context: Any, blocked: list[str]) -> None:
    """Collect in ``blocked`` what the Content-Security-Policy blocks in ``context``."""
    context.add_init_script(REPORT_CSP)
    context.on(
        "console",
        lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None,
    )


INLINE_SCRIPT = """() => {
  const script = document.createElement('script');
  script.textContent = 'window.inlineRan = true;';
  document.body.append(script);
}"""


def _complete_take_stock(browser: Any, base: str) -> None:
    one, two = browser.new_context(), browser.new_context()
    blocked: list[str] = []
    _watch_csp(one, blocked)
    _watch_csp(two, blocked)
    try:
        ana, bo = one.new_page(), two.new_page()
        url = _create(ana, base, "take_stock", ["open", "open", "easy"], rounds=1)
        _join(ana, url, "<b>Ana</b>")
        ana.wait_for_selector("#status")
        assert "Waiting" in ana.inner_text("#status")
        _join(bo, url, "Bo")
        ana.wait_for_selector("#market")
        # Each row starts with its own stock's 1.
        rows = ana.locator("#market tr").all_inner_texts()[1:]
        assert [r.split()[0] for r in rows] == ["Corn", "Gem", "Oil", "Tech", "Movie"]
        assert all(f"{r.split()[0]} 1" in r for r in rows), rows
        bo.wait_for_selector("#hand .card")
        clicks = _play([ana, bo], lambda: _status(ana) == "finished" and _status(bo) == "finished")
        assert clicks > 10
        for page in (ana, bo):
            page.wait_for_selector("#final-scores")
            assert page.locator(".round-result").count() == 1
            assert page.locator("#log li").count() > clicks
        # A display name is text, never markup.
        assert "<b>Ana</b>" in ana.inner_text("#seats")
        assert ana.locator("#seats b").count() == 0
        assert "<b>Ana</b>" in ana.inner_text("#final-scores")
        # The replay steps through the finished game.
        ana.click("#replay-button")
        ana.wait_for_selector("#replay-slider")
        assert "0" in ana.inner_text("#replay-step")
        ana.click("#replay-next")
        ana.click("#replay-next")
        assert ana.locator("#replay-board #market").count() == 1
        assert ana.locator("#replay-log li").count() >= 1
        ana.click("#replay-last")
        assert ana.locator("#replay-board #hand").count() == 0
        # The page works under its Content-Security-Policy, which blocks nothing of it...
        assert blocked == []
        # ... and would block an inline script slipped into it.
        ana.evaluate(INLINE_SCRIPT)
        ana.wait_for_timeout(200)
        assert ana.evaluate("window.inlineRan === undefined")
        assert any("script-src" in b for b in blocked), blocked
    finally:
        one.close()
        two.close()


def test_two_players_and_a_bot_play_a_whole_take_stock_game(browser: Any, server: str) -> None:
    _complete_take_stock(browser, server)


def test_reload_comes_back_to_the_same_seat_and_a_spectator_sees_no_hand(
    browser: Any, server: str
) -> None:
    player, watcher = browser.new_context(), browser.new_context()
    try:
        page = player.new_page()
        url = _create(page, server, "take_stock", ["open", "medium"])
        _join(page, url, "Ana")
        page.wait_for_selector("#hand .card")
        _play([page], lambda: _version(page) >= 8)
        before = _version(page)
        hand = page.inner_text("#hand")
        page.reload()
        page.wait_for_selector("#hand .card")
        _wait_until(page, f"Number(document.body.dataset.version) >= {before}")
        assert page.evaluate("document.body.dataset.seat") == "0"
        assert page.locator("#join-form").count() == 0
        if _version(page) == before:
            assert page.inner_text("#hand") == hand
        _play([page], lambda: _version(page) >= before + 6)
        # A spectator: the board, the seats, no hand and no choices.
        look = watcher.new_page()
        look.goto(url)
        look.wait_for_selector("#market")
        assert look.evaluate("document.body.dataset.seat") == "spectator"
        assert look.locator("#hand").count() == 0
        assert look.locator("#choices button").count() == 0
        assert look.locator("#join-form").count() == 0
        assert "Ana" in look.inner_text("#seats")
    finally:
        player.close()
        watcher.close()


def test_card_stock_market_in_traditional_chinese(browser: Any, server: str) -> None:
    context = browser.new_context()
    context.add_init_script("localStorage.setItem('closingbell.lang', 'zh-Hant')")
    try:
        page = context.new_page()
        url = _create(page, server, "card_stock_market", ["open", "easy"])
        _join(page, url, "小明")
        page.wait_for_selector("#market")
        assert "梅花" in page.inner_text("#market") or "♣" in page.inner_text("#market")
        assert page.locator("#hand .card").count() > 0
        assert "現金" in page.inner_text("#players")
        page.wait_for_selector("#choices button.choice")
        assert any("\u4e00" <= ch <= "\u9fff" for ch in page.inner_text("#choices"))
        _play([page], lambda: _version(page) >= 30 or _status(page) == "finished")
        assert _version(page) >= 30 or _status(page) == "finished"
        assert page.locator("#log li").count() > 10
    finally:
        context.close()


def test_the_lobby_shows_a_damaged_table_as_unavailable(browser: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'damaged.db'}"

    def build() -> tuple[str, str]:
        with client_for(url) as client:
            bad = create(client, "take_stock", ["open", "open"])["id"]
            good = create(client, "take_stock", ["open", "medium"])["id"]
        run_sql(url, "UPDATE tables SET options = '{' WHERE id = :id", id=bad)
        return bad, good

    with ThreadPoolExecutor(1) as pool:
        bad, good = pool.submit(build).result()
    with _Server(url) as base:
        page = browser.new_page()
        try:
            page.goto(base + "/")
            page.wait_for_selector("#tables li", timeout=10_000)
            assert page.locator("#create-table").count() == 1
            assert page.locator("#tables li").count() == 2
            damaged = page.locator("#tables li.table-unavailable")
            assert "Take Stock" in damaged.inner_text()
            assert "unavailable" in damaged.inner_text()
            assert damaged.locator("a").count() == 0
            assert page.locator(f'#tables a[href="/t/{good}"]').count() == 1
            page.goto(f"{base}/t/{bad}")
            page.wait_for_selector("#main .error", timeout=10_000)
            assert page.inner_text("#main .error") == "This table is unavailable."
        finally:
            page.close()
