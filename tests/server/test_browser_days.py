"""Games over days in Chromium: the lobby's form, "My games" and a table's deadline.

The server runs on a wall clock the test moves (``create_app(url, clock=...)``), so that a
player can leave, come back "a day later" and find the move waiting for them; the server
looks for deadlines every tenth of a second. Signed-in players sign up through the page's
own origin, as its account menu does. Screenshots go where test_browser.py puts them.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server import test_browser
from tests.server.a11y import assert_accessible
from tests.server.test_accounts import PASSWORD
from tests.server.test_browser import (
    DESKTOP,
    PHONE,
    _act,
    _api,
    _context,
    _no_overflow,
    _seated,
    _served,
    _Server,
    _shot,
    _wait_until,
)
from tests.server.test_days import DAY, Clock

browser = test_browser.browser
"""Debian's Chromium (the fixture of test_browser.py)."""
_no_script_errors = test_browser._no_script_errors
"""Every test also checks that the page's scripts raised nothing (test_browser.py's)."""


@pytest.fixture
def served_on_postgresql(tmp_path: Path) -> Iterator[tuple[str, Clock]]:
    """A server with a clock of the test's on a fresh PostgreSQL database (the other tests
    here, and most browser tests, serve from SQLite)."""
    clock = Clock()
    with _served("postgresql", tmp_path, clock=clock, deadline_check=0.1, allow_seed=True) as base:
        yield base, clock


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Clock]]:
    """A server on a fresh SQLite file with a clock of the test's (deals may be chosen)."""
    clock = Clock()
    path = f"sqlite:///{tmp_path / 'days.db'}"
    with _Server(path, clock=clock, deadline_check=0.1, allow_seed=True) as base:
        yield base, clock


def _sign_up(context: Any, base: str, name: str) -> None:
    """Make an account and sign ``context``'s browser in."""
    answer = context.request.post(
        base + "/api/account/signup",
        data={"username": name, "password": PASSWORD},
        headers={"origin": base},
    )
    assert answer.ok, answer.text()


def _post(context: Any, base: str, path: str, body: dict[str, Any]) -> Any:
    """A POST with ``context``'s session, from the site's own origin; the JSON answer."""
    answer = context.request.post(base + path, data=body, headers={"origin": base})
    assert answer.ok, answer.text()
    return answer.json()


def _to_move(base: str, table_id: str) -> int | None:
    return _api(base, f"/api/tables/{table_id}/view")["current_player"]  # type: ignore[no-any-return]


def _play_until(page: Any, done: Any, rng: random.Random, limit: float = 60) -> None:
    """Make ``page``'s player's choices until ``done()``."""
    counts: Counter[str] = Counter()
    deadline = page.evaluate("performance.now()") + limit * 1000
    while not done():
        assert page.evaluate("performance.now()") < deadline, f"not done in time: {counts}"
        if not _act(page, rng, counts):
            page.wait_for_timeout(30)


def _fill_days_form(page: Any, base: str, invite: str) -> None:
    """The lobby's form of a signed-in player: two seats, one kept for ``invite``, 3 days a move."""
    page.goto(base + "/")
    page.wait_for_selector("#create-table")
    _wait_until(page, "!document.getElementById('rated-box').hidden")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "open")
    page.fill("#invite-1", invite)
    page.check("#pace-days")
    page.select_option("#move-time", str(int(3 * DAY)))
    page.check("#spectator-chat")


def test_a_player_back_a_day_later_finds_the_move_waiting_in_my_games(
    browser: Any, served_on_postgresql: tuple[str, Clock]
) -> None:
    base, clock = served_on_postgresql
    alice = _context(browser, DESKTOP)
    bob = _context(browser, PHONE, "zh-Hant")
    rng = random.Random(22)
    try:
        _sign_up(alice, base, "alice")
        _sign_up(bob, base, "bob")
        page = alice.new_page()
        _fill_days_form(page, base, "bob")
        page.click("#create-table")
        page.wait_for_url("**/t/*")
        table_id = page.url.rstrip("/").split("/")[-1]
        _wait_until(page, _seated(0))
        info = _api(base, f"/api/tables/{table_id}")["table"]
        assert info["move_time"] == 3 * DAY and info["spectator_chat"] is True
        assert info["seats"][1] == {**info["seats"][1], "kind": "open", "invited": True}

        # Bob finds the seat kept for him in "My games" and takes it.
        bobs = bob.new_page()
        bobs.goto(base + "/my")
        bobs.wait_for_selector("#invitations .take-seat")
        assert bobs.title() == "(1) 我的牌局 · closingbell"
        assert bobs.inner_text("#waiting-badge") == "1"
        bobs.click("#invitations .take-seat")
        bobs.wait_for_url(f"**/t/{table_id}")
        _wait_until(bobs, _seated(1))
        _wait_until(page, "document.body.dataset.status === 'playing'")
        assert page.inner_text("#deadline").endswith("to decide.")

        # Alice plays her part, if the deal has her begin, then closes her page.
        _play_until(page, lambda: _to_move(base, table_id) == 1, rng)
        page.close()
        # Bob moves while she is away.
        _play_until(bobs, lambda: _to_move(base, table_id) == 0, rng)
        assert "天" in bobs.inner_text("#deadline")

        # A day later Alice looks at "My games": her move waits, with two days left.
        clock.later(DAY)
        mine = alice.new_page()
        mine.goto(base + "/my")
        mine.wait_for_selector(f"#your-turn [data-table='{table_id}']")
        assert mine.title() == "(1) My games · closingbell"
        assert mine.inner_text("#waiting-badge") == "1"
        entry = mine.inner_text(f"#your-turn [data-table='{table_id}']")
        assert "Your turn" in entry and "2 days" in entry and "left" in entry, entry
        assert "3 days a move" in entry and "alice (you)" in entry and "bob" in entry
        _no_overflow(mine)
        assert_accessible(mine, "My games with a move waiting")
        mine.click(f"#your-turn [data-table='{table_id}'] .play")
        mine.wait_for_url(f"**/t/{table_id}")
        mine.wait_for_selector("#decision:not([hidden])")
        assert mine.title().startswith("● Your turn")
        # Every page's header counts the tables waiting for her.
        mine.wait_for_selector("#header-badge:not([hidden])")
        assert mine.inner_text("#header-badge") == "1"
        assert re.fullmatch(r"You have 2 days( \d+ h)? to decide\.", mine.inner_text("#deadline"))

        # Three days later, page open or not, a bot has made that decision for her.
        clock.later(3 * DAY)
        mine.wait_for_selector("#deadline:has-text('Bot moved for you: time ran out.')")
        _wait_until(bobs, "document.getElementById('deadline').textContent.includes('時間到了')")
        assert "alice" in bobs.inner_text("#deadline")
        _shot(mine, "days-table-en-desktop")
        _shot(bobs, "days-table-zh-phone")
    finally:
        alice.close()
        bob.close()


def test_an_invitation_is_declined_in_my_games(browser: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'invitations.db'}"
    ana = _context(browser, PHONE, "zh-Hant")
    bruno = _context(browser, DESKTOP)
    try:
        with _Server(url, invitations_to_one=5) as base:
            _sign_up(bruno, base, "bruno")
            _sign_up(ana, base, "ana")
            # Five seats kept for Ana by Bruno: a few of them are listed, the rest counted.
            kept = {"game": "take_stock", "seats": ["open", "open"], "invited": [None, "ana"]}
            tables = [_post(bruno, base, "/api/tables", kept)["table"]["id"] for _ in range(5)]
            page = ana.new_page()
            page.goto(base + "/my")
            page.wait_for_selector("#invitations .decline")
            assert page.locator("#invitations li").count() == 3
            assert page.inner_text("#invitations li:first-child .decline") == "謝絕"
            assert "還有 2 個邀請沒有列出" in page.inner_text("#invitations-unlisted")
            assert page.inner_text("#waiting-badge") == "3"
            _no_overflow(page)
            assert_accessible(page, "My games with invitations to take or decline")
            page.click(f"#invitations [data-table='{tables[-1]}'] .decline")
            page.wait_for_selector(f"#invitations [data-table='{tables[-1]}']", state="detached")
            assert "已謝絕邀請" in page.inner_text("#my-games-status")
            assert page.locator("#invitations li").count() == 3
            assert "還有 1 個邀請" in page.inner_text("#invitations-unlisted")
            # The seat is open: anyone may take it now.
            seat = _api(base, f"/api/tables/{tables[-1]}")["table"]["seats"][1]
            assert (seat["kind"], seat["name"], seat["invited"]) == ("open", None, False)
    finally:
        ana.close()
        bruno.close()


def test_the_lobby_form_offers_accounts_more_and_names_a_wrong_username(
    browser: Any, served: tuple[str, Clock]
) -> None:
    base, _ = served
    context = _context(browser, DESKTOP)
    try:
        page = context.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#create-table")
        # A guest: no rating, no seats kept, a name to type; real time first.
        assert page.is_hidden("#rated-box") and page.is_hidden("#invite-1")
        assert page.is_visible("#creator-name") and page.is_checked("#pace-real")
        assert page.is_visible("#clock") and page.is_hidden("#move-time")
        page.check("#pace-days")
        assert page.is_hidden("#clock") and page.is_visible("#move-time")
        assert page.locator("#move-time option").all_inner_texts() == [
            "1 h",
            "8 h",
            "1 day",
            "3 days",
            "7 days",
        ]
        _sign_up(context, base, "dora")
        _fill_days_form(page, base, "nobody-here")
        assert page.is_hidden("#creator-name")
        assert page.inner_text("#playing-as") == "You play as dora."
        page.check("#rated")
        page.click("#create-table")
        page.wait_for_selector("#create-error:has-text('No player has that name.')")
        assert page.get_attribute("#invite-1", "aria-invalid") == "true"
        assert _api(base, "/api/tables")["tables"] == []
        page.fill("#invite-1", "")
        page.select_option("#seat-1", "easy")
        assert page.is_hidden("#invite-1")
        page.click("#create-table")
        page.wait_for_url("**/t/*")
        table = _api(base, f"/api/tables/{page.url.rstrip('/').split('/')[-1]}")["table"]
        assert table["rated"] is True and table["move_time"] == 3 * DAY
        assert table["seats"][0] == {**table["seats"][0], "name": "dora", "account": True}
    finally:
        context.close()


SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.mark.parametrize(("lang", "size"), [(lang, s) for lang in ("en", "zh-Hant") for s in SIZES])
def test_screenshots_of_the_lobby_form_and_my_games(
    browser: Any, served: tuple[str, Clock], lang: str, size: str
) -> None:
    base, _ = served
    tag = f"{'zh' if lang == 'zh-Hant' else 'en'}-{size}"
    ana = _context(browser, SIZES[size], lang)
    others = _context(browser, DESKTOP)
    try:
        _sign_up(others, base, "bruno")
        _sign_up(ana, base, "ana")
        # Ana's games: her move in two games, a seat kept for her, two waiting for others.
        # (Seeds 1 and 3 deal the first move to seat 0, Ana's; seed 2 to Bruno.)
        two = {"game": "take_stock", "seats": ["open", "open"]}
        for move_time, seed in ((8 * 3600, 1), (3 * DAY, 3), (DAY, 2)):
            made = {**two, "move_time": move_time, "seed": seed}
            table = _post(ana, base, "/api/tables", made)["table"]
            _post(ana, base, f"/api/tables/{table['id']}/join", {})
            _post(others, base, f"/api/tables/{table['id']}/join", {})
        solo = {"game": "card_stock_market", "seats": ["open", "medium", "easy"]}
        table = _post(ana, base, "/api/tables", solo)["table"]
        _post(ana, base, f"/api/tables/{table['id']}/join", {})
        kept = {**two, "invited": [None, "ana"], "move_time": DAY}
        table = _post(others, base, "/api/tables", kept)["table"]
        _post(others, base, f"/api/tables/{table['id']}/join", {"seat": 0})
        table = _post(ana, base, "/api/tables", {**two, "move_time": 7 * DAY})["table"]
        _post(ana, base, f"/api/tables/{table['id']}/join", {})

        page = ana.new_page()
        page.goto(base + "/my")
        page.wait_for_selector("#invitations .take-seat")
        _no_overflow(page)
        assert page.locator("#invitations li").count() == 1
        _shot(page, f"my-games-{tag}")
        _fill_days_form(page, base, "bruno")
        page.check("#rated")
        _no_overflow(page)
        _shot(page, f"lobby-days-{tag}")
    finally:
        ana.close()
        others.close()


def test_the_waiting_count_is_ready_for_other_pages(
    browser: Any, served: tuple[str, Clock]
) -> None:
    base, _ = served
    context = _context(browser, DESKTOP)
    try:
        page = context.new_page()
        page.goto(base + "/my")
        page.wait_for_selector("#my-games-status:has-text('Sign in')")
        count = "import('/static/waiting.js').then((m) => m.waitingCount())"
        assert page.evaluate(count) is None
        _sign_up(context, base, "erin")
        table = _post(
            context, base, "/api/tables", {"game": "take_stock", "seats": ["open", "easy"]}
        )
        _post(context, base, f"/api/tables/{table['table']['id']}/join", {})
        _wait_until(page, f"{count}.then((n) => n === 1)")
    finally:
        context.close()
