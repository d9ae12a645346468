"""Tournaments: pairing and points, the routes' refusals, and a whole Swiss tournament of
people, bot accounts and built-in bots played through the API on real server processes
(SQLite, and PostgreSQL with two servers sharing the database)."""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect
from websockets.typing import Origin

from closingbell.server.accounts import SESSION_COOKIE
from closingbell.server.pairing import (
    Entrant,
    arena_points,
    arena_tables,
    pairs,
    place_points,
    swiss_round,
    table_sizes,
)
from tests.server.helpers import client_for, postgres_database, sqlite_database
from tests.server.test_accounts import ORIGIN, sign_up, stored
from tests.server.test_serve import server

PASSWORD = "a good long password"
QUICK = {
    "CLOSINGBELL_RATE": "1000",
    "CLOSINGBELL_BURST": "1000",
    "CLOSINGBELL_ADDRESS_RATE": "0",
    "CLOSINGBELL_ADDRESS_CONNECTIONS": "0",
    "CLOSINGBELL_SIGN_UPS_PER_ADDRESS": "0",
    "CLOSINGBELL_TOURNAMENT_TICK": "0.2",
    "CLOSINGBELL_LEASE_SECONDS": "2",
}
"""The servers' settings: players who choose as fast as a program, a quick director."""

# ---------------------------------------------------------------- pairing and points


def test_tables_are_as_even_as_the_entrants_allow() -> None:
    assert table_sizes(8, 2) == [2, 2, 2, 2]
    assert table_sizes(9, 2) == [2, 2, 2, 2]  # one bye
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(7, 6) == [4, 3]
    assert table_sizes(1, 4) == []
    with pytest.raises(ValueError, match="2 to 6"):
        table_sizes(8, 7)


def test_place_points_share_out_a_table_and_ties_split() -> None:
    assert place_points([0, 1]) == [1.0, 0.0]
    assert place_points([0, 0]) == [0.5, 0.5]
    assert place_points([1, 0, 2, 3]) == [2 / 3, 1.0, 1 / 3, 0.0]
    assert place_points([0, 1, 1]) == [1.0, 0.25, 0.25]
    assert arena_points(1.0, True, 0) == (2.0, 1)
    assert arena_points(1.0, True, 2) == (4.0, 3)  # on a streak: doubled
    assert arena_points(0.5, False, 3) == (1.0, 0)


def test_swiss_rounds_repeat_nobody_when_they_can_and_give_byes_to_the_last() -> None:
    rng = random.Random(4)
    for count, size, rounds in ((8, 2, 3), (9, 2, 5), (64, 2, 7), (30, 3, 6)):
        scores = dict.fromkeys((f"e{i:02}" for i in range(count)), 0.0)
        met: set[frozenset[str]] = set()
        byes: set[str] = set()
        repeats = 0
        for _ in range(rounds):
            order = [Entrant(k, s) for k, s in scores.items()]
            seating = swiss_round(order, size, met, byes)
            seated = [k for table in seating.tables for k in table]
            assert sorted(seated + ([seating.bye] if seating.bye else [])) == sorted(scores)
            if seating.bye is not None:
                assert seating.bye not in byes
                byes.add(seating.bye)
                scores[seating.bye] += 1
            repeats += len(pairs(seating.tables) & met)
            assert seating.repeats == len(pairs(seating.tables) & met)
            for table in seating.tables:
                places = list(range(len(table)))
                rng.shuffle(places)
                for key, got in zip(table, place_points(places), strict=True):
                    scores[key] += got
            met |= pairs(seating.tables)
        if size == 2:
            assert repeats == 0, (count, rounds)
        else:
            assert repeats <= 1, (count, rounds)
    # The leaders meet: tables are made from the top of the standings.
    leaders = [Entrant("a", 3), Entrant("b", 3), Entrant("c", 0), Entrant("d", 0)]
    assert swiss_round(leaders, 2, set(), set()).tables == [["a", "b"], ["c", "d"]]
    assert swiss_round(leaders, 2, {frozenset("ab")}, set()).tables == [["a", "c"], ["b", "d"]]


def test_an_arena_seats_full_tables_and_avoids_the_last_opponents() -> None:
    waiting = [Entrant("a", 4), Entrant("b", 3), Entrant("c", 2), Entrant("d", 1), Entrant("e")]
    tables = arena_tables(waiting, 2, {"a": {"b"}, "b": {"a"}})
    assert tables == [["a", "c"], ["b", "d"]]  # e waits for the next one free
    assert arena_tables(waiting[:1], 2, {}) == []


# ---------------------------------------------------------------- the routes


@pytest.fixture
def site(database_url: str) -> Iterator[TestClient]:
    with client_for(database_url) as client:
        yield client


SWISS = {"kind": "swiss", "name": "Friday Swiss", "game": "card_stock_market", "table_size": 2}


def test_a_tournament_is_refused_with_a_reason_and_nothing_made(site: TestClient) -> None:
    refused = site.post("/api/tournaments", json={**SWISS, "rounds": 3}, headers=ORIGIN)
    assert refused.status_code == 401  # signed in first
    sign_up(site, "maker")
    for body, code in (
        ({**SWISS}, "bad_request"),  # no rounds
        ({**SWISS, "rounds": 3, "minutes": 10}, "bad_request"),
        ({**SWISS, "kind": "arena", "rounds": 3}, "bad_request"),
        ({**SWISS, "rounds": 3, "game": "chess"}, "unknown_game"),
        ({**SWISS, "rounds": 3, "table_size": 7}, "bad_request"),
        ({**SWISS, "rounds": 3, "bots": ["grandmaster"]}, "unknown_bot"),
        ({**SWISS, "rounds": 3, "options": {"bank": -5}}, "bad_options"),
        ({**SWISS, "rounds": 3, "name": "  "}, "bad_request"),
        ({**SWISS, "rounds": 3, "name": "a\u202eb"}, "bad_request"),
    ):
        answer = site.post("/api/tournaments", json=body, headers=ORIGIN)
        assert answer.json()["error"]["code"] == code, (body, answer.text)
    assert site.get("/api/tournaments").json()["tournaments"] == []
    missing = site.get("/api/tournaments/nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_tournament"


def test_entering_withdrawing_and_who_may(site: TestClient) -> None:
    sign_up(site, "maker")
    made = site.post(
        "/api/tournaments",
        json={**SWISS, "rounds": 2, "bots": ["easy", "easy"], "bot_accounts": False},
        headers=ORIGIN,
    )
    assert made.status_code == 201, made.text
    t = made.json()["tournament"]
    assert (t["status"], t["entrants"], t["rounds"]) == ("open", 2, 2)
    path = f"/api/tournaments/{t['id']}"
    assert site.post(f"{path}/join", headers=ORIGIN).json() == {"entered": True, "new": True}
    shown = site.get(path).json()
    assert shown["you"] == {
        "entered": True,
        "paused": False,
        "table": None,
        "may_enter": True,
        "creator": True,
    }
    names = sorted((s["name"], s["bot"], s["bot_account"]) for s in shown["standings"])
    assert names == [
        ("bot:easy:1", "easy", False),
        ("bot:easy:2", "easy", False),
        ("maker", None, False),
    ]
    assert "user:" not in json.dumps(shown)  # no account id in any answer
    assert site.post(f"{path}/withdraw", headers=ORIGIN).json() == {"withdrawn": True}
    again = site.post(f"{path}/withdraw", headers=ORIGIN)
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_entered"
    assert site.post(f"{path}/join", headers=ORIGIN).json() == {"entered": True, "new": False}
    # A bot account may not enter where its creator said so.
    sign_up(site, "robo")
    assert site.post("/api/account/bot", headers=ORIGIN).status_code == 200
    refused = site.post(f"{path}/join", headers=ORIGIN)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "bot_accounts_not_allowed"
    # Only its creator starts it early.
    early = site.post(f"{path}/start", headers=ORIGIN)
    assert early.status_code == 403 and early.json()["error"]["code"] == "not_creator"


# ---------------------------------------------------------------- a whole Swiss tournament


class Player(threading.Thread):
    """An entrant's program: plays each of its tournament tables with random legal actions."""

    def __init__(self, bases: list[str], tournament: str, auth: dict[str, str], seed: int):
        super().__init__(daemon=True)
        self.bases, self.tournament, self.auth = bases, tournament, auth
        self.rng = random.Random(seed)
        self.played: list[str] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _run(self) -> None:
        deadline = time.monotonic() + 240
        turn = 0
        while time.monotonic() < deadline:
            base = self.bases[turn % len(self.bases)]
            turn += 1
            shown = httpx.get(
                f"{base}/api/tournaments/{self.tournament}", headers=self.auth, timeout=10
            ).json()
            if shown["tournament"]["status"] in ("finished", "cancelled"):
                return
            table = (shown["you"] or {}).get("table")
            if table is None or table in self.played:
                time.sleep(0.1)
                continue
            self._play(base, table)
            self.played.append(table)
        raise AssertionError("the tournament did not end in time")

    def _play(self, base: str, table: str) -> None:
        with connect(
            base.replace("http://", "ws://") + f"/ws/tables/{table}",
            origin=Origin(base),
            additional_headers=self.auth,
        ) as ws:
            ws.send(json.dumps({"type": "hello", "account": True}))
            while True:
                message = json.loads(ws.recv(timeout=60))
                if message["type"] == "error":
                    assert message["code"] in ("stale_version", "not_your_turn"), message
                if message["type"] != "state":
                    continue
                if message["status"] in ("finished", "abandoned"):
                    return
                if message["legal"]:
                    action = self.rng.choice(message["legal"])["id"]
                    ws.send(
                        json.dumps(
                            {"type": "action", "version": message["version"], "action": action}
                        )
                    )


def _people_and_bot_accounts(base: str) -> dict[str, dict[str, str]]:
    """Two people (their session cookies) and two bot accounts (API tokens), by name."""
    auth = {}
    for name, bot in (("ana", False), ("bruno", False), ("robo1", True), ("robo2", True)):
        client = httpx.Client(base_url=base, headers={"Origin": base}, timeout=10)
        assert (
            client.post(
                "/api/account/signup", json={"username": name, "password": PASSWORD}
            ).status_code
            == 201
        )
        if bot:
            assert client.post("/api/account/bot").status_code == 200
            token = client.post("/api/account/tokens", json={"name": "t"}).json()["token"]
            auth[name] = {"Authorization": f"Bearer {token}"}
        else:
            auth[name] = {
                "Cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}",
            }
    return auth


def _swiss_to_the_end(bases: list[str]) -> dict[str, Any]:
    """8 entrants over 3 rounds (2 people, 2 bot accounts, 4 built-in bots); its last answer."""
    auth = _people_and_bot_accounts(bases[0])
    made = httpx.post(
        f"{bases[0]}/api/tournaments",
        json={
            **SWISS,
            "rounds": 3,
            "starts_in": 3600,
            "clock": 30,
            "rated": True,
            "bots": ["random", "random", "easy", "easy"],
        },
        headers={**auth["ana"], "Origin": bases[0]},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    tid = made.json()["tournament"]["id"]
    for i, name in enumerate(auth):
        base = bases[i % len(bases)]
        joined = httpx.post(
            f"{base}/api/tournaments/{tid}/join", headers={**auth[name], "Origin": base}, timeout=10
        )
        assert joined.status_code == 200, joined.text
    players = [Player(bases, tid, auth[name], seed) for seed, name in enumerate(auth)]
    for p in players:
        p.start()
    started = httpx.post(
        f"{bases[-1]}/api/tournaments/{tid}/start",
        headers={**auth["ana"], "Origin": bases[-1]},
        timeout=10,
    )
    assert started.status_code == 200, started.text
    for p in players:
        p.join(300)
        assert p.error is None, repr(p.error)
    shown = httpx.get(f"{bases[0]}/api/tournaments/{tid}", timeout=10).json()
    for p in players:
        assert len(p.played) == 3, shown  # every round, every entrant at a table
    assert shown["tournament"]["status"] == "finished"
    return shown


def _check_swiss(shown: dict[str, Any]) -> None:
    rounds = shown["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3]
    met: Counter[frozenset[str]] = Counter()
    won: Counter[str] = Counter()
    for r in rounds:
        assert len(r["tables"]) == 4
        seated = [s["name"] for table in r["tables"] for s in table["seats"]]
        assert len(seated) == len(set(seated)) == 8
        for table in r["tables"]:
            assert table["status"] == "finished" and table["points"] is not None
            for a, b in combinations([s["name"] for s in table["seats"]], 2):
                met[frozenset((a, b))] += 1
            for seat, got in zip(table["seats"], table["points"], strict=True):
                assert got in (0.0, 0.5, 1.0)
                if not seat["bot"]:
                    won[seat["name"]] += got
            assert sum(table["points"]) == 1.0
    # People and bot accounts: each line's points are its games' points.
    lines = {s["name"]: s for s in shown["standings"] if not s["bot"]}
    for name, line in lines.items():
        assert line["score"] == won[name] and line["games"] == 3 and line["byes"] == 0
    assert lines["robo1"]["bot_account"] and not lines["ana"]["bot_account"]
    places = [s["place"] for s in shown["standings"]]
    assert places == list(range(1, 9))
    scores = [s["score"] for s in shown["standings"]]
    assert scores == sorted(scores, reverse=True) and sum(scores) == 12.0
    # No two entrants met twice (8 entrants at tables of 2 over 3 rounds: avoidable).
    assert set(met.values()) == {1} and len(met) == 12


def test_a_swiss_tournament_of_eight_is_played_to_the_end_on_sqlite(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'web.db'}"
    with server(database, tmp_path, environment=QUICK) as (base, _):
        shown = _swiss_to_the_end([base])
        _check_swiss(shown)
        profile = httpx.get(f"{base}/api/players/ana", timeout=10).json()
        [entry] = profile["tournaments"]
        assert entry["name"] == "Friday Swiss" and entry["entrants"] == 8
        assert entry["place"] in range(1, 9)


def test_a_swiss_tournament_goes_on_over_two_servers_on_postgresql(tmp_path: Path) -> None:
    with (
        postgres_database() as url,
        server(url, tmp_path, environment=QUICK) as (one, _),
        server(url, tmp_path, environment=QUICK) as (two, _),
    ):
        shown = _swiss_to_the_end([one, two])
        _check_swiss(shown)


def test_another_server_takes_a_tournament_over_when_its_director_stops(tmp_path: Path) -> None:
    """Two servers on one database: the director of a tournament of bots stops directing
    mid-tournament without a word (as a dying server does); within a lease time the other
    directs it, and it is played to its end, every round whole."""
    from tests.server.test_cluster import servers

    with (
        postgres_database() as url,
        servers(url, 2, tournament_tick=0.1, lease_seconds=1.0, bot_delay=0) as clients,
    ):
        one, two = clients
        sign_up(one, "maker")
        made = one.post(
            "/api/tournaments",
            json={**SWISS, "rounds": 3, "starts_in": 0, "bots": ["random"] * 6},
            headers=ORIGIN,
        ).json()["tournament"]
        path = f"/api/tournaments/{made['id']}"
        deadline = time.monotonic() + 30
        while not one.get(path).json()["rounds"]:
            assert time.monotonic() < deadline, "the first round was not seated"
            time.sleep(0.05)
        directors = [c.app.state.hub.director for c in clients]  # type: ignore[attr-defined]
        held = stored(url, f"SELECT server FROM tournaments WHERE id = '{made['id']}'")[0][0]
        [first] = [d for d in directors if d.server_id == held]
        assert first._task is not None
        first._task.cancel()  # stops directing, hands nothing over
        deadline = time.monotonic() + 60
        while (shown := two.get(path).json())["tournament"]["status"] != "finished":
            tables = [
                (r["round"], t["status"], t["points"]) for r in shown["rounds"] for t in r["tables"]
            ]
            assert time.monotonic() < deadline, (shown["tournament"]["status"], tables)
            time.sleep(0.1)
        [other] = [d for d in directors if d is not first]
        assert stored(url, f"SELECT server FROM tournaments WHERE id = '{made['id']}'")[0][0] in (
            None,
            other.server_id,
        )
        assert [len(r["tables"]) for r in shown["rounds"]] == [3, 3, 3]
        assert sum(s["score"] for s in shown["standings"]) == 9.0
        assert sorted(s["place"] for s in shown["standings"]) == list(range(1, 7))


class JumpClock:
    """The wall clock, moved on when the test says."""

    def __init__(self) -> None:
        self.offset = dt.timedelta()

    def __call__(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC) + self.offset

    def later(self, seconds: float) -> None:
        self.offset += dt.timedelta(seconds=seconds)


def test_an_arena_seats_entrants_again_as_games_end_and_stops_at_its_time(
    database_url: str,
) -> None:
    """Five bots in an arena at tables of 2: each is seated again as soon as its game ends
    (the odd one waits), wins count double after two in a row, no table starts once the
    time is up, and the arena finishes with its last table."""
    clock = JumpClock()
    with client_for(database_url, clock=clock, tournament_tick=0.05) as site:
        sign_up(site, "maker")
        made = site.post(
            "/api/tournaments",
            json={
                **SWISS,
                "kind": "arena",
                "minutes": 5,
                "starts_in": 0,
                "bots": ["random"] * 5,
            },
            headers=ORIGIN,
        ).json()["tournament"]
        path = f"/api/tournaments/{made['id']}"
        deadline = time.monotonic() + 60
        while len((shown := site.get(path).json())["rounds"]) < 6:
            assert time.monotonic() < deadline, shown["rounds"]
            time.sleep(0.05)
        clock.later(6 * 60)  # the time is up: the tables being played are finished
        deadline = time.monotonic() + 60
        while (shown := site.get(path).json())["tournament"]["status"] != "finished":
            assert time.monotonic() < deadline, shown["tournament"]
            time.sleep(0.05)
        seatings = shown["rounds"]
        assert len(seatings) >= 6
        streak: Counter[str] = Counter()
        totals: Counter[str] = Counter()
        for seating in seatings:
            for table in seating["tables"]:
                names = [s["name"] for s in table["seats"]]
                assert len(names) == 2 and table["status"] == "finished"
                for name, got in zip(names, table["points"], strict=True):
                    won = got in (2.0, 4.0)
                    assert got in (0.0, 1.0, 2.0, 4.0)
                    assert (got == 4.0) == (won and streak[name] >= 2), (name, streak, got)
                    streak[name] = streak[name] + 1 if won else 0
                    totals[name] += got
        lines = {s["name"]: s for s in shown["standings"]}
        assert len(lines) == 5
        for name, line in lines.items():
            assert line["score"] == totals[name] and line["games"] >= 1
        # Nobody sat at two tables of one seating, and the seatings came one after another.
        for seating in seatings:
            seated = [s["name"] for t in seating["tables"] for s in t["seats"]]
            assert len(seated) == len(set(seated))
        assert [s["round"] for s in seatings] == list(range(1, len(seatings) + 1))


def test_a_player_away_for_a_round_is_counted_absent_and_can_come_back(tmp_path: Path) -> None:
    """A person who enters a Swiss tournament and never comes to the table: the turn clock
    lets a bot play every turn of the seat, so the game counts as an absence and the entrant
    is paused; the next round seats the others only and counts one more absence; entering
    again unpauses, and the round after seats the person again."""
    with client_for(
        sqlite_database(tmp_path / "web.db"), tournament_tick=0.05, bot_delay=0.01
    ) as site:
        sign_up(site, "away")
        made = site.post(
            "/api/tournaments",
            json={**SWISS, "rounds": 3, "starts_in": 3600, "clock": 5, "bots": ["random"] * 3},
            headers=ORIGIN,
        ).json()["tournament"]
        path = f"/api/tournaments/{made['id']}"
        assert site.post(f"{path}/join", headers=ORIGIN).json() == {"entered": True, "new": True}
        assert site.post(f"{path}/start", headers=ORIGIN).status_code == 200

        def wait_for(what: str, done: Any) -> dict[str, Any]:
            deadline = time.monotonic() + 60
            while not done(shown := site.get(path).json()):
                assert time.monotonic() < deadline, (what, shown)
                time.sleep(0.05)
            return shown  # type: ignore[no-any-return]

        def line(shown: dict[str, Any]) -> dict[str, Any]:
            return next(s for s in shown["standings"] if s["name"] == "away")  # type: ignore[no-any-return]

        def seated(shown: dict[str, Any], number: int) -> list[str]:
            return [
                s["name"]
                for r in shown["rounds"]
                if r["round"] == number
                for t in r["tables"]
                for s in t["seats"]
            ]

        # A round is planned before its tables are made: wait for the player's table.
        shown = wait_for("round 1", lambda s: s["rounds"] and s["you"]["table"])
        assert "away" in seated(shown, 1) and shown["you"]["table"] is not None
        # Nobody comes: the clock's bot plays the seat's every turn.
        shown = wait_for("round 2", lambda s: len(s["rounds"]) == 2)
        assert "away" not in seated(shown, 2) and len(seated(shown, 2)) == 2
        assert (line(shown)["absences"], line(shown)["paused"], line(shown)["games"]) == (
            2,
            True,
            1,
        )
        assert shown["you"] == {**shown["you"], "entered": True, "paused": True, "table": None}
        # Back before the next round: seated in it.
        back = site.post(f"{path}/join", headers=ORIGIN)
        assert back.json() == {"entered": True, "new": False}
        shown = site.get(path).json()
        assert shown["you"]["paused"] is False and line(shown)["paused"] is False
        assert len(shown["rounds"]) == 2, "the test came back too late: round 3 was seated"
        shown = wait_for("round 3", lambda s: len(s["rounds"]) == 3 and s["you"]["table"])
        assert "away" in seated(shown, 3) and shown["you"]["table"] is not None
        assert line(shown)["absences"] == 2
