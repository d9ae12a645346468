"""The lobby's HTTP routes: tables made, listed, joined, and every refusal."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from closingbell.bots import make_bot
from closingbell.core.records import GameRecord, replay
from closingbell.core.registry import load_game
from closingbell.server.botdriver import bot_seed
from tests.server.helpers import client_for, create, join, sqlite_database


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def test_games_lists_every_game_with_its_options_and_the_bots(client: TestClient) -> None:
    body = client.get("/api/games").json()
    names = [g["name"] for g in body["games"]]
    assert names == ["card_stock_market", "take_stock"]
    take_stock = body["games"][1]
    assert take_stock["min_players"] == 2
    assert any(o["name"] == "rounds" and o["default"] == 4 for o in take_stock["options"])
    assert {"easy", "medium", "hard", "random"} <= set(body["bots"])


def test_create_list_and_show_a_table(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "medium", "open"], options={"rounds": 2})
    assert table["status"] == "waiting"
    assert table["players"] == 3
    assert table["options"]["rounds"] == 2
    assert table["options"]["players"] == 3
    assert [s["kind"] for s in table["seats"]] == ["open", "bot", "open"]
    assert table["seats"][1]["name"] == "medium"
    assert "seed" not in table
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]
    shown = client.get(f"/api/tables/{table['id']}").json()["table"]
    assert shown == table


def test_table_ids_are_unguessable(client: TestClient) -> None:
    ids = {create(client, "take_stock", ["open", "open"])["id"] for _ in range(5)}
    assert len(ids) == 5
    assert all(len(i) >= 12 for i in ids)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "seats": ["open", "open"]}, "unknown_game"),
        ({"game": "take_stock", "seats": ["open"]}, "bad_seats"),
        ({"game": "take_stock", "seats": ["open"] * 7}, "bad_seats"),
        ({"game": "take_stock", "seats": ["open", "grandmaster"]}, "unknown_bot"),
        ({"game": "take_stock", "seats": ["open", "open"], "options": {"rouds": 2}}, "bad_options"),
        (
            {"game": "take_stock", "seats": ["open", "open"], "options": {"rounds": 0}},
            "bad_options",
        ),
        (
            {"game": "take_stock", "seats": ["open", "open"], "options": {"players": 3}},
            "bad_options",
        ),
        ({"game": "take_stock", "seats": ["open", "open"], "clock": -1}, "bad_request"),
        ({"game": "take_stock", "seats": "open"}, "bad_request"),
        ({"game": "take_stock", "seats": ["open", "open"], "colour": "red"}, "bad_request"),
        ({"seats": ["open", "open"]}, "bad_request"),
    ],
)
def test_create_refuses_bad_requests(client: TestClient, body: dict[str, Any], code: str) -> None:
    error_of(client.post("/api/tables", json=body), 422, code)
    assert client.get("/api/tables").json()["tables"] == []


def test_create_refuses_malformed_json(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    error_of(response, 422, "bad_request")


def test_a_chosen_seed_is_refused_unless_the_server_allows_it(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "x.db"), allow_seed=False) as client:
        body = {"game": "take_stock", "seats": ["open", "open"], "seed": 3}
        error_of(client.post("/api/tables", json=body), 422, "seed_not_allowed")


def test_joining_fills_seats_and_starts_the_game(client: TestClient) -> None:
    table = create(client, "card_stock_market", ["open", "easy", "open"])
    first = join(client, table["id"], "Ana")
    assert first["seat"] == 0
    assert first["table"]["status"] == "waiting"
    assert len(first["token"]) >= 32
    second = join(client, table["id"], "Bob")
    assert second["seat"] == 2
    assert second["table"]["status"] == "playing"
    assert second["token"] != first["token"]
    assert [s["name"] for s in second["table"]["seats"]] == ["Ana", "easy", "Bob"]
    assert first["token"] not in str(second) and second["token"] not in str(first["table"])


def test_join_a_chosen_seat(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open", "open"])
    assert join(client, table["id"], "Cy", seat=2)["seat"] == 2
    taken = client.post(f"/api/tables/{table['id']}/join", json={"name": "Di", "seat": 2})
    # The seat is named as everywhere in the protocol, from 0: in the message and a field.
    assert error_of(taken, 409, "seat_taken") == "seat 2 is not open"
    assert taken.json()["error"]["seat"] == 2
    beyond = client.post(f"/api/tables/{table['id']}/join", json={"name": "Di", "seat": 3})
    assert error_of(beyond, 422, "bad_seat").startswith("seat 3 is not a seat of this table")
    assert beyond.json()["error"]["seat"] == 3


def test_joining_a_full_table_is_refused(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "hard"])
    join(client, table["id"], "Ana")
    error_of(
        client.post(f"/api/tables/{table['id']}/join", json={"name": "Bob"}), 409, "table_full"
    )


def test_unknown_tables_are_refused_everywhere(client: TestClient) -> None:
    for route in ("", "/view", "/record", "/replay"):
        error_of(client.get(f"/api/tables/nosuchtable{route}"), 404, "unknown_table")
    error_of(client.get(f"/api/tables/{'x' * 500}"), 404, "unknown_table")
    response = client.post("/api/tables/nosuchtable/join", json={"name": "Ana"})
    error_of(response, 404, "unknown_table")


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "x" * 33,
        "Ana\nBob",
        "Ana\x00",
        "Ana\x1b[31m",
        "\u202eevil",  # a right-to-left override
        "zero\u200bwidth",
        "tab\there",
        "\u3164",  # a Hangul filler: a letter that shows nothing
        "\u2800\u2800",  # Braille blanks
        "Ana\u3164",  # a filler after a name would pass it off for Ana's
        "\ufe0f",  # a variation selector alone
    ],
)
def test_bad_display_names_are_refused(client: TestClient, name: str) -> None:
    table = create(client, "take_stock", ["open", "open"])
    response = client.post(f"/api/tables/{table['id']}/join", json={"name": name})
    error_of(response, 422, "bad_name")
    assert client.get(f"/api/tables/{table['id']}").json()["table"]["seats"][0]["kind"] == "open"


def test_a_name_is_not_a_string_is_bad_request_or_bad_name(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"])
    response = client.post(f"/api/tables/{table['id']}/join", json={"name": 5})
    error_of(response, 422, "bad_name")
    response = client.post(f"/api/tables/{table['id']}/join", json={"nom": "Ana"})
    error_of(response, 422, "bad_request")


def test_names_are_data_never_html(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"])
    name = "<b>Ana</b> & <i>Bob</i>"
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": name})
    assert joined.headers["content-type"].startswith("application/json")
    assert joined.json()["table"]["seats"][0]["name"] == name
    # Names are normalized (NFC, outer spaces), never escaped or rewritten.
    second = join(client, table["id"], "  Zoe\u0301  ")
    assert second["table"]["seats"][1]["name"] == "Zoé"


def test_record_and_replay_wait_for_the_end(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"])
    error_of(client.get(f"/api/tables/{table['id']}/record"), 409, "not_finished")
    error_of(client.get(f"/api/tables/{table['id']}/replay"), 409, "not_finished")


def wait_finished(client: TestClient, table_id: str) -> dict[str, Any]:
    for _ in range(500):
        table = client.get(f"/api/tables/{table_id}").json()["table"]
        if table["status"] == "finished":
            return table  # type: ignore[no-any-return]
        time.sleep(0.02)
    raise AssertionError("the bots did not finish the game")


@pytest.mark.parametrize("game", ["take_stock", "card_stock_market"])
def test_a_bots_only_game_plays_itself_and_gives_its_record(client: TestClient, game: str) -> None:
    table = create(client, game, ["easy", "medium", "hard"], seed=42)
    assert table["status"] == "playing"
    wait_finished(client, table["id"])
    body = client.get(f"/api/tables/{table['id']}/record").json()
    assert body["seed"] == 42
    assert body["seats"] == ["easy", "medium", "hard"]
    record = GameRecord.loads(body["record"])
    state = replay(record)
    assert state.is_terminal()
    assert state.history == [a["id"] for a in body["actions"]]
    assert body["result"] == {"scores": state.scores(), "winners": state.winners()}
    # The replay steps are the public view after each action.
    steps = client.get(f"/api/tables/{table['id']}/replay", params={"limit": 1000}).json()
    assert steps["total"] == len(state.history) + 1
    live = record.check().new_game(42)
    events: list[dict[str, Any]] = []
    for step in steps["steps"]:
        if step["action"] is not None:
            assert step["action"]["seat"] == live.current_player
            live.apply(step["action"]["id"])
        assert step["view"] == live.view(None).to_dict()
        events += step["events"]
    assert events == live.visible_events(None)
    # ... and can be fetched a page at a time.
    page = client.get(f"/api/tables/{table['id']}/replay", params={"start": 5, "limit": 3})
    assert [s["index"] for s in page.json()["steps"]] == [5, 6, 7]
    assert page.json()["steps"] == steps["steps"][5:8]


def test_a_server_that_takes_seeds_seeds_its_bots_from_the_deal(client: TestClient) -> None:
    # Tests rely on it: a seeded game of bots is the same every run, and is the game the
    # same bots play outside the server when seeded by bot_seed.
    seats = ["random", "easy"]
    first, second = (create(client, "take_stock", seats, seed=7) for _ in range(2))
    played = []
    for table in (first, second):
        wait_finished(client, table["id"])
        body = client.get(f"/api/tables/{table['id']}/record").json()
        played.append([a["id"] for a in body["actions"]])
    assert played[0] == played[1]
    game = load_game("take_stock", players=2)
    state = game.new_game(7)
    bots = {p: make_bot(name, game, seed=bot_seed(7, p)) for p, name in enumerate(seats)}
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat)))
    assert state.history == played[0]
    other = create(client, "take_stock", seats, seed=8)
    wait_finished(client, other["id"])
    body = client.get(f"/api/tables/{other['id']}/record").json()
    assert [a["id"] for a in body["actions"]] != played[0]


def test_spectator_view_over_http(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "open"], seed=1)
    waiting = client.get(f"/api/tables/{table['id']}/view").json()
    assert waiting["status"] == "waiting"
    assert waiting["view"] is None
    join(client, table["id"], "Ana")
    join(client, table["id"], "Bob")
    shown = client.get(f"/api/tables/{table['id']}/view").json()
    assert shown["seat"] is None
    assert shown["legal"] == []
    assert shown["view"]["hand"] == []
    assert shown["version"] == 0


@pytest.mark.usefixtures("quick_expert")
def test_an_expert_bot_plays_its_seat(client: TestClient) -> None:
    table = create(client, "take_stock", ["expert", "random"], seed=3)
    assert [s["name"] for s in table["seats"]] == ["expert", "random"]
    for _ in range(1000):
        if client.get(f"/api/tables/{table['id']}").json()["table"]["version"] >= 12:
            break
        time.sleep(0.02)
    else:
        raise AssertionError("the expert bot did not play")
    view = client.get(f"/api/tables/{table['id']}/view").json()
    # Seat 0's own moves (not the draws the game makes for it) are the expert's choices.
    assert any(e.get("seat") == 0 for e in view["events"] if e["type"] != "draw")


def test_players_online_counts_the_pages_that_said_they_are_open(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "online.db"), online_window=0.5) as client:

        def online(visitor: str | None = None) -> int:
            params = {} if visitor is None else {"visitor": visitor}
            response = client.get("/api/online", params=params)
            assert response.status_code == 200, response.text
            return int(response.json()["players"])

        assert online() == 0
        # A guest in the lobby counts: their page's heartbeat names its visitor.
        assert online("lobby-guest-1") == 1
        assert online("player-at-a-table") == 2
        assert online("lobby-guest-1") == 2  # the same browser again: the same person
        assert online() == 2
        time.sleep(0.6)  # no heartbeat for the window: gone
        assert online() == 0
        for bad in ("short", "x" * 65, "not an id!"):
            response = client.get("/api/online", params={"visitor": bad})
            assert response.status_code in (400, 422), bad
        assert online() == 0
