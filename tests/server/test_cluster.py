"""Several servers on one PostgreSQL database (``closingbell.server.cluster``).

In-process servers here (each app on its own event loop, as TestClient runs it); separate
``closingbell serve`` processes, killed and stopped, in tests/server/test_cluster_processes.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from closingbell.core.registry import game_class
from closingbell.server.client import Connection
from closingbell.server.hub import Hub
from closingbell.server.protocol import Act
from closingbell.server.settings import Settings
from closingbell.server.store import Store
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect,
    hello,
    join,
    postgres_database,
    receive,
    wait_state,
)

LEASE = 1.0
"""The lease time of the servers in these tests, in seconds."""


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database."""
    with postgres_database() as url:
        yield url


@contextlib.contextmanager
def servers(url: str, count: int, **settings: Any) -> Iterator[list[TestClient]]:
    """``count`` servers (apps with their lifespans run) sharing the database ``url``."""
    settings.setdefault("lease_seconds", LEASE)
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(client_for(url, **settings)) for _ in range(count)]


def stored_actions(url: str, table_id: str) -> list[tuple[int, int, int]]:
    """The table's stored actions: (number, seat, action)."""

    async def run() -> list[tuple[int, int, int]]:
        store = Store(url)
        try:
            return await store.actions.since(table_id, 0)
        finally:
            await store.close()

    return asyncio.run(run())


def play_to_the_end(
    sockets: dict[int, WebSocketTestSession], first: dict[int, dict[str, Any]]
) -> dict[int, list[dict[str, Any]]]:
    """Each seat plays its first legal action whenever it is to move, on its own server,
    until the game is over; every ``state`` message each seat got, in order."""
    seen: dict[int, list[dict[str, Any]]] = {seat: [first[seat]] for seat in sockets}
    latest = dict(first)
    for seat, ws in sockets.items():
        if latest[seat]["status"] == "waiting":  # this server has not yet heard the last join
            latest[seat] = wait_state(ws, lambda m: m["status"] != "waiting")
            seen[seat].append(latest[seat])
    while True:
        version = max(m["version"] for m in latest.values())
        current = next(m for m in latest.values() if m["version"] == version)
        if current["status"] == "finished":
            # Every seat is told of the end, whichever server it is on.
            for seat, ws in sockets.items():
                if latest[seat]["status"] != "finished":
                    latest[seat] = wait_state(ws, lambda m: m["status"] == "finished")
                    seen[seat].append(latest[seat])
            return seen
        mover = current["current_player"]
        if latest[mover]["version"] != version:
            latest[mover] = wait_state(sockets[mover], lambda m, v=version: m["version"] == v)
            seen[mover].append(latest[mover])
        act(sockets[mover], version, latest[mover]["legal"][0]["id"])
        latest[mover] = wait_state(sockets[mover], lambda m, v=version: m["version"] == v + 1)
        seen[mover].append(latest[mover])


def test_players_on_different_servers_play_a_whole_game_and_a_third_watches(
    postgres_url: str,
) -> None:
    with servers(postgres_url, 3) as (a, b, c):
        table = create(a, "take_stock", ["open", "open"], seed=11)
        tokens = [join(a, table["id"], "Ana")["token"], join(b, table["id"], "Bob")["token"]]
        with (
            a.websocket_connect(f"/ws/tables/{table['id']}") as ws0,
            b.websocket_connect(f"/ws/tables/{table['id']}") as ws1,
            c.websocket_connect(f"/ws/tables/{table['id']}") as watcher,
        ):
            first = {0: hello(ws0, tokens[0]), 1: hello(ws1, tokens[1])}
            watched = hello(watcher)
            assert watched["status"] == "playing"
            assert watched["seat"] is None
            seen = play_to_the_end({0: ws0, 1: ws1}, first)
            final = seen[0][-1]
            assert seen[1][-1]["version"] == final["version"]
            assert seen[1][-1]["result"] == final["result"]
            shown = wait_state(watcher, lambda m: m["status"] == "finished")
            assert shown["version"] == final["version"]
            assert shown["result"] == final["result"]
    actions = stored_actions(postgres_url, table["id"])
    assert [n for n, _, _ in actions] == list(range(final["version"]))
    # The stored game replays to the result every server showed.
    rules = game_class("take_stock")(players=2)
    state = rules.new_game(11)
    for _, seat, action in actions:
        assert state.current_player == seat
        state.apply(action)
    assert state.is_terminal()
    assert state.scores() == final["result"]["scores"]


def test_a_seat_connected_on_one_server_shows_connected_on_the_others(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        table = create(a, "take_stock", ["open", "open"])
        token = join(a, table["id"], "Ana")["token"]
        with b.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
            hello(watcher)
            with a.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                hello(ws, token)
                seats = wait_seats(watcher, lambda s: s[0]["connected"])
                assert [s["name"] for s in seats] == ["Ana", None]
            seats = wait_seats(watcher, lambda s: not s[0]["connected"])


def wait_seats(ws: WebSocketTestSession, predicate: Any, timeout: float = 10.0) -> Any:
    """The seats of the first message (``seats``, ``state`` or ``welcome``) that match."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such seats came"
        message = receive(ws, left)
        assert message is not None, "no such seats came"
        seats = message.get("seats")
        if seats is None and message.get("type") == "welcome":
            seats = message["table"]["seats"]
        if seats is not None and predicate(seats):
            return seats


def test_a_join_through_one_server_starts_the_game_on_the_others(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        table = create(a, "card_stock_market", ["open", "open", "easy"])
        first = join(a, table["id"], "Ana")
        with a.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            assert hello(ws, first["token"])["status"] == "waiting"
            second = join(b, table["id"], "Bob")  # the last open seat, on the other server
            started = wait_state(ws, lambda m: m["status"] == "playing")
            assert [s["name"] for s in started["seats"]] == ["Ana", "Bob", "easy"]
        # The second player's token works on either server at once.
        for client in (a, b):
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                assert hello(ws, second["token"])["seat"] == 1


def test_two_servers_filling_the_last_seats_at_once_start_the_game(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        for _ in range(3):
            table = create(a, "take_stock", ["open", "open"])
            # Both servers have the table in memory, seats open, when the joins come.
            assert b.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "waiting"
            answers = asyncio.run(both_join(a, b, table["id"]))
            assert sorted(answers) == [0, 1]
            for client in (a, b):
                assert wait_status(client, table["id"], "playing")


async def both_join(a: TestClient, b: TestClient, table_id: str) -> list[int]:
    """Join ``table_id`` through both servers at once; the seats given."""

    def one(client: TestClient, name: str) -> int:
        return int(join(client, table_id, name)["seat"])

    return list(
        await asyncio.gather(asyncio.to_thread(one, a, "Ana"), asyncio.to_thread(one, b, "Bob"))
    )


def wait_status(client: TestClient, table_id: str, status: str, timeout: float = 10.0) -> bool:
    """Wait until the server shows the table with ``status``; whether it did in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == status:
            return True
        time.sleep(0.02)
    return False


def test_bots_play_on_one_server_while_every_server_shows_their_moves(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        table = create(a, "take_stock", ["random", "random"], seed=5)
        with b.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
            loaded_at = hello(watcher)["version"]
            final = wait_state(watcher, lambda m: m["status"] == "finished", timeout=60)
        actions = stored_actions(postgres_url, table["id"])
        assert len(actions) == final["version"]
        leases = leases_of(postgres_url)
        assert set(leases.values()) <= {server_id(a)}, "only the creator runs the bots"
        # b stored none of the actions and followed every one after it loaded the table;
        # a stored them all.
        shown_a, shown_b = metric_values(a), metric_values(b)
        assert 0 < shown_b["closingbell_actions_followed_total"] <= final["version"]
        assert loaded_at < final["version"]
        assert shown_b["closingbell_actions_total"] == 0
        assert shown_a["closingbell_actions_total"] == final["version"]
        assert shown_a["closingbell_servers_live"] == shown_b["closingbell_servers_live"] == 2
        assert shown_a["closingbell_tables_leased"] == 1
        assert shown_b["closingbell_tables_leased"] == 0


def metric_values(client: TestClient) -> dict[str, float]:
    """Each sample of the server's ``/metrics`` summed over its labels, by name."""
    from prometheus_client.parser import text_string_to_metric_families

    found: dict[str, float] = {}
    for family in text_string_to_metric_families(client.get("/metrics").text):
        for sample in family.samples:
            found[sample.name] = found.get(sample.name, 0.0) + sample.value
    return found


def server_id(client: TestClient) -> str:
    """The id of a test server (its hub's cluster)."""
    return str(client.app.state.hub.cluster.server_id)  # type: ignore[attr-defined]


def leases_of(url: str) -> dict[str, str | None]:
    """Every stored lease: table id to server id."""

    async def run() -> dict[str, str | None]:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                rows = (await conn.execute(sa.text("SELECT table_id, server FROM leases"))).all()
                return {str(t): None if s is None else str(s) for t, s in rows}
        finally:
            await store.close()

    return asyncio.run(run())


def test_when_a_server_stops_another_takes_its_tables_over(postgres_url: str) -> None:
    with servers(postgres_url, 1) as (b,):
        with servers(postgres_url, 1) as (a,):
            table = create(a, "take_stock", ["open", "random"], seed=7)
            token = join(a, table["id"], "Ana")["token"]
            assert leases_of(postgres_url)[table["id"]] == server_id(a)
        # a stopped: it handed the table over; b takes it when asked for it, and the bot
        # plays on there.
        assert leases_of(postgres_url)[table["id"]] in (None, server_id(b))
        with b.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            shown = hello(ws, token)
            while shown["status"] != "finished":
                if shown["current_player"] == 0:
                    act(ws, shown["version"], shown["legal"][0]["id"])
                shown = expect(ws, "state", timeout=20)
        assert leases_of(postgres_url)[table["id"]] == server_id(b)
        assert metric_values(b)["closingbell_tables_taken_over_total"] == 1


# ---------------------------------------------------------------- the version rule


def test_two_servers_racing_never_store_two_actions_at_one_version(postgres_url: str) -> None:
    async def run() -> None:
        settings = Settings(bot_delay=0, bot_processes=0, lease_seconds=LEASE, allow_seed=True)
        hubs = [Hub(Store(postgres_url), settings) for _ in range(2)]
        for hub in hubs:
            await hub.start()
        try:
            from closingbell.server.protocol import CreateTable

            made = await hubs[0].create(CreateTable(game="take_stock", seats=["open", "open"]))
            for p, name in enumerate(("Ana", "Bob")):
                await made.seating.join(name, p)
            copies = [await hub.get(made.id) for hub in hubs]
            await copies[1].seating.refresh()
            outcomes: list[str] = []
            for _ in range(40):
                seat = copies[0].state.current_player
                if seat is None:
                    break
                await copies[1].catch_up()
                assert copies[0].version == copies[1].version
                legal = copies[0].state.legal_actions()
                conns = [Connection(seat=seat) for _ in copies]
                version = copies[0].version
                # Both servers play an action for the same seat at the same version.
                moves = [Act(type="action", version=version, action=a) for a in legal[:2] * 2]
                results = await asyncio.gather(
                    *(
                        copy.act(conn, move)
                        for copy, conn, move in zip(copies, conns, moves, strict=False)
                    ),
                    return_exceptions=True,
                )
                codes = sorted("ok" if r is None else r.code.value for r in results)  # type: ignore[union-attr]
                outcomes.append(",".join(codes))
                # One is stored; the other is told the state moved on, and nothing else.
                assert codes == ["ok", "stale_version"], codes
            stored = await hubs[0].store.actions.since(made.id, 0)
            assert [n for n, _, _ in stored] == list(range(len(stored)))
            await copies[1].catch_up()
            assert copies[1].state.history == copies[0].state.history == [a for _, _, a in stored]
            assert outcomes, "no race was run"
        finally:
            for hub in hubs:
                await hub.stop()

    asyncio.run(run())


def all_connected(message: dict[str, Any]) -> bool:
    """Whether ``message`` shows every seat connected."""
    seats = message.get("seats")
    return seats is not None and all(seat["connected"] for seat in seats)


def latest_state(
    ws: WebSocketTestSession, state: dict[str, Any], until: Any = None, timeout: float = 10.0
) -> dict[str, Any]:
    """The last ``state`` message ``ws`` has been sent (``state`` if none came since): after
    a message that satisfies ``until`` if given, and none for a moment."""
    deadline = time.monotonic() + timeout
    waiting = until is not None and not until(state)
    while (message := receive(ws, deadline - time.monotonic() if waiting else 0.2)) is not None:
        if message["type"] == "state":
            state = message
        if waiting and until(message):
            waiting = False
    assert not waiting, "no such message came"
    return state


def test_the_turn_clock_counts_connections_on_every_server(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        # Made on a, which runs its clock; both players connect to b only.
        table = create(a, "take_stock", ["open", "open"], clock=0.5, seed=2)
        tokens = [join(a, table["id"], name)["token"] for name in ("Ana", "Bob")]
        assert leases_of(postgres_url)[table["id"]] == server_id(a)
        with (
            b.websocket_connect(f"/ws/tables/{table['id']}") as ws0,
            b.websocket_connect(f"/ws/tables/{table['id']}") as ws1,
        ):
            firsts = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
            # A stand-in may have moved before both were connected (on a slow machine the
            # connections take longer than a clock): from here on, nobody is away.
            now = [latest_state(ws0, firsts[0], all_connected), latest_state(ws1, firsts[1])]
            time.sleep(2.0)  # four clocks' worth: nobody is away, so no bot stands in
            later = [latest_state(ws, state) for ws, state in zip((ws0, ws1), now, strict=True)]
            assert [s["version"] for s in later] == [now[0]["version"]] * 2
            version, mover = later[0]["version"], later[0]["current_player"]
            ws = (ws0, ws1)[mover]
            act(ws, version, later[mover]["legal"][0]["id"])
            moved = wait_state(ws, lambda m: m["version"] == version + 1)
            assert moved["last_action"]["by"] == "player"
            assert not any(s["stand_in"] for s in moved["seats"])
        # Both left b: a's clock runs out for whoever must move, and a bot stands in,
        # which b shows to a spectator.
        with b.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
            hello(watcher)
            stood = wait_state(
                watcher,
                lambda m: m["version"] >= 2 and m["last_action"]["by"] == "stand_in",
            )
            # b may send the stand-in's move (read from the database as the spectator
            # came) before it hears a's notice that a bot stands in: the seats then say so.
            if not any(s["stand_in"] for s in stood["seats"]):
                wait_seats(watcher, lambda seats: any(s["stand_in"] for s in seats))


def test_leases_of_finished_tables_nobody_runs_are_forgotten(postgres_url: str) -> None:
    with servers(postgres_url, 1) as (a,):
        table = create(a, "take_stock", ["random", "random"], seed=3)
        assert wait_status(a, table["id"], "finished", timeout=60)
    # a stopped and handed the table over; the game needs nobody, so b forgets the lease.
    assert leases_of(postgres_url) == {table["id"]: None}
    with servers(postgres_url, 1) as (b,):
        deadline = time.monotonic() + 10
        while table["id"] in leases_of(postgres_url):
            assert time.monotonic() < deadline, "the finished table's lease stayed"
            time.sleep(0.1)
        assert b.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "finished"


def test_a_server_that_missed_notices_catches_up(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with servers(postgres_url, 2) as (a, b):
        table = create(a, "take_stock", ["open", "open"], seed=9)
        tokens = [join(a, table["id"], name)["token"] for name in ("Ana", "Bob")]
        with (
            a.websocket_connect(f"/ws/tables/{table['id']}") as ws0,
            a.websocket_connect(f"/ws/tables/{table['id']}") as ws1,
            b.websocket_connect(f"/ws/tables/{table['id']}") as watcher,
        ):
            states = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
            hello(watcher)
            # b's connection for notices breaks: it hears nothing of a's moves for a while.
            listener = b.app.state.hub.cluster._listener  # type: ignore[attr-defined]
            b.portal.call(listener.terminate)  # type: ignore[union-attr]
            for version in range(8):
                mover = states[0]["current_player"]
                act((ws0, ws1)[mover], version, states[mover]["legal"][0]["id"])
                states = [
                    wait_state(ws, lambda m, v=version: m["version"] == v + 1) for ws in (ws0, ws1)
                ]
            # It listens again, finds its copy behind the database, and catches up.
            shown = wait_state(watcher, lambda m: m["version"] == 8)
            with a.websocket_connect(f"/ws/tables/{table['id']}") as other:
                assert hello(other)["view"] == shown["view"]
    assert any("notices' connection was lost" in r.getMessage() for r in caplog.records)
