"""``closingbell serve`` as a real process: it prints its address, and a game survives the
process being killed mid-game (SIGKILL: no clean shutdown) and started again."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from closingbell.cli.main import build_parser
from closingbell.server.loadtest.processes import child_processes
from tests.server.helpers import HTTP


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


WITH_OPEN_FILES = """import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), int(sys.argv[2])))
sys.argv[1:3] = []
runpy.run_module("closingbell.cli.main", run_name="__main__")"""
"""``closingbell`` with an open-file limit: ``python -c WITH_OPEN_FILES SOFT HARD ARGS...``."""


@contextmanager
def server(
    database: str,
    tmp_path: Path,
    *extra: str,
    open_files: tuple[int, int] | None = None,
    environment: Mapping[str, str] | None = None,
    port: int | None = None,
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``closingbell serve`` (with ``extra`` arguments) on ``port`` (default: a free one),
    killed (SIGKILL) when the block ends; ``open_files`` is its open-file limit (soft, hard),
    ``environment`` variables it has besides the test's own."""
    port = free_port() if port is None else port
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), **(environment or {})}
    command = [sys.executable, "-m", "closingbell.cli.main"]
    if open_files is not None:
        command = [sys.executable, "-c", WITH_OPEN_FILES, *map(str, open_files)]
    process = subprocess.Popen(
        [
            *command,
            "serve",
            "--port",
            str(port),
            "--database",
            database,
            "--bot-delay",
            "0",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.communicate()[0]
            try:
                if HTTP.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield base, process
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)


def receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message  # type: ignore[no-any-return]


@contextmanager
def hello(
    base: str, table_id: str, token: str
) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    with connect(base.replace("http", "ws") + f"/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        yield ws, receive(ws, "state")


def test_serve_is_a_subcommand_with_its_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.database) == ("127.0.0.1", 8000, None)


def test_a_killed_server_loses_no_game_and_no_action(database_url: str, tmp_path: Path) -> None:
    with server(database_url, tmp_path) as (base, process):
        table = HTTP.post(
            f"{base}/api/tables", json={"game": "take_stock", "seats": ["open", "open"]}
        ).json()["table"]
        table_id = table["id"]
        tokens = [
            HTTP.post(f"{base}/api/tables/{table_id}/join", json={"name": n}).json()["token"]
            for n in ("Ana", "Bob")
        ]
        with ExitStack() as stack:
            opened = [stack.enter_context(hello(base, table_id, t)) for t in tokens]
            sockets = [ws for ws, _ in opened]
            messages = [m for _, m in opened]
            for version in range(12):
                mover = messages[0]["current_player"]
                chosen = messages[mover]["legal"][-1]["id"]
                sockets[mover].send(
                    json.dumps({"type": "action", "version": version, "action": chosen})
                )
                messages = [receive(ws, "state") for ws in sockets]
            assert messages[0]["version"] == 12
        process.send_signal(signal.SIGKILL)
        output = process.communicate(timeout=10)[0]
        assert f"http://127.0.0.1:{base.rsplit(':', 1)[1]}/" in output
    with server(database_url, tmp_path) as (base, _):
        for seat, token in enumerate(tokens):
            with hello(base, table_id, token) as (_, after):
                assert after["version"] == 12
                assert after["view"] == messages[seat]["view"]
                assert after["legal"] == messages[seat]["legal"]
        mover = after["current_player"]
        with hello(base, table_id, tokens[mover]) as (ws, now):
            ws.send(json.dumps({"type": "action", "version": 12, "action": now["legal"][0]["id"]}))
            assert receive(ws, "state")["version"] == 13


def running(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_helpers_of_search_bots_end_when_the_server_is_killed(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'web.db'}"
    with server(database, tmp_path, "--bot-processes", "1") as (base, process):
        table = HTTP.post(
            f"{base}/api/tables", json={"game": "take_stock", "seats": ["expert", "random"]}
        ).json()["table"]
        deadline = time.monotonic() + 60
        while HTTP.get(f"{base}/api/tables/{table['id']}").json()["table"]["version"] < 6:
            assert time.monotonic() < deadline, "the expert bot did not play"
            time.sleep(0.05)
        helpers = child_processes(process.pid)
        assert helpers, "no helper process thinks for the expert bot"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        deadline = time.monotonic() + 20
        while any(running(pid) for pid in helpers):
            assert time.monotonic() < deadline, "helper processes outlived the server"
            time.sleep(0.1)


def test_serve_keeps_games_in_the_data_folder_by_default(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    process = subprocess.Popen(
        [sys.executable, "-m", "closingbell.cli.main", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    path = tmp_path / "data" / "closingbell" / "closingbell.db"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.communicate()[0]
            try:
                if HTTP.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        output = process.communicate(timeout=10)[0]
    assert path.exists()
    assert str(path) in output
    assert f"open http://127.0.0.1:{port}/" in output


def test_the_server_process_collects_garbage_rarely() -> None:
    import gc

    from closingbell.cli.serve import GC_THRESHOLDS, tune_garbage_collector

    before = gc.get_threshold()
    try:
        tune_garbage_collector()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
        assert GC_THRESHOLDS[0] > before[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
