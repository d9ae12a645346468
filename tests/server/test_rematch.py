"""Rematches: offered and accepted over the WebSocket, opened once, with the same seats."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from closingbell.server.store import SeatRow, Store, TableRow
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect,
    expect_error,
    hello,
    join,
    receive,
)
from tests.server.test_accounts import ORIGIN, sign_up, stored, use
from tests.server.test_cluster import play_to_the_end, postgres_url, servers

__all__ = ["postgres_url"]  # the fixture, used here too

SHORT = {"rounds": 1}
"""Take Stock in one round: some twenty actions between two players."""


def vote(ws: WebSocketTestSession) -> None:
    """Offer or accept a rematch."""
    ws.send_text(json.dumps({"type": "rematch"}))


def rematch(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next ``rematch`` message."""
    return expect(ws, "rematch")


def opened(ws: WebSocketTestSession) -> dict[str, Any]:
    """The first ``rematch`` message that names the new table."""
    while (message := rematch(ws))["table"] is None:
        pass
    return message


def finish(sockets: dict[int, WebSocketTestSession], tokens: dict[int, str]) -> None:
    """Say hello on each seat's socket and play the game to its end."""
    first = {seat: hello(ws, tokens[seat]) for seat, ws in sockets.items()}
    play_to_the_end(sockets, first)


def test_a_rematch_opens_once_every_player_agreed(database_url: str) -> None:
    with client_for(database_url) as client:
        table = create(
            client,
            "take_stock",
            ["open", "open"],
            options=SHORT,
            clock=30,
            spectator_chat=True,
        )
        old = table["id"]
        tokens = {0: join(client, old, "Ana")["token"], 1: join(client, old, "Bo")["token"]}
        path = f"/ws/tables/{old}"
        raw: list[str] = []
        with (
            client.websocket_connect(path) as ws0,
            client.websocket_connect(path) as ws1,
            client.websocket_connect(path) as watcher,
        ):
            hello(watcher)
            first = {0: hello(ws0, tokens[0]), 1: hello(ws1, tokens[1])}
            vote(ws0)
            refused = expect_error(ws0, "not_finished")
            assert "over" in refused["message"]
            play_to_the_end({0: ws0, 1: ws1}, first)
            vote(watcher)
            expect_error(watcher, "spectator")
            vote(ws0)
            for ws in (ws0, ws1, watcher):
                assert rematch(ws) == {"type": "rematch", "votes": [0], "table": None}
            vote(ws0)  # again: nothing changes, and the voter is told so
            assert rematch(ws0) == {"type": "rematch", "votes": [0], "table": None}
            vote(ws1)
            opened = [rematch(ws) for ws in (ws0, ws1, watcher)]
            new = opened[0]["table"]
            assert isinstance(new, str) and new != old
            assert opened == [{"type": "rematch", "votes": [0, 1], "table": new}] * 3
            for ws in (ws0, ws1, watcher):
                while (message := receive(ws, 0.3)) is not None:
                    raw.append(json.dumps(message))
        # No seat's token is ever sent: the seats keep theirs at the new table.
        assert not [text for text in raw if any(t in text for t in tokens.values())]
        before = client.get(f"/api/tables/{old}").json()["table"]
        after = client.get(f"/api/tables/{new}").json()["table"]
        assert before["rematch"] == new and before["rematch_of"] is None
        assert after["rematch_of"] == old and after["rematch"] is None
        assert after["status"] == "playing"
        for key in ("game", "options", "clock", "rated", "move_time", "spectator_chat"):
            assert after[key] == before[key], key
        assert after["clock"] == 30 and after["spectator_chat"] is True
        assert [(s["kind"], s["name"]) for s in after["seats"]] == [
            ("human", "Ana"),
            ("human", "Bo"),
        ]
        seeds = dict(stored(database_url, "SELECT id, seed FROM tables"))
        assert seeds[new] != seeds[old]
        votes = stored(database_url, f"SELECT seat FROM rematch_votes WHERE table_id = '{old}'")
        assert sorted(v for (v,) in votes) == [0, 1]
        # Each player's link works at the new table, for their own seat.
        for seat, token in tokens.items():
            with client.websocket_connect(f"/ws/tables/{new}") as ws:
                assert hello(ws, token)["seat"] == seat
        # Whoever opens the old table later is told where the rematch is.
        with client.websocket_connect(path) as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            assert expect(ws, "welcome")["table"]["rematch"] == new
            assert rematch(ws) == {"type": "rematch", "votes": [0, 1], "table": new}


def test_bots_agree_at_once(client: TestClient) -> None:
    table = create(client, "take_stock", ["easy", "open"], options=SHORT)
    token = join(client, table["id"], "Ana")["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        message = hello(ws, token)
        while message["status"] != "finished":
            if message["legal"]:
                act(ws, message["version"], message["legal"][0]["id"])
            message = expect(ws, "state")
        vote(ws)
        new = rematch(ws)["table"]
    assert isinstance(new, str)
    with client.websocket_connect(f"/ws/tables/{new}") as ws:
        first = hello(ws, token)
        assert first["seat"] == 1
        assert [(s["kind"], s["name"]) for s in first["seats"]] == [
            ("bot", "easy"),
            ("human", "Ana"),
        ]


def test_signed_in_players_keep_their_accounts(database_url: str) -> None:
    with client_for(database_url) as client:
        mona = sign_up(client, "mona")
        body = {"game": "take_stock", "seats": ["open", "open"], "rated": True, "options": SHORT}
        table = client.post("/api/tables", json=body, headers=ORIGIN).json()["table"]
        tokens = {0: client.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN)}
        ned = sign_up(client, "ned")
        tokens[1] = client.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN)
        keys = {seat: answer.json()["token"] for seat, answer in tokens.items()}
        use(client, None)
        path = f"/ws/tables/{table['id']}"
        with client.websocket_connect(path) as ws0, client.websocket_connect(path) as ws1:
            finish({0: ws0, 1: ws1}, keys)
            vote(ws1)
            vote(ws0)
            new = opened(ws0)["table"]
        after = client.get(f"/api/tables/{new}").json()["table"]
        assert after["rated"] is True
        assert [(s["name"], s["account"]) for s in after["seats"]] == [
            ("mona", True),
            ("ned", True),
        ]
        for seat, cookie in ((0, mona), (1, ned)):
            use(client, cookie)
            with client.websocket_connect(f"/ws/tables/{new}", headers=ORIGIN) as ws:
                ws.send_text(json.dumps({"type": "hello", "account": True}))
                assert expect(ws, "welcome")["seat"] == seat


async def race(url: str, times: int) -> list[tuple[str | None, str | None]]:
    """Two servers' stores count the last two votes of ``times`` finished tables at once."""
    stores = [Store(url), Store(url)]
    try:
        await stores[0].upgrade()
        if stores[0].shared:
            stores[0].notify_as = stores[1].notify_as = "test"
        answers = []
        for n in range(times):
            old = TableRow(
                id=f"old{n}",
                game="take_stock",
                options={"players": 2},
                seed=n,
                clock=None,
                status="finished",
                seats=[SeatRow(seat=p, kind="human", name=f"p{p}") for p in range(2)],
            )
            await stores[0].tables.create(old)

            def fresh(n: int = n, seat: int = 0) -> TableRow:
                return TableRow(
                    id=f"new{n}-{seat}",
                    game="take_stock",
                    options={"players": 2},
                    seed=1000 + n,
                    clock=None,
                    status="playing",
                    seats=[SeatRow(seat=p, kind="human", name=f"p{p}") for p in range(2)],
                )

            now = dt.datetime.now(dt.UTC)
            both = await asyncio.gather(
                *(
                    store.rematch.vote(old.id, seat, lambda s=seat: fresh(seat=s), now)
                    for seat, store in enumerate(stores)
                )
            )
            answers.append((both[0].table, both[1].table))
        return answers
    finally:
        for store in stores:
            await store.close()


def test_two_votes_counted_at_once_open_one_rematch(database_url: str) -> None:
    answers = asyncio.run(race(database_url, 10))
    for n, (first, second) in enumerate(answers):
        # The vote counted second sees both votes and opens the rematch; the first sees
        # only its own, or, once the other committed, the rematch opened.
        assert second is not None or first is not None, n
        assert {first, second} - {None} in ({f"new{n}-0"}, {f"new{n}-1"}), (n, first, second)
    rows = stored(database_url, "SELECT id, rematch_of FROM tables WHERE rematch_of IS NOT NULL")
    assert len(rows) == 10
    pointed = stored(database_url, "SELECT id, rematch FROM tables WHERE rematch IS NOT NULL")
    assert sorted(pointed) == sorted((old, new) for new, old in rows)


def test_players_on_two_servers_accepting_at_once_open_one_rematch(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        table = create(a, "take_stock", ["open", "open"], options=SHORT)
        tokens = {0: join(a, table["id"], "Ana")["token"], 1: join(b, table["id"], "Bo")["token"]}
        path = f"/ws/tables/{table['id']}"
        with a.websocket_connect(path) as ws0, b.websocket_connect(path) as ws1:
            finish({0: ws0, 1: ws1}, tokens)
            vote(ws0)
            vote(ws1)
            seen = [opened(ws) for ws in (ws0, ws1)]
        assert seen[0] == seen[1] and sorted(seen[0]["votes"]) == [0, 1]
        rows = stored(postgres_url, "SELECT id FROM tables WHERE rematch_of IS NOT NULL")
        assert [r for (r,) in rows] == [seen[0]["table"]]
        # Either server shows it, and its players' links work there.
        for client, seat in ((a, 1), (b, 0)):
            assert (
                client.get(f"/api/tables/{table['id']}").json()["table"]["rematch"]
                == (seen[0]["table"])
            )
            with client.websocket_connect(f"/ws/tables/{seen[0]['table']}") as ws:
                assert hello(ws, tokens[seat])["seat"] == seat


@pytest.mark.parametrize("status", ["waiting", "playing"])
def test_a_vote_on_an_unfinished_game_stores_nothing(database_url: str, status: str) -> None:
    with client_for(database_url) as client:
        seats = ["open", "open"] if status == "waiting" else ["open", "easy"]
        table = create(client, "take_stock", seats)
        token = join(client, table["id"], "Ana")["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            assert hello(ws, token)["status"] == status
            vote(ws)
            expect_error(ws, "not_finished")
        assert stored(database_url, "SELECT * FROM rematch_votes") == []
