"""Helpers of the web tests: apps on temporary databases, clients, and reading messages."""

from __future__ import annotations

import asyncio
import atexit
import functools
import hashlib
import json
import os
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from starlette.testclient import WebSocketTestSession

import closingbell.server.migrations
from closingbell.cli.serve import WS_MAX_SIZE
from closingbell.server.app import create_app
from closingbell.server.store import Store
from closingbell.server.wsprotocol import WebSocketProtocol

HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))
"""One HTTP client for requests to the servers the tests start, a new connection for each
request as ``httpx.get`` makes. ``httpx.get`` also makes a client, and its TLS settings, for
every call: a fortieth of a second of the processor, which a test polling a starting server
every 50 ms paid over and over."""

CHEAP_HASHING: dict[str, Any] = {"hash_time_cost": 1, "hash_memory": 32}
"""Argon2 at its lowest costs for the test servers: a sign-up or sign-in hashes in a
millisecond instead of a tenth of a second and 64 MiB. The tests of hashing itself (its
timing, its queue) choose their own."""

CHEAP_HASHING_ENVIRONMENT = {f"CLOSINGBELL_{k.upper()}": str(v) for k, v in CHEAP_HASHING.items()}
""":data:`CHEAP_HASHING` for a ``closingbell serve`` process (its environment's variables)."""

POSTGRES_VARIABLE = "CLOSINGBELL_TEST_POSTGRES"
"""The environment variable naming the PostgreSQL server the storage tests use."""


def postgres_admin_url() -> str:
    """The PostgreSQL URL from the environment; fails the test (never skips) without it."""
    url = os.environ.get(POSTGRES_VARIABLE)
    if not url:
        pytest.fail(
            f"{POSTGRES_VARIABLE} is not set, so the PostgreSQL storage tests cannot run: "
            "run the suite with scripts/test.sh, which installs and starts PostgreSQL and "
            f"sets it, or set {POSTGRES_VARIABLE}=postgresql://USER:PASSWORD@HOST/DB "
            "for a role that may create databases (docs/web.md)",
            pytrace=False,
        )
    return url


def _schema_digest() -> str:
    """A digest of the migrations' sources: a template made from others is not used."""
    digest = hashlib.sha256()
    folder = Path(closingbell.server.migrations.__file__).parent / "versions"
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:16]


async def _set_up(url: str) -> None:
    """Open a server's store on ``url`` once (an empty database is migrated), and close it."""
    store = Store(url)
    try:
        await store.open()
    finally:
        await store.close()


@functools.cache
def sqlite_template() -> Path:
    """An SQLite file at the newest migration, made once by each test process, to copy.

    A server set up on a new file migrates it in about a tenth of a second; a copy of this
    file is ready in a hundredth.
    """
    folder = tempfile.mkdtemp(prefix="closingbell-template-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = Path(folder) / "template.db"
    asyncio.run(_set_up(f"sqlite:///{path}"))
    return path


def sqlite_database(path: Path) -> str:
    """A new SQLite database at ``path``, at the newest migration; its URL."""
    shutil.copyfile(sqlite_template(), path)
    return f"sqlite:///{path}"


@functools.cache
def postgres_template() -> str:
    """The name of a PostgreSQL database at the newest migration, to copy (``TEMPLATE``).

    Made once on the test server for each set of migrations, by whichever test process
    comes first (the others wait on an advisory lock), under a temporary name renamed when
    it is whole, and closed to connections so that it can always be copied. The templates
    of other migrations are dropped then.
    """
    import asyncpg

    admin = postgres_admin_url()
    name = f"closingbell_template_{_schema_digest()}"

    async def make() -> None:
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute("SELECT pg_advisory_lock(hashtext($1))", name)
            found = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
            if not found:
                building = f"{name}_new"
                await conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
                await conn.execute(f'CREATE DATABASE "{building}"')
                url = make_url(admin).set(database=building)
                await _set_up(url.render_as_string(hide_password=False))
                await conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
                await conn.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
                stale = await conn.fetch(
                    "SELECT datname FROM pg_database WHERE datname LIKE 'closingbell_template_%'"
                    " AND datname <> $1",
                    name,
                )
                for (old,) in stale:
                    await conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
        finally:
            await conn.close()  # (ends the advisory lock too)

    asyncio.run(make())
    return name


@contextmanager
def postgres_database(*, empty: bool = False) -> Iterator[str]:
    """A fresh PostgreSQL database for one test, at the newest migration (``empty``: with
    no table at all), dropped afterwards; its commits do not wait for the disk."""
    import asyncpg

    admin = postgres_admin_url()
    name = f"closingbell_test_{uuid.uuid4().hex[:16]}"

    async def run(sql: str) -> None:
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    template = "" if empty else f' TEMPLATE "{postgres_template()}"'
    asyncio.run(run(f'CREATE DATABASE "{name}"{template}'))
    # A commit returns before its record reaches the disk: what the servers write is still
    # seen at once by every connection, and only a crash of PostgreSQL itself, which no test
    # causes, could lose it. Without this each of the thousands of commits of a test run
    # waits for the disk: a whole game on PostgreSQL took three times as long.
    asyncio.run(run(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    try:
        yield make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        # An autovacuum worker visiting the database cannot be ended by a role that is not
        # a superuser ("must be a member of the role whose process is being terminated"):
        # it is gone within moments, so the drop is tried again.
        for attempt in range(20):
            try:
                asyncio.run(run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                break
            except asyncpg.exceptions.InsufficientPrivilegeError:
                if attempt == 19:
                    raise
                time.sleep(0.25)


@contextmanager
def database(kind: str, tmp_path: Any, *, empty: bool = False) -> Iterator[str]:
    """A fresh database URL of ``kind`` (``sqlite`` or ``postgresql``), at the newest
    migration (``empty``: a new file, or a database with no table)."""
    if kind == "sqlite":
        path = tmp_path / f"{uuid.uuid4().hex}.db"
        yield f"sqlite:///{path}" if empty else sqlite_database(path)
    else:
        with postgres_database(empty=empty) as url:
            yield url


@contextmanager
def client_for(url: str, **settings: Any) -> Iterator[TestClient]:
    """A TestClient on a fresh app (lifespan run): quick bots, clients that may act, connect
    and sign up as fast as a test plays (every TestClient has the same address), seeds that may
    be chosen, no helper process started for hints before the first hint, and cheap password
    hashes, unless told otherwise."""
    settings = {**CHEAP_HASHING, **settings}
    settings.setdefault("bot_delay", 0)
    settings.setdefault("warm_for_hints", False)
    settings.setdefault("rate", 10_000.0)
    settings.setdefault("burst", 10_000.0)
    settings.setdefault("address_connections", 0)
    settings.setdefault("address_rate", 0)
    settings.setdefault("sign_ups_per_address", 0)
    settings.setdefault("allow_seed", True)
    with TestClient(create_app(url, **settings)) as client:
        yield client


def create(client: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    """Create a table; return its info."""
    response = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()["table"]  # type: ignore[no-any-return]


def join(client: TestClient, table_id: str, name: str, **extra: Any) -> dict[str, Any]:
    """Join a table; return the answer (seat and token)."""
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name, **extra})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any] | None:
    """The next message as JSON, ``None`` if nothing comes within ``timeout`` seconds.

    TestClient's own ``receive`` waits forever; this reads the same stream with a limit so
    that a missing message fails the test instead of hanging it.
    """

    async def get() -> Any:
        with anyio.move_on_after(timeout):
            return await ws._send_rx.receive()
        return None

    message = ws.portal.call(get)
    if message is None:
        return None
    if message["type"] == "websocket.close":
        return {"type": "closed", "code": message.get("code")}
    return json.loads(message["text"])  # type: ignore[no-any-return]


def expect(ws: WebSocketTestSession, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """Read messages until one of type ``kind``; fail if none comes in time."""
    while True:
        message = receive(ws, timeout)
        assert message is not None, f"no {kind!r} message came"
        if message["type"] == kind:
            return message
        assert message["type"] != "closed", f"closed while waiting for {kind!r}: {message}"


def expect_error(ws: WebSocketTestSession, code: str) -> dict[str, Any]:
    """The next ``error`` message, checked to carry ``code``."""
    message = expect(ws, "error")
    assert message["code"] == code, message
    return message


def hello(ws: WebSocketTestSession, token: str | None = None) -> dict[str, Any]:
    """Authenticate (``None``: spectate); return the first ``state`` message."""
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    welcome = expect(ws, "welcome")
    assert welcome["protocol"] == 1
    return expect(ws, "state")


def wait_state(ws: WebSocketTestSession, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
    """Read ``state`` messages until one satisfies ``predicate``."""
    while True:
        message = expect(ws, "state", timeout)
        if predicate(message):
            return message


def without_clock(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` (a state) less ``deciding_for``, a clock reading that grows while a test runs.

    Tests that compare a table's state before and after something (a restore, a reload) compare
    the table, not the time: the reading is checked to be a plausible one and left out.
    """
    rest = dict(message)
    deciding_for = rest.pop("deciding_for")
    assert deciding_for is None or (isinstance(deciding_for, float) and deciding_for >= 0.0)
    return rest


def act(ws: WebSocketTestSession, version: int, action: int | None = None, **extra: Any) -> None:
    """Send an action message."""
    body: dict[str, Any] = {"type": "action", "version": version, **extra}
    if action is not None:
        body["action"] = action
    ws.send_text(json.dumps(body))


def run_sql(url: str, *statements: str, **params: Any) -> None:
    """Run SQL ``statements`` (with ``:name`` parameters) in one transaction, no server."""
    import sqlalchemy as sa

    from closingbell.server.store import Store

    async def run() -> None:
        store = Store(url)
        try:
            async with store.engine.begin() as conn:
                for statement in statements:
                    await conn.execute(sa.text(statement), params)
        finally:
            await store.close()

    asyncio.run(run())


@contextmanager
def live_server(url: str, **settings: Any) -> Iterator[tuple[int, FastAPI]]:
    """The app on ``url`` served by uvicorn as ``closingbell serve`` serves it (its WebSocket
    protocol and frame limit), in a thread, on a free loopback port; its port and app.

    For what only a real socket shows: clients that never read, frames after a close.
    Passwords are hashed cheaply unless told otherwise.
    """
    settings = {**CHEAP_HASHING, **settings}
    settings.setdefault("bot_delay", 0)
    settings.setdefault("allow_seed", True)
    app = create_app(url, **settings)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        app, ws=WebSocketProtocol, ws_max_size=WS_MAX_SIZE, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield int(sock.getsockname()[1]), app
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
