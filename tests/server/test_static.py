"""The browser page's files, its words (the ``web`` catalog) and the server's words per
connection (``hello``'s ``lang``: action labels and event lines)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from closingbell.text.i18n import LANGS, LOCALE_DIR
from tests.server.helpers import create, expect, join, wait_state

STATIC = Path(__file__).resolve().parents[2] / "src" / "closingbell" / "server" / "static"
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _js_messages() -> list[tuple[str, str]]:
    found = []
    for path in sorted(STATIC.glob("*.js")):
        for line, msgid, _c, _ctx in extract_from_file(
            "javascript", str(path), keywords={"_": None}
        ):
            assert isinstance(msgid, str)
            found.append((f"{path.name}:{line}", msgid))
    return found


def test_the_pages_and_their_files_are_served(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "/static/lobby.js" in lobby.text
    page = client.get("/t/whatever")
    assert page.status_code == 200 and "/static/table.js" in page.text
    names = sorted(p.name for p in STATIC.iterdir())
    assert {"favicon.svg", "cards.js", "board-take-stock.js", "board-card-stock-market.js"} <= set(
        names
    )
    for name in names:
        assert client.get(f"/static/{name}").status_code == 200, name
    for html in (lobby.text, page.text):
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    icon = client.get("/static/favicon.svg")
    assert icon.headers["content-type"].startswith("image/svg+xml")


INLINE = re.compile(
    r"""style\s*=\s*["']|setAttribute\(\s*["']style|innerHTML|outerHTML|insertAdjacentHTML|"""
    r"""document\.write|\beval\(|new Function|<script>|\son[a-z]+\s*="""
)


def test_the_page_keeps_to_its_content_security_policy() -> None:
    """No inline script or style, no markup built from strings: styles go through CSS classes
    and the CSS object model (element.style), which the policy allows, and text is text."""
    problems = []
    for path in sorted(STATIC.glob("*")):
        if path.suffix not in (".js", ".html"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if INLINE.search(line):
                problems.append(f"{path.name}:{number}: {line.strip()}")
    assert not problems, "\n".join(problems)


def test_the_page_loads_nothing_from_elsewhere() -> None:
    remote = re.compile(r"(?:src|href|url)\s*[=(]\s*[\"']?(?:https?:)?//", re.IGNORECASE)
    for path in sorted(STATIC.glob("*")):
        text = path.read_text(encoding="utf-8")
        assert not remote.search(text), path.name
        assert "@import" not in text, path.name


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_page_word_has_a_translation(lang: str) -> None:
    messages = _js_messages()
    assert len(messages) > 50
    path = LOCALE_DIR / LANGS[lang] / "LC_MESSAGES" / "web.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=LANGS[lang], domain="web")
    problems = []
    for where, msgid in messages:
        message = catalog.get(msgid)
        if message is None or not message.string or message.fuzzy:
            problems.append(f"{where}: untranslated in {lang}: {msgid!r}")
        elif set(PLACEHOLDER.findall(str(message.string))) != set(PLACEHOLDER.findall(msgid)):
            problems.append(f"{where}: placeholders differ in {lang}: {msgid!r}")
    assert not problems, "\n".join(problems)


def test_the_page_words_and_game_words_are_served(client: TestClient) -> None:
    zh = client.get("/api/messages/zh-Hant").json()
    assert zh["messages"]["Create table"] == "建立牌桌"
    assert client.get("/api/messages/fr").status_code == 404
    words = client.get("/api/words/take_stock/zh-Hant").json()
    assert words["stocks"][0] == "玉米" and len(words["cards"]) == 60
    csm = client.get("/api/words/card_stock_market/en").json()
    assert csm["suits"] == ["Clubs", "Diamonds", "Hearts", "Spades"] and len(csm["cards"]) == 53
    assert client.get("/api/words/chess/en").status_code == 404


def test_hello_lang_gives_labels_and_lines(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"], seed=5)
    ana = join(client, table["id"], "Ana")
    join(client, table["id"], "Bo")
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": ana["token"], "lang": "zh-Hant"}))
        expect(ws, "welcome")
        state = expect(ws, "state")
        assert len(state["lines"]) == len(state["events"]) > 0
        assert any(line and "回合" in line for line in state["lines"])
        if state["legal"]:
            assert all(a["label"] and a["text"] for a in state["legal"])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "lang": "en"}))
        expect(ws, "welcome")
        state = wait_state(ws, lambda m: True)
        assert state["legal"] == [] and any("Round 1" in (line or "") for line in state["lines"])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "lang": "fr"}))
        assert expect(ws, "error")["code"] == "bad_message"


def test_the_replay_has_words_when_asked(client: TestClient) -> None:
    table = create(client, "take_stock", ["random", "random"], options={"rounds": 1}, seed=2)
    for _ in range(200):
        if client.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "finished":
            break
        import time

        time.sleep(0.05)
    plain = client.get(f"/api/tables/{table['id']}/replay?limit=5").json()
    assert "lines" not in plain["steps"][0]
    worded = client.get(f"/api/tables/{table['id']}/replay?limit=5&lang=zh-Hant").json()
    assert worded["steps"][1]["action"]["label"]
    assert len(worded["steps"][1]["lines"]) == len(worded["steps"][1]["events"])
    later = client.get(f"/api/tables/{table['id']}/replay?start=3&limit=2&lang=en").json()
    assert later["steps"][0]["events"] == plain["steps"][3]["events"]
