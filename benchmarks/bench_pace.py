"""How long a player waits for the bots: from their last decision to their next turn.

Usage::

    python benchmarks/bench_pace.py [--turns 30] [--bots medium] [--players 3]
                                    [--paces fast,normal,slow] [--old]

Starts the web server (in a thread, on a temporary SQLite file, the default
:class:`~closingbell.server.settings.Settings`: the bots' pace of a real server) and, for each
game, seats a player at a table with bots in the other seats (``--players`` in all) and
plays ``--turns`` of their turns in Debian's Chromium (``/usr/bin/chromium``, headless,
through Playwright) at each page pace: the page shows the state, the benchmark clicks one
of the choices at once, as a player who never hesitates.
The wait is timed in the page, from the state that follows the player's last decision of a
turn being drawn to the page saying it is their turn again: what the player waits. ``--old``
also measures the server's pace before the pace per turn (a 0.6 s pause before every bot
decision), shown at once (``fast``). Prints the median, 90th percentile and slowest wait,
and the bots' decisions a turn. A benchmark: the figures are printed, never compared with a
threshold. ``--bots expert --players 4`` measures what a person waits for three expert bots,
each given its time budget for every decision: the bots' decisions a turn times that budget
is the least the wait can be.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from closingbell.server.app import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]
CHOICES = "#table-col .playable:not([disabled]), #decision .button-choice:not([disabled])"
OLD = {"bot_delay": 0.6, "bot_step_delay": 0.6, "bot_turn": 3600.0}
"""The server's pace before: the same pause before every decision of a bot."""
RECORD = """() => {
  window.shown = [];
  new MutationObserver(() => window.shown.push([performance.now(),
    document.body.classList.contains("your-turn"), Number(document.body.dataset.version)]))
    .observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
}"""
"""Records, in the page, when each state is drawn and whether the player then decides."""


class Server:
    """The app served by uvicorn in a thread on a free port."""

    def __init__(self, url: str, **settings: Any) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        settings.setdefault("allow_seed", True)
        config = uvicorn.Config(
            create_app(url, **settings), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def post(base: str, path: str, body: Any) -> Any:
    """A POST with a JSON body; the JSON answer."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def click_a_choice(page: Any, rng: random.Random) -> None:
    """Close a round's results, or click one of the player's choices (and its menu's)."""
    if page.locator("#overlay[open]").count():
        page.click("#overlay-close")
        return
    choices = page.locator(CHOICES)
    if not choices.count():
        return
    try:
        choices.nth(rng.randrange(choices.count())).click(timeout=3000)
        menu = page.locator("#decision .menu-choice:not([disabled])")
        if menu.count():
            menu.nth(rng.randrange(menu.count())).click(timeout=3000)
    except PlaywrightError:
        pass  # the table moved on meanwhile


def measure(
    browser: Any, base: str, game: str, *, bots: str, players: int, pace: str, turns: int
) -> list[tuple[float, int]]:
    """Each of ``turns`` waits of a player at a table with bots in every other seat.

    A wait is the seconds from the player's last decision of a turn to their next turn,
    and the bots' decisions meanwhile.
    """
    seats = ["open"] + [bots] * (players - 1)
    table = post(base, "/api/tables", {"game": game, "seats": seats, "seed": 7})
    joined = post(base, f"/api/tables/{table['table']['id']}/join", {"name": "Ana", "seat": 0})
    context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion="reduce")
    seat = json.dumps({"seat": 0, "token": joined["token"]})
    context.add_init_script(
        f"localStorage.setItem('closingbell.seat.{table['table']['id']}', {json.dumps(seat)});"
        f"localStorage.setItem('closingbell.pace', {json.dumps(pace)});"
    )
    page = context.new_page()
    page.goto(f"{base}/t/{table['table']['id']}")
    rng = random.Random(1)
    page.wait_for_selector("body.your-turn", timeout=30000)
    page.evaluate(RECORD)
    waits: list[tuple[float, int]] = []
    deadline = time.monotonic() + 60 * turns
    while len(waits) < turns and time.monotonic() < deadline:
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        if page.evaluate("document.body.classList.contains('your-turn')"):
            click_a_choice(page, rng)
            continue
        page.wait_for_timeout(20)
        waits = turns_waited(page.evaluate("window.shown"))
    context.close()
    return waits[:turns]


def turns_waited(shown: list[list[Any]]) -> list[tuple[float, int]]:
    """From the page's record: each turn's wait (seconds, from the player's last decision to
    the next turn) and the bots' decisions in it (the versions drawn between)."""
    waits = []
    began = None
    for when, mine, version in shown:
        if not mine and began is None:
            began, first = when, version
        elif mine and began is not None:
            waits.append(((when - began) / 1000, version - first))
            began = None
    return waits


def report(label: str, waits: list[tuple[float, int]]) -> None:
    """Print one line of figures."""
    if not waits:
        print(f"{label:<48} no turn measured")
        return
    seconds = sorted(wait for wait, _ in waits)
    p90 = seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]
    decisions = sum(count for _, count in waits)
    print(
        f"{label:<48} turns {len(waits):3d}  median {statistics.median(seconds):5.2f} s"
        f"  p90 {p90:5.2f} s  slowest {max(seconds):5.2f} s"
        f"  bot decisions {decisions / len(waits):4.1f} a turn,"
        f" {sum(seconds) / max(1, decisions):5.2f} s each"
    )


def main() -> None:
    """Measure and print the waits."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--bots", default="medium")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--paces", default="fast,normal,slow")
    parser.add_argument(
        "--old", action="store_true", help="also the pace before (0.6 s a decision)"
    )
    args = parser.parse_args()
    runs: list[tuple[str, dict[str, Any], str]] = [
        ("server now", {}, pace) for pace in args.paces.split(",")
    ]
    if args.old:
        runs.insert(0, ("server before", OLD, "fast"))
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for label, settings, pace in runs:
            name = f"{label.replace(' ', '-')}-{pace}.db"
            url = f"sqlite:///{Path(folder) / name}"
            with Server(url, **settings) as base:
                for game in ("take_stock", "card_stock_market"):
                    waits = measure(
                        browser,
                        base,
                        game,
                        bots=args.bots,
                        players=args.players,
                        pace=pace,
                        turns=args.turns,
                    )
                    report(f"{game}, {label}, page {pace}", waits)
        browser.close()


if __name__ == "__main__":
    main()
