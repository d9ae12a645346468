"""What one HTTP request may be: its body's size, time and nesting, table creation per
address, and the security headers of every answer (``server.limits``)."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from closingbell.server.app import STATIC_DIR, create_app
from closingbell.server.limits import CONTENT_SECURITY_POLICY, AddressBuckets
from tests.server.helpers import client_for, create, sqlite_database
from tests.server.test_lobby import error_of
from tests.server.test_serve import free_port


@contextmanager
def served(tmp_path: Path, http: Any = "auto", **settings: Any) -> Iterator[int]:
    """A real uvicorn server (its HTTP protocol ``http``) in a thread, on the app with
    ``settings``; its port."""
    port = free_port()
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0, **settings)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, http=http, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def answer_of(sock: socket.socket, timeout: float = 10.0) -> tuple[int, dict[str, str], Any]:
    """Read an HTTP answer to the end of the connection: status, headers, JSON body."""
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body) if body else None


HEAD = "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


def test_a_body_over_the_limit_is_refused_from_its_length_before_it_is_sent(
    tmp_path: Path,
) -> None:
    with (
        served(tmp_path, max_body=1000) as port,
        socket.create_connection(("127.0.0.1", port)) as sock,
    ):
        # 400 MB announced, not a byte sent: the answer comes at once.
        sock.sendall(f"{HEAD}Content-Length: {400 * 2**20}\r\n\r\n".encode())
        status, headers, body = answer_of(sock)
    assert status == 413
    assert body["error"]["code"] == "too_large"
    assert "1000 bytes" in body["error"]["message"]
    assert headers["connection"] == "close"


def test_a_chunked_body_is_counted_as_it_arrives(tmp_path: Path) -> None:
    with (
        served(tmp_path, max_body=1000) as port,
        socket.create_connection(("127.0.0.1", port)) as sock,
    ):
        sock.sendall(f"{HEAD}Transfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b" " * 300
        for _ in range(4):
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sock.sendall(b"0\r\n\r\n")
        status, _, body = answer_of(sock)
    assert status == 413
    assert body["error"]["code"] == "too_large"


def test_a_body_that_does_not_arrive_in_time_is_refused(tmp_path: Path) -> None:
    with (
        served(tmp_path, body_timeout=0.5) as port,
        socket.create_connection(("127.0.0.1", port)) as sock,
    ):
        sock.sendall(f"{HEAD}Content-Length: 100\r\n\r\n{{".encode())
        started = time.monotonic()
        status, _, body = answer_of(sock)
    assert status == 408
    assert body["error"]["code"] == "request_timeout"
    assert time.monotonic() - started < 5


def test_a_body_under_the_limit_still_works(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), max_body=200) as client:
        create(client, "take_stock", ["open", "open"])
        body = {"game": "take_stock", "seats": ["open", "open"], "options": {"x": "y" * 200}}
        error_of(client.post("/api/tables", json=body), 413, "too_large")


@pytest.mark.parametrize("path", ["/api/tables", "/api/tables/abc/join"])
def test_json_nested_too_deep_is_refused_before_it_is_parsed(client: TestClient, path: str) -> None:
    for deep in ("[" * 1000, '{"game": ' + "[" * 100 + "]" * 100 + "}", "[" * 60_000):
        response = client.post(path, content=deep, headers={"content-type": "application/json"})
        message = error_of(response, 422, "too_deep")
        assert "deeper than 64" in message
    # Brackets inside strings do not count.
    name = "[" * 100
    table = create(client, "take_stock", ["open", "open"])
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": name[:32]})
    assert joined.status_code == 200, joined.text


def test_table_creation_is_limited_per_address(tmp_path: Path) -> None:
    new = {"game": "take_stock", "seats": ["open", "open"]}
    with served(tmp_path, tables_per_minute=6, tables_burst=3) as port:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as one:
            for _ in range(3):
                assert one.post("/api/tables", json=new).status_code == 201
            refused = one.post("/api/tables", json=new)
            message = error_of(refused, 429, "rate_limited")
            assert "3 at once and 6 a minute" in message
            assert 1 <= int(refused.headers["retry-after"]) <= 10
            # Other routes are not limited.
            assert one.get("/api/tables").status_code == 200
        # Another address has its own allowance.
        other = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=base, transport=other) as two:
            assert two.post("/api/tables", json=new).status_code == 201


def test_address_buckets_refill_and_forget_idle_addresses() -> None:
    now = [0.0]
    buckets = AddressBuckets(rate=1.0, capacity=2.0, kept=3, clock=lambda: now[0])
    assert buckets.take("a") == 0 and buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(1.0)
    now[0] += 0.5
    assert buckets.take("a") == pytest.approx(0.5)
    now[0] += 0.5
    assert buckets.take("a") == 0
    for name in ("b", "c"):
        buckets.take(name)
    assert len(buckets) == 3
    now[0] += 10  # every bucket is full again: forgotten to make room
    buckets.take("d")
    assert len(buckets) == 1


SECURITY = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def test_every_answer_has_the_security_headers(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"])
    answers = [
        client.get("/"),
        client.get(f"/t/{table['id']}"),
        client.get("/static/table.js"),
        client.get("/static/style.css"),
        client.get("/api/health"),
        client.get("/api/tables/nope"),
        client.get("/static/nope.js"),
        client.post("/api/tables", content="[" * 100, headers={"content-type": "application/json"}),
    ]
    for response in answers:
        for name, value in SECURITY.items():
            assert response.headers.get(name) == value, (response.url, name)
    policy = dict(p.strip().split(" ", 1) for p in CONTENT_SECURITY_POLICY.split(";"))
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY
    assert policy["script-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["connect-src"] == "'self'"


def test_the_page_has_no_inline_script_or_style() -> None:
    """What the Content-Security-Policy would block: inline code, handlers and styles."""
    for path in STATIC_DIR.glob("*.html"):
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, (path.name, tag)
        assert not re.search(r"<style\b", html), path.name
        assert not re.search(r"\s(on\w+|style)\s*=", html), path.name
    for path in STATIC_DIR.glob("*.js"):
        code = path.read_text()
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", code)
        assert not re.search(r"\beval\(|new Function\(|setTimeout\(\s*['\"]", code)
        assert not re.search(r"setAttribute\(\s*['\"](style|on\w+)['\"]", code), path.name
        assert not re.search(r"[{,]\s*['\"]?style['\"]?\s*:", code), path.name


# ---------------------------------------------------------------- every refusal in one shape


def test_an_unknown_path_or_method_is_refused_in_the_error_shape(client: TestClient) -> None:
    for path in ("/api/nope", "/nope", "/static/nope.js"):
        response = client.get(path)
        assert error_of(response, 404, "not_found") == "there is no such page or route"
        assert response.headers["x-content-type-options"] == "nosniff"
    response = client.put("/api/health")
    message = error_of(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "GET"
    assert message == "PUT is not taken here (allowed: GET)"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        # Python reads at most 4,300 digits of an integer (converting more takes quadratic
        # time), and says so in words meant for the server's operator.
        (
            b'{"game": "take_stock", "seats": ["open", "open"], "seed": 1' + b"0" * 5000 + b"}",
            "a number has more than 4300 digits",
        ),
        (b"[" + b"9" * 5000 + b"]", "a number has more than 4300 digits"),
        (b'{"game": "take\xff_stock"}', "not UTF-8 text"),
    ],
    ids=["a-long-seed", "a-long-number", "not-utf-8"],
)
def test_a_body_python_cannot_read_is_refused_as_malformed_json(
    client: TestClient, body: bytes, reason: str
) -> None:
    response = client.post(
        "/api/tables", content=body, headers={"content-type": "application/json"}
    )
    message = error_of(response, 422, "bad_request")
    assert message.startswith("body: not JSON: ") and reason in message, message
    assert "set_int_max_str_digits" not in message
    assert client.get("/api/tables").json()["tables"] == []


def test_a_fault_of_the_server_is_answered_in_the_error_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> list[str]:
        raise RuntimeError("a bug")

    app = create_app(f"sqlite:///{tmp_path / 'web.db'}")
    with TestClient(app, raise_server_exceptions=False) as client:
        monkeypatch.setattr("closingbell.server.app.available_games", broken)
        message = error_of(client.get("/api/games"), 500, "server_error")
        assert "a bug" not in message
