"""The browser page, driven through Debian's Chromium with Playwright against a real server.

Never ``playwright install``: the tests launch ``/usr/bin/chromium`` (``scripts/test.sh``
installs it). Players play as people do: they click (or tap) a highlighted card, row or pile,
then what to do with it when the page asks, or a button for a choice that is not a card.

Whole games run on fresh servers, spread over desktop (1366 × 768) and phone (390 × 844)
sizes and both languages, each on one database, SQLite or PostgreSQL in turn; the smaller
checks share one SQLite server. The suite
writes screenshots of the screens it visits to ``build/screenshots/``, or to the folder named
by ``CLOSINGBELL_SCREENSHOTS``: ``CLOSINGBELL_SCREENSHOTS=docs/screenshots`` refreshes the
pictures that docs/web.md shows (the games are random, so every run draws them anew).
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright
from websockets.sync.client import connect
from websockets.typing import Origin

import closingbell
from closingbell.server.app import create_app
from tests.server.a11y import assert_accessible
from tests.server.helpers import CHEAP_HASHING, client_for, create, database, run_sql

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / os.environ.get("CLOSINGBELL_SCREENSHOTS", "build/screenshots")
"""Where the screens visited are pictured (a relative path is taken from the checkout)."""
CHOICES = "#table-col .playable:not([disabled]), #decision .button-choice:not([disabled])"
"""What a player may click when it is their turn: cards, rows and piles, and buttons."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


FAST_PLAYERS = {"rate": 40.0, "burst": 60.0}
"""The message rate of the tests' servers: their players choose as fast as the page lets them,
faster than the 10 messages a second a person is allowed (a test below keeps that rate)."""


class _Server:
    """A uvicorn server in a thread on a free port; passwords hashed cheaply and players
    allowed to choose quickly, unless told."""

    def __init__(self, url: str, **settings: Any) -> None:
        self.port = _free_port()
        settings = {"bot_delay": 0, **CHEAP_HASHING, **FAST_PLAYERS, **settings}
        config = uvicorn.Config(
            create_app(url, **settings), host="127.0.0.1", port=self.port, log_level="warning"
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


def _off_loop(work: Any, *args: Any) -> Any:
    """``work(*args)`` in another thread: Playwright's sync API runs an event loop in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work, *args).result()


@contextmanager
def _served(kind: str, tmp_path: Path, **settings: Any) -> Iterator[str]:
    """A server on a fresh database of ``kind``; its address.

    The database is made and dropped in another thread: Playwright's sync API keeps an
    event loop running in this one, and the PostgreSQL helper runs its own.
    """
    made = database(kind, tmp_path)
    url = _off_loop(made.__enter__)
    try:
        with _Server(url, **settings) as base:
            yield base
    finally:
        _off_loop(made.__exit__, None, None, None)


KINDS: dict[str, str] = {}
"""The database kind of each server's address."""


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A server on a fresh database of the kind a test names with ``on``."""
    with _served(request.param, tmp_path) as base:
        KINDS[base] = request.param
        yield base


def on(*kinds: str) -> pytest.MarkDecorator:
    """Run a test with the ``server`` fixture on each database of ``kinds``.

    The page shows the same on either database (the storage tests prove both keep the
    same), so each browser test runs on one, and the tests alternate so that both serve
    pages; a test whose cases differ in more than the database runs on both.
    """
    return pytest.mark.parametrize("server", kinds, indirect=True)


def _on_sqlite(base: str) -> bool:
    """Whether ``base`` keeps its games in SQLite."""
    return KINDS.get(base) == "sqlite"


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One SQLite server for the smaller checks; tables may be given seeds."""
    path = tmp_path_factory.mktemp("quick") / "quick.db"
    with _Server(f"sqlite:///{path}", allow_seed=True) as base:
        yield base


# ---------------------------------------------------------------------- helpers


def _api(base: str, path: str, body: Any = None) -> Any:
    """An HTTP request to the server (GET, or POST with a JSON body); the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


PAGE_ERRORS: list[str] = []
"""Uncaught errors of the page's scripts in the current test (see ``_context``)."""


@pytest.fixture(autouse=True)
def _no_script_errors() -> Iterator[None]:
    """Every browser test also checks that the page's scripts raised nothing."""
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == []


def _context(
    browser: Any,
    size: dict[str, int],
    lang: str = "en",
    motion: bool = False,
    pace: str | None = "fast",
) -> Any:
    """A browser context of ``size`` in ``lang``, with movement off unless ``motion``, the bots'
    moves shown at ``pace`` (fast: as they come; ``None``: as the page remembers); its
    pages' uncaught errors go to ``PAGE_ERRORS``."""
    context = browser.new_context(
        viewport=size, reduced_motion="no-preference" if motion else "reduce"
    )
    _store(context, "closingbell.lang", lang)
    if pace is not None:
        _store(context, "closingbell.pace", pace)
    context.on("weberror", lambda e: PAGE_ERRORS.append(str(e.error)))
    return context


def _store(context: Any, key: str, value: str) -> None:
    """Put ``key`` in the ``localStorage`` of every page of ``context`` before it runs (not in
    documents without storage, such as a download's)."""
    context.add_init_script(
        f"try {{ localStorage.setItem({json.dumps(key)}, {json.dumps(value)}); }} catch {{}}"
    )


def _seat_in(context: Any, table: str, seat: int, token: str) -> None:
    """Give ``context`` a seat joined through the API (as the page keeps it)."""
    _store(context, f"closingbell.seat.{table}", json.dumps({"seat": seat, "token": token}))


def _seated(seat: int | str) -> str:
    """A page's condition: it sits in ``seat`` (``"spectator"``: it watches) and has drawn the
    table. The seat comes with the welcome; the drawing waits for the state after it."""
    return f"document.body.dataset.seat === '{seat}' && document.body.dataset.version !== undefined"


def _wait_until(page: Any, expression: str, limit: float = 30) -> None:
    """Wait until ``expression`` (its value, once a promise's is there) is true in ``page``.

    The page itself looks every 15 ms, so that waiting costs no round trip to the browser
    at each look. Playwright's ``wait_for_function`` would evaluate the predicate with
    ``eval`` in the page, which the page's Content-Security-Policy forbids; the function
    ``evaluate`` sends is not subject to it. A page that loads another document meanwhile
    is asked again.
    """
    looks = (
        "async (limit) => { const end = performance.now() + limit;"
        f" while (!(await ({expression}))) {{"
        " if (performance.now() > end) return false;"
        " await new Promise((done) => setTimeout(done, 15)); }"
        " return true; }"
    )
    deadline = time.monotonic() + limit
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"never true: {expression}"
        try:
            if page.evaluate(looks, left * 1000):
                return
        except PlaywrightError as exc:
            if "context was destroyed" not in str(exc):
                raise
            page.wait_for_timeout(15)


def _where(page: Any) -> dict[str, Any]:
    """Where a page stands, for a failure's message: its seat, the table's status and
    version, whose turn it is, and its status line."""
    return page.evaluate(  # type: ignore[no-any-return]
        "({...document.body.dataset, yours: document.body.classList.contains('your-turn'),"
        " status_line: (document.getElementById('status') || {}).innerText})"
    )


def _status(page: Any) -> str | None:
    return page.evaluate("document.body.dataset.status || null")  # type: ignore[no-any-return]


def _version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version || '0'"))


def _shot(page: Any, name: str) -> None:
    """Keep a screenshot of the whole of what ``page`` shows now, for docs/web.md.

    The bars that stay in view as one scrolls are drawn where they rest, not over the table.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pinned = "['turn', 'dock', 'side'].map(id => document.getElementById(id)).filter(Boolean)"
    page.evaluate(f"{pinned}.forEach(e => {{ e.style.position = 'static'; }})")
    page.evaluate("window.scrollTo(0, 0)")
    full = page.locator("#overlay[open]").count() == 0
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full)
    page.evaluate(f"{pinned}.forEach(e => {{ e.style.position = ''; }})")


def _create_in_lobby(
    page: Any,
    base: str,
    game: str,
    seats: list[str],
    name: str | None = None,
    **options: Any,
) -> str:
    """Create a table through the lobby form (seat kinds: you, open, a bot level); its URL."""
    page.goto(base + "/")
    page.wait_for_selector("#create-table")
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    if name is not None:
        page.fill("#creator-name", name)
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    if options:
        page.click("#options summary")
        for option, value in options.items():
            page.fill(f"#opt-{option}", str(value))
    page.click("#create-table")
    page.wait_for_url("**/t/*")
    return str(page.url)


def _join(page: Any, url: str, name: str) -> None:
    """Join the first open seat through the table page's form."""
    if page.url != url:
        page.goto(url)
    page.fill("#name", name)
    page.click("#join-button")
    _wait_until(
        page,
        "document.body.dataset.seat !== undefined && document.body.dataset.seat !== 'spectator'",
    )


AIM = """([selector, pick]) => {
  // The pick-th of what ``selector`` finds, brought into the middle of the screen as a
  // thumb does on a phone; where a pointer would press it, and whether it would press
  // that very element there (nothing drawn over it), as Playwright's click checks.
  const found = [...document.querySelectorAll(selector)];
  if (!found.length) return null;
  const target = found[Math.floor(pick * found.length)];
  target.scrollIntoView({ block: "center", inline: "center" });
  const box = target.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  const kind = target.classList.contains("row-head") ? "row"
    : target.classList.contains("button-choice") ? "button" : "card";
  const onTop = box.width > 0 && box.height > 0 && !!hit && target.contains(hit);
  return { x, y, kind, onTop, index: found.indexOf(target) };
}"""
"""Aim at one of what a selector finds (see ``_press``)."""


def _press(page: Any, selector: str, rng: random.Random) -> str | None:
    """Press one of what ``selector`` finds on ``page``, chosen by ``rng``, as a pointer does;
    its kind (card, row or button), or None when there is nothing to press.

    One script in the page aims (scrolls it into the middle and checks that nothing covers
    it), then the mouse presses where it is drawn. Should something cover it, Playwright's
    own click waits for it to be pressable.
    """
    return _press_aimed(page, selector, page.evaluate(AIM, [selector, rng.random()]))


def _press_aimed(page: Any, selector: str, aim: dict[str, Any] | None) -> str | None:
    """Press what ``AIM`` aimed at among what ``selector`` finds (see ``_press``)."""
    if aim is None:
        return None
    if aim["onTop"]:
        page.mouse.click(aim["x"], aim["y"])
    else:
        page.locator(selector).nth(aim["index"]).click(timeout=5000)
    return str(aim["kind"])


STEP = f"""([selector, pick]) => {{
  // A player's next step in one look: close a round's results, or aim at a choice.
  if (document.querySelector("#overlay[open] #round-results")) return {{ close: true }};
  return ({AIM})([selector, pick]);
}}"""
"""What ``_act`` does next on a page (see ``AIM``)."""


def _act(page: Any, rng: random.Random, counts: Counter[str]) -> bool:
    """Make one choice on ``page`` as a player does, if it has one; whether it did.

    A round's results are closed first. Then a card, row or pile, or a button, is clicked;
    when the page then asks what to do with the card, one of its answers is clicked.
    """
    try:
        step = page.evaluate(STEP, [CHOICES, rng.random()])
        if step is not None and step.get("close"):
            page.click("#overlay-close")
            counts["round results closed"] += 1
            return True
        kind = _press_aimed(page, CHOICES, step)
        if kind is None:
            return False
        if _press(page, "#decision .menu-choice:not([disabled])", rng):
            counts["menu"] += 1
    except PlaywrightError:
        return False  # the table moved on meanwhile (a bot, a round's end): look again
    counts[kind] += 1
    return True


def _play(
    pages: list[Any], until: Any, rng: random.Random, limit: float = 240, every: Any = None
) -> Counter[str]:
    """Let every page make its choices until ``until()``; what was clicked, by kind."""
    counts: Counter[str] = Counter()
    deadline = time.monotonic() + limit
    while not until():
        if time.monotonic() >= deadline:
            where = [_where(page) for page in pages]
            raise AssertionError(f"the game did not get there in time: {counts}; pages: {where}")
        moved = False
        for page in pages:
            if _act(page, rng, counts):
                moved = True
                if every is not None:
                    every(counts)
        if not moved:
            pages[0].wait_for_timeout(20)
    return counts


def _play_seat(
    site: str,
    table: str,
    token: str,
    rng: random.Random,
    *,
    api_token: str | None = None,
    say: str | None = None,
    cookie: str | None = None,
) -> None:
    """Play the seat of ``token`` at ``table`` to the game's end over the WebSocket, as the
    page would: each decision one of its legal actions, chosen by ``rng``.

    With ``api_token``, the seat of that bot account's instead (``token`` unused), as a
    program outside would play it; with ``cookie`` (a session's ``Cookie`` header), the
    seat of that signed-in account's; ``say`` is written in the chat first.
    For a test whose subject is what the page shows once the game is over, not the playing.
    Run it off Playwright's thread (``_off_loop``).
    """
    address = site.replace("http://", "ws://") + f"/ws/tables/{table}"
    if cookie is not None:
        opened = connect(
            address, origin=Origin(site), additional_headers={"Cookie": cookie}, open_timeout=10
        )
        hello: dict[str, Any] = {"type": "hello", "account": True}
    elif api_token is None:
        opened = connect(address, origin=Origin(site), open_timeout=10)
        hello = {"type": "hello", "token": token}
    else:
        headers = {"Authorization": f"Bearer {api_token}"}
        opened = connect(address, additional_headers=headers, open_timeout=10)
        hello = {"type": "hello", "account": True}
    with opened as ws:

        def choose(state: dict[str, Any]) -> None:
            if state["current_player"] == state["seat"] and state["legal"]:
                choice = rng.choice(state["legal"])["id"]
                ws.send(
                    json.dumps({"type": "action", "version": state["version"], "action": choice})
                )

        ws.send(json.dumps(hello))
        if say is not None:
            ws.send(json.dumps({"type": "chat", "text": say}))
        last = None
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "error" and last:
                # An action refused (the rate of messages, say): as the page does, wait out
                # the server's refusal window, then choose again on the latest state.
                time.sleep(1.1)
                choose(last)
            elif message["type"] == "state":
                if message["status"] == "finished":
                    return
                last = message
                choose(message)


def _no_overflow(page: Any) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


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

ENGLISH_WORDS = re.compile(r"[A-Za-z]{3,}")
NAMES = {"Ana", "Maximiliana", "Ostrowska", "Lee"}
"""Players' names the tests choose (a name is the player's, in any language)."""
VISIBLE_TEXT = """() => {
  const out = [document.title, document.body.innerText];
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (!e.checkVisibility()) continue;
    out.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '',
             e.getAttribute('placeholder') || '');
  }
  return out.join('\\n');
}"""


def _english_left(page: Any, allowed: set[str]) -> set[str]:
    """English words a reader of the Chinese page would see (or hear), beyond ``allowed``."""
    text = page.evaluate(VISIBLE_TEXT)
    return {w for w in ENGLISH_WORDS.findall(text) if w not in allowed}


CJK_RENDERS = """() => {
  // Draw Chinese and a character no font has: without a CJK font both are the same box.
  const draw = (text) => {
    const c = document.createElement('canvas');
    c.width = 120; c.height = 40;
    const g = c.getContext('2d');
    g.font = '28px ' + getComputedStyle(document.body).fontFamily;
    g.fillText(text, 2, 30);
    return Array.from(g.getImageData(0, 0, 120, 40).data).join(',');
  };
  return draw('股票') !== draw('\\u{10FFFD}\\u{10FFFD}') && draw('股') !== draw('票');
}"""


def _check_final_screen(page: Any, players: int) -> None:
    """The final screen: winners, a breakdown row per player, the record link, a replay."""
    page.wait_for_selector("#overlay[open] #final")
    assert page.locator("#final .winners").inner_text().strip()
    assert page.locator("#final-by-stock tbody tr").count() == players
    assert page.locator("#final-by-stock tr.winner").count() >= 1
    table_id = page.url.rstrip("/").split("/")[-1]
    href = page.get_attribute("#record-overlay", "href")
    assert href == f"/api/tables/{table_id}/record.cbrec"
    assert page.locator("#decision:not([hidden])").count() == 0


def _check_replay(page: Any) -> None:
    """The replay steps through the game with named controls, one board, unique ids."""
    if page.locator("#overlay[open]").count():
        page.click("#overlay-close")
    page.click("#replay-side")
    page.wait_for_selector("#replay-slider")
    for control in ("replay-first", "replay-prev", "replay-play", "replay-next", "replay-last"):
        assert page.get_attribute(f"#{control}", "aria-label"), control
    assert page.get_attribute("#replay-slider", "aria-label")
    assert page.inner_text("#replay-step").startswith(("Step 0", "第 0"))
    page.click("#replay-next")
    page.click("#replay-next")
    assert page.locator(".market").count() == 1
    assert page.locator("#replay-log li").count() >= 1
    assert page.locator("#mine .seat-area").count() == 0  # the public view: no hand
    duplicates = page.evaluate(
        "() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
        " return ids.filter((id, i) => ids.indexOf(id) !== i); }"
    )
    assert duplicates == []
    page.click("#replay-last")


def _end_of_game(page: Any, players: int, shots: str | None) -> None:
    """Check the final screen and the replay; keep screenshots of both when ``shots`` names
    them ("take-stock-{}-en-desktop": "final", then "replay", go in its braces)."""
    _check_final_screen(page, players)
    _no_overflow(page)
    if shots:
        _shot(page, shots.format("final"))
    _check_replay(page)
    _no_overflow(page)
    if shots:
        _shot(page, shots.format("replay"))


# ---------------------------------------------------------------------- whole games


@on("sqlite")
def test_take_stock_whole_game_on_a_desktop_in_english(browser: Any, server: str) -> None:
    """Two people and a bot: created in the lobby, joined, played to the end by clicking,
    a round's results, the final screen, the replay and "Play again"."""
    one, two = _context(browser, DESKTOP), _context(browser, DESKTOP)
    blocked: list[str] = []
    _watch_csp(one, blocked)
    _watch_csp(two, blocked)
    try:
        ana, bo = one.new_page(), two.new_page()
        url = _create_in_lobby(
            ana, server, "take_stock", ["you", "open", "easy"], name="<b>Ana</b>", rounds=2
        )
        ana.goto(server + "/")
        ana.wait_for_selector("#tables li")
        _shot(ana, "lobby-en-desktop")
        ana.goto(url)
        # The creator is seated: no join form, the game waits for the second person.
        _wait_until(ana, _seated(0))
        assert ana.locator("#join-form").count() == 0
        assert "Waiting" in ana.inner_text("#status")
        _join(bo, url, "Bo")
        ana.wait_for_selector(".market .row")
        rows = ana.locator(".market .row .row-name").all_inner_texts()
        assert rows == ["Corn", "Gem", "Oil", "Tech", "Movie"]
        assert ana.locator("#mine .hand .card").count() > 0
        assert bo.locator("#mine .hand .card").count() > 0
        # Cards have names for screen readers: "Oil 7, two shares".
        name = ana.get_attribute("#mine .hand .card", "aria-label")
        assert re.fullmatch(
            r"(Corn|Gem|Oil|Tech|Movie) \d+, (one share|two shares|three shares)", name
        )
        # Price 1 unless the bot moved first (the deal picks the first dealer) and raised Corn.
        assert re.match(r"Corn: price \d+", ana.get_attribute(".market .row-head", "aria-label"))
        seen: dict[str, bool] = {"shot": False, "round": False}

        def snap(counts: Counter[str]) -> None:
            if not seen["shot"] and counts["card"] >= 6:
                page = ana if ana.locator("#decision:not([hidden])").count() else bo
                if page.locator("#overlay[open]").count() == 0:
                    _shot(page, "take-stock-en-desktop")
                    seen["shot"] = True
            for page in (ana, bo):
                if not seen["round"] and page.locator("#overlay[open] #round-results").count():
                    _shot(page, "take-stock-round-en-desktop")
                    seen["round"] = True

        counts = _play(
            [ana, bo],
            lambda: _status(ana) == "finished" and _status(bo) == "finished",
            random.Random(1),
            every=snap,
        )
        assert counts["card"] > 10 and counts["button"] > 0, counts
        assert counts["round results closed"] >= 2, counts  # round 1, on both pages
        for page in (ana, bo):
            _check_final_screen(page, 3)
            assert page.locator("#log li").count() > sum(counts.values())
        _shot(ana, "take-stock-final-en-desktop")
        # The record file downloads as `closingbell replay` reads it.
        with ana.expect_download() as download:
            ana.click("#record-overlay")
        assert download.value.suggested_filename.endswith(".cbrec")
        record = Path(download.value.path()).read_text(encoding="utf-8")
        assert record.startswith("closingbell record 1\n") and "take_stock" in record
        # Every round stays in the Rounds tab.
        ana.click("#overlay-close")
        ana.click("#tab-rounds")
        assert ana.locator("#rounds .round-box").count() == 2
        # A display name is text, never markup.
        assert "<b>Ana</b>" in ana.inner_text("#others") + ana.inner_text("#mine")
        assert ana.locator("#main b:text-is('Ana')").count() == 0
        _check_replay(ana)
        _shot(ana, "take-stock-replay-en-desktop")
        ana.click("#replay-back")
        # Play again: a new deal with the same seats and options, its creator seated.
        ana.click("#play-again-side")
        ana.wait_for_url(lambda u: u != url)
        new_id = ana.url.rstrip("/").split("/")[-1]
        table = _api(server, f"/api/tables/{new_id}")["table"]
        assert [s["kind"] for s in table["seats"]] == ["human", "open", "bot"]
        assert table["seats"][0]["name"] == "<b>Ana</b>" and table["seats"][2]["name"] == "easy"
        assert table["options"]["rounds"] == 2 and table["status"] == "waiting"
        _wait_until(ana, _seated(0))
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


@on("postgresql")
def test_take_stock_whole_game_on_a_phone_in_chinese(browser: Any, server: str) -> None:
    """One person against a bot on a phone, in Traditional Chinese, tapping cards."""
    table = _api(
        server,
        "/api/tables",
        {"game": "take_stock", "seats": ["open", "medium"], "options": {"rounds": 1}},
    )["table"]
    context = _context(browser, PHONE, "zh-Hant")
    try:
        page = context.new_page()
        url = f"{server}/t/{table['id']}"
        page.goto(url)
        assert page.get_attribute("#join-seat option", "value") == "0"
        assert page.inner_text("#join-seat option") == "座位 1"
        _join(page, url, "小明")
        page.wait_for_selector(".market .row")
        assert page.evaluate(CJK_RENDERS), "Chinese characters do not render"
        assert page.locator(".market .row-name").first.inner_text() == "玉米"
        _no_overflow(page)
        checked = {"words": False}

        def look(counts: Counter[str]) -> None:
            if (
                not checked["words"]
                and counts["card"] >= 4
                and page.locator("#overlay[open]").count() == 0
            ):
                _shot(page, "take-stock-zh-phone")
                _no_overflow(page)
                checked["words"] = True

        counts = _play([page], lambda: _status(page) == "finished", random.Random(2), every=look)
        assert counts["card"] > 3, counts
        _end_of_game(page, 2, "take-stock-{}-zh-phone")
    finally:
        context.close()


@on("postgresql")
def test_card_stock_market_whole_game_on_a_desktop_in_chinese(browser: Any, server: str) -> None:
    """One person against a bot, every card chosen on the table, in Traditional Chinese."""
    table = _api(server, "/api/tables", {"game": "card_stock_market", "seats": ["open", "easy"]})[
        "table"
    ]
    context = _context(browser, DESKTOP, "zh-Hant")
    try:
        page = context.new_page()
        _join(page, f"{server}/t/{table['id']}", "小明")
        page.wait_for_selector(".csm-market .suit-pile")
        assert "梅花" in page.inner_text(".csm-market")
        name = page.get_attribute("#mine .hand .card", "aria-label")
        assert re.fullmatch(r"(梅花|方塊|紅心|黑桃) (A|[2-9]|10|J|Q|K)|鬼牌", name), name
        assert page.locator("#mine .hand .card").count() == 8
        state = {"shot": False}

        def snap(counts: Counter[str]) -> None:
            if (
                not state["shot"]
                and counts["menu"] >= 3
                and page.locator("#decision .button-choice").count()
            ):
                _shot(page, "card-stock-market-zh-desktop")
                state["shot"] = True

        counts = _play([page], lambda: _status(page) == "finished", random.Random(3), every=snap)
        assert counts["card"] > 10 and counts["menu"] > 5, counts
        _end_of_game(page, 2, "card-stock-market-{}-zh-desktop")
    finally:
        context.close()


@on("sqlite")
def test_card_stock_market_whole_game_on_a_phone_in_english(browser: Any, server: str) -> None:
    """One person against a bot on a phone: the hand is a row to scroll, every tap lands."""
    table = _api(server, "/api/tables", {"game": "card_stock_market", "seats": ["open", "medium"]})[
        "table"
    ]
    context = _context(browser, PHONE)
    try:
        page = context.new_page()
        _join(page, f"{server}/t/{table['id']}", "Ana")
        page.wait_for_selector(".csm-market .suit-pile")
        assert (
            page.evaluate("getComputedStyle(document.querySelector('#mine .hand')).overflowX")
            == "auto"
        )
        state = {"shot": False}

        def snap(counts: Counter[str]) -> None:
            if not state["shot"] and counts["card"] >= 3:
                _no_overflow(page)
                _shot(page, "card-stock-market-en-phone")
                state["shot"] = True

        counts = _play([page], lambda: _status(page) == "finished", random.Random(4), every=snap)
        assert counts["card"] > 10, counts
        _end_of_game(page, 2, "card-stock-market-{}-en-phone")
    finally:
        context.close()


# ---------------------------------------------------------------------- seats and presence


@on("postgresql")
def test_reload_comes_back_to_the_same_seat_and_a_spectator_sees_no_hand(
    browser: Any, server: str
) -> None:
    player, watcher = _context(browser, DESKTOP), _context(browser, PHONE)
    try:
        page = player.new_page()
        url = _create_in_lobby(page, server, "take_stock", ["you", "medium"], name="Ana")
        page.wait_for_selector("#mine .hand .card")
        _play([page], lambda: _version(page) >= 8, random.Random(5))
        before = _version(page)
        hand = page.inner_text("#mine .hand")
        page.reload()
        page.wait_for_selector("#mine .hand .card")
        _wait_until(page, f"Number(document.body.dataset.version) >= {before}")
        assert page.evaluate("document.body.dataset.seat") == "0"
        assert page.locator("#join-form").count() == 0
        if _version(page) == before:
            assert page.inner_text("#mine .hand") == hand
        # A spectator: the board and the seats, no hand, no empty choices, and told so.
        look = watcher.new_page()
        look.goto(url)
        look.wait_for_selector(".market")
        assert look.evaluate("document.body.dataset.seat") == "spectator"
        assert look.locator("#mine .seat-area").count() == 0
        assert look.locator("#decision:not([hidden])").count() == 0
        assert look.locator("#join-form").count() == 0
        assert look.locator("#watching:not([hidden])").count() == 1
        assert "watching" in look.inner_text("#watching")
        assert "Ana" in look.inner_text("#others")
        _no_overflow(look)
    finally:
        player.close()
        watcher.close()


def test_the_join_menu_offers_only_open_seats_and_stays_live(browser: Any, quick: str) -> None:
    table = _api(quick, "/api/tables", {"game": "take_stock", "seats": ["open", "open", "open"]})[
        "table"
    ]
    url = f"{quick}/t/{table['id']}"
    context = _context(browser, DESKTOP, "zh-Hant")
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#join-seat option", state="attached")
        assert page.locator("#join-seat option").all_inner_texts() == ["座位 1", "座位 2", "座位 3"]
        assert page.input_value("#join-seat") == "0"
        # Someone takes seat 1 meanwhile: it leaves the menu, which says so.
        _api(quick, f"/api/tables/{table['id']}/join", {"name": "Bo", "seat": 0})
        _wait_until(page, "document.querySelectorAll('#join-seat option').length === 2")
        assert page.locator("#join-seat option").all_inner_texts() == ["座位 2", "座位 3"]
        assert "座位 1" in page.inner_text("#join-note")
        # A seat taken just as one joins it is refused in the page's words, counted from 1.
        page.evaluate(
            "() => { const s = document.querySelector('#join-seat');"
            " const o = document.createElement('option'); o.value = '0'; o.textContent = 'x';"
            " s.append(o); s.value = '0'; }"
        )
        page.fill("#name", "小明")
        page.click("#join-button")
        page.wait_for_selector("#join-error:not(:empty)")
        error = page.inner_text("#join-error")
        assert "座位 1" in error and not ENGLISH_WORDS.search(error), error
        _wait_until(page, "document.querySelectorAll('#join-seat option').length === 2")
        assert page.locator("#join-seat option").all_inner_texts() == ["座位 2", "座位 3"]
        page.select_option("#join-seat", "2")
        page.click("#join-button")
        _wait_until(page, _seated(2))
        assert page.locator(".seat-no").all_inner_texts() == ["1", "2", "3"]
    finally:
        context.close()


def test_a_bot_standing_in_for_an_absent_player_is_marked_in_the_log(
    browser: Any, quick: str
) -> None:
    table = _api(
        quick,
        "/api/tables",
        {"game": "take_stock", "seats": ["open", "open"], "clock": 0.5, "options": {"rounds": 1}},
    )["table"]
    ana = _api(quick, f"/api/tables/{table['id']}/join", {"name": "Ana", "seat": 0})
    context = _context(browser, DESKTOP)
    _seat_in(context, table["id"], 0, ana["token"])
    try:
        page = context.new_page()
        page.goto(f"{quick}/t/{table['id']}")
        # Ana is at the table when the game starts: were she away too, stand-ins would play
        # both seats, and the whole game, before her page came.
        _wait_until(page, _seated(0))
        _api(quick, f"/api/tables/{table['id']}/join", {"name": "Bo", "seat": 1})
        page.wait_for_selector(".market")
        # Bo never connects: on his turns, once the clock runs out, a bot plays for him.
        _play([page], lambda: page.locator(".tag-standin").count() > 0, random.Random(6), limit=60)
        assert page.locator(".tag-standin").first.inner_text() == "played for Bo"
        assert "Bo" in page.inner_text("#others")
        page.reload()
        page.wait_for_selector(".tag-standin")
    finally:
        context.close()


# ---------------------------------------------------------------------- the lobby


def test_the_lobby_seats_the_creator_and_builds_the_rules_form(browser: Any, quick: str) -> None:
    context = _context(browser, DESKTOP)
    try:
        page = context.new_page()
        page.goto(quick + "/")
        page.wait_for_selector("#create-table")
        assert page.input_value("#game") == "take_stock"
        assert page.input_value("#seat-0") == "you"
        # Every option has a label and a help text; none is raw JSON.
        page.click("#options summary")
        for option in page.locator("#options .option").all():
            assert option.locator("label, legend").count() == 1
            assert option.locator("small").inner_text().strip()
        values = page.evaluate(
            "[...document.querySelectorAll('#options input, #options select')].map(e => e.value)"
        )
        assert not any("[" in v or '"' in v for v in values), values
        assert page.get_attribute("#opt-rounds", "type") == "number"
        assert (
            page.get_attribute("#opt-rounds", "min"),
            page.get_attribute("#opt-rounds", "max"),
        ) == (
            "1",
            "12",
        )
        assert page.inner_text("label[for='opt-rounds']") == "Rounds"
        assert page.locator("#opt-frozen_scoring option").count() == 2
        assert page.locator("input.tuple[id^='opt-shares_table']").count() == 11
        dealers = page.locator("#opt-first_dealer option").all_inner_texts()
        assert dealers == ["Drawn at random", "Seat 1", "Seat 2", "Seat 3"]
        page.select_option("#players", "4")
        assert page.locator("#opt-first_dealer option").count() == 5
        assert "disconnected" in page.inner_text("#clock-help")
        # Without a name, the creator is asked for one and nothing is created.
        page.fill("#creator-name", "")
        page.click("#create-table")
        assert page.inner_text("#create-error")
        assert page.url.endswith("/")
        url = _create_in_lobby(page, quick, "take_stock", ["you", "open"], name="Ana", rounds=3)
        _wait_until(page, _seated(0))
        table = _api(quick, f"/api/tables/{url.rstrip('/').split('/')[-1]}")["table"]
        assert table["options"]["rounds"] == 3
        assert table["seats"][0]["name"] == "Ana" and table["seats"][1]["kind"] == "open"
    finally:
        context.close()


def _midgame_position(game: str, players: int, seed: int, steps: int) -> tuple[str, Any]:
    """A dealt game's position after ``steps`` random actions (seat 0 to decide), and its state."""
    rules = closingbell.load_game(game, players=players)
    state = rules.new_game(seed)
    rng = random.Random(seed)
    while len(state.history) < steps or state.current_player != 0:
        state.apply(rng.choice(state.legal_actions()))
    return state.to_position(), rules.state_from_position(state.to_position())


POSITION_FORMS = [("en", "desktop"), ("en", "phone"), ("zh-Hant", "desktop"), ("zh-Hant", "phone")]
"""Where the lobby's position box is pictured: each language at each size."""


def _position_form(page: Any, base: str) -> None:
    """Open the lobby and fill its form for a practice table of Card Stock Market: Ana
    against an easy bot, the position box open."""
    page.goto(base + "/")
    page.wait_for_selector("#create-table")
    page.select_option("#game", "card_stock_market")
    page.select_option("#players", "2")
    page.fill("#creator-name", "Ana")
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "easy")
    assert page.locator("#position").is_hidden()
    page.click("#position-box summary")


def test_a_table_starts_from_a_position_typed_in_the_lobby(browser: Any, quick: str) -> None:
    """The lobby's "Start from a position": a refused position is told at the box, in the
    page's language, with its field; a good one makes a practice table that is played."""
    position, start = _midgame_position("card_stock_market", 2, 8_231_004_617, 24)
    bot_hand = next(f for f in position.split("; ") if f.startswith("hands: ")).split(" / ")[1]
    words = {"en": "field “cash”", "zh-Hant": "欄位「cash」"}
    for lang, size in POSITION_FORMS:
        context = _context(browser, DESKTOP if size == "desktop" else PHONE, lang)
        where = f"the lobby's position box ({lang}, {size})"
        try:
            page = context.new_page()
            _position_form(page, quick)
            assert page.get_attribute("#position-box a", "href") == "/help/positions"
            assert page.inner_text("label[for='position']")
            assert "position-help" in (page.get_attribute("#position", "aria-describedby") or "")
            tables = len(_api(quick, "/api/tables")["tables"])
            page.fill("#position", "seed: 8\ncash: 150")
            page.click("#create-table")
            _wait_until(page, "document.getElementById('position-error').textContent !== ''")
            error = page.inner_text("#position-error")
            assert words[lang] in error and "2 seats need 2 parts" in error, error
            assert page.get_attribute("#position-error", "role") == "alert"
            assert page.get_attribute("#position", "aria-invalid") == "true"
            assert page.evaluate("document.activeElement.id") == "position"
            assert page.url.rstrip("/") == quick
            assert len(_api(quick, "/api/tables")["tables"]) == tables
            _no_overflow(page)
            page.evaluate("document.getElementById('position-box').scrollIntoView()")
            _shot(page, f"lobby-position-{'zh' if lang == 'zh-Hant' else 'en'}-{size}")
            assert_accessible(page, where)
            # Two people cannot share a position: the page says so before asking the server.
            page.select_option("#seat-1", "open")
            page.fill("#position", position)
            assert page.get_attribute("#position", "aria-invalid") is None
            page.click("#create-table")
            _wait_until(page, "document.getElementById('position-error').textContent !== ''")
            assert len(_api(quick, "/api/tables")["tables"]) == tables
        finally:
            context.close()
    context = _context(browser, DESKTOP)
    try:
        page = context.new_page()
        _position_form(page, quick)
        page.fill("#position", position)
        page.click("#create-table")
        page.wait_for_url("**/t/*")
        table_id = page.url.rstrip("/").split("/")[-1]
        _wait_until(page, _seated(0))
        page.wait_for_selector(".market")
        table = _api(quick, f"/api/tables/{table_id}")["table"]
        assert table["from_position"] is True
        assert [s["kind"] for s in table["seats"]] == ["human", "bot"]
        # The page shows the position as seat 0 sees it, and nothing of the bot's hand.
        html = page.content()
        assert position not in html and bot_hand not in html
        assert _version(page) == 0 and start.current_player == 0
        _play([page], lambda: _version(page) >= 1, random.Random(4), limit=60)
        assert _api(quick, f"/api/tables/{table_id}")["table"]["version"] >= 1
        page.goto(quick + "/")
        page.wait_for_selector("#tables li")
        assert "from a position" in page.inner_text("#tables")
    finally:
        context.close()


def test_the_lobby_and_its_tables_in_chinese(browser: Any, quick: str) -> None:
    _api(quick, "/api/tables", {"game": "card_stock_market", "seats": ["open", "medium"]})
    context = _context(browser, PHONE, "zh-Hant")
    try:
        page = context.new_page()
        page.goto(quick + "/")
        page.wait_for_selector("#tables li")
        assert page.inner_text("#game option[value='take_stock']") == "炒股票"
        assert "卡牌股市" in page.inner_text("#tables")
        assert page.evaluate(CJK_RENDERS)
        _no_overflow(page)
        _shot(page, "lobby-zh-phone")
        assert _english_left(page, {"closingbell", "English", *NAMES}) == set()
        # The rules options in Chinese, from the options' own metadata.
        page.click("#options summary")
        assert page.inner_text("label[for='opt-rounds']") == "回合數"
        assert "留空" in page.inner_text("#opt-first_dealer-help")
        _no_overflow(page)
        assert _english_left(page, {"closingbell", "English", *NAMES}) == set()
    finally:
        context.close()


def test_the_chinese_table_page_has_no_english_left(browser: Any, quick: str) -> None:
    """Two people in Traditional Chinese: everything either of them reads or hears is Chinese."""
    table = _api(
        quick,
        "/api/tables",
        {"game": "take_stock", "seats": ["open", "open"], "options": {"rounds": 1}},
    )["table"]
    tokens = [
        _api(quick, f"/api/tables/{table['id']}/join", {"name": n})["token"]
        for n in ("小明", "小華")
    ]
    contexts = [_context(browser, DESKTOP, "zh-Hant") for _ in tokens]
    try:
        pages = []
        for seat, (context, token) in enumerate(zip(contexts, tokens, strict=True)):
            _seat_in(context, table["id"], seat, token)
            page = context.new_page()
            page.goto(f"{quick}/t/{table['id']}")
            page.wait_for_selector(".market .row")
            pages.append(page)
        allowed = {"closingbell", "English"}
        _play(
            pages,
            lambda: _version(pages[0]) >= 12 or _status(pages[0]) == "finished",
            random.Random(8),
        )
        for page in pages:
            assert _english_left(page, allowed) == set()
        # A card's menu, on the page of a player who may play one now (nobody else acts
        # meanwhile: the page stays as it is). A page with a decision whose cards are all
        # disabled (a secret choice already sent) has no menu to open.
        enabled = "#mine .hand .playable:not([disabled])"
        acting = next((p for p in pages if p.locator(enabled).count()), None)
        if acting is not None:
            acting.locator(enabled).first.click()
            assert _english_left(acting, allowed) == set()
            acting.keyboard.press("Escape")
        # The rest of the game over the WebSocket, for the same seats (whole games through
        # the page are tested above): the pages show it, and its final screen.
        with ThreadPoolExecutor(2) as pool:
            playing = [
                pool.submit(_play_seat, quick, table["id"], token, random.Random(9 + seat))
                for seat, token in enumerate(tokens)
            ]
            for done in playing:
                done.result(timeout=120)
        for page in pages:
            page.wait_for_selector("#overlay[open] #final")
            assert _english_left(page, allowed) == set()
    finally:
        for context in contexts:
            context.close()


# ---------------------------------------------------------------------- choices


def test_a_row_is_chosen_by_clicking_it(browser: Any, quick: str) -> None:
    """Stock Audit: the market (A), a discard, the Audit card, then a row of the market."""
    table = _api(
        quick,
        "/api/tables",
        {
            "game": "take_stock",
            "seats": ["open", "open"],
            "seed": 0,
            "options": {"first_dealer": 1},
        },
    )["table"]
    tokens = [
        _api(quick, f"/api/tables/{table['id']}/join", {"name": n})["token"] for n in ("Ana", "Bo")
    ]
    context = _context(browser, DESKTOP)
    _seat_in(context, table["id"], 0, tokens[0])
    try:
        page = context.new_page()
        page.goto(f"{quick}/t/{table['id']}")
        page.wait_for_selector("#decision .button-choice")
        assert page.title().startswith("● Your turn")
        page.click("#decision .button-choice[data-action='180']")  # market A
        _wait_until(page, "document.body.dataset.version === '1'")
        page.locator("#mine .hand .playable").first.click()  # its discard: one click
        page.wait_for_selector(".tray [data-target='drawn:15']")
        page.click(".tray [data-target='drawn:15']")  # the Audit event: one click
        page.wait_for_selector(".row.targetable")
        assert page.locator(".row.targetable").count() == 5
        assert "Stock Audit" in page.inner_text("#status-detail")
        page.locator(".row.targetable").nth(2).click()  # Oil
        _wait_until(page, "document.querySelector('#log').innerText.includes('audits Oil')")
    finally:
        context.close()


def test_keyboard_only_play(browser: Any, quick: str) -> None:
    table = _api(quick, "/api/tables", {"game": "take_stock", "seats": ["open", "medium"]})["table"]
    token = _api(quick, f"/api/tables/{table['id']}/join", {"name": "Ana"})["token"]
    context = _context(browser, DESKTOP)
    _seat_in(context, table["id"], 0, token)
    focused = (
        "(() => { const e = document.activeElement;"
        " return e ? (e.classList.contains('playable') ? 'card'"
        " : e.classList.contains('menu-choice') ? 'menu'"
        " : e.classList.contains('button-choice') ? 'button' : e.tagName) : null; })()"
    )
    try:
        page = context.new_page()
        page.goto(f"{quick}/t/{table['id']}")
        page.wait_for_selector(".market")
        mine = kept = 0
        deadline = time.monotonic() + 60
        while mine < 6 and _status(page) != "finished":
            assert time.monotonic() < deadline, f"only {mine} moves by keyboard"
            if not page.locator(CHOICES).count():
                page.wait_for_timeout(30)
                continue
            before = _version(page)
            if mine and page.evaluate(focused) in ("card", "button"):
                kept += 1  # the page kept the focus on the table's choices: no Tab needed
            for _ in range(80):
                if page.evaluate(focused) in ("card", "button"):
                    break
                page.keyboard.press("Tab")
            kind = page.evaluate(focused)
            assert kind in ("card", "button"), kind
            page.keyboard.press("Enter")
            if page.evaluate(focused) == "menu":
                if mine == 0:  # Escape goes back to the card without choosing
                    page.keyboard.press("Escape")
                    assert page.evaluate(focused) == "card"
                    page.keyboard.press("Enter")
                page.keyboard.press("Enter")
            _wait_until(page, f"Number(document.body.dataset.version) > {before}")
            mine += 1
        assert mine >= 6 or _status(page) == "finished"
        assert kept >= 3, kept
    finally:
        context.close()


def test_a_player_faster_than_the_servers_rate_is_told_and_plays_on(
    browser: Any, tmp_path: Path
) -> None:
    """Over the server's message rate (here one a second, two at once), an action is refused
    with "wait a moment"; the choices stay closed while the server would drop what comes
    unanswered, then the player plays on."""
    with _Server(f"sqlite:///{tmp_path / 'rate.db'}", rate=1.0, burst=2.0) as base:
        table = _api(
            base,
            "/api/tables",
            {"game": "take_stock", "seats": ["open", "easy"], "options": {"rounds": 1}},
        )["table"]
        context = _context(browser, DESKTOP)
        try:
            page = context.new_page()
            url = f"{base}/t/{table['id']}"
            _join(page, url, "Ana")
            rng, counts = random.Random(3), Counter[str]()
            deadline = time.monotonic() + 30
            while "wait a moment" not in page.inner_text("#main"):
                assert time.monotonic() < deadline, f"never refused: {counts}"
                if not _act(page, rng, counts):
                    page.wait_for_timeout(10)
            refused = _version(page)
            assert page.locator(CHOICES).count() == 0
            page.wait_for_timeout(500)
            assert page.locator(CHOICES).count() == 0, "choices opened while refused"
            _play([page], lambda: _version(page) > refused + 1, rng, limit=20)
        finally:
            context.close()


def test_movement_can_be_skipped_and_stays_off_under_reduced_motion(
    browser: Any, quick: str
) -> None:
    count = (
        "window.__moves = 0; const animate = Element.prototype.animate;"
        " Element.prototype.animate = function (...a) {"
        " window.__moves++; return animate.apply(this, a); };"
    )
    running = "document.getAnimations().filter(a => a.playState === 'running')"
    for motion in (True, False):
        table = _api(
            quick, "/api/tables", {"game": "card_stock_market", "seats": ["open", "medium"]}
        )["table"]
        token = _api(quick, f"/api/tables/{table['id']}/join", {"name": "Ana"})["token"]
        context = _context(browser, DESKTOP, motion=motion)
        context.add_init_script(count)
        _seat_in(context, table["id"], 0, token)
        try:
            page = context.new_page()
            page.goto(f"{quick}/t/{table['id']}")
            page.wait_for_selector(".csm-market")
            start = _version(page)
            _play([page], lambda p=page, v=start: _version(p) >= v + 6, random.Random(7))
            assert (page.evaluate("window.__moves") > 0) is motion
            if motion:
                # A click anywhere finishes what is moving. (A bot's move may redraw the
                # board meanwhile: an animation of a redrawn element is cancelled, "idle".)
                _wait_until(page, f"{running}.length > 0")
                page.evaluate(f"window.__moving = {running}")
                page.mouse.click(5, 5)
                assert page.evaluate("window.__moving.every(a => a.playState !== 'running')")
        finally:
            context.close()


def test_your_turn_changes_the_title_and_the_sound_is_off_until_turned_on(
    browser: Any, quick: str
) -> None:
    table = _api(quick, "/api/tables", {"game": "take_stock", "seats": ["open", "medium"]})["table"]
    token = _api(quick, f"/api/tables/{table['id']}/join", {"name": "Ana"})["token"]
    context = _context(browser, DESKTOP, "zh-Hant")
    _seat_in(context, table["id"], 0, token)
    try:
        page = context.new_page()
        page.goto(f"{quick}/t/{table['id']}")
        page.wait_for_selector("#decision:not([hidden])")
        assert page.title().startswith("● 輪到你了")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
        page.click("#sound-toggle")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
        assert page.evaluate("localStorage.getItem('closingbell.sound')") == "on"
        page.reload()
        page.wait_for_selector("#decision:not([hidden])")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    finally:
        context.close()


@pytest.mark.parametrize(
    ("lang", "size", "game"),
    [
        ("en", "desktop", "take_stock"),
        ("en", "phone", "card_stock_market"),
        ("zh-Hant", "desktop", "card_stock_market"),
        ("zh-Hant", "phone", "take_stock"),
    ],
)
def test_the_table_has_no_serious_accessibility_fault(
    browser: Any, quick: str, lang: str, size: str, game: str
) -> None:
    """axe-core on a table mid-game (with a card's choices open), its final screen and its
    replay: no serious or critical violation (the lobby's check is in test_a11y.py)."""
    table = _api(
        quick,
        "/api/tables",
        {
            "game": game,
            "seats": ["open", "medium"],
            "options": {"rounds": 1} if game == "take_stock" else {},
        },
    )["table"]
    token = _api(quick, f"/api/tables/{table['id']}/join", {"name": "Ana"})["token"]
    context = _context(browser, DESKTOP if size == "desktop" else PHONE, lang)
    _seat_in(context, table["id"], 0, token)
    where = f"{game}, {lang}, {size}"
    try:
        page = context.new_page()
        page.goto(f"{quick}/t/{table['id']}")
        page.wait_for_selector(".market")
        rng = random.Random(10)
        _play([page], lambda: _version(page) >= 6, rng)
        _wait_until(page, "document.querySelector('#table-col .playable:not([disabled])') !== null")
        assert_accessible(page, f"a table mid-game ({where})")
        card = page.locator("#mine .hand .playable:not([disabled])")
        if card.count():
            card.first.click()
            assert_accessible(page, f"a table with a card's choices ({where})")
            if page.locator("#decision .cancel").count():
                page.click("#decision .cancel")
        # The rest of the game is played over the WebSocket, for the same seat: the page
        # shows it and its final screen (whole games through the page are tested above).
        _off_loop(_play_seat, quick, table["id"], token, rng)
        page.wait_for_selector("#overlay[open] #final")
        assert_accessible(page, f"the final screen ({where})")
        page.click("#overlay-close")
        page.click("#replay-side")
        page.wait_for_selector("#replay-slider")
        page.click("#replay-next")
        assert_accessible(page, f"the replay ({where})")
    finally:
        context.close()


# ---------------------------------------------------------------------- sizes and pages


def test_no_page_scrolls_sideways_from_360_to_1366_pixels(browser: Any, quick: str) -> None:
    crowded = _api(
        quick, "/api/tables", {"game": "take_stock", "seats": ["open"] + ["medium"] * 5}
    )["table"]
    token = _api(quick, f"/api/tables/{crowded['id']}/join", {"name": "Maximiliana Ostrowska-Lee"})[
        "token"
    ]
    market = _api(
        quick, "/api/tables", {"game": "card_stock_market", "seats": ["open"] + ["easy"] * 5}
    )["table"]
    token2 = _api(quick, f"/api/tables/{market['id']}/join", {"name": "Ana"})["token"]
    done = _api(
        quick,
        "/api/tables",
        {"game": "take_stock", "seats": ["random", "random"], "options": {"rounds": 1}},
    )["table"]
    for lang in ("en", "zh-Hant"):
        context = _context(browser, {"width": 360, "height": 800}, lang)
        _seat_in(context, crowded["id"], 0, token)
        _seat_in(context, market["id"], 0, token2)
        try:
            page = context.new_page()
            pages = [
                (quick + "/", "#create-table"),
                (f"{quick}/t/{crowded['id']}", ".market .row"),
                (f"{quick}/t/{market['id']}", ".csm-market"),
                (f"{quick}/t/{done['id']}", "#overlay[open] #final"),
            ]
            for address, ready in pages:
                page.goto(address)
                page.wait_for_selector(ready)
                if ready == "#create-table":
                    page.click("#options summary")
                for width in (360, 390, 768, 1366, 1920):
                    page.set_viewport_size({"width": width, "height": 800})
                    page.wait_for_timeout(30)
                    _no_overflow(page)
                if "final" in ready:
                    page.click("#overlay-close")
                    page.click("#replay-side")
                    page.wait_for_selector("#replay-slider")
                    for width in (360, 390, 768, 1366, 1920):
                        page.set_viewport_size({"width": width, "height": 800})
                        page.wait_for_timeout(30)
                        _no_overflow(page)
                page.set_viewport_size({"width": 360, "height": 800})
        finally:
            context.close()


SHIFTS = """window.__shift = 0; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
}).observe({type: 'layout-shift', buffered: true});"""


def test_the_table_does_not_jump_while_it_loads(browser: Any, quick: str) -> None:
    """The cumulative layout shift of a table's page, a spectator's and a player's, on a phone
    and a desktop, stays under 0.1 (the threshold Lighthouse and Web Vitals call good)."""
    table = _api(
        quick, "/api/tables", {"game": "take_stock", "seats": ["open", "medium", "medium"]}
    )["table"]
    token = _api(quick, f"/api/tables/{table['id']}/join", {"name": "Ana"})["token"]
    for size in (PHONE, DESKTOP):
        for seated in (False, True):
            context = _context(browser, size)
            context.add_init_script(SHIFTS)
            if seated:
                _seat_in(context, table["id"], 0, token)
            try:
                page = context.new_page()
                page.context.new_cdp_session(page).send(
                    "Emulation.setCPUThrottlingRate", {"rate": 4}
                )
                page.goto(f"{quick}/t/{table['id']}")
                page.wait_for_selector(".market .row")
                page.wait_for_timeout(500)
                shift = page.evaluate("window.__shift")
                assert shift < 0.1, (size, seated, shift)
            finally:
                context.close()


def test_the_favicon_and_no_missing_file(browser: Any, quick: str) -> None:
    done = _api(quick, "/api/tables", {"game": "card_stock_market", "seats": ["random", "random"]})[
        "table"
    ]
    context = _context(browser, DESKTOP)
    missing: list[str] = []
    context.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    try:
        page = context.new_page()
        page.goto(quick + "/")
        page.wait_for_selector("#create-table")
        icon = page.get_attribute("link[rel='icon']", "href")
        assert icon == "/static/favicon.svg"
        assert page.request.get(quick + icon).status == 200
        page.goto(f"{quick}/t/{done['id']}")
        _wait_until(page, "document.body.dataset.status === 'finished'")
        page.wait_for_selector("#overlay[open] #final")
        # A spectator of a finished game: no "Play again", no choices.
        assert page.locator("#play-again-overlay").count() == 0
        assert page.locator("#decision:not([hidden])").count() == 0
        assert missing == []
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

    bad, good = _off_loop(build)
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
