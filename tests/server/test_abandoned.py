"""Abandoned tables: a real-time table nobody has been at for ``abandon_after`` (a day) ends
without a result and leaves the lobby's live tables, on SQLite and PostgreSQL, and on a
shared database only the table's lease holder ends it.

The server's wall clock is the test's (as in tests/server/test_days.py): "a day later" is a
step of that clock, and the look for abandoned tables is run at once
(``Sweeps.check_abandoned``).
"""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from closingbell.server.settings import Settings
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect,
    expect_error,
    hello,
    join,
    sqlite_database,
)
from tests.server.test_cluster import LEASE, postgres_url, servers  # noqa: F401 (a fixture)
from tests.server.test_days import DAY, HOUR, Clock, seen, two_guests
from tests.server.test_memory import hub_of

NO_LOOK = {"deadline_check": 3600.0, "abandon_check": 3600.0}
"""Settings under which the server's own looks never come during a test."""


def check(client: TestClient) -> list[str]:
    """Run the server's look for abandoned tables now; the tables it ended."""
    return client.portal.call(hub_of(client).sweeps.check_abandoned)  # type: ignore[union-attr,no-any-return]


def status(client: TestClient, table_id: str) -> str:
    """The table's status, as the lobby shows it."""
    listed = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    assert listed[table_id] == info["status"]
    return str(info["status"])


def test_a_table_nobody_came_back_to_for_a_day_is_abandoned(database_url: str) -> None:
    assert Settings().abandon_after == DAY
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        table_id, tokens = two_guests(client, None)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            message = hello(ws, tokens[seen(client, table_id)["current_player"]])
            clock.later(HOUR)
            act(ws, message["version"], message["legal"][0]["id"])
            expect(ws, "state")
        # A day counts from when the last person left.
        clock.later(DAY - 60)
        assert check(client) == []
        assert status(client, table_id) == "playing"
        clock.later(120)
        assert check(client) == [table_id]
        assert status(client, table_id) == "abandoned"
        view = seen(client, table_id)
        assert view["status"] == "abandoned" and view["result"] is None
        assert view["current_player"] is None and view["decision"] is None
        assert view["deciding_for"] is None and view["version"] == 1
        # Coming back finds it over: nothing more is played.
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            back = hello(ws, tokens[0])
            assert back["status"] == "abandoned" and back["legal"] == []
            act(ws, back["version"], 0)
            expect_error(ws, "game_over")
        assert check(client) == []
    # A restarted server keeps it over and takes no action for it.
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        assert table_id not in hub_of(client).tables  # not rebuilt as a live table
        assert status(client, table_id) == "abandoned"
        clock.later(3 * DAY)
        assert check(client) == []


def test_a_connected_player_keeps_the_table_going(database_url: str) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        table_id, tokens = two_guests(client, None)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[1])
            clock.later(3 * DAY)
            assert check(client) == []
            assert status(client, table_id) == "playing"
        clock.later(DAY - 60)
        assert check(client) == []
        clock.later(120)
        assert check(client) == [table_id]


def test_a_table_waiting_for_players_is_abandoned_and_takes_no_join(database_url: str) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        table = create(client, "take_stock", ["open", "open", "medium"])
        join(client, table["id"], "Ana")
        clock.later(DAY + 1)
        assert check(client) == [table["id"]]
        assert status(client, table["id"]) == "abandoned"
        refused = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bob"})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"


def test_games_over_days_bots_alone_and_finished_games_are_left_alone(database_url: str) -> None:
    clock = Clock()
    settings: dict[str, Any] = {**NO_LOOK, "bot_delay": 60}  # the bots' table plays on slowly
    with client_for(database_url, clock=clock, **settings) as client:
        days, _ = two_guests(client, DAY)
        bots = create(client, "take_stock", ["medium", "medium"], seed=3)
        clock.later(30 * DAY)
        assert check(client) == []
        assert status(client, days) == "playing" and status(client, bots["id"]) == "playing"


def test_abandonment_can_be_turned_off(tmp_path: Any) -> None:
    clock = Clock()
    with client_for(sqlite_database(tmp_path / "off.db"), clock=clock, abandon_after=0) as client:
        table_id, _ = two_guests(client, None)
        clock.later(300 * DAY)
        assert check(client) == []
        assert status(client, table_id) == "playing"


def test_only_the_lease_holder_ends_a_table_and_every_server_shows_it(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    clock = Clock()
    with servers(postgres_url, 2, clock=clock, **NO_LOOK) as (a, b):
        table_id, _ = two_guests(a, None)  # made on a: a holds its lease
        with b.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            hello(watcher)
            clock.later(DAY + 1)
            assert check(b) == []  # b follows the table: it does not run it
            assert status(b, table_id) == "playing"
            time.sleep(LEASE)  # a waits for the others' word on who is connected
            assert check(a) == [table_id]
            shown = expect(watcher, "state")
            assert shown["status"] == "abandoned"
        assert status(b, table_id) == "abandoned"
