"""Connections to a real ``closingbell serve`` over real sockets: request heads that never
finish, too many connections from one address or in all, and the open-file limit
(``server.connections``)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from uvicorn.config import HTTP_PROTOCOLS
from uvicorn.importer import import_from_string
from websockets.sync.client import connect

from closingbell.cli.main import build_parser
from closingbell.server.app import create_app
from closingbell.server.connections import ConnectionGuard, ConnectionLimits, guarded_protocol
from closingbell.server.limits import early_refusal
from tests.server.helpers import CHEAP_HASHING, HTTP
from tests.server.test_http_limits import answer_of, free_port, served
from tests.server.test_serve import server

PARTIAL_HEAD = b"GET /api/health HTTP/1.1\r\nHost: x\r\n"
"""A request head without its blank line: it never ends."""


def half_open(port: int, source: str) -> socket.socket:
    """A connection from ``source`` that sends part of a request head and no more."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(PARTIAL_HEAD)
    return sock


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def still_open(sock: socket.socket) -> bool:
    """Whether the server has neither answered nor closed ``sock``."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)  # an answer, or b"" for a closed connection
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)
    return False


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'web.db'}"


def test_the_open_file_limit_is_raised_to_the_hard_limit(database: str, tmp_path: Path) -> None:
    with server(database, tmp_path, open_files=(300, 4000)) as (_, process):
        limits = Path(f"/proc/{process.pid}/limits").read_text()
    line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
    assert line.split()[3:5] == ["4000", "4000"]


def test_a_request_head_must_arrive_in_time(database: str, tmp_path: Path) -> None:
    with server(database, tmp_path, "--header-timeout", "1") as (base, _):
        port = port_of(base)
        with (
            closing(half_open(port, "127.0.0.1")) as slow,
            closing(socket.create_connection(("127.0.0.1", port))) as silent,
        ):
            started = time.monotonic()
            status, headers, body = answer_of(slow)
            assert status == 408
            assert body["error"]["code"] == "request_timeout"
            assert headers["connection"] == "close"
            assert 0.8 < time.monotonic() - started < 5
            assert answer_of(silent)[0] == 408
        # Complete requests on a kept-alive connection are not hurried.
        with httpx.Client(base_url=base) as client:
            for _ in range(3):
                assert client.get("/api/health").status_code == 200
                time.sleep(0.6)


def test_half_open_connections_cannot_lock_everyone_out(database: str, tmp_path: Path) -> None:
    # 200 descriptors and no way to raise them: the server holds 72 connections at most.
    extra = ("--header-timeout", "60", "--connections-per-address", "40")
    with server(database, tmp_path, *extra, open_files=(200, 200)) as (base, _), ExitStack() as s:
        port = port_of(base)
        attackers = [
            s.enter_context(closing(half_open(port, f"127.0.0.{2 + i // 40}"))) for i in range(320)
        ]
        started = time.monotonic()
        with httpx.Client(base_url=base, timeout=5) as client:
            assert client.get("/api/health").status_code == 200
            table = client.post("/api/tables", json={"game": "take_stock", "seats": ["open"] * 2})
            assert table.status_code == 201
        assert time.monotonic() - started < 5
        # The oldest half-open connections made room; the newest still wait.
        assert not still_open(attackers[0])
        assert still_open(attackers[-1])


def test_connections_per_address_websockets_included(database: str, tmp_path: Path) -> None:
    extra = ("--connections-per-address", "4")
    with server(database, tmp_path, *extra) as (base, _):
        port = port_of(base)
        table = HTTP.post(
            f"{base}/api/tables", json={"game": "take_stock", "seats": ["open", "open"]}
        ).json()["table"]
        url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
        with ExitStack() as stack:
            sockets = []
            for _ in range(4):
                raw = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
                ws = stack.enter_context(connect(url, sock=raw))
                ws.send(json.dumps({"type": "hello"}))
                sockets.append(ws)
            with closing(half_open(port, "127.0.0.2")) as fifth:
                status, _, body = answer_of(fifth)
            assert status == 429
            assert body["error"]["code"] == "too_many_connections"
            assert "at most 4 connections" in body["error"]["message"]
            # Other addresses are not refused.
            assert HTTP.get(f"{base}/api/health").status_code == 200
            sockets[0].close()
            deadline = time.monotonic() + 5
            while True:  # the closed WebSocket's place is free again
                with closing(half_open(port, "127.0.0.2")) as again:
                    if still_open(again):
                        break
                assert time.monotonic() < deadline, "a closed WebSocket still counts"
                time.sleep(0.05)


def test_x_forwarded_for_counts_only_from_named_proxies(database: str, tmp_path: Path) -> None:
    new = {"game": "take_stock", "seats": ["open", "open"]}

    def statuses(base: str) -> list[int]:
        return [
            HTTP.post(
                f"{base}/api/tables", json=new, headers={"x-forwarded-for": f"198.51.100.{i}"}
            ).status_code
            for i in range(3)
        ]

    limits = ("--tables-burst", "2", "--tables-per-minute", "1")
    with server(database, tmp_path, *limits) as (base, _):
        assert statuses(base) == [201, 201, 429]  # a client cannot choose its address
    proxied = (*limits, "--forwarded-allow-ips", "127.0.0.1", "--connections-per-address", "1")
    with server(database, tmp_path, *proxied) as (base, _), ExitStack() as stack:
        assert statuses(base) == [201, 201, 201]  # each client behind the proxy counts
        # The proxy's own address is not held to --connections-per-address.
        held = [stack.enter_context(closing(half_open(port_of(base), "127.0.0.1"))) for _ in "ab"]
        assert HTTP.get(f"{base}/api/health").status_code == 200
        assert all(still_open(sock) for sock in held)


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--header-timeout", "0", "more than 0"),
        ("--tables-burst", "0", "more than 0"),
        ("--max-connections", "-1", "0 or more"),
        ("--connections-per-address", "-1", "0 or more"),
        ("--tables-per-minute", "-1", "0 or more"),
    ],
)
def test_serve_refuses_bad_limits(
    flag: str, value: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = build_parser().parse_args(["serve", flag, value])
    assert args.run(args) == 2
    assert f"{flag} must be {says}" in capsys.readouterr().err


class _Transport:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


class _Protocol:
    def __init__(self) -> None:
        self.transport = _Transport()


def test_the_guard_makes_room_by_closing_the_longest_waiting() -> None:
    guard = ConnectionGuard(ConnectionLimits(max_connections=3, per_address=2))
    protocols = [_Protocol() for _ in range(6)]
    a, _, c = (guard.admit(address, p) for address, p in zip("abc", protocols, strict=False))
    guard.busy(a)  # a request under way: never closed to make room
    d = guard.admit("d", protocols[3])
    assert protocols[1].transport.closed  # b waited longest
    assert not protocols[0].transport.closed and not protocols[2].transport.closed
    assert guard.open == 3 and "b" not in guard.by_address
    guard.busy(c)
    guard.busy(d)
    refused = guard.admit("e", protocols[4])  # every connection is busy
    assert isinstance(refused, tuple) and refused[0] == 503
    guard.release(a)
    guard.release(a)  # counted once
    assert guard.open == 2
    assert not isinstance(guard.admit("c", protocols[5]), tuple)
    too_many = guard.admit("c", _Protocol())
    assert too_many == (429, "at most 2 connections from one address")


@pytest.mark.parametrize("base", ["httptools", "h11"])
def test_both_of_uvicorns_http_protocols_keep_the_limits(tmp_path: Path, base: str) -> None:
    protocol = guarded_protocol(
        ConnectionLimits(header_timeout=0.5, max_connections=10, per_address=2),
        import_from_string(HTTP_PROTOCOLS[base]),
    )
    with served(tmp_path, http=protocol) as port:
        with closing(half_open(port, "127.0.0.2")) as slow:
            with closing(half_open(port, "127.0.0.2")) as other:
                with closing(half_open(port, "127.0.0.2")) as third:
                    assert answer_of(third)[0] == 429
                assert answer_of(other)[0] == 408
            assert answer_of(slow)[0] == 408
        assert HTTP.get(f"http://127.0.0.1:{port}/api/health").status_code == 200
        deadline = time.monotonic() + 5
        while protocol.guard.open:  # every connection closed: none still counted
            assert time.monotonic() < deadline, protocol.guard.by_address
            time.sleep(0.02)


def _post_from(port: int, source: str, path: str, body: dict[str, Any]) -> tuple[int, Any, Any]:
    """``POST path`` with a JSON ``body`` from the address ``source``; the answer."""
    data = json.dumps(body).encode()
    sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    with closing(sock):
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            "Content-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        return answer_of(sock)


def test_a_throttled_address_is_answered_from_its_request_line(tmp_path: Path) -> None:
    """``closingbell serve``'s connections refuse a throttled address's sign-up before uvicorn
    parses it (no request id: the application never saw it), with the application's answer;
    a trusted proxy's requests always reach the application."""
    app = create_app(
        f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0, sign_ups_per_address=1, **CHEAP_HASHING
    )
    protocol = guarded_protocol(
        ConnectionLimits(trusted=("127.0.0.3",), early=early_refusal(app)),
        import_from_string(HTTP_PROTOCOLS["httptools"]),
    )
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, http=protocol, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    try:
        while not running.started:
            time.sleep(0.02)
        sign_up = {"username": "early1", "password": "a good long password"}
        first = _post_from(port, "127.0.0.2", "/api/account/signup", sign_up)
        assert first[0] == 201 and "x-request-id" in first[1]
        status, headers, body = _post_from(
            port, "127.0.0.2", "/api/account/signup", {**sign_up, "username": "early2"}
        )
        assert status == 429 and body["error"]["code"] == "too_many_sign_ups"
        assert "x-request-id" not in headers  # answered before the application
        assert int(headers["retry-after"]) > 3000
        # What the throttle does not refuse goes on as before.
        health = HTTP.get(f"http://127.0.0.1:{port}/api/health")
        assert health.status_code == 200
        # A trusted proxy's address is its clients': the application decides (and refuses).
        for name in ("early3", "early4"):
            answer = _post_from(
                port, "127.0.0.3", "/api/account/signup", {**sign_up, "username": name}
            )
        assert answer[0] == 429 and "x-request-id" in answer[1]
    finally:
        running.should_exit = True
        thread.join(10)
