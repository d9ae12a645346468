"""Hints at practice tables: the ``hint`` message, its refusals, and no rating after one.

A hint is asked for over the WebSocket by the player of a table where every other seat is a
bot's, and answered to that connection only with the analysis of the player's own view
(``closingbell.bots.hints``). The table records it (``tables.hints_used``, migration 0006)
before the answer is sent, and its result then changes no rating, live or rebuilt.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import closingbell
from closingbell.cli.main import main
from closingbell.core.records import GameRecord, replay
from closingbell.server.ratings import Finish
from closingbell.server.store import SeatRow, Store, TableRow
from closingbell.text.games import narrator_for
from closingbell.text.names import seat_name
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect,
    expect_error,
    hello,
    join,
    postgres_database,
    sqlite_database,
    wait_state,
)
from tests.server.leakcheck import expected_hint
from tests.server.test_accounts import sign_up, stored, use
from tests.server.test_cluster import servers
from tests.server.test_positions import migrate, schema
from tests.server.test_standings import figures, play_out, rated_table, sit
from tests.server.test_storage_faults import SCHEMA_HEAD

ONE_ROUND = {"rounds": 1}
FIRST_TO_MOVE = 1
"""A seed of two-player Take Stock whose seat 0 decides first."""
BOT_FIRST = 0
"""A seed of two-player Take Stock whose seat 1 decides first."""


def ask(ws: WebSocketTestSession, version: int) -> None:
    ws.send_text(json.dumps({"type": "hint", "version": version}))


def seated(ws: WebSocketTestSession, token: str, lang: str = "en") -> dict[str, Any]:
    """Say hello with ``token`` in ``lang``; the first ``state``."""
    ws.send_text(json.dumps({"type": "hello", "token": token, "lang": lang}))
    expect(ws, "welcome")
    return expect(ws, "state")


def info(client: TestClient, table_id: str) -> dict[str, Any]:
    return client.get(f"/api/tables/{table_id}").json()["table"]  # type: ignore[no-any-return]


def hints_counted(client: TestClient) -> float:
    """How many hints the server worked out (``closingbell_hint_seconds``' count)."""
    text = client.get("/metrics").text
    found = re.search(r'closingbell_hint_seconds_count\{game="take_stock"\} (\S+)', text)
    assert found is not None
    return float(found[1])


def test_a_hint_is_the_analysis_of_the_players_view_and_marks_the_table(
    database_url: str,
) -> None:
    with client_for(database_url) as client:
        table = create(client, "take_stock", ["open", "medium"], seed=FIRST_TO_MOVE)
        token = join(client, table["id"], "Ana")["token"]
        assert info(client, table["id"])["hints_used"] is False
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            first = seated(ws, token, "zh-Hant")
            assert first["version"] == 0 and first["current_player"] == 0
            ask(ws, 0)
            answer = expect(ws, "hint")
            # Rebuilt from seat 0's view of the deal, in the connection's words.
            game = closingbell.load_game("take_stock", players=2)
            view = game.new_game(FIRST_TO_MOVE).view(0)
            names = [seat_name(0, "zh-Hant", name="Ana"), seat_name(1, "zh-Hant", bot="medium")]
            narrator = narrator_for(game, names, "zh-Hant")
            assert answer == expected_hint(game, view, FIRST_TO_MOVE, 0, narrator)
            assert answer["best"] == answer["actions"][0]
            # Why, in the connection's words: the preferred action against the next best.
            reason = answer["reason"]  # its lead, or that the next best is about as good
            assert "領先約" in reason or "分不出兩者的高下" in reason, reason
            legal = {a["id"]: a["label"] for a in first["legal"]}
            assert {a["id"]: a["label"] for a in answer["actions"]} == legal
            assert info(client, table["id"])["hints_used"] is True
            listed = client.get("/api/tables").json()["tables"]
            assert [t["hints_used"] for t in listed if t["id"] == table["id"]] == [True]
            # Asked again, the same hint, not worked out again.
            ask(ws, 0)
            assert expect(ws, "hint") == answer
            assert hints_counted(client) == 1
            # The game goes on; the next decision gets a hint of its own.
            act(ws, 0, answer["best"]["id"])
            mine = wait_state(ws, lambda m: m["current_player"] == 0 and m["version"] > 0)
            ask(ws, mine["version"])
            later = expect(ws, "hint")
            assert later["version"] == mine["version"]
            assert {a["id"] for a in later["actions"]} == {a["id"] for a in mine["legal"]}
    with client_for(database_url) as client:  # stored: a restarted server still shows it
        assert info(client, table["id"])["hints_used"] is True


def test_a_hint_is_refused_where_none_is_given(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), bot_delay=60) as client:
        # Two people at one table: no hint, even on one's own turn.
        two = create(client, "take_stock", ["open", "open"], seed=FIRST_TO_MOVE)["id"]
        tokens = [join(client, two, name)["token"] for name in ("Ana", "Bo")]
        with client.websocket_connect(f"/ws/tables/{two}") as ws:
            assert hello(ws, tokens[0])["current_player"] == 0
            ask(ws, 0)
            assert "practice" in expect_error(ws, "not_practice")["message"]
        # A practice table whose bot decides first (and thinks for a minute).
        practice = create(client, "take_stock", ["open", "medium"], seed=BOT_FIRST)["id"]
        token = join(client, practice, "Ana")["token"]
        with client.websocket_connect(f"/ws/tables/{practice}") as ws:
            assert hello(ws, token)["current_player"] == 1
            ask(ws, 0)
            expect_error(ws, "not_your_turn")
            ask(ws, 3)
            expect_error(ws, "stale_version")
            ws.send_text(json.dumps({"type": "hint"}))
            expect_error(ws, "bad_message")
            ws.send_text(json.dumps({"type": "hint", "version": 0, "action": 1}))
            expect_error(ws, "bad_message")
        with client.websocket_connect(f"/ws/tables/{practice}") as ws:
            hello(ws)
            ask(ws, 0)
            expect_error(ws, "spectator")
        for table_id in (two, practice):
            assert info(client, table_id)["hints_used"] is False


def test_no_hint_once_the_game_is_over(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "random"], seed=3, options=ONE_ROUND)["id"]
    token = join(client, table, "Ana")["token"]
    assert play_out(client, table, [token])["status"] == "finished"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        final = hello(ws, token)
        ask(ws, final["version"])
        expect_error(ws, "game_over")
    assert info(client, table)["hints_used"] is False


def test_a_rated_table_gives_no_hints_even_against_bots_only(database_url: str) -> None:
    with client_for(database_url, bot_delay=60) as site:
        sign_up(site, "Alice")
        table = rated_table(site, ["open", "medium"], seed=FIRST_TO_MOVE)["id"]
        token = sit(site, table)
        with site.websocket_connect(f"/ws/tables/{table}") as ws:
            state = hello(ws, token)
            assert state["current_player"] == 0
            ask(ws, state["version"])
            assert "unrated" in expect_error(ws, "not_practice")["message"]
        shown = info(site, table)
        assert shown["rated"] is True and shown["hints_used"] is False


def use_hints(url: str, table_id: str) -> None:
    """Store that a hint was taken at ``table_id``, as servers did at rated tables before
    rated tables refused hints."""

    async def run() -> None:
        store = Store(url)
        try:
            await store.tables.use_hints(table_id)
        finally:
            await store.close()

    asyncio.run(run())


def test_a_table_whose_hints_were_used_rates_nobody_and_the_rebuild_agrees(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with client_for(database_url) as site:
        cookie = sign_up(site, "Alice")
        plain = rated_table(site, ["open", "medium"], seed=5)
        play_out(site, plain["id"], [sit(site, plain["id"])])
        live = figures(database_url)
        assert len(live["changes"]) == 2
        hinted = rated_table(site, ["open", "medium"], seed=FIRST_TO_MOVE)
        token = sit(site, hinted["id"])
    use_hints(database_url, hinted["id"])
    with client_for(database_url) as site:
        use(site, cookie)
        shown = info(site, hinted["id"])
        assert shown["rated"] is True and shown["hints_used"] is True
        final = play_out(site, hinted["id"], [token])
        assert final["status"] == "finished"
        # Its results are kept; no rating moved.
        results = stored(
            database_url, f"SELECT seat FROM results WHERE table_id = '{hinted['id']}'"
        )
        assert sorted(results) == [(0,), (1,)]
        assert figures(database_url) == live
        profile = site.get("/api/players/Alice").json()
        by_table = {r["table"]: r["rated"] for r in profile["results"]}
        assert by_table == {plain["id"]: True, hinted["id"]: False}
        # Its record says so, as the terminal's records do.
        record = GameRecord.loads(site.get(f"/api/tables/{hinted['id']}/record.cbrec").text)
        assert record.hinted is True and replay(record).is_terminal()
        assert site.get(f"/api/tables/{hinted['id']}/record").json()["hinted"] is True
        unhinted = site.get(f"/api/tables/{plain['id']}/record").json()
        assert unhinted["hinted"] is False and "hinted" not in unhinted["record"]
    capsys.readouterr()
    assert main(["ratings", "--rebuild", "--database", database_url]) == 0
    assert "2 ratings from 1 rated games" in capsys.readouterr().out
    assert figures(database_url) == live


def test_the_store_rates_no_table_whose_hints_were_used(database_url: str) -> None:
    """Another server's copy of the table may not know yet: the stored flag decides."""

    async def run() -> list[Any]:
        store = Store(database_url)
        try:
            await store.upgrade()
            for table_id in ("plain", "hinted"):
                await store.tables.create(
                    TableRow(
                        id=table_id,
                        game="take_stock",
                        options={"players": 2},
                        seed=1,
                        clock=None,
                        status="playing",
                        rated=True,
                        seats=[
                            SeatRow(seat=0, kind="human", name="a", user_id="a"),
                            SeatRow(seat=1, kind="bot", bot="easy"),
                        ],
                    )
                )
            await store.tables.use_hints("hinted")
            finish = Finish("take_stock", True, ("user:a", "bot:easy"), (3.0, 1.0), (0, 1))
            for table_id in ("hinted", "plain"):
                await store.actions.append(
                    table_id, 0, 0, 5, text="x", status="finished", finish=finish
                )
            async with store.engine.connect() as conn:
                return list(
                    (
                        await conn.execute(
                            sa.text("SELECT table_id, player FROM rating_changes ORDER BY 2")
                        )
                    ).all()
                )
        finally:
            await store.close()

    assert asyncio.run(run()) == [("plain", "bot:easy"), ("plain", "user:a")]


def test_the_hints_column_is_added_to_stored_tables_and_taken_out_again(
    database_url: str,
) -> None:
    with client_for(database_url) as client:
        table = create(client, "take_stock", ["open", "medium"], seed=FIRST_TO_MOVE)["id"]
        token = join(client, table, "Ana")["token"]
    migrate(database_url, down="0005")
    assert "hints_used" not in schema(database_url)[1]
    with client_for(database_url) as client:
        assert schema(database_url)[0] == SCHEMA_HEAD and "hints_used" in schema(database_url)[1]
        assert info(client, table)["hints_used"] is False  # an older table took no hint
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ask(ws, hello(ws, token)["version"])
            expect(ws, "hint")
        assert info(client, table)["hints_used"] is True


def test_a_player_sitting_at_a_practice_table_starts_a_helper_for_hints(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url, warm_for_hints=True, bot_processes=1, bot_delay=60) as client:
        pool = client.app.state.hub.bots  # type: ignore[attr-defined]
        two = create(client, "take_stock", ["open", "open"], seed=1)["id"]
        tokens = [join(client, two, name)["token"] for name in ("Ana", "Bo")]
        with client.websocket_connect(f"/ws/tables/{two}") as ws:
            hello(ws, tokens[0])
            assert not pool.started  # another person is seated: no hint to come
        practice = create(client, "take_stock", ["open", "medium"], seed=BOT_FIRST)["id"]
        token = join(client, practice, "Ana")["token"]
        with client.websocket_connect(f"/ws/tables/{practice}") as ws:
            hello(ws, token)
            deadline = time.monotonic() + 30
            while not pool.started:
                assert time.monotonic() < deadline, "no helper started"
                time.sleep(0.05)


def test_every_server_shows_a_hint_taken_through_another() -> None:
    with postgres_database() as url, servers(url, 2) as (one, two):
        table = create(one, "take_stock", ["open", "medium"], seed=FIRST_TO_MOVE)["id"]
        token = join(one, table, "Ana")["token"]
        assert info(two, table)["hints_used"] is False  # now in the second server's memory
        with one.websocket_connect(f"/ws/tables/{table}") as ws:
            ask(ws, hello(ws, token)["version"])
            expect(ws, "hint")
        deadline = time.monotonic() + 10
        while not info(two, table)["hints_used"]:
            assert time.monotonic() < deadline, "the other server never heard of the hint"
            time.sleep(0.05)
