"""closingbell behind nginx: deploy/nginx/closingbell.conf in front of two real ``closingbell
serve`` processes sharing one fresh PostgreSQL database.

The site file is the one shipped, with only its addresses and paths changed
(:func:`site_config`): its upstream names the test's two servers, it listens on free loopback
ports, over TLS with a self-signed certificate made by ``openssl`` and, in the same server
block, over plain HTTP, and it logs into a temporary folder. nginx runs in the foreground
with a main configuration of the test's own (``nginx -p DIR -c FILE``), so it needs no system
path but ``/etc/nginx/mime.types``. nginx must be installed (``scripts/test.sh`` installs
Debian's): without it these tests fail, they never skip; so do they without PostgreSQL
(``CLOSINGBELL_TEST_POSTGRES``, tests/server/helpers.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import sync_playwright
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.server.helpers import CHEAP_HASHING_ENVIRONMENT, HTTP, postgres_database
from tests.server.test_browser import (
    ARGS,
    CHROMIUM,
    DESKTOP,
    _play,
    _seat_in,
    _seated,
    _status,
    _version,
    _wait_until,
)
from tests.server.test_serve import free_port, server

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "closingbell.conf"
"""The site configuration shipped for Debian's nginx."""
NEW_TABLE = {"game": "take_stock", "seats": ["open", "random"]}
"""A table of one person against a bot that plays at once (the server's bot delay is 0)."""
UPSTREAM = ("127.0.0.1:8000", "127.0.0.1:8001")
"""The servers the shipped site's upstream lists."""
SERVER_ENVIRONMENT = {
    # A dead server's tables are taken over within a second.
    "CLOSINGBELL_LEASE_SECONDS": "1",
    # A test's clients play whole games as fast as the servers answer: ten times as many
    # messages a second as a connection, and as one address, may send by default.
    "CLOSINGBELL_RATE": "100",
    "CLOSINGBELL_BURST": "300",
    "CLOSINGBELL_ADDRESS_RATE": "500",
    "CLOSINGBELL_ADDRESS_BURST": "1500",
    # One table a minute after the burst of 20 (not 10): however slow the machine, a
    # server gives no table back while test_the_server_counts_each_client_by_its_own_address
    # uses up its burst.
    "CLOSINGBELL_TABLES_PER_MINUTE": "1",
    **CHEAP_HASHING_ENVIRONMENT,
}
"""The environment of the servers behind nginx, besides the test's own."""


def nginx_program() -> str:
    """The ``nginx`` program; fails the test (never skips) when it is not installed."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        pytest.fail("nginx is missing: apt-get install nginx (scripts/test.sh does)", pytrace=False)
    return found


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, and its key, made by ``openssl``."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def _replace(text: str, old: str, new: str, count: int) -> str:
    """``text`` with each of the ``count`` occurrences of ``old`` replaced by ``new``."""
    assert text.count(old) == count, f"{SITE.name} no longer has {count} of {old!r}"
    return text.replace(old, new)


def site_config(
    *,
    upstream: Sequence[str],
    http_port: int,
    https_port: int,
    plain_port: int,
    folder: Path,
    cert: Path,
    key: Path,
) -> str:
    """The shipped site file with the test's addresses and paths, and nothing else changed.

    Its upstream's two servers are ``upstream``'s. The redirecting server listens on
    ``http_port``; the proxying one on ``https_port`` over TLS and on ``plain_port`` over
    plain HTTP; both on 127.0.0.1 only (no IPv6 line).
    """
    text = SITE.read_text(encoding="utf-8")
    assert len(upstream) == len(UPSTREAM), upstream
    for shipped, address in zip(UPSTREAM, upstream, strict=True):
        text = _replace(text, f"    server {shipped} ", f"    server {address} ", 1)
    text = _replace(text, "    listen [::]:80;\n", "", 1)
    text = _replace(text, "    listen [::]:443 ssl http2;\n", "", 1)
    text = _replace(text, "listen 80;", f"listen 127.0.0.1:{http_port};", 1)
    text = _replace(
        text,
        "listen 443 ssl http2;",
        f"listen 127.0.0.1:{https_port} ssl http2;\n    listen 127.0.0.1:{plain_port};",
        1,
    )
    live = "/etc/letsencrypt/live/play.example.com/"
    text = _replace(text, live + "fullchain.pem", str(cert), 1)
    text = _replace(text, live + "privkey.pem", str(key), 1)
    text = _replace(text, "/var/log/nginx/", f"{folder}/", 2)
    return _replace(text, "root /var/www/html;", f"root {folder / 'www'};", 1)


def main_config(folder: Path, site: Path) -> str:
    """An nginx.conf that includes ``site`` in its ``http`` block, as Debian's does, with
    every file nginx writes in ``folder``."""
    temporary = "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root, nginx's workers would run as nobody, who may not enter pytest's folders.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\n"
        "events { worker_connections 512; }\n"
        "http {\n"
        "    include /etc/nginx/mime.types;\n"
        "    default_type application/octet-stream;\n"
        f"    access_log {folder / 'access.log'};\n"
        f"{temporary}"
        f"    include {site};\n"
        "}\n"
    )


def nginx_command(folder: Path, conf: Path, *extra: str) -> list[str]:
    """``nginx`` on ``conf`` with its prefix, pid file and error log in ``folder``."""
    return [
        nginx_program(),
        "-p",
        f"{folder}/",
        "-e",
        str(folder / "error.log"),
        "-c",
        str(conf),
        "-g",
        f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};",
        *extra,
    ]


@dataclass(frozen=True)
class Upstream:
    """``closingbell serve`` processes sharing one PostgreSQL database."""

    database: str
    """The database's URL."""
    addresses: tuple[str, ...]
    """Each server's own address, ``http://127.0.0.1:PORT``."""
    processes: tuple[subprocess.Popen[str], ...]
    """Each server's process, in the order of ``addresses``."""


@contextmanager
def two_servers(folder: Path) -> Iterator[Upstream]:
    """Two ``closingbell serve`` processes on a fresh PostgreSQL database, trusting nginx's
    X-Forwarded-For (as docs/deploy.md says to run them behind nginx); killed at the end."""
    with postgres_database() as database, ExitStack() as stack:
        started = [
            stack.enter_context(
                server(
                    database,
                    folder / f"server-{n}",
                    "--forwarded-allow-ips",
                    "127.0.0.1",
                    "--bot-processes",
                    "0",
                    environment=SERVER_ENVIRONMENT,
                )
            )
            for n in range(2)
        ]
        yield Upstream(
            database=database,
            addresses=tuple(address for address, _ in started),
            processes=tuple(process for _, process in started),
        )


@dataclass(frozen=True)
class Proxy:
    """closingbell servers and nginx in front of them."""

    upstream: Upstream
    """The servers nginx passes requests to."""
    plain: str
    """nginx's proxying server over plain HTTP."""
    tls: str
    """nginx's proxying server over HTTPS (the certificate in ``cert``)."""
    redirect: str
    """nginx's plain HTTP server that sends browsers to HTTPS."""
    cert: Path
    """The self-signed certificate nginx presents."""
    folder: Path
    """nginx's folder: its configuration, logs and the ACME challenges' ``www``."""


def wait_for_port(port: int, process: subprocess.Popen[Any], folder: Path) -> None:
    """Wait until something listens on loopback ``port``; fail if ``process`` ends first."""
    deadline = time.monotonic() + 20
    while True:
        log = folder / "error.log"
        assert process.poll() is None, log.read_text() if log.exists() else "nginx ended"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)


@contextmanager
def nginx_in_front(upstream: Upstream, folder: Path) -> Iterator[Proxy]:
    """nginx on the shipped site file, proxying to ``upstream``'s servers."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "www" / ".well-known" / "acme-challenge").mkdir(parents=True)
    cert, key = self_signed(folder)
    ports = {name: free_port() for name in ("http", "https", "plain")}
    site = folder / "closingbell.conf"
    site.write_text(
        site_config(
            upstream=[address.removeprefix("http://") for address in upstream.addresses],
            http_port=ports["http"],
            https_port=ports["https"],
            plain_port=ports["plain"],
            folder=folder,
            cert=cert,
            key=key,
        )
    )
    conf = folder / "nginx.conf"
    conf.write_text(main_config(folder, site))
    process = subprocess.Popen(nginx_command(folder, conf), stderr=subprocess.DEVNULL)
    try:
        for port in ports.values():
            wait_for_port(port, process, folder)
        yield Proxy(
            upstream=upstream,
            plain=f"http://127.0.0.1:{ports['plain']}",
            tls=f"https://127.0.0.1:{ports['https']}",
            redirect=f"http://127.0.0.1:{ports['http']}",
            cert=cert,
            folder=folder,
        )
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


@contextmanager
def two_servers_behind_nginx(folder: Path) -> Iterator[Proxy]:
    """Two servers on one fresh PostgreSQL database (:func:`two_servers`), and nginx in front
    of them."""
    nginx_program()
    with two_servers(folder) as upstream, nginx_in_front(upstream, folder / "nginx") as running:
        yield running


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """Two servers and nginx in front of them, for the tests that stop neither."""
    with two_servers_behind_nginx(tmp_path_factory.mktemp("nginx")) as running:
        yield running


@pytest.fixture(params=["plain", "tls"])
def public(request: pytest.FixtureRequest, proxy: Proxy) -> str:
    """nginx's public address: over plain HTTP, then over HTTPS."""
    return str(getattr(proxy, request.param))


def client(proxy: Proxy, base: str, source: str = "127.0.0.1") -> httpx.Client:
    """An HTTP client of ``base`` from loopback address ``source``, trusting nginx's
    certificate."""
    verify = ssl.create_default_context(cafile=str(proxy.cert))
    transport = httpx.HTTPTransport(local_address=source, verify=verify)
    return httpx.Client(base_url=base, transport=transport, verify=verify, timeout=10)


@contextmanager
def websocket(
    proxy: Proxy, base: str, table_id: str, origin: str | None = None
) -> Iterator[ClientConnection]:
    """A WebSocket to table ``table_id`` through ``base`` (``ws://`` or ``wss://``)."""
    url = re.sub(r"^http", "ws", base) + f"/ws/tables/{table_id}"
    context = ssl.create_default_context(cafile=str(proxy.cert)) if url[:4] == "wss:" else None
    extra: dict[str, Any] = {} if origin is None else {"origin": origin}
    with connect(url, ssl=context, open_timeout=30, **extra) as ws:
        yield ws


def written(path: Path, pattern: re.Pattern[str]) -> str:
    """The text of the log at ``path`` once ``pattern`` is in it (nginx writes a request's
    line after its answer has gone)."""
    deadline = time.monotonic() + 5
    while not pattern.search(text := path.read_text()):
        assert time.monotonic() < deadline, text
        time.sleep(0.02)
    return text


def next_state(ws: ClientConnection) -> dict[str, Any]:
    """The next ``state`` message (failing on an ``error``)."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message  # type: ignore[no-any-return]


# ---------------------------------------------------------------------- the site file


def test_nginx_accepts_the_shipped_site_file(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    site = tmp_path / "closingbell.conf"
    site.write_text(
        site_config(
            upstream=UPSTREAM,
            http_port=8080,
            https_port=8443,
            plain_port=8081,
            folder=tmp_path,
            cert=cert,
            key=key,
        )
    )
    conf = tmp_path / "nginx.conf"
    conf.write_text(main_config(tmp_path, site))
    checked = subprocess.run(
        nginx_command(tmp_path, conf, "-t"), capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
    # nginx 1.25.1 and later prefer `http2 on;` to `listen ... http2` (Debian 12 has 1.22).
    warnings = [
        line
        for line in checked.stderr.splitlines()
        if "[warn]" in line and '"listen ... http2" directive is deprecated' not in line
    ]
    assert warnings == []


def test_websockets_outlast_the_servers_pings() -> None:
    """nginx never closes a WebSocket the server keeps alive: its read timeout is longer
    than uvicorn's ping interval and pong timeout (which ``closingbell serve`` keeps)."""
    text = SITE.read_text(encoding="utf-8")
    block = text[text.index("location /ws/ {") :]
    block = block[: block.index("}")]
    timeout = re.search(r"proxy_read_timeout (\d+)s;", block)
    assert timeout is not None, block
    defaults = uvicorn.Config(app="closingbell.server.app:create_app")
    assert defaults.ws_ping_interval is not None and defaults.ws_ping_timeout is not None
    assert int(timeout[1]) >= 2 * (defaults.ws_ping_interval + defaults.ws_ping_timeout)
    serve = (ROOT / "src" / "closingbell" / "cli" / "serve.py").read_text(encoding="utf-8")
    assert "ws_ping" not in serve


# ---------------------------------------------------------------------- HTTP


def test_the_lobby_and_the_api_answer_through_nginx(proxy: Proxy, public: str) -> None:
    with client(proxy, public) as http:
        lobby = http.get("/")
        assert lobby.status_code == 200, lobby.text
        assert lobby.headers["content-type"].startswith("text/html")
        assert "content-security-policy" in lobby.headers  # the server's headers, passed on
        assert "server" not in lobby.headers or "nginx/" not in lobby.headers["server"]
        games = http.get("/api/games").json()
        assert "take_stock" in json.dumps(games)
        assert http.get("/healthz").json() == {"ok": True}
        assert http.get("/readyz").json() == {"ok": True}
        table = http.post("/api/tables", json=NEW_TABLE)
        assert table.status_code == 201, table.text
        table_id = table.json()["table"]["id"]
        assert http.get(f"/api/tables/{table_id}").json()["table"]["id"] == table_id
        hsts = lobby.headers.get("strict-transport-security")
        assert hsts == "max-age=63072000"  # sent on HTTPS; harmless on the test's plain port


def test_plain_http_is_sent_to_https_but_for_certbots_challenges(proxy: Proxy) -> None:
    challenge = proxy.folder / "www" / ".well-known" / "acme-challenge" / "token-1"
    challenge.write_text("token-1.key")
    with client(proxy, proxy.redirect) as http:
        moved = http.get("/t/abc?lang=en")
        assert moved.status_code == 301
        assert moved.headers["location"] == "https://127.0.0.1/t/abc?lang=en"
        answer = http.get("/.well-known/acme-challenge/token-1")
        assert (answer.status_code, answer.text) == (200, "token-1.key")


def test_a_request_id_comes_back_and_is_logged(proxy: Proxy, public: str) -> None:
    with client(proxy, public) as http:
        given = http.get("/api/health", headers={"X-Request-ID": "trace-42.a"})
        assert given.headers["x-request-id"] == "trace-42.a"
        made = http.get("/api/games").headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made), made  # nginx's $request_id
    wanted = re.compile(rf'"GET /api/games HTTP/[\d.]+" 200 .* {made}$', re.MULTILINE)
    log = written(proxy.folder / "closingbell.access.log", wanted)
    assert " trace-42.a\n" in log


def test_metrics_are_answered_on_this_machine_only(proxy: Proxy, public: str) -> None:
    with client(proxy, public, source="127.0.0.2") as outside:
        for path in ("/metrics", "/%6detrics", "//metrics", "/metrics?x=1"):
            assert outside.get(public + path).status_code == 403, path
        assert outside.get("/api/health").status_code == 200
    with client(proxy, public) as here:
        assert here.get("/metrics").status_code == 200
    for address in proxy.upstream.addresses:
        direct = HTTP.get(address + "/metrics")
        assert direct.status_code == 200
        assert "closingbell_websocket_connections" in direct.text


def test_bodies_are_limited_as_the_server_limits_them(proxy: Proxy, public: str) -> None:
    big = {**NEW_TABLE, "name": "x" * 70_000}
    with client(proxy, public) as http:
        refused = http.post("/api/tables", json=big)
        assert refused.status_code == 413
        assert refused.headers["content-type"] == "application/json"
        assert refused.json()["error"]["code"] == "too_large"
        # A body within the limit reaches the server, which answers it.
        within = http.post("/api/tables", json={**NEW_TABLE, "options": {"x": "x" * 60_000}})
        assert within.status_code == 422, within.text
        assert within.json()["error"]["code"] != "too_large"
        assert "x-request-id" in within.headers


def test_the_server_counts_each_client_by_its_own_address(proxy: Proxy, public: str) -> None:
    """The servers' limit on new tables per address (20 at once) counts the address nginx
    saw, whatever X-Forwarded-For the client sends. Each server keeps its own count, and
    nginx takes turns between the two: one address may open 20 tables on each."""
    first, second = (
        ("127.0.0.2", "127.0.0.3") if public == proxy.plain else ("127.0.0.4", "127.0.0.5")
    )
    with client(proxy, public, source=first) as one, client(proxy, public, source=second) as two:
        spoof = {"X-Forwarded-For": "198.51.100.7"}
        made = [one.post("/api/tables", json=NEW_TABLE, headers=spoof) for _ in range(40)]
        assert [r.status_code for r in made] == [201] * 40
        for _ in proxy.upstream.addresses:  # once on each server
            refused = one.post(
                "/api/tables", json=NEW_TABLE, headers={"X-Forwarded-For": "198.51.100.8"}
            )
            assert refused.status_code == 429
            assert refused.json()["error"]["code"] == "rate_limited"
        assert two.post("/api/tables", json=NEW_TABLE).status_code == 201


# ---------------------------------------------------------------------- WebSockets


def test_a_game_is_played_over_a_websocket_through_nginx(proxy: Proxy, public: str) -> None:
    with client(proxy, public) as http:
        table = http.post("/api/tables", json=NEW_TABLE).json()["table"]
        token = http.post(f"/api/tables/{table['id']}/join", json={"name": "Ana"}).json()["token"]
    with websocket(proxy, public, table["id"]) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        state = next_state(ws)
        # 20 moves of ours: within the 30 messages a connection may send at once.
        mine = 0
        while mine < 20 and state["status"] != "finished":
            if state["current_player"] == 0 and state["legal"]:
                action = random.Random(state["version"]).choice(state["legal"])["id"]
                ws.send(
                    json.dumps({"type": "action", "version": state["version"], "action": action})
                )
                mine += 1
            state = next_state(ws)
        ws.send(json.dumps({"type": "ping"}))
        # The bot may still be moving: its states can come before the answer to the ping.
        while (message := json.loads(ws.recv(timeout=10))) != {"type": "pong"}:
            assert message["type"] == "state", message
            state = message
    assert state["version"] > mine == 20  # the bot played in between


def test_websockets_from_other_sites_are_refused_behind_nginx(proxy: Proxy, public: str) -> None:
    with client(proxy, public) as http:
        table_id = http.post("/api/tables", json=NEW_TABLE).json()["table"]["id"]
    with websocket(proxy, public, table_id, origin=public) as ws:  # the site's own page
        ws.send(json.dumps({"type": "hello"}))
        assert next_state(ws)["table_id"] == table_id
    other = websocket(proxy, public, table_id, origin="https://other.example")
    with pytest.raises(InvalidStatus) as refused, other:
        pass
    assert refused.value.response.status_code == 403
    assert json.loads(refused.value.response.body or b"{}")["error"]["code"] == "bad_origin"


def test_sessions_work_through_nginx_and_are_secure_over_https(proxy: Proxy, public: str) -> None:
    name = "n" + uuid.uuid4().hex[:8]
    secure = public.startswith("https:")
    with client(proxy, public) as http:
        made = http.post(
            "/api/account/signup",
            json={"username": name, "password": "a long password"},
            headers={"origin": public},
        )
        assert made.status_code == 201, made.text
        cookie = made.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie
        # Secure when the page came over HTTPS: the server reads the scheme nginx passes on.
        assert ("secure" in cookie.replace("samesite", "")) is secure
        assert http.get("/api/account").json() == {"user": {"username": name, "bot": False}}
        forged = http.post(
            "/api/tables", json=NEW_TABLE, headers={"origin": "https://evil.example"}
        )
        assert forged.status_code == 403 and forged.json()["error"]["code"] == "bad_origin"
        table = http.post("/api/tables", json=NEW_TABLE, headers={"origin": public}).json()["table"]
        joined = http.post(f"/api/tables/{table['id']}/join", json={}, headers={"origin": public})
        assert joined.status_code == 200 and joined.json()["table"]["seats"][0]["name"] == name
        session = http.cookies.get("closingbell_session")
    assert session
    url = re.sub(r"^http", "ws", public) + f"/ws/tables/{table['id']}"
    context = ssl.create_default_context(cafile=str(proxy.cert)) if secure else None
    headers = {"Cookie": f"closingbell_session={session}"}
    with connect(
        url, ssl=context, open_timeout=30, origin=public, additional_headers=headers
    ) as ws:
        ws.send(json.dumps({"type": "hello", "account": True}))
        assert next_state(ws)["seat"] == 0


# ---------------------------------------------------------------------- the browser


def test_chromium_plays_a_bot_through_nginx(proxy: Proxy) -> None:
    """The page over HTTPS through nginx (its WebSocket over wss://), against a bot, with
    no error in the console or the page's scripts."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test.sh does)")
    with client(proxy, proxy.tls) as http:
        table = http.post("/api/tables", json=NEW_TABLE).json()["table"]
        joined = http.post(f"/api/tables/{table['id']}/join", json={"name": "Ana"}).json()
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport=DESKTOP, ignore_https_errors=True)
            context.on("weberror", lambda e: errors.append(str(e.error)))
            context.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            _seat_in(context, table["id"], joined["seat"], joined["token"])
            page = context.new_page()
            page.goto(f"{proxy.tls}/t/{table['id']}")
            page.wait_for_selector(".market")
            _wait_until(page, _seated(0))
            counts = _play(
                [page],
                lambda: _version(page) >= 16 or _status(page) == "finished",
                random.Random(7),
                limit=120,
            )
            assert sum(counts.values()) >= 4, counts
            _wait_until(page, "document.querySelectorAll('#log li').length >= 10")
            log = page.inner_text("#log")
            assert "Ana" in log and "Random" in log, log
        finally:
            browser.close()
    assert errors == []


# ---------------------------------------------------------------------- two servers


def websockets_open(address: str) -> int:
    """The WebSockets open on the server at ``address``, from its ``/metrics``."""
    text = HTTP.get(address + "/metrics", timeout=5).text
    found = re.search(r"^closingbell_websocket_connections (\S+)$", text, re.MULTILINE)
    assert found is not None, text
    return int(float(found[1]))


def wait_for_websockets(upstream: Upstream, wanted: list[int]) -> None:
    """Wait until each server has ``wanted``'s number of WebSockets open (a closed one leaves
    the count once its server has seen it close)."""
    deadline = time.monotonic() + 10
    while (found := [websockets_open(a) for a in upstream.addresses]) != wanted:
        assert time.monotonic() < deadline, f"WebSockets open: {found}, not {wanted}"
        time.sleep(0.05)


def seated_on(
    stack: ExitStack, proxy: Proxy, n: int, table_id: str, token: str
) -> tuple[ClientConnection, dict[str, Any]]:
    """A player's WebSocket through nginx that has landed on server ``n``, and its first
    state. nginx takes turns between the servers, so one that lands on the other server is
    closed and opened again (a few times at most)."""
    upstream = proxy.upstream
    before = [websockets_open(a) for a in upstream.addresses]
    for _ in range(4):
        ws = stack.enter_context(websocket(proxy, proxy.plain, table_id))
        ws.send(json.dumps({"type": "hello", "token": token}))
        state = next_state(ws)
        after = [websockets_open(a) for a in upstream.addresses]
        if after == [count + (i == n) for i, count in enumerate(before)]:
            return ws, state
        ws.close()
        wait_for_websockets(upstream, before)
    pytest.fail(f"no WebSocket through nginx landed on server {n} ({upstream.addresses[n]})")


def rows(database: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """The rows ``sql`` (with ``$1``... parameters) finds in ``database``."""
    import asyncpg

    async def run() -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(database)
        try:
            return [tuple(row) for row in await conn.fetch(sql, *args)]
        finally:
            await conn.close()

    return asyncio.run(run())


def server_of_lease(upstream: Upstream, table_id: str) -> int | None:
    """Which of ``upstream``'s servers holds ``table_id``'s lease (runs its bots), by the
    process ids the ``servers`` table gives its servers; ``None`` for no live server."""
    found = rows(
        upstream.database,
        "SELECT s.pid FROM leases l JOIN servers s ON s.id = l.server WHERE l.table_id = $1",
        table_id,
    )
    pids = [process.pid for process in upstream.processes]
    return pids.index(found[0][0]) if found and found[0][0] in pids else None


def move(ws: ClientConnection, state: dict[str, Any]) -> None:
    """Send one of ``state``'s legal actions, chosen by its version."""
    action = random.Random(state["version"]).choice(state["legal"])["id"]
    ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))


def test_players_on_the_two_servers_play_a_whole_game_through_nginx(proxy: Proxy) -> None:
    """Two people's WebSockets through nginx, one on each server (each server's own count of
    its WebSockets says so), play a game to its end, each told of the other's moves."""
    upstream = proxy.upstream
    pids = sorted(pid for (pid,) in rows(upstream.database, "SELECT pid FROM servers"))
    assert pids == sorted(process.pid for process in upstream.processes)
    with client(proxy, proxy.plain) as http:
        table = http.post(
            "/api/tables", json={"game": "take_stock", "seats": ["open", "open"]}
        ).json()["table"]
        tokens = [
            http.post(f"/api/tables/{table['id']}/join", json={"name": name}).json()["token"]
            for name in ("Ana", "Bob")
        ]
    wait_for_websockets(upstream, [0, 0])
    with ExitStack() as stack:
        seated = [seated_on(stack, proxy, n, table["id"], tokens[n]) for n in range(2)]
        sockets = [ws for ws, _ in seated]
        states = [state for _, state in seated]
        assert [websockets_open(a) for a in upstream.addresses] == [1, 1]
        moves = [0, 0]
        while states[0]["status"] != "finished":
            version = states[0]["version"]
            assert states[1]["version"] == version
            mover = states[0]["current_player"]
            move(sockets[mover], states[mover])
            moves[mover] += 1
            states = [next_state(ws) for ws in sockets]
            assert [s["version"] for s in states] == [version + 1] * 2
        assert states[1]["status"] == "finished"
    assert min(moves) > 20, moves
    with client(proxy, proxy.plain) as http:
        stored = http.get(f"/api/tables/{table['id']}").json()["table"]
    assert (stored["status"], stored["version"]) == ("finished", sum(moves))


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "stopped"])
def test_a_lost_servers_player_comes_back_through_nginx_and_finishes(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """The server that runs a table's bot and holds its player's WebSocket is killed
    (SIGKILL) or stopped (SIGTERM). The player's connection through nginx ends; nginx finds
    the server gone when it next tries it, and sends that request on to the other server;
    the player's next connection through nginx lands there too, and the other server takes
    the table over (at once when the first handed it over, within the lease time when it
    was killed): the bot plays on and the game ends."""
    with two_servers_behind_nginx(tmp_path) as proxy, ExitStack() as stack:
        upstream = proxy.upstream
        with client(proxy, proxy.plain) as http:
            table = http.post("/api/tables", json=NEW_TABLE).json()["table"]
            joined = http.post(f"/api/tables/{table['id']}/join", json={"name": "Ana"})
            token = joined.json()["token"]
        lost = server_of_lease(upstream, table["id"])
        assert lost is not None
        survivor = 1 - lost
        ws, state = seated_on(stack, proxy, lost, table["id"], token)
        for _ in range(10):
            while state["current_player"] != 0:
                state = next_state(ws)
            move(ws, state)
            state = next_state(ws)
        before = state["version"]
        upstream.processes[lost].send_signal(stop)
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=10)
        upstream.processes[lost].wait(timeout=20)
        # nginx takes turns: one of two requests goes to the lost server first.
        with client(proxy, proxy.plain) as http:
            assert [http.get("/api/health").status_code for _ in range(2)] == [200, 200]
        port = upstream.addresses[lost].rsplit(":", 1)[1]
        refused = re.compile(rf"connect\(\) failed \(111: Connection refused\).*:{port}/")
        written(proxy.folder / "closingbell.error.log", refused)
        with websocket(proxy, proxy.plain, table["id"]) as again:
            again.send(json.dumps({"type": "hello", "token": token}))
            state = next_state(again)
            assert state["version"] >= before
            assert websockets_open(upstream.addresses[survivor]) == 1
            while state["status"] != "finished":
                if state["current_player"] == 0 and state["legal"]:
                    move(again, state)
                state = next_state(again)
        assert server_of_lease(upstream, table["id"]) == survivor
        with client(proxy, proxy.tls) as http:
            stored = http.get(f"/api/tables/{table['id']}").json()["table"]
        assert (stored["status"], stored["version"]) == ("finished", state["version"])


WATCH_STATUS = """() => {
  window.statusSeen = [];
  const detail = document.getElementById("status-detail");
  new MutationObserver(() => window.statusSeen.push(detail.textContent))
    .observe(detail, { childList: true, characterData: true, subtree: true });
}"""
"""Record every text the page's status detail shows (``window.statusSeen``)."""


def test_the_page_says_it_reconnects_and_plays_on_when_its_server_dies(tmp_path: Path) -> None:
    """Chromium at a table through nginx; the server holding its WebSocket is killed. The
    page says it is reconnecting, comes back through nginx on the other server, which took
    the table over, and the game goes on against the bot with no script error."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test.sh does)")
    errors: list[str] = []
    with two_servers_behind_nginx(tmp_path) as proxy, sync_playwright() as p:
        upstream = proxy.upstream
        with client(proxy, proxy.tls) as http:
            table = http.post("/api/tables", json=NEW_TABLE).json()["table"]
            joined = http.post(f"/api/tables/{table['id']}/join", json={"name": "Ana"}).json()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport=DESKTOP, ignore_https_errors=True)
            context.on("weberror", lambda e: errors.append(str(e.error)))
            _seat_in(context, table["id"], joined["seat"], joined["token"])
            page = context.new_page()
            page.goto(f"{proxy.tls}/t/{table['id']}")
            page.wait_for_selector(".market")
            _wait_until(page, _seated(0))
            rng = random.Random(3)
            _play([page], lambda: _version(page) >= 6, rng, limit=60)
            page.evaluate(WATCH_STATUS)
            counts = [websockets_open(a) for a in upstream.addresses]
            assert sorted(counts) == [0, 1], counts
            lost = counts.index(1)
            upstream.processes[lost].send_signal(signal.SIGKILL)
            upstream.processes[lost].wait(timeout=10)
            before = _version(page)
            _play(
                [page],
                lambda: _version(page) >= before + 6 or _status(page) == "finished",
                rng,
                limit=90,
            )
            seen = page.evaluate("window.statusSeen")
            assert "Connection lost; reconnecting…" in seen, seen
            assert websockets_open(upstream.addresses[1 - lost]) == 1
        finally:
            browser.close()
    assert errors == []
