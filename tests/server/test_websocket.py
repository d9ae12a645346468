"""Play over the WebSocket: views per seat, actions, bots, reconnection, the turn clock,
and every refusal (each leaves the game as it was)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import closingbell
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect,
    expect_error,
    hello,
    join,
    receive,
    sqlite_database,
    wait_state,
)


def two_players(
    client: TestClient, game: str = "take_stock", seed: int = 3
) -> tuple[str, list[str]]:
    table = create(client, game, ["open", "open"], seed=seed)
    tokens = [join(client, table["id"], name)["token"] for name in ("Ana", "Bob")]
    return table["id"], tokens


def real_state(game: str, players: int, seed: int, actions: list[int]) -> closingbell.State:
    state = closingbell.load_game(game, players=players).new_game(seed)
    for action in actions:
        state.apply(action)
    return state


def assert_quiet(ws: WebSocketTestSession) -> None:
    """Nothing more arrives (a refusal changed nothing and told nobody else)."""
    assert receive(ws, timeout=0.2) is None


def test_each_seat_gets_its_own_view_and_the_legal_actions(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    real = real_state("take_stock", 2, 3, [])
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as spy,
    ):
        s0, s1, sp = hello(ws0, tokens[0]), hello(ws1, tokens[1]), hello(spy)
        for message, seat in ((s0, 0), (s1, 1), (sp, None)):
            assert message["seat"] == seat
            assert message["version"] == 0
            assert message["status"] == "playing"
            assert message["view"] == real.view(seat).to_dict()
            assert message["events"] == real.visible_events(seat)
            assert message["first_event"] == 0
        mover = real.current_player
        assert mover is not None
        mine = (s0, s1)[mover]
        assert [a["id"] for a in mine["legal"]] == real.legal_actions()
        assert [a["text"] for a in mine["legal"]] == [
            real.action_to_string(a) for a in real.legal_actions()
        ]
        assert (s0, s1)[1 - mover]["legal"] == []
        assert sp["legal"] == []


def test_an_action_by_id_or_text_reaches_everyone(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    real = real_state("take_stock", 2, 3, [])
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
    ):
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        sockets = (ws0, ws1)
        for version in range(6):
            mover = real.current_player
            assert mover is not None
            action = real.legal_actions()[-1]
            if version % 2:
                act(sockets[mover], version, text=real.action_to_string(action).upper())
            else:
                act(sockets[mover], version, action)
            real.apply(action)
            for seat, ws in enumerate(sockets):
                message = expect(ws, "state")
                assert message["version"] == version + 1
                assert message["view"] == real.view(seat).to_dict()
                assert message["last_action"]["id"] == action
                assert message["last_action"]["by"] == "player"
                assert message["last_action"]["seat"] == mover
        # The events arrive a piece at a time and add up to the whole log.
        assert client.get(f"/api/tables/{table_id}").json()["table"]["version"] == 6


def test_events_arrive_incrementally(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    real = real_state("take_stock", 2, 3, [])
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        first = hello(ws, tokens[0])
        events = list(first["events"])
        sockets = {0: ws}
        with client.websocket_connect(f"/ws/tables/{table_id}") as other:
            hello(other, tokens[1])
            sockets[1] = other
            for version in range(8):
                mover = real.current_player
                assert mover is not None
                action = real.legal_actions()[0]
                act(sockets[mover], version, action)
                real.apply(action)
                message = expect(ws, "state")
                assert message["first_event"] == len(events)
                events += message["events"]
                expect(other, "state")
        assert events == real.visible_events(0)


def test_refusals_change_nothing(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    real = real_state("take_stock", 2, 3, [])
    mover = real.current_player
    assert mover is not None
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as me,
        client.websocket_connect(f"/ws/tables/{table_id}") as them,
        client.websocket_connect(f"/ws/tables/{table_id}") as spy,
    ):
        hello(me, tokens[mover])
        hello(them, tokens[1 - mover])
        hello(spy)
        legal = real.legal_actions()
        illegal = next(a for a in range(500) if a not in legal)
        refusals: list[tuple[WebSocketTestSession, str, str]] = [
            (
                them,
                json.dumps({"type": "action", "version": 0, "action": legal[0]}),
                "not_your_turn",
            ),
            (spy, json.dumps({"type": "action", "version": 0, "action": legal[0]}), "spectator"),
            (me, json.dumps({"type": "action", "version": 0, "action": illegal}), "illegal_action"),
            (me, json.dumps({"type": "action", "version": 0, "action": 10**6}), "illegal_action"),
            (
                me,
                json.dumps({"type": "action", "version": 0, "text": "buy the moon"}),
                "illegal_action",
            ),
            (me, json.dumps({"type": "action", "version": 1, "action": legal[0]}), "stale_version"),
            (me, json.dumps({"type": "action", "version": 0}), "bad_message"),
            (
                me,
                json.dumps({"type": "action", "version": 0, "action": legal[0], "text": "x"}),
                "bad_message",
            ),
            (me, json.dumps({"type": "action", "version": "0", "action": legal[0]}), "bad_message"),
            (me, json.dumps({"type": "action", "version": 0, "action": True}), "bad_message"),
            (
                me,
                json.dumps({"type": "action", "version": 0, "action": legal[0], "x": 1}),
                "bad_message",
            ),
            (me, json.dumps({"type": "dance"}), "bad_message"),
            (me, json.dumps([1, 2, 3]), "bad_message"),
            (me, "{'type': 'action'}", "bad_json"),
            (me, "", "bad_json"),
            (me, json.dumps({"type": "hello", "token": tokens[mover]}), "already_authenticated"),
            (me, json.dumps({"type": "action", "version": 0, "text": "x" * 5000}), "too_large"),
        ]
        for ws, text, code in refusals:
            ws.send_text(text)
            error = expect_error(ws, code)
            assert error["version"] == 0
            assert error["message"]
        me.send_bytes(b"\x00\x01")
        expect_error(me, "bad_json")
        for ws in (me, them, spy):
            assert_quiet(ws)
        assert client.get(f"/api/tables/{table_id}").json()["table"]["version"] == 0
        # ... and the game goes on.
        act(me, 0, legal[0])
        assert expect(spy, "state")["version"] == 1


def test_a_number_of_too_many_digits_is_bad_json(tmp_path: Path) -> None:
    # Frames are at most 4096 bytes by default: too short for 4,301 digits.
    with client_for(sqlite_database(tmp_path / "x.db"), max_message=8192) as client:
        table_id, tokens = two_players(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            ws.send_text('{"type": "action", "version": 0, "action": 1' + "0" * 5000 + "}")
            error = expect_error(ws, "bad_json")
            assert error["message"] == "not JSON: a number has more than 4300 digits"
            ws.send_text(json.dumps({"type": "ping"}))
            assert expect(ws, "pong") == {"type": "pong"}


def test_a_stale_version_is_refused_after_a_change(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    real = real_state("take_stock", 2, 3, [])
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
    ):
        sockets = (ws0, ws1)
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        version = 0
        # Play until one seat decides twice in a row, then replay its first version.
        while True:
            mover = real.current_player
            assert mover is not None
            action = real.legal_actions()[0]
            act(sockets[mover], version, action)
            real.apply(action)
            version += 1
            for ws in sockets:
                expect(ws, "state")
            if real.current_player == mover:
                act(sockets[mover], version - 1, real.legal_actions()[0])
                error = expect_error(sockets[mover], "stale_version")
                assert error["version"] == version
                break


def test_hello_is_required_and_a_wrong_token_is_refused(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        act(ws, 0, 1)
        expect_error(ws, "not_authenticated")
        ws.send_text(json.dumps({"type": "ping"}))
        expect_error(ws, "not_authenticated")
        for token in ("not-a-token", tokens[0][:-1] + ("x" if tokens[0][-1] != "x" else "y"), ""):
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            expect_error(ws, "bad_token")
        ws.send_text(json.dumps({"type": "hello", "token": "x" * 101}))
        expect_error(ws, "bad_message")
        # A token of another table is no token here.
        _other_id, other_tokens = two_players(client)
        ws.send_text(json.dumps({"type": "hello", "token": other_tokens[0]}))
        expect_error(ws, "bad_token")
        # The right token still works afterwards.
        assert hello(ws, tokens[1])["seat"] == 1


def test_an_unknown_table_is_refused_and_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nosuchtable") as ws:
        expect_error(ws, "unknown_table")
        closed = receive(ws)
        assert closed == {"type": "closed", "code": 4404}


def test_hello_must_come_in_time(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "x.db"), hello_timeout=0.2) as client:
        table_id, _ = two_players(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            expect_error(ws, "not_authenticated")
            assert receive(ws) == {"type": "closed", "code": 4408}


def test_ping_pong(client: TestClient) -> None:
    table_id, _tokens = two_players(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws)
        ws.send_text(json.dumps({"type": "ping"}))
        assert expect(ws, "pong") == {"type": "pong"}


def test_waiting_and_finished_tables_refuse_actions(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"])
    token = join(client, table["id"], "Ana")["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        waiting = hello(ws, token)
        assert waiting["status"] == "waiting"
        assert waiting["view"] is None
        assert waiting["current_player"] is None
        act(ws, 0, 0)
        expect_error(ws, "not_started")
        # When the last seat is taken, the game starts and everyone is told.
        join(client, table["id"], "Bob")
        started = wait_state(ws, lambda m: m["status"] == "playing")
        assert started["view"]["seat"] == 0
    finished = create(client, "card_stock_market", ["open", "random"], seed=2)
    token = join(client, finished["id"], "Ana")["token"]
    with client.websocket_connect(f"/ws/tables/{finished['id']}") as ws:
        message = hello(ws, token)
        while message["status"] != "finished":
            if message["legal"]:
                act(ws, message["version"], message["legal"][0]["id"])
            message = expect(ws, "state")
        assert message["result"]["winners"]
        act(ws, message["version"], 0)
        expect_error(ws, "game_over")


def test_bots_move_by_themselves_and_their_moves_are_broadcast(client: TestClient) -> None:
    table = create(client, "take_stock", ["medium", "open"], seed=11)
    token = join(client, table["id"], "Ana")["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        message = hello(ws, token)
        by_bot = 0
        while message["version"] < 40 and message["status"] == "playing":
            if message["current_player"] == 1:
                act(ws, message["version"], message["legal"][0]["id"])
            message = expect(ws, "state")
            if message["last_action"] and message["last_action"]["seat"] == 0:
                assert message["last_action"]["by"] == "bot"
                by_bot += 1
        assert by_bot > 5


def test_reconnecting_with_the_token_goes_on(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    real = real_state("take_stock", 2, 3, [])
    with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        hello(watcher)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws0:
            hello(ws0, tokens[0])
            seats = expect(watcher, "seats")["seats"]
            assert seats[0]["connected"] and not seats[1]["connected"]
        assert not expect(watcher, "seats")["seats"][0]["connected"]
        # Play a few moves with fresh connections each time.
        for version in range(5):
            mover = real.current_player
            assert mover is not None
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                message = hello(ws, tokens[mover])
                assert message["version"] == version
                assert message["view"] == real.view(mover).to_dict()
                assert message["events"] == real.visible_events(mover)
                assert message["first_event"] == 0
                action = message["legal"][-1]["id"]
                act(ws, version, action)
                real.apply(action)
                assert expect(ws, "state")["version"] == version + 1
            assert wait_state(watcher, lambda m: True)["version"] == version + 1


def test_the_turn_clock_lets_a_bot_stand_in_until_the_player_returns(tmp_path: Path) -> None:
    # Stand-ins pause a little, so the game is far from over when seat 0 comes back.
    with client_for(sqlite_database(tmp_path / "x.db"), bot_delay=0.03) as client:
        table = create(client, "take_stock", ["open", "open"], seed=5, clock=0.15)
        tokens = [join(client, table["id"], n)["token"] for n in ("Ana", "Bob")]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
            hello(watcher)
            # Nobody connects: when the clock runs out, bots play for both.
            # (Each seat's clock runs on its own, so wait for both stand-ins, not a version.)
            moved = wait_state(
                watcher,
                lambda m: m["version"] >= 3 and all(s["stand_in"] for s in m["seats"]),
                timeout=5,
            )
            assert moved["last_action"]["by"] == "stand_in"
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                mine = hello(ws, tokens[0])
                assert mine["seats"][0]["stand_in"] is False
                assert mine["seats"][1]["stand_in"] is True
                # Seat 1's stand-in plays on until seat 0 must decide, then everything waits.
                message = mine
                if message["current_player"] != 0:
                    message = wait_state(ws, lambda m: m["current_player"] == 0, timeout=5)
                assert message["legal"]
                assert receive(ws, timeout=0.5) is None
                act(ws, message["version"], message["legal"][0]["id"])
                after = expect(ws, "state")
                assert after["last_action"]["by"] == "player"
            # Seat 0 left again: the clock runs once more before its stand-in returns.
            again = wait_state(
                watcher,
                lambda m: (
                    m["last_action"]
                    and m["last_action"]["seat"] == 0
                    and m["last_action"]["by"] == "stand_in"
                ),
                timeout=5,
            )
            assert again["seats"][0]["stand_in"]


def test_no_clock_means_the_game_waits_for_the_player(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"], seed=5)
    for name in ("Ana", "Bob"):
        join(client, table["id"], name)
    time.sleep(0.3)
    assert client.get(f"/api/tables/{table['id']}").json()["table"]["version"] == 0


def test_table_listing_shows_who_is_connected(client: TestClient) -> None:
    table_id, tokens = two_players(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, tokens[1])
        listed = client.get("/api/tables").json()["tables"][0]
        assert [s["connected"] for s in listed["seats"]] == [False, True]
