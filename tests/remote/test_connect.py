"""``closingbell connect`` as a real process against ``closingbell serve``: it plays a bot
account's invitation to the end through a server restart, joins open tables with an agent
of its own (examples/remote_agent.py), and stops with a clear message on a bad token."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect
from websockets.typing import Origin

from closingbell.server.accounts import SESSION_COOKIE
from tests.server.test_serve import free_port, server

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a good long password"


def _account(base: str, name: str, *, bot: bool) -> httpx.Client:
    """A new account's browser session (cookie and Origin), made a bot account if asked."""
    client = httpx.Client(base_url=base, headers={"Origin": base}, timeout=10)
    made = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    if bot:
        assert client.post("/api/account/bot").status_code == 200
    return client


def _token(owner: httpx.Client) -> str:
    answer = owner.post("/api/account/tokens", json={"name": "connect test"})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def _connect(
    base: str, token: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """``closingbell connect`` for ``token`` (given in the environment, as the docs advise),
    with ``env`` besides."""
    env = {**os.environ, "CLOSINGBELL_TOKEN": token, **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "closingbell.cli.main", "connect", "--server", base, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=ROOT,
    )


def _play(base: str, person: httpx.Client, table_id: str, until: Any, seed: int) -> dict[str, Any]:
    """Play the person's seat (random legal actions) until ``until(state)``; the last state."""
    cookie = person.cookies[SESSION_COOKIE]
    address = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    rng = random.Random(seed)
    with ws_connect(
        address, origin=Origin(base), additional_headers={"Cookie": f"{SESSION_COOKIE}={cookie}"}
    ) as ws:
        ws.send(json.dumps({"type": "hello", "account": True}))
        deadline = time.monotonic() + 120
        last: dict[str, Any] | None = None

        def act(state: dict[str, Any]) -> None:
            if state["legal"]:
                action = rng.choice(state["legal"])["id"]
                ws.send(
                    json.dumps({"type": "action", "version": state["version"], "action": action})
                )

        while True:
            assert time.monotonic() < deadline, "the game did not get there in time"
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "error" and message["code"] == "rate_limited" and last:
                # Dropped: as the page does, wait out the refusal and choose again.
                time.sleep(1.1)
                act(last)
            if message["type"] != "state":
                continue
            if until(message) or message["status"] == "finished":
                return message  # type: ignore[no-any-return]
            last = message
            act(message)


def _watched(
    program: subprocess.Popen[str],
    base: str,
    person: httpx.Client,
    table_id: str,
    *,
    until: Any,
    seed: int,
) -> dict[str, Any]:
    """:func:`_play`, failing with what ``program`` said if the game stops meanwhile."""
    try:
        return _play(base, person, table_id, until, seed)
    except TimeoutError:
        program.send_signal(signal.SIGINT)
        pytest.fail(f"the game stopped; closingbell connect said:\n{_finish(program)}")


def _finish(process: subprocess.Popen[str], timeout: float = 90) -> str:
    try:
        output = process.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=10)[0]
        pytest.fail(f"closingbell connect did not stop:\n{output}")
    return output


def test_connect_plays_an_invitation_to_the_end_through_a_server_restart(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'web.db'}"
    port = free_port()
    with server(database, tmp_path, port=port) as (base, _):
        token = _token(_account(base, "robo", bot=True))
        person = _account(base, "ana", bot=False)
        table = person.post(
            "/api/tables",
            json={
                "game": "take_stock",
                "seats": ["open", "open"],
                "options": {"rounds": 1},
                "invited": [None, "robo"],
                "rated": True,
            },
        ).json()["table"]
        assert person.post(f"/api/tables/{table['id']}/join", json={"seat": 0}).status_code == 200
        program = _connect(
            base, token, "--bot", "random", "--games", "1", "--poll", "0.3", "--verbose"
        )
        # The program takes the seat kept for it; the game starts and both play a while.
        midway = _watched(
            program, base, person, table["id"], until=lambda m: m["version"] >= 20, seed=1
        )
        assert midway["status"] == "playing"
    # The server was killed (no clean close); it starts again on the same port.
    with server(database, tmp_path, port=port) as (base, _):
        final = _watched(program, base, person, table["id"], until=lambda m: False, seed=2)
        assert final["status"] == "finished"
        output = _finish(program)
        assert program.returncode == 0, output
        assert "Signed in to" in output and "as robo (a bot account)" in output
        assert f"Table {table['id']}: took a seat kept for it, seat 2 of 2" in output
        assert "connecting again" in output
        assert f"Table {table['id']}: finished" in output and "Played 1 game; stopping." in output
        seats = person.get(f"/api/tables/{table['id']}").json()["table"]["seats"]
        assert [(s["name"], s["bot_account"]) for s in seats] == [("ana", False), ("robo", True)]
        profile = person.get("/api/players/robo").json()
        assert profile["bot_account"] is True
        assert [g["rated_games"] for g in profile["games"] if g["game"] == "take_stock"] == [1]
        lines = person.get("/api/leaderboard/take_stock").json()["players"]
        assert {(p["username"], p["bot_account"]) for p in lines} == {
            ("ana", False),
            ("robo", True),
        }


def test_connect_joins_open_tables_with_an_agent_of_its_own(tmp_path: Path) -> None:
    policy = tmp_path / "policy.npz"
    trained = subprocess.run(
        [
            sys.executable,
            "examples/remote_agent.py",
            "--games",
            "4",
            "--epochs",
            "20",
            "--out",
            str(policy),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(trained.stdout)["game"] == "card_stock_market"
    database = f"sqlite:///{tmp_path / 'web.db'}"
    with server(database, tmp_path) as (base, _):
        token = _token(_account(base, "agent007", bot=True))
        person = _account(base, "bea", bot=False)
        made = {"game": "card_stock_market", "seats": ["open", "open"]}
        table = person.post("/api/tables", json=made).json()["table"]
        person.post(f"/api/tables/{table['id']}/join", json={})
        # A Take Stock table it was not asked to join.
        other = person.post(
            "/api/tables", json={"game": "take_stock", "seats": ["open", "open"]}
        ).json()["table"]
        program = _connect(
            base,
            token,
            *("--agent", "examples/remote_agent.py:choose", "--accept", "open"),
            *("--game", "card_stock_market", "--games", "1", "--poll", "0.3"),
            env={"CLOSINGBELL_POLICY": str(policy)},
        )
        final = _play(base, person, table["id"], lambda m: False, seed=3)
        assert final["status"] == "finished"
        output = _finish(program)
        assert program.returncode == 0, output
        assert f"Table {table['id']}: took an open seat" in output
        assert other["id"] not in output
        seats = person.get(f"/api/tables/{other['id']}").json()["table"]["seats"]
        assert [s["kind"] for s in seats] == ["open", "open"]


def test_connect_stops_on_a_wrong_token_or_a_bad_agent(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'web.db'}"
    with server(database, tmp_path) as (base, _):
        program = _connect(base, "not-a-token", "--bot", "random")
        output = _finish(program, 30)
        assert program.returncode == 1
        assert "Stopped: the server refused the token: it is wrong, or it was revoked" in output
    for args, message in (
        (["--agent", "no_such_module_here:choose"], "no module 'no_such_module_here'"),
        (["--agent", "examples/remote_agent.py:nothing"], "has no 'nothing'"),
        (["--agent", "choose"], "name the agent as MODULE:FUNC or FILE.py:FUNC"),
        (["--bot", "grandmaster"], "no bot is called 'grandmaster'"),
        (["--bot", "random", "--accept", "everything"], "--accept takes invitations or open"),
    ):
        program = _connect("http://127.0.0.1:9", "x", *args)
        output = _finish(program, 30)
        assert program.returncode == 2 and message in output, (args, output)
