"""The table as a player sees it: one screen a turn, readable in every state, nothing covered.

At the start of a player's turn the market, the player's hand and the decision lie inside the
window without scrolling, on a desktop (1366 × 768 and 1280 × 720) and a phone (390 × 844 and
360 × 740), where the dock at the bottom covers none of the market. Picking a card keeps the
player's area readable and the hand in view; a phone shows no floating preview over the
choices; every figure of the results shows at 360 pixels; a suit's card count is never
covered by its stack; Cancel comes after every other choice; a phone's header keeps to one
row and says what just happened.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import closingbell
from tests.server.a11y import assert_accessible
from tests.server.test_browser import (
    CHOICES,
    DESKTOP,
    PHONE,
    _api,
    _context,
    _seat_in,
    _wait_until,
    browser,
    quick,
)

__all__ = ["browser", "quick"]  # fixtures used here

SIZES = {
    "desktop": DESKTOP,
    "desktop-720": {"width": 1280, "height": 720},
    "phone": PHONE,
    "phone-360": {"width": 360, "height": 740},
}
"""The window sizes a turn must fit."""

SEATS = {
    "take_stock": ["open", "medium", "medium"],
    "card_stock_market": ["open", "medium", "medium", "medium"],
}
"""A usual table of each game: the player and bots."""

BOXES = """() => {
  const box = (sel) => {
    const e = document.querySelector(sel);
    if (!e || e.offsetParent === null) return null;
    const b = e.getBoundingClientRect();
    return { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
  };
  const buttons = [...document.querySelectorAll('#decision button')].map((b) => {
    const r = b.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  });
  return { market: box('.market'), hand: box('#mine .hand'), decision: box('#decision'),
           dock: box('#dock'), others: box('#others'), buttons,
           width: innerWidth, height: innerHeight, scrolled: scrollY };
}"""
"""Where the parts of a turn lie in the window."""


def seated(
    browser: Any, base: str, game: str, size: dict[str, int], lang: str = "en", **extra: Any
) -> tuple[Any, Any, str]:
    """A browser context seated at a new table of ``game`` (seat 0, seed 5), its page at the
    start of the player's first turn, and the table's id."""
    body = {"game": game, "seats": SEATS[game], "seed": 5, **extra}
    table = _api(base, "/api/tables", body)["table"]
    token = _api(base, f"/api/tables/{table['id']}/join", {"name": "Ana", "seat": 0})["token"]
    context = _context(browser, size, lang)
    _seat_in(context, table["id"], 0, token)
    page = context.new_page()
    page.goto(f"{base}/t/{table['id']}")
    _wait_until(page, f"document.querySelector({json.dumps(CHOICES)}) !== null")
    return context, page, table["id"]


def inside(box: dict[str, float], found: dict[str, Any], what: str) -> None:
    """``box`` lies within the window."""
    assert box is not None, f"{what} is not shown"
    assert box["top"] >= 0 and box["left"] >= 0, (what, box)
    assert box["bottom"] <= found["height"] + 0.5, (what, box, found["height"])
    assert box["right"] <= found["width"] + 0.5, (what, box, found["width"])


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(SEATS))
def test_a_turn_fits_on_one_screen(browser: Any, quick: str, game: str, size: str) -> None:
    context, page, _ = seated(browser, quick, game, SIZES[size])
    try:
        found = page.evaluate(BOXES)
        assert found["scrolled"] == 0
        inside(found["market"], found, "the market")
        inside(found["hand"], found, "the hand")
        for button in found["buttons"]:
            inside(button, found, "a choice's button")
        if size.startswith("phone"):
            inside(found["decision"], found, "the decision")  # in the dock, with the hand
        if size == "phone":
            # The dock covers none of the market (on a smaller phone the market scrolls).
            assert found["market"]["bottom"] <= found["dock"]["top"] + 0.5, found
        if size.startswith("desktop"):
            inside(found["others"], found, "the other players")
    finally:
        context.close()


CONTRAST = """(root) => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const back = parse(getComputedStyle(root).backgroundColor);
  const out = { alpha: back.length > 3 ? back[3] : 1, worst: 99, text: '' };
  for (const e of root.querySelectorAll('*')) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || e.offsetParent === null || e.closest('.card')) continue;
    let node = e, bg = null;
    while (node && node !== root.parentElement) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c.length === 3 || (c.length > 3 && c[3] === 1)) { bg = c; break; }
      node = node.parentElement;
    }
    const fg = parse(getComputedStyle(e).color);
    const [a, b] = [lum(fg), lum(bg.slice(0, 3))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < out.worst) { out.worst = ratio; out.text = e.textContent.trim(); }
  }
  return out;
}"""
"""The background of ``root`` (its alpha) and the lowest contrast of its words against the
opaque background under each of them."""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_picked_card_leaves_your_area_readable_and_your_hand_in_view(
    browser: Any, quick: str, size: str
) -> None:
    context, page, _ = seated(browser, quick, "take_stock", SIZES[size])
    try:
        card = page.locator("#mine .hand .playable:not([disabled])").first
        card.focus()  # what a hover or a keyboard does: the places it may go are marked
        page.wait_for_selector("#mine .seat-area.previewed")
        found = page.locator("#mine .seat-area").evaluate(CONTRAST)
        assert found["alpha"] == 1, found  # opaque: the felt does not show through
        assert found["worst"] >= 4.5, found
        card.click()
        page.wait_for_selector("#decision .menu")
        found = page.evaluate(BOXES)
        inside(found["hand"], found, "the hand")
        for button in found["buttons"]:
            inside(button, found, "a choice's button")
        assert_accessible(page, f"a card picked ({size})")
    finally:
        context.close()


def test_a_tap_on_a_phone_floats_nothing_over_the_choices(browser: Any, quick: str) -> None:
    context, page, _ = seated(browser, quick, "take_stock", PHONE)
    try:
        card = page.locator("#mine .hand .playable:not([disabled])").first
        card.click()
        page.wait_for_selector("#decision .menu")
        assert page.locator("#preview").is_hidden()
        version = int(page.evaluate("document.body.dataset.version"))
        page.locator("#decision .menu-choice").first.click()
        _wait_until(page, f"Number(document.body.dataset.version) > {version}")
        assert page.locator("#preview").is_hidden()  # nothing left floating after the choice
    finally:
        context.close()


def test_a_phone_says_what_just_happened_and_asks_once(browser: Any, quick: str) -> None:
    context, page, _ = seated(browser, quick, "take_stock", PHONE)
    try:
        last = page.locator("#log li").last.inner_text()
        recent = page.locator("#recent")
        assert recent.is_visible() and last in recent.inner_text()
        # On the player's turn the dock asks the question; the banner does not say it again.
        assert page.locator("#dock #decision .decision-prompt").is_visible()
        assert page.locator("#banner .status-detail").is_hidden()
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_a_phones_header_keeps_to_one_row(browser: Any, quick: str, width: int) -> None:
    context, page, _ = seated(browser, quick, "take_stock", {"width": width, "height": 740})
    try:
        signed_in = context.request.post(
            f"{quick}/api/account/signup",
            data={"username": f"headerrow{width}x", "password": "a good long password"},
        )
        assert signed_in.status == 201, signed_in.text()
        for _ in range(2):  # a guest, then signed in
            header = page.locator("header.top").bounding_box()
            brand = page.locator("header.top .brand").bounding_box()
            assert header is not None and brand is not None
            assert header["height"] <= brand["height"] + 24, header
            assert header["width"] <= width
            page.reload()
            _wait_until(page, f"document.querySelector({json.dumps(CHOICES)}) !== null")
        assert page.locator("#my-games-link").is_visible()
        page.click("#settings summary")  # sound, movement and the language behind one button
        assert page.locator("#sound-toggle").is_visible() and page.locator("#lang").is_visible()
    finally:
        context.close()


def test_cancel_comes_after_every_other_choice(browser: Any, quick: str) -> None:
    context, page, _ = seated(browser, quick, "card_stock_market", DESKTOP)
    try:
        page.locator("#mine .hand .playable:not([disabled])").first.click()
        page.wait_for_selector("#decision .menu")
        order = page.locator("#decision button").evaluate_all("(bs) => bs.map((b) => b.className)")
        assert "cancel" in order[-1], order
        assert sum("cancel" in c for c in order) == 1
        assert any("button-choice" in c for c in order[:-1])  # End your turn comes before it
    finally:
        context.close()


def _finished(base: str, game: str, options: dict[str, Any]) -> str:
    """A table of random bots played to the end; its id."""
    table = _api(
        base,
        "/api/tables",
        {
            "game": game,
            "seats": ["random"] * (5 if game == "take_stock" else 6),
            "options": options,
        },
    )["table"]
    deadline = time.monotonic() + 120
    while _api(base, f"/api/tables/{table['id']}")["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return str(table["id"])


FIGURES = """() => [...document.querySelectorAll(SELECTOR)]
  .filter((e) => e.offsetParent !== null)
  .map((e) => {
    const b = e.getBoundingClientRect();
    return [e.textContent.trim(), b.left, b.right];
  })"""


@pytest.mark.parametrize(("game", "lang"), [("take_stock", "zh-Hant"), ("card_stock_market", "en")])
def test_every_figure_of_the_results_shows_at_360_pixels(
    browser: Any, quick: str, game: str, lang: str
) -> None:
    table_id = _finished(quick, game, {})
    context = _context(browser, {"width": 360, "height": 740}, lang)
    try:
        page = context.new_page()
        page.goto(f"{quick}/t/{table_id}")
        page.wait_for_selector("#overlay[open] #final")
        selector = json.dumps("#final .results td, #final .results tbody th")
        cells = page.evaluate(FIGURES.replace("SELECTOR", selector))
        assert cells
        width = page.evaluate("innerWidth")
        hidden = [c for c in cells if c[1] < 0 or c[2] > width]
        assert hidden == [], hidden[:5]
        scrolls = page.evaluate(
            "[...document.querySelectorAll('#final .scroll-x')]"
            ".filter((e) => e.scrollWidth > e.clientWidth + 1).length"
        )
        assert scrolls == 0
        if game == "take_stock":
            page.click("#overlay-close")
            page.click("#side-panel summary")
            page.click("#tab-rounds")
            selector = json.dumps("#rounds .results td")
            cells = page.evaluate(FIGURES.replace("SELECTOR", selector))
            assert len(cells) >= 4 * 5 * 2  # four rounds, five stocks, the players
            assert [c for c in cells if c[1] < 0 or c[2] > width] == []
    finally:
        context.close()


def _tall_pile_position() -> str:
    """A two-player Card Stock Market position with a suit's pile of 7 cards or more, seat 0
    to decide."""
    rules = closingbell.load_game("card_stock_market", players=2)
    for seed in range(200):
        state = rules.new_game(seed)
        rng = random.Random(seed)
        while state.current_player is not None and len(state.history) < 400:
            if state.current_player == 0 and max(len(s.pile) for s in state.view(0).suits) >= 7:
                return str(state.to_position())
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no deal grew a pile of 7 cards")


def test_a_suits_card_count_is_never_covered_by_its_stack(browser: Any, quick: str) -> None:
    table = _api(
        quick,
        "/api/tables",
        {
            "game": "card_stock_market",
            "seats": ["open", "medium"],
            "position": _tall_pile_position(),
        },
    )["table"]
    token = _api(quick, f"/api/tables/{table['id']}/join", {"name": "Ana"})["token"]
    for size in (DESKTOP, PHONE):
        context = _context(browser, size)
        _seat_in(context, table["id"], 0, token)
        try:
            page = context.new_page()
            page.goto(f"{quick}/t/{table['id']}")
            page.wait_for_selector(".suit-pile .stack")
            piles = page.evaluate(
                """() => [...document.querySelectorAll('.suit-pile')].map((p) => {
                  const depth = p.querySelector('.depth');
                  const d = Number(depth.style.getPropertyValue('--depth'));
                  const stack = depth.getBoundingClientRect();
                  const label = p.querySelector('.pile-label').getBoundingClientRect();
                  return { d, shadow: stack.bottom + 2 * d, label: label.top };
                })"""
            )
            assert max(p["d"] for p in piles) >= 6
            assert all(p["label"] >= p["shadow"] for p in piles), piles
        finally:
            context.close()


def test_my_games_shows_when_each_game_was_played_how_it_ended_and_if_it_was_rated(
    browser: Any, quick: str
) -> None:
    """The page drawn from an answer of ``GET /api/my/games`` (docs/protocol.md)."""
    seats = [
        {"seat": 0, "kind": "human", "name": "ana", "connected": False, "account": True},
        {"seat": 1, "kind": "bot", "name": "hard", "connected": True, "account": False},
    ]
    table = {
        "id": "t1",
        "game": "card_stock_market",
        "title": "Card Stock Market",
        "players": 2,
        "options": {},
        "clock": None,
        "status": "finished",
        "version": 90,
        "seats": seats,
        "rated": True,
    }
    ended = 1_780_000_000.0
    games = [
        {
            "table": table,
            "seat": 0,
            "your_turn": False,
            "invited": False,
            "to_move": None,
            "deadline": None,
            "time_left": None,
            "updated": ended,
            "result": {"place": 1, "players": 2, "score": 412, "won": True},
        },
        {
            "table": {**table, "id": "t2", "rated": False},
            "seat": 0,
            "your_turn": False,
            "invited": False,
            "to_move": None,
            "deadline": None,
            "time_left": None,
            "updated": ended - 86400,
            "result": {"place": 2, "players": 2, "score": 150, "won": False},
        },
    ]
    answer = json.dumps({"games": games, "waiting": 0, "invitations": 0})
    for lang, size in (("en", DESKTOP), ("zh-Hant", PHONE)):
        context = _context(browser, size, lang)
        try:
            page = context.new_page()
            page.route(
                "**/api/my/games",
                lambda route: route.fulfill(
                    status=200, content_type="application/json", body=answer
                ),
            )
            page.goto(quick + "/my")
            page.wait_for_selector("#finished [data-table='t1']")
            won = page.inner_text("#finished [data-table='t1']")
            lost = page.inner_text("#finished [data-table='t2']")
            if lang == "en":
                assert "Won with $412" in won and "rated" in won
                assert "Place 2 of 2, $150" in lost and "rated" not in lost
                assert page.inner_text("#back-to-lobby") == "Back to the lobby"
            else:
                assert "以 $412 獲勝" in won and "計分" in won
                assert "第 2 名（共 2 人），$150" in lost  # noqa: RUF001
            stamp = page.get_attribute("#finished [data-table='t1'] time", "datetime")
            assert stamp is not None and stamp.startswith("2026-05-28")
            assert page.get_attribute("#back-to-lobby", "href") == "/"
            assert_accessible(page, f"My games with finished games ({lang})")
        finally:
            context.close()
