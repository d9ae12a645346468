"""Practice tables started from a position: made, refused, stored, restored and hidden.

A table may start from a position (docs/positions.md) instead of a deal: one person against
bots. The server stores the position's canonical text with the table (migration 0002),
rebuilds the table from it after a restart, and never sends it (it holds every hidden card)
while the game goes on; once the game is over, its record and replay start from it.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient

import closingbell
from closingbell import PositionError, State
from closingbell.core.position import MAX_POSITION_CHARS
from closingbell.core.records import GameRecord, replay
from closingbell.server import app as app_module
from closingbell.server.store import Store, hash_token
from closingbell.server.store.schema import tables_table
from closingbell.server.store.upgrades import alembic_config
from tests.server.helpers import act, client_for, create, expect, hello, join, run_sql, wait_state
from tests.server.test_lobby import error_of
from tests.server.test_storage_faults import SCHEMA_HEAD

GAMES = ["take_stock", "card_stock_market"]


def position_for(game: str, players: int, seed: int, steps: int, seat: int = 0) -> str:
    """The canonical position of a dealt game after about ``steps`` random actions, at a
    moment when ``seat`` must decide."""
    state = closingbell.load_game(game, players=players).new_game(seed)
    rng = random.Random(seed)
    while len(state.history) < steps or state.current_player != seat:
        state.apply(rng.choice(state.legal_actions()))
        assert not state.is_terminal()
    return state.to_position()


def start_of(game: str, players: int, position: str) -> State:
    return closingbell.load_game(game, players=players).state_from_position(position)


def practice(client: TestClient, game: str, position: str, seats: list[str]) -> dict[str, Any]:
    return create(client, game, seats, position=position)


def stored_row(url: str, table_id: str) -> Any:
    async def run() -> Any:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                result = await conn.execute(
                    sa.select(tables_table).where(tables_table.c.id == table_id)
                )
                return result.one()
        finally:
            await store.close()

    return asyncio.run(run())


def wait_finished(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.02)


# ---------------------------------------------------------------- making a practice table


@pytest.mark.parametrize("game", GAMES)
def test_a_practice_table_starts_from_the_position(client: TestClient, game: str) -> None:
    position = position_for(game, 3, 101, 25)
    start = start_of(game, 3, position)
    table = practice(client, game, position, ["open", "easy", "random"])
    assert table["status"] == "waiting"
    assert table["from_position"] is True
    assert table["version"] == 0
    assert table["options"] == start.game.options_dict()
    listed = client.get("/api/tables").json()["tables"]
    assert [t["from_position"] for t in listed] == [True]
    token = join(client, table["id"], "Ana", seat=0)["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        first = hello(ws, token)
        assert first["status"] == "playing"
        assert first["version"] == 0
        assert first["current_player"] == 0
        assert first["view"] == start.view(0).to_dict()
        assert [a["id"] for a in first["legal"]] == start.legal_actions()
        choice = first["legal"][0]["id"]
        act(ws, 0, choice)
        after = wait_state(ws, lambda m: m["version"] >= 1)
    start.apply(choice)
    assert after["last_action"]["id"] == choice
    assert after["view"] == start.view(0).to_dict()
    spectator = client.get(f"/api/tables/{table['id']}/view").json()
    assert spectator["seat"] is None and spectator["view"]["seat"] is None


def test_a_dealt_table_is_not_from_a_position(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "medium"])
    assert table["from_position"] is False


@pytest.mark.parametrize("game", GAMES)
def test_a_short_position_is_stored_in_its_canonical_form(database_url: str, game: str) -> None:
    with client_for(database_url) as client:
        table = practice(client, game, "seed: 12", ["easy", "open"])
    row = stored_row(database_url, table["id"])
    canonical = start_of(game, 2, "seed: 12").to_position()
    assert row.position == canonical
    assert row.seed == 12


@pytest.mark.parametrize("game", GAMES)
def test_a_position_that_names_no_seed_gets_a_fresh_one(database_url: str, game: str) -> None:
    # Later shuffles follow from the seed: seed 0 for every hand-written position would let
    # anyone who knows the convention foresee the draws, so the server draws a seed.
    short = "turn: 1" if game == "take_stock" else "turn: 1; cash: 150 / 250"
    with client_for(database_url) as client:
        ids = [practice(client, game, short, ["easy", "open"])["id"] for _ in range(3)]
    rows = [stored_row(database_url, table_id) for table_id in ids]
    seeds = {row.seed for row in rows}
    assert len(seeds) == 3 and 0 not in seeds
    for row in rows:
        assert row.position is not None
        assert row.position == start_of(game, 2, f"seed: {row.seed}; {short}").to_position()


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "position", ["seed: 4; cash: 1 / 2 / 3 / 4", "seed: 4; colour: red", "hands", "seed: -3"]
)
def test_a_bad_position_is_refused_with_its_field_and_reason(
    client: TestClient, game: str, position: str
) -> None:
    with pytest.raises(PositionError) as expected:
        start_of(game, 2, position)
    answer = client.post(
        "/api/tables", json={"game": game, "seats": ["open", "easy"], "position": position}
    )
    message = error_of(answer, 422, "bad_position")
    error = answer.json()["error"]
    assert error["field"] == expected.value.field
    assert error["reason"] == expected.value.reason
    assert message == str(expected.value)
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize(
    ("extra", "code", "words"),
    [
        ({"position": "x" * (MAX_POSITION_CHARS + 1)}, "bad_position", "16384 characters"),
        ({"position": 5}, "bad_position", "string"),
        ({"position": "seed: 1", "seed": 1}, "bad_request", "not both"),
    ],
)
def test_a_position_request_out_of_bounds_is_refused(
    client: TestClient, extra: dict[str, Any], code: str, words: str
) -> None:
    body = {"game": "take_stock", "seats": ["open", "easy"], **extra}
    message = error_of(client.post("/api/tables", json=body), 422, code)
    assert words in message
    if code == "bad_position":
        error = client.post("/api/tables", json=body).json()["error"]
        assert error["field"] is None and words in error["reason"]
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("seats", [["open", "open"], ["easy", "medium"], ["open", "open", "easy"]])
def test_a_position_table_is_for_one_person_against_bots(
    client: TestClient, seats: list[str]
) -> None:
    body = {"game": "card_stock_market", "seats": seats, "position": "seed: 3"}
    message = error_of(client.post("/api/tables", json=body), 422, "bad_seats")
    assert "practice table" in message
    assert client.get("/api/tables").json()["tables"] == []


def test_a_position_whose_game_is_over_is_refused(client: TestClient) -> None:
    state = closingbell.load_game("card_stock_market", players=2).new_game(5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    body = {"game": "card_stock_market", "seats": ["open", "easy"], "position": state.to_position()}
    answer = client.post("/api/tables", json=body)
    error_of(answer, 422, "bad_position")
    assert "over" in answer.json()["error"]["reason"]


def test_position_tables_count_against_the_creation_limit(tmp_path: Any) -> None:
    body = {"game": "card_stock_market", "seats": ["open", "easy"], "position": "seed: 2"}
    with client_for(
        f"sqlite:///{tmp_path / 'x.db'}", tables_per_minute=1, tables_burst=2
    ) as client:
        for _ in range(2):
            assert client.post("/api/tables", json=body).status_code == 201
        error_of(client.post("/api/tables", json=body), 429, "rate_limited")


# ---------------------------------------------------------------- storage and restarts


@pytest.mark.parametrize("game", GAMES)
def test_a_restarted_server_rebuilds_the_table_from_its_position(
    database_url: str, game: str
) -> None:
    position = position_for(game, 2, 7, 20)
    with client_for(database_url) as client:
        table = practice(client, game, position, ["open", "random"])
        token = join(client, table["id"], "Ana", seat=0)["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            shown = hello(ws, token)
            for _ in range(3):
                act(ws, shown["version"], shown["legal"][0]["id"])
                shown = wait_state(ws, lambda m: m["current_player"] in (0, None))
                if shown["status"] == "finished":
                    break
            before = shown
    row = stored_row(database_url, table["id"])
    assert row.position == position
    with client_for(database_url) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [(t["id"], t["version"], t["from_position"]) for t in listed] == [
            (table["id"], before["version"], True)
        ]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            again = hello(ws, token)
    assert again["version"] == before["version"]
    assert again["view"] == before["view"]
    assert again["legal"] == before["legal"]


@pytest.mark.parametrize("game", GAMES)
def test_once_over_the_record_and_replay_start_from_the_position(
    database_url: str, game: str
) -> None:
    position = position_for(game, 2, 19, 30, seat=1)
    start = start_of(game, 2, position)
    with client_for(database_url) as client:
        table = practice(client, game, position, ["random", "open"])
        table_id = table["id"]
        for route in ("/record", "/record.cbrec", "/replay"):
            answer = client.get(f"/api/tables/{table_id}{route}")
            assert answer.status_code == 409, route
            assert position not in answer.text
        token = join(client, table_id, "Bo", seat=1)["token"]
        rng = random.Random(3)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            shown = hello(ws, token)
            while shown["status"] != "finished":
                act(ws, shown["version"], rng.choice(shown["legal"])["id"])
                shown = wait_state(ws, lambda m: m["current_player"] in (1, None))
        wait_finished(client, table_id)
        body = client.get(f"/api/tables/{table_id}/record").json()
        text = client.get(f"/api/tables/{table_id}/record.cbrec").text
        steps = client.get(f"/api/tables/{table_id}/replay?limit=1").json()["steps"]
    assert body["position"] == position
    assert body["seed"] == start.seed
    record = GameRecord.loads(text)
    assert record.position == position
    assert record.seats == ("random", "Bo")
    final = replay(record)
    assert final.is_terminal()
    assert body["result"] == {"scores": final.scores(), "winners": final.winners()}
    assert steps[0]["action"] is None
    assert steps[0]["view"] == start.view(None).to_dict()


# ---------------------------------------------------------------- migration 0002


def migrate(url: str, *, up: str | None = None, down: str | None = None) -> None:
    """Run Alembic on ``url``: up to ``up`` or down to ``down``."""

    async def run() -> None:
        store = Store(url)
        try:
            async with store.engine.begin() as conn:

                def go(connection: Any) -> None:
                    config = alembic_config(connection)
                    if up is not None:
                        command.upgrade(config, up)
                    else:
                        command.downgrade(config, down or "base")

                await conn.run_sync(go)
        finally:
            await store.close()

    asyncio.run(run())


def schema(url: str) -> tuple[str, list[str]]:
    async def run() -> tuple[str, list[str]]:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                columns = await conn.run_sync(
                    lambda c: [col["name"] for col in sa.inspect(c).get_columns("tables")]
                )
                head = (
                    await conn.execute(sa.text("select version_num from alembic_version"))
                ).scalar_one()
                return str(head), sorted(columns)
        finally:
            await store.close()

    return asyncio.run(run())


def test_a_database_from_before_the_position_column_upgrades_intact(
    empty_database_url: str,
) -> None:
    # A database made by the previous schema (0001), with a game being played in it.
    migrate(empty_database_url, up="0001")
    assert "position" not in schema(empty_database_url)[1]
    rules = closingbell.load_game("take_stock", players=2)
    state = rules.new_game(77)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    token = "an-old-seat-token-of-32-letters-"
    statements = [
        "INSERT INTO tables (id, game, options, seed, clock, status, version, created_at, "
        "updated_at) VALUES ('old', 'take_stock', :options, 77, NULL, 'playing', 3, "
        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
        "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash) VALUES "
        "('old', 0, 'human', NULL, 'Ana', :hash), ('old', 1, 'bot', 'random', NULL, NULL)",
    ]
    seats = []
    replayed = rules.new_game(77)
    for number, action in enumerate(state.history):
        seats.append(replayed.current_player)
        replayed.apply(action)
        statements.append(
            "INSERT INTO actions (table_id, number, seat, action, text, created_at) VALUES "
            f"('old', {number}, {seats[-1]}, {action}, 'a', CURRENT_TIMESTAMP)"
        )
    run_sql(
        empty_database_url,
        *statements,
        options=json.dumps(rules.options_dict()),
        hash=hash_token(token),
    )
    with client_for(empty_database_url) as client:
        assert schema(empty_database_url) == (
            SCHEMA_HEAD,
            sorted(
                [
                    *schema_0001_columns(),
                    "position",
                    "rules_version",
                    *PLAYERS_COLUMNS,
                    "hints_used",
                ]
            ),
        )
        listed = client.get("/api/tables").json()["tables"]
        assert [(t["id"], t["status"], t["version"], t["from_position"]) for t in listed] == [
            ("old", "playing", 3, False)
        ]
        with client.websocket_connect("/ws/tables/old") as ws:
            shown = hello(ws, token)
            assert shown["view"] == state.view(0).to_dict()
            if shown["current_player"] == 0:
                act(ws, 3, shown["legal"][0]["id"])
                assert expect(ws, "state")["version"] == 4
    assert stored_row(empty_database_url, "old").position is None


PLAYERS_COLUMNS = ["rated", "move_time", "turn_at", "spectator_chat", "rematch_of", "rematch"]
"""The columns of ``tables`` added by migration 0005."""


def schema_0001_columns() -> list[str]:
    return [
        "id",
        "game",
        "options",
        "seed",
        "clock",
        "status",
        "version",
        "created_at",
        "updated_at",
    ]


def test_the_position_column_can_be_taken_out_and_put_back(database_url: str) -> None:
    with client_for(database_url) as client:
        dealt = create(client, "take_stock", ["random", "random"], seed=4)["id"]
        wait_finished(client, dealt)
        from_position = practice(client, "card_stock_market", "seed: 9", ["open", "easy"])["id"]
    migrate(database_url, down="0001")
    assert schema(database_url) == ("0001", sorted(schema_0001_columns()))
    migrate(database_url, up="head")
    assert schema(database_url)[0] == SCHEMA_HEAD
    with client_for(database_url) as client:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[dealt]["status"] == "finished"
        record = client.get(f"/api/tables/{dealt}/record.cbrec").text
        assert replay(GameRecord.loads(record)).is_terminal()
        # Taken back to 0001, the practice table lost its position: it is a deal now.
        assert listed[from_position]["from_position"] is False


# ---------------------------------------------------------------- the notation's document


def test_the_lobby_links_to_how_to_write_a_position(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    answer = client.get("/help/positions")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert "## Using a position" in answer.text
    monkeypatch.setattr(app_module, "POSITIONS_DOC", tmp_path / "missing.md")
    missing = client.get("/help/positions")
    assert missing.status_code == 404
    assert "docs/positions.md" in missing.text
