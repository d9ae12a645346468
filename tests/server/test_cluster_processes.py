"""Several ``closingbell serve`` processes on one PostgreSQL database: a server killed
(SIGKILL) mid-game and one stopped (SIGTERM), their tables finished through the others, and
``--workers``."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from closingbell.server.store import Store
from tests.server.helpers import HTTP, postgres_database
from tests.server.test_cluster import stored_actions
from tests.server.test_serve import free_port, server

LEASE = "1"
"""The servers' lease time in seconds (``CLOSINGBELL_LEASE_SECONDS``)."""


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database."""
    with postgres_database() as url:
        yield url


QUICK = {
    "CLOSINGBELL_LEASE_SECONDS": LEASE,
    "CLOSINGBELL_RATE": "10000",
    "CLOSINGBELL_BURST": "10000",
    "CLOSINGBELL_ADDRESS_RATE": "0",
}
"""The settings of these tests' servers: a short lease, and clients that may act as fast
as a test plays."""


@contextmanager
def quick_lease() -> Iterator[None]:
    """Servers started in the block take over a dead one's tables within a second or two,
    and let a test's player act as fast as it can."""
    before = {name: os.environ.get(name) for name in QUICK}
    os.environ.update(QUICK)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


class Player:
    """A person at a table through one server's WebSocket, who reconnects elsewhere."""

    def __init__(self, table_id: str, token: str) -> None:
        self.table_id = table_id
        self.token = token
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.acknowledged: list[tuple[int, int]] = []
        """(version, action) of each action of this player's that a ``state`` confirmed."""
        self.errors: list[dict[str, Any]] = []
        self.closes: list[int | None] = []
        self._sockets = ExitStack()

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._sockets.close()

    def connect(self, base: str) -> None:
        """Connect to the server at ``base`` and say hello."""
        url = base.replace("http", "ws") + f"/ws/tables/{self.table_id}"
        self.ws = self._sockets.enter_context(connect(url, open_timeout=10))
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        self.state = self.next_state()

    def next_state(self, timeout: float = 20) -> dict[str, Any]:
        """The next ``state``; an ``error`` fails the test."""
        assert self.ws is not None
        while True:
            message = json.loads(self.ws.recv(timeout=timeout))
            if message["type"] == "error":
                self.errors.append(message)
                raise AssertionError(f"the server answered an error: {message}")
            if message["type"] == "state":
                return message  # type: ignore[no-any-return]

    def play_until(self, done: Any) -> None:
        """Play the first legal action whenever it is this seat's turn, until ``done(state)``."""
        while not done(self.state):
            state = self.state
            if state["status"] == "playing" and state["current_player"] == state["seat"]:
                action = state["legal"][0]["id"]
                assert self.ws is not None
                self.ws.send(
                    json.dumps({"type": "action", "version": state["version"], "action": action})
                )
                after = self.next_state()
                if after["version"] > state["version"] and after["last_action"] == {
                    **after["last_action"],
                    "seat": state["seat"],
                    "id": action,
                }:
                    self.acknowledged.append((state["version"], action))
                self.state = after
            else:
                self.state = self.next_state()

    def play_on_through(self, bases: list[str]) -> None:
        """Play to the end, connecting again to the next server whenever one goes away."""
        while True:
            try:
                self.play_until(lambda s: s["status"] == "finished")
                return
            except ConnectionClosed as exc:
                self.closes.append(None if exc.rcvd is None else exc.rcvd.code)
                bases = bases[1:]
                assert bases, "no server left to connect to"
                self.connect_when_up(bases[0])

    def connect_when_up(self, base: str, timeout: float = 20) -> None:
        """Connect as the page does: retry until the server answers."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.connect(base)
                return
            except (OSError, ConnectionClosed):
                assert time.monotonic() < deadline, f"{base} did not answer"
                time.sleep(0.2)


def new_table(base: str, seats: list[str]) -> tuple[str, str]:
    """A table made through ``base``, seat 0 joined; its id and seat 0's token."""
    made = HTTP.post(f"{base}/api/tables", json={"game": "take_stock", "seats": seats})
    assert made.status_code == 201, made.text
    table_id = made.json()["table"]["id"]
    joined = HTTP.post(f"{base}/api/tables/{table_id}/join", json={"name": "Ana", "seat": 0})
    assert joined.status_code == 200, joined.text
    return table_id, joined.json()["token"]


def check_stored(url: str, table_id: str, player: Player) -> None:
    """Every action the player saw confirmed is stored once, where it was played."""
    actions = stored_actions(url, table_id)
    assert [n for n, _, _ in actions] == list(range(len(actions)))
    assert len(actions) == player.state["version"]
    for version, action in player.acknowledged:
        assert actions[version][1:] == (0, action)
    assert player.acknowledged, "the player made no move"


def test_a_killed_servers_table_is_finished_through_another(
    postgres_url: str, tmp_path: Path
) -> None:
    with quick_lease(), server(postgres_url, tmp_path) as (b, _), ExitStack() as stack:
        with server(postgres_url, tmp_path) as (a, killed):
            # Made on a, which runs the bot; the player plays on a.
            table_id, token = new_table(a, ["open", "random"])
            player = stack.enter_context(Player(table_id, token))
            player.connect(a)
            player.play_until(lambda s: s["version"] >= 20)
            killed.send_signal(signal.SIGKILL)
            killed.wait(timeout=10)
            # The player's socket breaks; it connects to b, which takes the table (and its
            # bot) over within the lease time.
            started = time.monotonic()
            player.play_on_through([a, b])
            took = time.monotonic() - started
        assert player.state["status"] == "finished"
        assert player.errors == []
        check_stored(postgres_url, table_id, player)
        assert took < 60


def test_a_spectator_on_a_third_server_sees_a_game_finished_after_a_kill(
    postgres_url: str, tmp_path: Path
) -> None:
    with ExitStack() as stack:
        stack.enter_context(quick_lease())
        slow = ("--bot-delay", "0.02")  # time to watch the bots play
        c, _ = stack.enter_context(server(postgres_url, tmp_path, *slow))
        stack.enter_context(server(postgres_url, tmp_path, *slow))  # b: takes the bots over
        a, killed = stack.enter_context(server(postgres_url, tmp_path, *slow))
        # One round: the kill comes at the tenth action, and the rest is the same to the end.
        table = {"game": "take_stock", "seats": ["random", "random"], "options": {"rounds": 1}}
        made = HTTP.post(f"{a}/api/tables", json=table).json()["table"]
        with connect(c.replace("http", "ws") + f"/ws/tables/{made['id']}") as watcher:
            watcher.send(json.dumps({"type": "hello"}))
            versions = []
            while True:
                message = json.loads(watcher.recv(timeout=20))
                if message["type"] != "state":
                    assert message["type"] in ("welcome", "seats"), message
                    continue
                versions.append(message["version"])
                if message["version"] >= 10 and killed.poll() is None:
                    killed.send_signal(signal.SIGKILL)  # the bots' server
                if message["status"] == "finished":
                    break
        # The spectator saw the game go on without a gap or a step back, to the end.
        assert versions == sorted(versions)
        assert len(stored_actions(postgres_url, made["id"])) == versions[-1]


def test_a_stopped_server_hands_its_table_over_without_errors(
    postgres_url: str, tmp_path: Path
) -> None:
    with quick_lease(), server(postgres_url, tmp_path) as (b, _), ExitStack() as stack:
        with server(postgres_url, tmp_path) as (a, stopped):
            table_id, token = new_table(a, ["open", "random"])
            player = stack.enter_context(Player(table_id, token))
            player.connect(a)
            player.play_until(lambda s: s["version"] >= 10)
            stopped.send_signal(signal.SIGTERM)
            player.play_on_through([a, b])
            # uvicorn ends by raising the signal it caught again, as systemd expects.
            assert stopped.wait(timeout=30) in (0, -signal.SIGTERM)
        assert player.closes == [1012], "the server said to connect again"
        assert player.errors == []
        assert player.state["status"] == "finished"
        check_stored(postgres_url, table_id, player)


def test_workers_share_a_port_and_one_that_dies_is_replaced(
    postgres_url: str, tmp_path: Path
) -> None:
    port = free_port()
    env = {**os.environ, **QUICK, "XDG_DATA_HOME": str(tmp_path / "data")}
    command = [sys.executable, "-m", "closingbell.cli.main", "serve", "--workers", "2"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--database", postgres_url, "--bot-delay", "0.01"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        pids = wait_workers(postgres_url, 2)
        made = HTTP.post(
            f"{base}/api/tables", json={"game": "take_stock", "seats": ["random", "random"]}
        )
        assert made.status_code == 201
        table_id = made.json()["table"]["id"]
        os.kill(pids[0], signal.SIGKILL)
        # The game ends all the same: its server, if killed, is replaced and the table
        # taken over.
        deadline = time.monotonic() + 90
        while True:
            answer = HTTP.get(f"{base}/api/tables/{table_id}", timeout=5)
            if answer.status_code == 200 and answer.json()["table"]["status"] == "finished":
                break
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.2)
        assert len(wait_workers(postgres_url, 2)) == 2
    finally:
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=60)[0]
    assert process.returncode == 0, output
    assert "worker 1 ready" in output and "worker 2 ready" in output
    assert "starting it again" in output


def wait_workers(url: str, count: int, timeout: float = 30) -> list[int]:
    """The process ids of the servers registered in the database, once ``count`` live."""

    async def live() -> list[int]:
        import sqlalchemy as sa

        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                rows = await conn.execute(
                    sa.text("SELECT pid FROM servers WHERE heartbeat > now() - interval '1 second'")
                )
                return sorted(int(p) for (p,) in rows.all())
        finally:
            await store.close()

    deadline = time.monotonic() + timeout
    while True:
        try:
            pids = asyncio.run(live())
        except Exception:  # the schema is not made yet
            pids = []
        if len(pids) == count:
            return pids
        assert time.monotonic() < deadline, f"{len(pids)} servers, not {count}"
        time.sleep(0.2)


def test_workers_need_postgresql(tmp_path: Path) -> None:
    answer = subprocess.run(
        [
            sys.executable,
            "-m",
            "closingbell.cli.main",
            "serve",
            "--workers",
            "2",
            "--database",
            str(tmp_path / "games.db"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert answer.returncode == 2
    assert answer.stderr.count("\n") == 1
    assert "needs a PostgreSQL database" in answer.stderr
    assert not (tmp_path / "games.db").exists()
