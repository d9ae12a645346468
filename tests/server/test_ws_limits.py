"""What one WebSocket client may cost the others: rates and floods per connection and per
client address, readers that fall behind, deep JSON, and pages of other sites.

Small limits make each case quick; what only a real socket shows (a client that never
reads, frames sent on after the close) runs on uvicorn as ``closingbell serve`` runs it.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from websockets.sync.client import ClientConnection, connect

from closingbell.cli.main import build_parser
from closingbell.server.loadtest.wire import (
    close_code,
    masked_frame,
    open_raw_websocket,
    read_frame,
)
from closingbell.server.origins import normalize_origin, origin_allowed
from closingbell.server.ratelimit import Floodgate, Limits, Verdict
from tests.server.helpers import (
    HTTP,
    act,
    client_for,
    expect,
    expect_error,
    hello,
    live_server,
    receive,
    sqlite_database,
)
from tests.server.test_websocket import two_players

PING = json.dumps({"type": "ping"})


def version(client: TestClient, table_id: str) -> int:
    return int(client.get(f"/api/tables/{table_id}").json()["table"]["version"])


# ---------------------------------------------------------------- one connection


def test_messages_over_the_rate_are_answered_once_a_window(tmp_path: Path) -> None:
    settings = {"rate": 0.5, "burst": 5, "refusal_window": 0.5, "flood_limit": 1000}
    with client_for(sqlite_database(tmp_path / "x.db"), **settings) as client:
        table_id, tokens = two_players(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            mover = hello(ws, tokens[0])  # the hello spent one token
            for _ in range(30):
                ws.send_text(PING)
            assert [expect(ws, "pong") for _ in range(4)]
            error = expect_error(ws, "rate_limited")
            assert error["version"] == 0
            # The other 25 were dropped unanswered, and so are actions now.
            act(ws, 0, mover["legal"][0]["id"] if mover["legal"] else 0)
            assert receive(ws, timeout=0.3) is None
            # A new window: the next refusal is answered again, once.
            time.sleep(0.3)
            for _ in range(10):
                ws.send_text(PING)
            expect_error(ws, "rate_limited")
            assert receive(ws, timeout=0.3) is None
        assert version(client, table_id) == 0


def test_a_connection_that_keeps_flooding_is_closed(tmp_path: Path) -> None:
    settings = {"rate": 1.0, "burst": 2, "flood_limit": 10}
    with client_for(sqlite_database(tmp_path / "x.db"), **settings) as client:
        table_id, tokens = two_players(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws)
            for _ in range(40):
                ws.send_text(PING)
            assert expect(ws, "pong") == {"type": "pong"}
            expect_error(ws, "rate_limited")
            assert receive(ws) == {"type": "closed", "code": 4429}
        # The table and its other clients are untouched.
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            message = hello(ws, tokens[0])
            assert message["version"] == 0


# ---------------------------------------------------------------- one client address


def test_an_address_holds_a_limited_number_of_connections(tmp_path: Path) -> None:
    settings = {"address_connections": 2, "address_connect_rate": 1000.0}
    with client_for(sqlite_database(tmp_path / "x.db"), **settings) as client:
        table_id, tokens = two_players(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws0:
            hello(ws0, tokens[0])
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
                hello(ws1, tokens[1])
                with (
                    pytest.raises(WebSocketDenialResponse) as refused,
                    client.websocket_connect(f"/ws/tables/{table_id}"),
                ):
                    pass  # pragma: no cover (refused before this)
                assert refused.value.status_code == 429
                error = refused.value.json()["error"]
                assert error["code"] == "too_many_connections"
                assert "2 connections" in error["message"]
            # One left: there is room again.
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
                assert hello(ws1, tokens[1])["seat"] == 1
        # HTTP requests are not counted.
        assert version(client, table_id) == 0


def test_an_address_opens_connections_at_a_limited_rate(tmp_path: Path) -> None:
    settings = {"address_connections": 3, "address_connect_rate": 0.01}
    with client_for(sqlite_database(tmp_path / "x.db"), **settings) as client:
        table_id, _tokens = two_players(client)
        for _ in range(3):  # one at a time: never more than one open
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                hello(ws)
        with (
            pytest.raises(WebSocketDenialResponse) as refused,
            client.websocket_connect(f"/ws/tables/{table_id}"),
        ):
            pass  # pragma: no cover (refused before this)
        assert refused.value.status_code == 429
        assert refused.value.json()["error"]["code"] == "too_many_connections"


def test_an_address_shares_one_message_rate(tmp_path: Path) -> None:
    settings = {"address_rate": 0.5, "address_burst": 4}
    with client_for(sqlite_database(tmp_path / "x.db"), **settings) as client:
        table_id, _tokens = two_players(client)
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        ):
            hello(ws0)
            hello(ws1)
            ws0.send_text(PING)
            expect(ws0, "pong")
            ws1.send_text(PING)
            expect(ws1, "pong")
            # Each connection is far under its own rate, but the address is spent.
            ws0.send_text(PING)
            expect_error(ws0, "rate_limited")
            ws1.send_text(PING)
            expect_error(ws1, "rate_limited")


def test_limits_per_address_can_be_lifted(tmp_path: Path) -> None:
    settings = {"address_connections": 0, "address_rate": 0, "address_connect_rate": 0.01}
    with client_for(sqlite_database(tmp_path / "x.db"), **settings) as client:
        table_id, _tokens = two_players(client)
        for _ in range(5):
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                hello(ws)
                for _ in range(10):
                    ws.send_text(PING)
                assert [expect(ws, "pong") for _ in range(10)]


def test_the_floodgate_verdicts_and_forgets_idle_addresses() -> None:
    now = [0.0]
    limits = Limits(
        rate=1.0,
        burst=2,
        window=1.0,
        flood_limit=3,
        connections=2,
        connect_rate=1.0,
        address_rate=0,
        address_burst=0,
    )
    gate = Floodgate(limits, clock=lambda: now[0])
    assert gate.admit("a") is None
    throttle = gate.throttle("a")
    verdicts = [throttle.check() for _ in range(7)]
    assert verdicts == [Verdict.PASS] * 2 + [Verdict.ANSWER] + [Verdict.DROP] * 3 + [Verdict.CLOSE]
    now[0] = 1.5  # a new window, and one more token
    assert throttle.check() is Verdict.PASS
    assert throttle.check() is Verdict.ANSWER
    gate.leave("a")
    for n in range(2000):  # addresses seen once are forgotten once their buckets refill
        assert gate.admit(f"b{n}") is None
        gate.leave(f"b{n}")
        now[0] += 0.01
    assert gate.addresses() < 1500


# ---------------------------------------------------------------- deep JSON


@pytest.mark.parametrize("depth", [65, 990, 2000])
def test_deep_json_is_refused_and_the_connection_goes_on(client: TestClient, depth: int) -> None:
    table_id, tokens = two_players(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        objects = min(depth, 800)  # within the 4096 bytes of a message
        for text in ("[" * depth + "]" * depth, '{"":' * objects + "1" + "}" * objects):
            ws.send_text(text)
            error = expect_error(ws, "too_deep")
            assert "64" in error["message"]
        assert hello(ws, tokens[0])["seat"] == 0
        ws.send_text(json.dumps({"type": "action", "version": 0, "x": [[[[1]]]] * 2}))
        expect_error(ws, "bad_message")  # shallow nesting is read, and refused as usual
        ws.send_text(PING)
        assert expect(ws, "pong") == {"type": "pong"}


# ---------------------------------------------------------------- origins


def test_pages_of_other_sites_are_refused(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "x.db")) as client:
        table_id, _tokens = two_players(client)
        path = f"/ws/tables/{table_id}"
        for origin in ("http://evil.example", "http://testserver.evil.example", "null"):
            with (
                pytest.raises(WebSocketDenialResponse) as refused,
                client.websocket_connect(path, headers={"origin": origin}),
            ):
                pass  # pragma: no cover (refused before this)
            assert refused.value.status_code == 403
            error = refused.value.json()["error"]
            assert error["code"] == "bad_origin"
            assert origin in error["message"]
        # The site's own pages (the Host the request came to), and clients with no Origin.
        for headers in ({"origin": "http://testserver"}, {"origin": "HTTP://TestServer:80"}, {}):
            with client.websocket_connect(path, headers=headers) as ws:
                assert hello(ws)["seat"] is None


def test_allowed_origins_are_accepted_besides_the_own(tmp_path: Path) -> None:
    allowed = ("https://play.example.com/",)
    with client_for(sqlite_database(tmp_path / "x.db"), allowed_origins=allowed) as client:
        table_id, _tokens = two_players(client)
        path = f"/ws/tables/{table_id}"
        for origin in (
            "https://play.example.com",
            "https://PLAY.example.com:443",
            "http://testserver",
        ):
            with client.websocket_connect(path, headers={"origin": origin}) as ws:
                assert hello(ws)["seat"] is None
        for origin in ("http://play.example.com", "https://play.example.com:8443"):
            with (
                pytest.raises(WebSocketDenialResponse) as refused,
                client.websocket_connect(path, headers={"origin": origin}),
            ):
                pass  # pragma: no cover (refused before this)
            assert refused.value.status_code == 403


def test_origins_are_compared_by_scheme_host_and_port() -> None:
    assert normalize_origin("HTTPS://Play.Example.com:443/") == "https://play.example.com"
    assert normalize_origin("http://[::1]:8000") == "http://[::1]:8000"
    for bad in (
        "null",
        "play.example.com",
        "ftp://x",
        "https://x/page",
        "https://u@x",
        "http://x:99999",
    ):
        with pytest.raises(ValueError):
            normalize_origin(bad)
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", scheme="http")
    assert origin_allowed("https://play.example.com", "play.example.com", scheme="https")
    assert origin_allowed("http://[::1]:8000", "[::1]:8000", scheme="http")
    assert not origin_allowed("http://127.0.0.1:8001", "127.0.0.1:8000", scheme="http")
    assert not origin_allowed("https://play.example.com", "127.0.0.1:8000", scheme="https")
    assert origin_allowed(
        "https://play.example.com", "127.0.0.1:8000", ("https://play.example.com",), scheme="http"
    )
    assert not origin_allowed("http://x", None, scheme="http")


def test_the_origins_scheme_must_be_the_one_the_request_came_over() -> None:
    # A page of https://host is another site than http://host, for a browser as here.
    assert not origin_allowed(
        "https://play.example.com:8000", "play.example.com:8000", scheme="http"
    )
    assert not origin_allowed("http://play.example.com", "play.example.com", scheme="https")
    assert origin_allowed("https://play.example.com", "play.example.com", scheme="HTTPS")
    # A WebSocket's ws:// and wss:// are opened by pages of http:// and https://.
    assert origin_allowed("http://play.example.com", "play.example.com", scheme="ws")
    assert origin_allowed("https://play.example.com", "play.example.com", scheme="wss")
    assert not origin_allowed("https://play.example.com", "play.example.com", scheme="ws")
    assert not origin_allowed("http://play.example.com", "play.example.com", scheme="wss")
    assert not origin_allowed("http://play.example.com", "play.example.com", scheme="ftp")


def test_a_websocket_from_a_page_of_another_scheme_is_refused(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "x.db")) as client:
        table_id, _tokens = two_players(client)
        path = f"/ws/tables/{table_id}"
        for url, origin in (
            (f"ws://testserver{path}", "https://testserver"),
            (f"wss://testserver{path}", "http://testserver"),
        ):
            with (
                pytest.raises(WebSocketDenialResponse) as refused,
                client.websocket_connect(url, headers={"origin": origin}),
            ):
                pass  # pragma: no cover (refused before this)
            assert refused.value.status_code == 403
        for url, origin in (
            (f"ws://testserver{path}", "http://testserver"),
            (f"wss://testserver{path}", "https://testserver"),
        ):
            with client.websocket_connect(url, headers={"origin": origin}) as ws:
                assert hello(ws)["seat"] is None


def test_serve_takes_the_limits_and_origins() -> None:
    parser = build_parser()
    args = parser.parse_args(
        [
            "serve",
            "--allowed-origin",
            "https://Play.Example.com",
            "--allowed-origin",
            "http://localhost:8080",
            "--websockets-per-address",
            "0",
            "--messages-per-address",
            "12.5",
        ]
    )
    assert args.allowed_origin == ["https://play.example.com", "http://localhost:8080"]
    assert (args.websockets_per_address, args.messages_per_address) == (0, 12.5)
    defaults = parser.parse_args(["serve"])
    assert (defaults.websockets_per_address, defaults.messages_per_address) == (50, 50.0)
    for wrong in (["--allowed-origin", "play.example.com"], ["--websockets-per-address", "-1"]):
        with pytest.raises(SystemExit) as exited:
            parser.parse_args(["serve", *wrong])
        assert exited.value.code == 2


# ---------------------------------------------------------------- on a real socket


def open_table(port: int) -> tuple[str, list[str]]:
    """A Take Stock table of two open seats on a live server, joined; its path and tokens."""
    base = f"http://127.0.0.1:{port}/api/tables"
    body = {"game": "take_stock", "seats": ["open", "open"], "seed": 3}
    table_id = HTTP.post(base, json=body).json()["table"]["id"]
    tokens = [
        HTTP.post(f"{base}/{table_id}/join", json={"name": name}).json()["token"]
        for name in ("Ana", "Bob")
    ]
    return f"/ws/tables/{table_id}", tokens


def test_a_reader_that_falls_behind_is_closed_and_may_come_back(tmp_path: Path) -> None:
    settings = {"send_buffer": 8192, "rate": 1e9, "burst": 1e9, "address_rate": 0}
    with live_server(f"sqlite:///{tmp_path / 'x.db'}", **settings) as (port, _app):
        path, tokens = open_table(port)
        with connect(f"ws://127.0.0.1:{port}{path}") as watcher:
            watcher.send(json.dumps({"type": "hello"}))
            # Seat 0 reads nothing while it asks for thousands of answers.
            slow, status = open_raw_websocket(port, path, receive_buffer=4096)
            assert slow is not None, status
            slow.sendall(masked_frame(json.dumps({"type": "hello", "token": tokens[0]}).encode()))
            slow.sendall(masked_frame(PING.encode()) * 30_000)
            # The others keep being told: seat 0 is gone...
            wait_seat(watcher, 0, connected=False)
            # ... and it is closed with 4413 once it reads.
            slow.settimeout(10)
            try:
                opcode, payload = read_frame(slow)
                while opcode != 0x8:
                    opcode, payload = read_frame(slow)
            finally:
                slow.close()
            assert close_code(payload) == 4413
            # It comes back with its token, where the game stands, and play goes on.
            with connect(f"ws://127.0.0.1:{port}{path}") as again:
                again.send(json.dumps({"type": "hello", "token": tokens[0]}))
                assert json.loads(again.recv(timeout=10))["type"] == "welcome"
                state = json.loads(again.recv(timeout=10))
                assert (state["type"], state["seat"], state["version"]) == ("state", 0, 0)
                wait_seat(watcher, 0, connected=True)
                if state["current_player"] == 0:
                    action = state["legal"][0]["id"]
                    again.send(json.dumps({"type": "action", "version": 0, "action": action}))
                    assert json.loads(again.recv(timeout=10))["version"] == 1


def wait_seat(ws: ClientConnection, seat: int, connected: bool) -> None:
    """Read ``ws`` until a ``seats`` message shows ``seat`` (dis)connected as said."""
    while True:
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "seats" and message["seats"][seat]["connected"] == connected:
            return


def test_a_flooder_that_ignores_the_close_is_cut_off(tmp_path: Path) -> None:
    settings = {"rate": 1.0, "burst": 2, "flood_limit": 10}
    with live_server(f"sqlite:///{tmp_path / 'x.db'}", **settings) as (port, _app):
        path, _tokens = open_table(port)
        flooder, status = open_raw_websocket(port, path)
        assert flooder is not None, status
        flooder.settimeout(10)
        frames: list[tuple[int, bytes]] = []

        def read() -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while True:
                    frames.append(read_frame(flooder))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        flooder.sendall(masked_frame(json.dumps({"type": "hello"}).encode()))
        flood = masked_frame(PING.encode()) * 1000
        started = time.monotonic()
        # It floods on, never answering the close frame: the server drops it.
        with pytest.raises(OSError):
            while time.monotonic() - started < 9:
                flooder.sendall(flood)
        cut = time.monotonic() - started
        reader.join(timeout=10)
        flooder.close()
        assert cut < 5  # uvicorn alone would read on for 10 seconds
        kinds = [json.loads(p)["type"] if op == 0x1 else op for op, p in frames]
        assert kinds[:4] == ["welcome", "state", "pong", "error"]  # hello spent a token
        closes = [close_code(p) for op, p in frames if op == 0x8]
        assert closes in ([4429], [])  # [] when the reset overtook the close frame


def test_messages_that_straddle_reads_arrive_whole_and_in_order(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'x.db'}", rate=1e9, burst=1e9) as (port, _app):
        path, _tokens = open_table(port)
        client, status = open_raw_websocket(port, path)
        assert client is not None, status
        client.settimeout(10)
        big = json.dumps({"type": "action", "version": 0, "text": "x" * 3900}).encode()
        messages = [masked_frame(json.dumps({"type": "hello"}).encode())]
        messages += [masked_frame(PING.encode()), masked_frame(big)] * 20
        client.sendall(b"".join(messages))  # some 80 KB in one write: many reads and slices
        kinds = []
        try:
            while len(kinds) < 42:
                _opcode, payload = read_frame(client)
                message = json.loads(payload)
                kinds.append(message.get("code", message["type"]))
        finally:
            client.close()
        assert kinds == ["welcome", "state"] + ["pong", "bad_message"] * 20  # text too long
