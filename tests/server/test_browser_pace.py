"""The pace of the bots' moves on the table page: each move shown at the pace the player
chose (fast, normal, slow; remembered), and a bot that thinks shown thinking, with its time.

The server here sends the bots' moves as fast as it can (``bot_delay`` 0): the page alone
spaces them.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import closingbell
from tests.server import test_browser
from tests.server.test_browser import (
    DESKTOP,
    PHONE,
    _act,
    _api,
    _context,
    _seat_in,
    _Server,
    _shot,
    _wait_until,
)

browser = test_browser.browser
"""Debian's Chromium (the fixture of test_browser.py)."""
_no_script_errors = test_browser._no_script_errors

THINKING = "(e => Boolean(e && !e.hidden))(document.getElementById('thinking'))"
YOUR_TURN = "document.body.classList.contains('your-turn')"
RECORD = """() => {
  window.shown = [];
  new MutationObserver(() => window.shown.push([performance.now(),
    Number(document.body.dataset.version), document.body.classList.contains("your-turn")]))
    .observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
}"""
"""Records when each version is shown (``window.shown``: time in ms, version, whether the
player then decides)."""


def _seated_page(context: Any, base: str, seats: list[str], seed: int) -> tuple[Any, str]:
    """A page of ``context`` seated in seat 0 of a new Take Stock table of ``seats``."""
    table = _api(base, "/api/tables", {"game": "take_stock", "seats": seats, "seed": seed})["table"]
    joined = _api(base, f"/api/tables/{table['id']}/join", {"name": "Ana", "seat": 0})
    _seat_in(context, table["id"], 0, joined["token"])
    page = context.new_page()
    page.goto(f"{base}/t/{table['id']}")
    return page, table["id"]


def _one_round_trip(page: Any, rng: random.Random) -> list[tuple[float, int]]:
    """Play the player's turn, then wait for their next one; when each version was shown from
    the player's last decision (its own state first) to their next turn."""
    _wait_until(page, YOUR_TURN)
    page.evaluate(RECORD)
    counts: Counter[str] = Counter()
    while page.evaluate(YOUR_TURN):
        _act(page, rng, counts)
    _wait_until(page, YOUR_TURN, limit=20)
    shown = page.evaluate("window.shown")
    last = next(i for i, (_, _, mine) in enumerate(shown) if not mine)
    return [(float(t), int(v)) for t, v, _ in shown[last:]]


def test_the_bots_moves_are_shown_at_the_chosen_pace(browser: Any, tmp_path: Path) -> None:
    rng = random.Random(4)
    with _Server(f"sqlite:///{tmp_path / 'pace.db'}", allow_seed=True) as base:
        context = _context(browser, DESKTOP, pace=None)
        page, _ = _seated_page(context, base, ["open", "medium", "medium"], seed=11)
        control = page.locator("#bot-pace")
        assert control.input_value() == "normal"  # the default
        shown = _one_round_trip(page, rng)
        versions = [v for _, v in shown]
        # Every move is shown, one version after another: none is skipped.
        assert versions == list(range(versions[0], versions[-1] + 1))
        bots = shown
        assert len(bots) >= 3, shown
        # The bots' first move waits half a second after the player's; the whole of their
        # two turns is shown within a turn's time (1.5 s) each.
        assert bots[1][0] - bots[0][0] >= 350  # (a busy machine draws the first late)
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(bots)]
        assert all(g > 0 for g in gaps)
        assert bots[-1][0] - bots[0][0] <= 2 * 1500 + 1000  # (a busy machine's own delays)
        # The choice is remembered in this browser.
        control.select_option("fast")
        assert page.evaluate("localStorage.getItem('closingbell.pace')") == "fast"
        page.reload()
        assert page.locator("#bot-pace").input_value() == "fast"
        quick = _one_round_trip(page, rng)
        # Fast: the moves come as the server sends them, here at once: closer together on
        # average than normal ever shows two moves of a turn (0.25 s), however busy the
        # machine.
        spread = (quick[-1][0] - quick[0][0]) / max(1, len(quick) - 1)
        assert spread < 250, quick
        context.close()


def _expert_first() -> int:
    """A seed whose two-player Take Stock deal has seat 1 decide first."""
    rules = closingbell.load_game("take_stock", players=2)
    return next(s for s in range(1, 100) if rules.new_game(s).current_player == 1)


def test_a_bot_that_thinks_is_shown_thinking_with_its_time(browser: Any, tmp_path: Path) -> None:
    # The expert has long decided; the server's pause before its move is a minute.
    slow = {"allow_seed": True, "bot_delay": 60, "bot_processes": 0}
    with _Server(f"sqlite:///{tmp_path / 'think.db'}", **slow) as base:
        context = _context(browser, DESKTOP)
        page, table_id = _seated_page(context, base, ["open", "expert"], seed=_expert_first())
        chip = page.locator("#thinking")
        _wait_until(page, THINKING)
        assert chip.inner_text().startswith("Thinking…")
        time.sleep(2.2)
        _wait_until(page, "/[2-9] s$/.test(document.getElementById('thinking').textContent)", 3)
        # A page opened later counts from when the bot began, as the server says.
        phone = _context(browser, PHONE, lang="zh-Hant")
        watcher = phone.new_page()
        watcher.goto(f"{base}/t/{table_id}")
        _wait_until(watcher, THINKING)
        text = watcher.locator("#thinking").inner_text()
        assert text.startswith("思考中") and int(text.split()[-2]) >= 2, text
        _shot(page, "thinking-en-desktop")
        _shot(watcher, "thinking-zh-phone")
        context.close()
        phone.close()
