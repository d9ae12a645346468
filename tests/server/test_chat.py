"""The table's chat: who may write, what is refused, the rate, the history, other servers."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from closingbell.server.protocol import CHAT_MAX
from tests.server.helpers import (
    client_for,
    create,
    expect,
    expect_error,
    hello,
    join,
    receive,
    sqlite_database,
)
from tests.server.test_accounts import ORIGIN, sign_up, use
from tests.server.test_cluster import postgres_url, servers

__all__ = ["postgres_url"]  # the fixture, used here too

MARKUP = "<img src=x onerror=alert(1)><b>hi</b>"
"""Markup a page must show as text."""


def say(ws: WebSocketTestSession, text: str) -> None:
    """Send a chat message."""
    ws.send_text(json.dumps({"type": "chat", "text": text}))


def chat(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """The entries of the next ``chat`` message."""
    return expect(ws, "chat")["messages"]  # type: ignore[no-any-return]


def stored_chat(client: TestClient, table_id: str, **query: Any) -> list[dict[str, Any]]:
    """``GET /api/tables/{id}/chat``."""
    answer = client.get(f"/api/tables/{table_id}/chat", params=query)
    assert answer.status_code == 200, answer.text
    return answer.json()["messages"]  # type: ignore[no-any-return]


def account_table(client: TestClient, seats: list[str], **extra: Any) -> str:
    """A Take Stock table made by the account ``client`` is signed in with; its id."""
    body = {"game": "take_stock", "seats": seats, **extra}
    answer = client.post("/api/tables", json=body, headers=ORIGIN)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"]["id"])


def account_join(client: TestClient, table_id: str) -> dict[str, Any]:
    """Join as the account ``client`` is signed in with; the answer (seat and token)."""
    answer = client.post(f"/api/tables/{table_id}/join", json={}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_players_write_and_everyone_reads(database_url: str) -> None:
    with client_for(database_url) as client:
        table = create(client, "take_stock", ["open", "open"])
        ana = join(client, table["id"], "Ana")["token"]
        bo = join(client, table["id"], "Bo")["token"]
        path = f"/ws/tables/{table['id']}"
        with (
            client.websocket_connect(path) as ws0,
            client.websocket_connect(path) as ws1,
            client.websocket_connect(path) as watcher,
        ):
            hello(ws0, ana)
            hello(ws1, bo)
            hello(watcher)
            say(ws0, f"  {MARKUP}  ")
            for ws in (ws0, ws1, watcher):
                message = expect(ws, "chat")
                assert message["history"] is False
                (entry,) = message["messages"]
                assert entry["seat"] == 0 and entry["name"] == "Ana"
                assert entry["text"] == MARKUP  # kept as typed, its outer spaces gone
                assert abs(entry["time"] - time.time()) < 60
            # A spectator reads, but writes only where the table lets spectators chat.
            say(watcher, "hello")
            expect_error(watcher, "chat_not_allowed")
            say(ws1, "gg 🎉 好")
            assert [e["text"] for e in chat(ws0)] == ["gg 🎉 好"]
        assert [(e["seat"], e["text"]) for e in stored_chat(client, table["id"])] == [
            (0, MARKUP),
            (1, "gg 🎉 好"),
        ]


def test_spectators_write_where_the_table_lets_them(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "easy"], spectator_chat=True)
    assert table["spectator_chat"] is True
    with client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
        hello(watcher)
        say(watcher, "go go")
        (entry,) = chat(watcher)
        assert entry["seat"] is None and entry["name"] is None and entry["text"] == "go go"


def test_bad_messages_are_refused_and_nothing_is_stored(database_url: str) -> None:
    with client_for(database_url) as client:
        table = create(client, "take_stock", ["open", "easy"])
        token = join(client, table["id"], "Ana")["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, token)
            for text, code in [
                ("", "chat_bad_text"),
                ("   \u3000 ", "chat_bad_text"),
                ("two\nlines", "chat_bad_text"),
                ("a\ttab", "chat_bad_text"),
                ("bell\x07", "chat_bad_text"),
                ("turned \u202eabc", "chat_bad_text"),
                ("x" * (CHAT_MAX + 1), "chat_too_long"),
            ]:
                say(ws, text)
                error = expect_error(ws, code)
                assert error["message"]
            ws.send_text(json.dumps({"type": "chat", "text": 5}))
            expect_error(ws, "bad_message")
            ws.send_text(json.dumps({"type": "chat", "text": "hi", "seat": 1}))
            expect_error(ws, "bad_message")
            assert stored_chat(client, table["id"]) == []
            # The longest message is taken whole, and so is an emoji sequence (joiners).
            say(ws, "y" * CHAT_MAX)
            say(ws, "👩\u200d👩\u200d👧")
            assert chat(ws)[0]["text"] == "y" * CHAT_MAX
            assert chat(ws)[0]["text"] == "👩\u200d👩\u200d👧"


def test_a_connection_writing_too_fast_is_refused_for_a_while(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "chat.db"), chat_burst=3, chat_window=0.5) as client:
        table = create(client, "take_stock", ["open", "easy"])
        token = join(client, table["id"], "Ana")["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, token)
            for n in range(3):
                say(ws, f"message {n}")
                assert chat(ws)[0]["text"] == f"message {n}"
            say(ws, "one too many")
            refused = expect_error(ws, "chat_rate_limited")
            assert "at most 3" in refused["message"]
            time.sleep(0.6)
            say(ws, "later")
            assert chat(ws)[0]["text"] == "later"
        assert [e["text"] for e in stored_chat(client, table["id"])][-1] == "later"
        assert len(stored_chat(client, table["id"])) == 4


def test_a_connection_is_sent_the_latest_messages_after_its_state(database_url: str) -> None:
    with client_for(database_url, chat_history=3) as client:
        table = create(client, "take_stock", ["open", "open"])  # waiting: no state comes
        token = join(client, table["id"], "Ana")["token"]
        path = f"/ws/tables/{table['id']}"
        with client.websocket_connect(path) as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert expect(ws, "welcome")["seat"] == 0
            expect(ws, "state")
            assert receive(ws, 0.3) is None  # no chat yet: no chat message
            for n in range(5):
                say(ws, f"m{n}")
                chat(ws)
        with client.websocket_connect(path) as watcher:
            watcher.send_text(json.dumps({"type": "hello"}))
            assert receive(watcher)["type"] == "welcome"  # type: ignore[index]
            assert receive(watcher)["type"] == "state"  # type: ignore[index]
            shown = expect(watcher, "chat")
            assert shown["history"] is True
            history = shown["messages"]
            assert [e["text"] for e in history] == ["m2", "m3", "m4"]
            assert [e["id"] for e in history] == sorted(e["id"] for e in history)
        assert [e["text"] for e in stored_chat(client, table["id"], limit=2)] == ["m3", "m4"]
        assert client.get(f"/api/tables/{table['id']}/chat?limit=0").status_code == 422
        assert client.get("/api/tables/nope/chat").json()["error"]["code"] == "unknown_table"
    # The chat is kept with the game: a restarted server still has it.
    with client_for(database_url) as client:
        assert len(stored_chat(client, table["id"])) == 5


def test_a_message_written_on_one_server_reaches_the_others(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        table = create(a, "take_stock", ["open", "open"], spectator_chat=True)
        ana = join(a, table["id"], "Ana")["token"]
        bo = join(b, table["id"], "Bo")["token"]
        path = f"/ws/tables/{table['id']}"
        with (
            a.websocket_connect(path) as ws0,
            b.websocket_connect(path) as ws1,
            b.websocket_connect(path) as watcher,
        ):
            hello(ws0, ana)
            hello(ws1, bo)
            hello(watcher)
            say(ws0, MARKUP)
            for ws in (ws0, ws1, watcher):
                (entry,) = chat(ws)
                assert (entry["seat"], entry["name"], entry["text"]) == (0, "Ana", MARKUP)
            say(watcher, "from b")
            (entry,) = chat(ws0)
            assert (entry["seat"], entry["name"], entry["text"]) == (None, None, "from b")
        # A connection to either server gets the history, each message once.
        for client in (a, b):
            with client.websocket_connect(path) as ws:
                hello(ws)
                # A notice of "from b" still arriving at this server while the history is
                # read makes it a new message after the history: in order, each once.
                texts = [e["text"] for e in chat(ws)]
                while len(texts) < 2:
                    texts += [e["text"] for e in chat(ws)]
                assert texts == [MARKUP, "from b"]


# ---------------------------------------------------------------- limits per seat and account


def test_a_seat_writing_from_many_connections_is_limited_as_one(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "chat.db"), chat_burst=5) as client:
        table = create(client, "take_stock", ["open", "easy"])
        token = join(client, table["id"], "Ana")["token"]
        path = f"/ws/tables/{table['id']}"
        with contextlib.ExitStack() as stack:
            tabs = [stack.enter_context(client.websocket_connect(path)) for _ in range(4)]
            for ws in tabs:
                hello(ws, token)
            for n in range(5):
                say(tabs[n % 4], f"message {n}")
                for ws in tabs:
                    assert chat(ws)[0]["text"] == f"message {n}"
            # Every tab of the seat is refused now, not only the one that wrote most.
            for ws in tabs:
                say(ws, "one too many")
                refused = expect_error(ws, "chat_rate_limited")
                assert "at most 5" in refused["message"]
        assert len(stored_chat(client, table["id"])) == 5


def test_an_account_writing_at_several_tables_is_limited_as_one(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "chat.db"), chat_burst=3) as client:
        sign_up(client, "ana")
        tables = [account_table(client, ["open", "open"]) for _ in range(2)]
        tokens = [account_join(client, t)["token"] for t in tables]
        with contextlib.ExitStack() as stack:
            one, two = (
                stack.enter_context(client.websocket_connect(f"/ws/tables/{t}")) for t in tables
            )
            hello(one, tokens[0])
            hello(two, tokens[1])
            say(one, "a")
            say(two, "b")
            say(one, "c")
            assert [chat(one)[0]["text"], chat(two)[0]["text"], chat(one)[0]["text"]] == list("abc")
            say(two, "d")
            expect_error(two, "chat_rate_limited")
        # A guest's seats are each a seat of their own: the account's count is the account's.
        use(client, None)
        guest = join(client, tables[0], "Bo")["token"]
        with client.websocket_connect(f"/ws/tables/{tables[0]}") as ws:
            hello(ws, guest)
            assert expect(ws, "chat")["history"] is True
            say(ws, "from a guest")
            assert chat(ws)[0]["text"] == "from a guest"


def test_spectators_are_limited_per_connection(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "chat.db"), chat_burst=2) as client:
        table = create(client, "take_stock", ["open", "easy"], spectator_chat=True)
        path = f"/ws/tables/{table['id']}"
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            hello(one)
            hello(two)
            for ws in (one, two):
                for text in ("hi", "again"):
                    say(ws, text)
                    assert chat(one)[0]["text"] == chat(two)[0]["text"] == text
            say(one, "third")
            expect_error(one, "chat_rate_limited")
        assert len(stored_chat(client, table["id"])) == 4


# ---------------------------------------------------------------- accounts marked


def test_messages_of_accounts_are_marked(database_url: str) -> None:
    with client_for(database_url) as client:
        sign_up(client, "mona")
        table = account_table(client, ["open", "open"], spectator_chat=True)
        mona = account_join(client, table)["token"]
        use(client, None)
        bo = join(client, table, "Bo")["token"]
        path = f"/ws/tables/{table}"
        with (
            client.websocket_connect(path) as ws0,
            client.websocket_connect(path) as ws1,
            client.websocket_connect(path) as watcher,
        ):
            hello(ws0, mona)
            hello(ws1, bo)
            hello(watcher)
            entries = []
            for ws, text in ((ws0, "from mona"), (ws1, "from bo"), (watcher, "from a watcher")):
                say(ws, text)
                entries += chat(watcher)
            marks = [(e["name"], e["account"]) for e in entries]
            assert marks == [("mona", True), ("Bo", False), (None, False)]
        # The history says so too, after a restart: it is stored with the message.
    with client_for(database_url) as client:
        stored = stored_chat(client, table)
        assert [(e["name"], e["account"]) for e in stored] == [
            ("mona", True),
            ("Bo", False),
            (None, False),
        ]
        assert all(
            set(e) == {"id", "seat", "name", "account", "bot_account", "text", "time"}
            for e in stored
        )


def test_the_mark_reaches_the_other_servers(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        sign_up(a, "mona")
        table = account_table(a, ["open", "easy"])
        token = account_join(a, table)["token"]
        with (
            b.websocket_connect(f"/ws/tables/{table}") as writer,
            a.websocket_connect(f"/ws/tables/{table}") as reader,
        ):
            hello(writer, token)
            hello(reader)
            say(writer, "hello from b")
            (entry,) = chat(reader)
            assert (entry["name"], entry["account"], entry["text"]) == (
                "mona",
                True,
                "hello from b",
            )
