"""The profile and leaderboard pages in Debian's Chromium: a player signs up, plays a rated
game of Take Stock against a bot to its end by clicking, then finds their rating, its chart
and the game on their profile, and both on the leaderboard reached from the lobby.

Screenshots of both pages (desktop and phone, English and Chinese) go where
tests/server/test_browser.py puts its own (``build/screenshots/`` by default).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server import test_browser
from tests.server.a11y import assert_accessible
from tests.server.helpers import run_sql
from tests.server.test_accounts import stored
from tests.server.test_browser import (
    PAGE_ERRORS,
    PHONE,
    _context,
    _no_overflow,
    _off_loop,
    _play_seat,
    _seated,
    _served,
    _Server,
    _shot,
    _wait_until,
)

DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "correct horse battery"
SIGN_UP = """async ([name, password]) => {
  const answer = await fetch('/api/account/signup', {method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({username: name, password})});
  return answer.status;
}"""
"""Sign up from the page, as the sign-in dialog does (the session cookie comes back HttpOnly)."""
RATED_TABLE = """async (seed) => {
  const post = async (path, body) => (await fetch(path, {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json();
  const {table} = await post('/api/tables', {game: 'take_stock', seats: ['open', 'easy'],
    options: {rounds: 1}, seed, rated: true});
  const joined = await post(`/api/tables/${table.id}/join`, {});
  localStorage.setItem(`closingbell.seat.${table.id}`,
    JSON.stringify({seat: joined.seat, token: joined.token}));
  return [table.id, joined.token];
}"""
"""Open a rated one-round table against the easy bot and take its open seat; the table's id
and the seat's token."""


browser = test_browser.browser
"""Debian's Chromium (the fixture of test_browser.py)."""


@pytest.fixture(autouse=True)
def _no_script_errors() -> Iterator[None]:
    """Every test also checks that the pages' scripts raised nothing."""
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == []


URL: dict[str, str] = {}
"""The database of the server of each address."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server on SQLite whose tables may be given seeds."""
    url = f"sqlite:///{tmp_path_factory.mktemp('standings') / 'web.db'}"
    with _Server(url, allow_seed=True) as base:
        URL[base] = url
        yield base


def _api(page: Any, path: str) -> Any:
    return page.evaluate(f"async () => (await fetch({json.dumps(path)})).json()")


@pytest.fixture
def fresh_site(tmp_path: Path) -> Iterator[str]:
    """A server on a fresh PostgreSQL database, whose tables may be given seeds (the
    other tests here serve from SQLite)."""
    with _served("postgresql", tmp_path, allow_seed=True) as base:
        yield base


def test_a_rated_game_shows_on_the_profile_and_the_leaderboard(
    browser: Any, fresh_site: str
) -> None:
    site = fresh_site
    context = _context(browser, DESKTOP)
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_selector("#create-table")
    assert page.evaluate(SIGN_UP, ["Maxine", PASSWORD]) == 201
    table, token = page.evaluate(RATED_TABLE, 11)
    page.goto(f"{site}/t/{table}")
    _wait_until(page, _seated(0))
    # Played over the WebSocket for the same seat (whole games through the page are tested
    # in test_browser.py): the page shows it, and its final screen.
    _off_loop(_play_seat, site, table, token, random.Random(5))
    _wait_until(page, "document.body.dataset.status === 'finished'")
    # The final screen says what the game did to the player's rating: a first one is
    # provisional, however it went.
    page.wait_for_selector("#overlay[open] #rating-change")
    change = page.inner_text("#rating-change")
    assert change.startswith("Your rating is provisional after 1 rated game (")
    assert "in this game" in change and "\u22120.0" not in change  # no "minus zero"
    _shot(page, "rating-change-en-desktop")

    page.goto(site + "/players/maxine")
    page.wait_for_selector("#chart-box-take_stock svg")
    shown = _api(page, "/api/players/Maxine")
    [entry] = [g for g in shown["games"] if g["game"] == "take_stock"]
    assert entry["rating"]["provisional"] is True
    assert page.inner_text("h1").startswith("Maxine")
    # A first rating reads as provisional, not as a figure below 0.
    assert page.inner_text("#game-take_stock .rating-value") == "provisional"
    assert "1 rated game" in page.inner_text("#game-take_stock .rating-detail")
    # The chart: the start and one game, the easy bot's line, its words for screen readers.
    chart = page.locator("#chart-box-take_stock svg")
    assert chart.get_attribute("role") == "img"
    assert page.locator("#chart-box-take_stock circle.dot").count() == 2
    assert page.locator("#chart-box-take_stock polyline.line").count() == 1
    assert page.locator("#chart-box-take_stock line.bot-easy").count() == 1
    described = page.locator("#chart-take_stock-desc").text_content() or ""
    assert described.startswith("Maxine's rating after 1 rated game: from 0.0 to ")
    assert "Rated games" in (chart.text_content() or "")
    # How Maxine compares with each level: only Easy is rated yet.
    compare = page.locator("#game-take_stock .compare li")
    assert compare.count() == 4
    assert page.inner_text("#game-take_stock .compare h3") == "How you compare with the bots"
    easy = compare.nth(0).inner_text()
    # Against a provisional rating the bot's figure stands alone.
    assert easy.startswith("Bot: Easy") and "you are" not in easy
    assert "not rated yet" in compare.nth(3).inner_text()
    # Nobody has a rating in Card Stock Market: nothing to compare with.
    assert "Not rated in this game yet" in page.inner_text("#game-card_stock_market")
    assert page.locator("#game-card_stock_market .compare").count() == 0
    assert "null" not in page.inner_text("main")
    # The game, with its result and a link to its replay.
    rows = page.locator("#games tbody tr")
    assert rows.count() == 1
    result = shown["results"][0]
    assert f"{result['rank'] + 1} of 2" in rows.nth(0).inner_text()
    assert "rated" in rows.nth(0).inner_text()
    assert_accessible(page, "the profile (en, desktop)")
    _no_overflow(page)
    _shot(page, "profile-en-desktop")
    page.click("#games tbody a")
    page.wait_for_url(f"**/t/{table}")

    # The leaderboard, from the lobby's link: Maxine and the easy bot, one game each.
    page.goto(site + "/")
    page.click("#leaderboard-link")
    page.wait_for_selector("#leaderboard-table tbody tr")
    names = page.locator("#leaderboard-table tbody th a").all_inner_texts()
    assert sorted(names) == ["Bot: Easy", "Maxine"]
    assert page.locator("#leaderboard-table tbody tr.bot-row").count() == 1
    assert page.get_attribute("#tab-take_stock", "aria-selected") == "true"
    assert_accessible(page, "the leaderboard (en, desktop)")
    _shot(page, "leaderboard-en-desktop")
    page.focus("#tab-take_stock")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#board-empty")
    assert page.get_attribute("#tab-card_stock_market", "aria-selected") == "true"
    assert page.url.endswith("/leaderboard?game=card_stock_market")
    page.click("#tab-take_stock")
    page.wait_for_selector("#leaderboard-table")
    page.click("#leaderboard-table a >> text=Maxine")
    page.wait_for_url("**/players/Maxine")
    context.close()


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "phone"), ("zh-Hant", "desktop"), ("zh-Hant", "phone")]
)
def test_the_profile_and_leaderboard_read_well(
    browser: Any, site: str, lang: str, size: str
) -> None:
    context = _context(browser, PHONE if size == "phone" else DESKTOP, lang)
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_selector("#create-table")
    name = f"Reader-{lang}-{size}"
    assert page.evaluate(SIGN_UP, [name, PASSWORD]) == 201
    # The game itself is played over the WebSocket: playing it through the page is the
    # test above's, and this one is about how the profile and the leaderboard read.
    table, token = page.evaluate(RATED_TABLE, 12)
    _off_loop(_play_seat, site, table, token, random.Random(6))
    short = "zh" if lang == "zh-Hant" else "en"
    page.goto(f"{site}/players/{name}")
    page.wait_for_selector("#chart-box-take_stock svg")
    assert page.locator("html").get_attribute("lang") == lang
    if lang == "zh-Hant":
        assert "等級分" in page.inner_text("#game-take_stock")
        assert page.inner_text("#game-take_stock .rating-value") == "暫定"
        assert "你與電腦玩家相比" in page.inner_text("#game-take_stock .compare h3")
    _no_overflow(page)
    assert_accessible(page, f"the profile ({lang}, {size})")
    _shot(page, f"profile-{short}-{size}")
    page.goto(site + "/leaderboard")
    page.wait_for_selector("#leaderboard-table tbody tr")
    _no_overflow(page)
    assert_accessible(page, f"the leaderboard ({lang}, {size})")
    _shot(page, f"leaderboard-{short}-{size}")
    # An unknown player is said in words, with a way on.
    page.goto(site + "/players/nobody-at-all")
    page.wait_for_selector("main .error")
    words = {"en": "No player has that name.", "zh-Hant": "沒有這個名稱的玩家。"}
    assert page.inner_text("main .error") == words[lang]
    context.close()


def test_the_finished_games_come_a_page_at_a_time(browser: Any, site: str) -> None:
    context = _context(browser, PHONE)
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_selector("#create-table")
    assert page.evaluate(SIGN_UP, ["Pager", PASSWORD]) == 201
    url = URL[site]
    [(user,)] = _off_loop(stored, url, "SELECT id FROM users WHERE username = 'Pager'")
    statements = []
    for i in range(25):  # 25 finished unrated games, one a day
        at = f"'2026-01-{i + 1:02d} 12:00:00.000000'"
        statements += [
            "INSERT INTO tables (id, game, options, seed, status, version, created_at, updated_at,"
            f" rules_version) VALUES ('old{i:02d}', 'take_stock', '{{}}', 1, 'finished', 0, {at},"
            f" {at}, 1)",
            "INSERT INTO results (table_id, seat, player, score, rank, finished_at) VALUES"
            f" ('old{i:02d}', 0, 'user:{user}', {i}, 0, {at})",
        ]
    _off_loop(run_sql, url, *statements)
    page.goto(site + "/players/Pager")
    page.wait_for_selector("#games-range")
    assert page.inner_text("#games-range") == "Games 1–20 of 25, newest first"
    assert page.is_disabled("#games-newer") and not page.is_disabled("#games-older")
    assert page.locator("#games tbody a").first.get_attribute("href") == "/t/old24"
    page.click("#games-older")
    _wait_until(page, "document.getElementById('games-range').textContent.startsWith('Games 21')")
    assert page.locator("#games tbody tr").count() == 5
    assert page.is_disabled("#games-older")
    page.click("#games-newer")
    _wait_until(page, "document.getElementById('games-range').textContent.startsWith('Games 1–')")
    _no_overflow(page)
    context.close()
