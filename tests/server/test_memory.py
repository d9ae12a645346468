"""Tables leave memory when unused and come back exactly from the database; busy tables
stay; the number held stays bounded however many are created (``server.memory``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from closingbell.server.hub import Hub
from closingbell.server.tables import LiveTable
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect_error,
    hello,
    join,
    receive,
    sqlite_database,
    wait_state,
    without_clock,
)
from tests.server.test_websocket import two_players

QUICK = {
    "hello_timeout": 0.2,
    "table_idle": 0.6,
    "finished_idle": 0.3,
    "tables_per_minute": 0,
}
"""Settings that make tables leave memory within a second."""


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(sqlite_database(tmp_path / "web.db"), **QUICK) as client:
        yield client


def hub_of(client: TestClient) -> Hub:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert isinstance(hub, Hub)
    return hub


def wait_for(condition: Callable[[], bool], limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "it did not happen in time"
        time.sleep(0.02)


def snapshot(client: TestClient, table_id: str, tokens: list[str]) -> dict[str, Any]:
    """Everything a client can learn of a table, and what the server holds of it."""
    table: LiveTable = client.portal.call(hub_of(client).get, table_id)  # type: ignore[union-attr]
    shown: dict[str, Any] = {
        "info": client.get(f"/api/tables/{table_id}").json(),
        "view": client.get(f"/api/tables/{table_id}/view").json(),
        "history": list(table.state.history),
        "status": table.status,
        "last_action": table.last_action,
        "seats": [(s.kind, s.bot, s.name, s.token_hash, s.stand_in) for s in table.seats],
        "state": table.state.to_json(),
    }
    for seat, token in enumerate(tokens):
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            shown[f"seat {seat}"] = hello(ws, token)
    shown["view"] = without_clock(shown["view"])
    for seat in range(len(tokens)):
        shown[f"seat {seat}"] = without_clock(shown[f"seat {seat}"])
    return shown


def test_an_unused_table_leaves_memory_and_comes_back_exactly(quick: TestClient) -> None:
    table_id, tokens = two_players(quick, seed=9)
    table = {"id": table_id}
    with (
        quick.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        quick.websocket_connect(f"/ws/tables/{table_id}") as ws1,
    ):
        states = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
        sockets = [ws0, ws1]
        for version in range(7):
            mover = states[0]["current_player"]
            act(sockets[mover], version, states[mover]["legal"][-1]["id"])
            states = [wait_state(ws, lambda m, v=version: m["version"] == v + 1) for ws in sockets]
    hub = hub_of(quick)
    before = snapshot(quick, table["id"], tokens)
    assert before["last_action"] is not None and before["info"]["table"]["version"] == 7
    wait_for(lambda: table["id"] not in hub.tables)
    assert hub.memory.dropped >= 1
    after = snapshot(quick, table["id"], tokens)
    assert after == before
    # ... and play goes on.
    with quick.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        now = hello(ws, tokens[after["seat 0"]["current_player"]])
        act(ws, 7, now["legal"][0]["id"])
        assert wait_state(ws, lambda m: m["version"] == 8)["last_action"]["by"] == "player"


def test_a_stood_in_seat_comes_back_as_it_was(quick: TestClient) -> None:
    table = create(quick, "take_stock", ["open", "random"], options={"rounds": 1}, clock=0.05)
    token = join(quick, table["id"], "Ana")["token"]
    hub = hub_of(quick)
    wait_for(
        lambda: quick.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "finished"
    )
    assert token
    before = snapshot(quick, table["id"], [])  # Ana connecting would end the stand-in
    assert before["seats"][0][4] is True  # a bot stood in for Ana to the end
    assert before["info"]["table"]["seats"][0]["stand_in"] is True
    wait_for(lambda: table["id"] not in hub.tables)
    assert snapshot(quick, table["id"], []) == before


def test_busy_tables_stay_in_memory(tmp_path: Path) -> None:
    settings = {**QUICK, "bot_delay": 30.0}
    with client_for(sqlite_database(tmp_path / "web.db"), **settings) as client:
        hub = hub_of(client)
        idle = create(client, "take_stock", ["open", "open"])
        watched = create(client, "take_stock", ["open", "open"])
        bots = create(client, "take_stock", ["random", "random"])  # a bot about to move
        clocked = create(client, "take_stock", ["open", "open"], clock=60)
        for name in ("Ana", "Bob"):
            join(client, clocked["id"], name)  # started: its first player's clock is armed
        no_clock = create(client, "take_stock", ["open", "open"])
        for name in ("Ana", "Bob"):
            join(client, no_clock["id"], name)  # started, waits for its player for ever
        with client.websocket_connect(f"/ws/tables/{watched['id']}") as ws:
            hello(ws)
            wait_for(lambda: idle["id"] not in hub.tables and no_clock["id"] not in hub.tables)
            time.sleep(2 * QUICK["table_idle"])
            held = set(hub.tables)
        assert {watched["id"], bots["id"], clocked["id"]} <= held
        # Once its last connection has gone, a table is unused again.
        wait_for(lambda: watched["id"] not in hub.tables)
        assert bots["id"] in hub.tables and clocked["id"] in hub.tables


def test_tables_held_stay_bounded_however_many_are_created(tmp_path: Path) -> None:
    settings = {**QUICK, "table_idle": 3600.0, "tables_in_memory": 5}
    with client_for(sqlite_database(tmp_path / "web.db"), **settings) as client:
        hub = hub_of(client)
        made = [create(client, "take_stock", ["open", "open"])["id"] for _ in range(40)]
        wait_for(lambda: len(hub.tables) <= 5)
        time.sleep(0.5)
        assert len(hub.tables) <= 5
        # The newest stay; every table is still there on demand.
        assert set(hub.tables) <= set(made[-10:])
        for table_id in made:
            assert client.get(f"/api/tables/{table_id}").json()["table"]["id"] == table_id
        wait_for(lambda: len(hub.tables) <= 5)


def test_a_websocket_that_fetched_a_table_now_gone_is_told_to_connect_again(
    tmp_path: Path,
) -> None:
    settings = {**QUICK, "hello_timeout": 4.0}  # tables leave 2 s (GRACE) after their last use
    with client_for(sqlite_database(tmp_path / "web.db"), **settings) as client:
        table = create(client, "take_stock", ["open", "open"])
        hub = hub_of(client)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as slow:
            wait_for(lambda: table["id"] not in hub.tables)  # no hello yet: the table is unused
            slow.send_text('{"type": "hello"}')
            refused = expect_error(slow, "server_error")
            assert "connect again" in refused["message"]
            assert receive(slow) == {"type": "closed", "code": 1013}
        with client.websocket_connect(f"/ws/tables/{table['id']}") as again:
            assert hello(again)["table_id"] == table["id"]
