"""Games over days: a time per move, a bot that decides once for a seat out of time,
deadlines kept across restarts; and a signed-in player's "My games" (``GET /api/my/games``).

The server's wall clock is the test's (``create_app(url, clock=...)``): a "day later" is a
step of that clock, and the look for deadlines is run at once (``Sweeps.check_deadlines``).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import closingbell
from tests.server.helpers import act, client_for, create, expect, hello, join, wait_state
from tests.server.leakcheck import SEAT_KEYS, TABLE_KEYS
from tests.server.test_accounts import ORIGIN, sign_up, stored, use
from tests.server.test_memory import hub_of, wait_for

START = dt.datetime(2030, 3, 1, 12, 0, tzinfo=dt.UTC)
HOUR = 3600.0
DAY = 86400.0
NO_LOOK = {"deadline_check": 3600.0}
"""Settings under which the server's own look for deadlines never comes during a test."""
ENTRY_KEYS = {
    "table",
    "seat",
    "your_turn",
    "invited",
    "to_move",
    "deadline",
    "time_left",
    "updated",
    "result",
}


class Clock:
    """A wall clock (UTC) that moves only when the test says."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> dt.datetime:
        return self.now

    def later(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


def check(client: TestClient) -> list[str]:
    """Run the server's look for deadlines now; the tables it played."""
    return client.portal.call(hub_of(client).sweeps.check_deadlines)  # type: ignore[union-attr,no-any-return]


def seen(client: TestClient, table_id: str) -> dict[str, Any]:
    """What a spectator sees of the table now (a ``state`` message)."""
    return client.get(f"/api/tables/{table_id}/view").json()  # type: ignore[no-any-return]


def seed_where(seat: int, game: str = "take_stock") -> int:
    """A seed whose two-player deal has ``seat`` decide first."""
    rules = closingbell.load_game(game, players=2)
    return next(s for s in range(1, 100) if rules.new_game(s).current_player == seat)


def two_guests(client: TestClient, move_time: float | None, seed: int = 3) -> tuple[str, list[str]]:
    """A started two-player Take Stock table (over days if ``move_time``); its seat tokens."""
    extra = {} if move_time is None else {"move_time": move_time}
    table = create(client, "take_stock", ["open", "open"], seed=seed, **extra)
    tokens = [join(client, table["id"], name, seat=p)["token"] for p, name in enumerate("AB")]
    return table["id"], tokens


# ---------------------------------------------------------------- the time per move


def test_a_bot_decides_once_for_a_seat_out_of_time(database_url: str) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        table_id, _ = two_guests(client, HOUR)
        mover = seen(client, table_id)["current_player"]
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        assert info["move_time"] == HOUR and info["deadline"] == START.timestamp() + HOUR
        clock.later(HOUR - 1)
        assert check(client) == []
        waiting = seen(client, table_id)
        assert waiting["version"] == 0 and waiting["time_left"] == 1.0
        clock.later(2)
        assert check(client) == [table_id]
        after = seen(client, table_id)
        assert after["version"] == 1
        assert after["last_action"]["seat"] == mover and after["last_action"]["by"] == "stand_in"
        assert after["seats"][mover]["stand_in"] is False  # for that decision only
        # The next decision, the same seat's or another's, has a whole hour again.
        assert after["deadline"] == clock.now.timestamp() + HOUR
        assert after["time_left"] == HOUR
        assert check(client) == []
        clock.later(HOUR - 1)
        assert check(client) == [] and seen(client, table_id)["version"] == 1


def test_a_player_in_time_keeps_the_move_and_the_next_seat_gets_its_own_deadline(
    database_url: str,
) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        table_id, tokens = two_guests(client, DAY)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            message = hello(ws, tokens[seen(client, table_id)["current_player"]])
            # Connected or not, the player decides in time, and that is the only move.
            clock.later(DAY - 60)
            assert check(client) == []
            while message["current_player"] == message["seat"]:
                act(ws, message["version"], message["legal"][0]["id"])
                message = expect(ws, "state")
                assert message["last_action"]["by"] == "player"
            assert message["deadline"] == clock.now.timestamp() + DAY
        clock.later(DAY - 1)
        assert check(client) == []


def test_a_deadline_is_kept_across_a_restart(database_url: str) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        table_id, tokens = two_guests(client, DAY)
        mover = seen(client, table_id)["current_player"]
        clock.later(HOUR)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            message = hello(ws, tokens[mover])
            act(ws, 0, message["legal"][0]["id"])
            assert expect(ws, "state")["version"] == 1
        after = seen(client, table_id)
        deadline = after["deadline"]
        began = START if after["current_player"] == mover else clock.now
        assert deadline == began.timestamp() + DAY
    clock.now = dt.datetime.fromtimestamp(deadline - 60, dt.UTC)
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        assert check(client) == []
        back = seen(client, table_id)
        assert back["version"] == 1 and back["deadline"] == deadline
    clock.later(120)
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        check(client)  # (the restart may have found it overdue first)
        moved = seen(client, table_id)
        assert moved["version"] == 2 and moved["last_action"]["by"] == "stand_in"
        assert moved["deadline"] == clock.now.timestamp() + DAY
    # Who chose each action is stored: after another restart the bot's decision is still its.
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        assert seen(client, table_id)["last_action"]["by"] == "stand_in"


def test_a_player_coming_back_after_the_deadline_finds_the_move_made(database_url: str) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        table_id, tokens = two_guests(client, DAY)
        mover = seen(client, table_id)["current_player"]
        clock.later(DAY + 1)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[mover])
            made = wait_state(ws, lambda m: m["version"] == 1)
            assert made["last_action"] == {**made["last_action"], "seat": mover, "by": "stand_in"}
            assert made["time_left"] == DAY


def test_the_servers_own_look_finds_a_table_out_of_memory(database_url: str) -> None:
    clock = Clock()
    quick = {"deadline_check": 0.05, "hello_timeout": 0.2, "table_idle": 0.3}
    with client_for(database_url, clock=clock, **quick) as client:
        hub = hub_of(client)
        table_id, _ = two_guests(client, DAY)
        wait_for(lambda: table_id not in hub.tables)
        clock.later(DAY + 1)

        def version() -> int:
            found = client.portal.call(hub.store.tables.versions, [table_id])  # type: ignore[union-attr]
            return int(found[table_id])

        wait_for(lambda: version() == 1)
        assert seen(client, table_id)["last_action"]["by"] == "stand_in"


def test_real_time_tables_are_left_alone(database_url: str) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as client:
        untimed, _ = two_guests(client, None)
        table = create(client, "take_stock", ["open", "open"], seed=3, clock=60)
        for name in "AB":
            join(client, table["id"], name)
        clock.later(30 * DAY)
        assert check(client) == []
        for table_id in (untimed, table["id"]):
            message = seen(client, table_id)
            assert message["version"] == 0
            assert message["deadline"] is None and message["time_left"] is None
            assert client.get(f"/api/tables/{table_id}").json()["table"]["deadline"] is None


@pytest.mark.parametrize(
    ("extra", "wrong"),
    [
        ({"move_time": DAY, "clock": 60}, "not both"),
        ({"move_time": 59}, "move_time"),
        ({"move_time": 15 * DAY}, "move_time"),
    ],
)
def test_a_bad_time_per_move_is_refused(
    client: TestClient, extra: dict[str, Any], wrong: str
) -> None:
    answer = client.post("/api/tables", json={"game": "take_stock", "seats": ["open"] * 2, **extra})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_request"
    assert wrong in answer.json()["error"]["message"]
    assert client.get("/api/tables").json()["tables"] == []


# ---------------------------------------------------------------- My games


def test_my_games_is_for_signed_in_players(client: TestClient) -> None:
    answer = client.get("/api/my/games")
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "sign_in_required"
    page = client.get("/my")
    assert page.status_code == 200 and "mygames.js" in page.text


def _made(site: TestClient, game: str, seats: list[str], **extra: Any) -> str:
    answer = site.post("/api/tables", json={"game": game, "seats": seats, **extra}, headers=ORIGIN)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"]["id"])


def _sit(site: TestClient, table_id: str, seat: int | None = None) -> dict[str, Any]:
    body = {} if seat is None else {"seat": seat}
    answer = site.post(f"/api/tables/{table_id}/join", json=body, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def _mine(site: TestClient) -> dict[str, Any]:
    answer = site.get("/api/my/games")
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_my_games_lists_turns_then_invitations_then_the_rest(database_url: str) -> None:
    clock = Clock()
    with client_for(database_url, clock=clock, **NO_LOOK) as site:
        carol = sign_up(site, "carol")
        use(site, None)
        bob = sign_up(site, "bob")
        use(site, None)
        alice = sign_up(site, "alice")
        two = ["open", "open"]
        tables: dict[str, str] = {}
        tokens: list[str] = []

        def days(name: str, move_time: float, alice_first: bool) -> None:
            first = 0
            tables[name] = _made(
                site, "take_stock", two, seed=seed_where(first), move_time=move_time
            )
            use(site, alice)
            tokens.append(_sit(site, tables[name], first if alice_first else 1)["token"])
            use(site, bob)
            tokens.append(_sit(site, tables[name])["token"])
            use(site, alice)

        days("late", 3 * DAY, alice_first=True)
        days("soon", HOUR, alice_first=True)
        days("others", DAY, alice_first=False)
        tables["real time"] = _made(site, "take_stock", ["open", "easy"], seed=seed_where(0))
        tokens.append(_sit(site, tables["real time"], 0)["token"])
        tables["waiting"] = _made(site, "take_stock", two, move_time=DAY)
        tokens.append(_sit(site, tables["waiting"])["token"])
        tables["finished"] = _made(site, "card_stock_market", ["open", "random"], seed=2)
        finished = _sit(site, tables["finished"])
        tokens.append(finished["token"])
        with site.websocket_connect(f"/ws/tables/{tables['finished']}") as ws:
            message = hello(ws, finished["token"])
            while message["status"] != "finished":
                if message["legal"]:
                    act(ws, message["version"], message["legal"][0]["id"])
                message = expect(ws, "state")
        use(site, carol)
        tables["invitation"] = _made(site, "take_stock", two, invited=[None, "Alice"])
        tokens.append(_sit(site, tables["invitation"], 0)["token"])

        use(site, alice)
        answer = _mine(site)
        order = ["soon", "late", "real time", "invitation", "waiting", "others", "finished"]
        assert [g["table"]["id"] for g in answer["games"]] == [tables[n] for n in order]
        assert answer["waiting"] == 4
        entry = dict(zip(order, answer["games"], strict=True))
        assert entry["soon"] == {
            **entry["soon"],
            "seat": 0,
            "your_turn": True,
            "invited": False,
            "to_move": 0,
            "deadline": START.timestamp() + HOUR,
            "time_left": HOUR,
        }
        assert entry["real time"]["your_turn"] and entry["real time"]["deadline"] is None
        assert entry["invitation"] == {
            **entry["invitation"],
            "seat": 1,
            "your_turn": False,
            "invited": True,
            "to_move": None,
            "deadline": None,
        }
        assert entry["others"]["to_move"] == 0 and entry["others"]["seat"] == 1
        assert entry["others"]["deadline"] == START.timestamp() + DAY
        assert entry["waiting"]["table"]["status"] == "waiting"
        assert entry["finished"]["table"]["status"] == "finished"
        assert entry["finished"]["to_move"] is None
        # A finished game says how it ended for the player, and when.
        final = site.get(f"/api/tables/{tables['finished']}/view").json()["result"]
        mine = final["scores"][entry["finished"]["seat"]]
        assert entry["finished"]["result"] == {
            "place": 1 + sum(s > mine for s in final["scores"]),
            "players": 2,
            "score": mine,
            "won": entry["finished"]["seat"] in final["winners"],
        }
        assert all(g["result"] is None for g in answer["games"] if g is not entry["finished"])
        assert all(isinstance(g["updated"], float) for g in answer["games"])
        # Nothing of anyone's that a table's page does not show: no token, no account id.
        assert set(answer) == {"games", "waiting", "invitations"}
        assert answer["invitations"] == 1
        for game in answer["games"]:
            assert set(game) == ENTRY_KEYS
            assert set(game["table"]) == TABLE_KEYS
            assert all(set(seat) == SEAT_KEYS for seat in game["table"]["seats"])
        raw = json.dumps(answer)
        ids = [i for (i,) in stored(database_url, "SELECT id FROM users")]
        assert len(ids) == 3
        assert not [secret for secret in [*ids, *tokens] if secret in raw]

        # Bob sees his own tables only, and the one seat kept for Alice is not his.
        use(site, bob)
        bobs = _mine(site)
        assert [g["table"]["id"] for g in bobs["games"]] == [
            tables[n] for n in ("others", "soon", "late")
        ]
        assert bobs["waiting"] == 1 and bobs["invitations"] == 0
        refused = site.post(f"/api/tables/{tables['invitation']}/join", json={}, headers=ORIGIN)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "table_full"
        use(site, alice)
        assert _sit(site, tables["invitation"])["seat"] == 1
        now = {g["table"]["id"]: g for g in _mine(site)["games"]}[tables["invitation"]]
        assert now["invited"] is False and now["table"]["status"] == "playing"

        # Past the hour, a bot made Alice's decision: the table waits for Bob or for her.
        clock.later(HOUR + 1)
        assert tables["soon"] in check(site)
        soon = {g["table"]["id"]: g for g in _mine(site)["games"]}[tables["soon"]]
        assert soon["table"]["version"] == 1
        assert soon["deadline"] == clock.now.timestamp() + HOUR


def test_my_games_shows_the_table_as_it_is_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    clock = Clock()
    with client_for(url, clock=clock, **NO_LOOK) as site:
        alice = sign_up(site, "alice")
        use(site, None)
        bob = sign_up(site, "bob")
        table_id = _made(site, "take_stock", ["open", "open"], seed=seed_where(1), move_time=DAY)
        _sit(site, table_id, 1)
        use(site, alice)
        _sit(site, table_id, 0)
    clock.later(HOUR)
    with client_for(url, clock=clock, **NO_LOOK) as site:
        use(site, bob)
        [game] = _mine(site)["games"]
        assert game["your_turn"] and game["time_left"] == DAY - HOUR
        use(site, alice)
        [game] = _mine(site)["games"]
        assert not game["your_turn"] and game["to_move"] == 1
