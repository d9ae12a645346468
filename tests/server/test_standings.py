"""Results, ratings, profiles and leaderboards (``server.ratings``, ``server.standings``).

Games are played to their end through the WebSocket by signed-in players and bots, on SQLite
and PostgreSQL; the rebuild (``closingbell ratings --rebuild``) must give back the live
figures to the last bit.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from closingbell.cli.main import main
from closingbell.server.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Finish,
    Ladder,
    displayed,
    provisional,
    ranks,
    rated_entries,
)
from closingbell.server.store import SeatRow, Store, TableRow
from closingbell.server.store.records import QueuedAction
from tests.server.helpers import (
    act,
    client_for,
    hello,
    join,
    postgres_database,
    wait_state,
)
from tests.server.test_accounts import ORIGIN, sign_up, stored, use

ONE_ROUND = {"rounds": 1}
"""Take Stock in one round: a game of a few dozen actions."""


@pytest.fixture
def site(database_url: str) -> Iterator[TestClient]:
    """A server on each database."""
    with client_for(database_url) as client:
        yield client


def rated_table(client: TestClient, seats: list[str], seed: int, **extra: Any) -> dict[str, Any]:
    """A rated one-round Take Stock table made by the signed-in player."""
    answer = client.post(
        "/api/tables",
        json={
            "game": "take_stock",
            "seats": seats,
            "options": ONE_ROUND,
            "seed": seed,
            "rated": True,
            **extra,
        },
        headers=ORIGIN,
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["table"]  # type: ignore[no-any-return]


def sit(client: TestClient, table_id: str) -> str:
    """Take a seat as the signed-in player; its token."""
    answer = client.post(f"/api/tables/{table_id}/join", json={}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]  # type: ignore[no-any-return]


def play_out(client: TestClient, table_id: str, tokens: list[str]) -> dict[str, Any]:
    """Play the table to its end, each token's seat taking its first legal action."""
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}")) for _ in tokens
        ]
        seen = [hello(ws, token) for ws, token in zip(sockets, tokens, strict=True)]
        seat_of = {state["seat"]: i for i, state in enumerate(seen)}
        latest = seen[0]
        while latest["status"] != "finished":
            version = latest["version"]
            mover = seat_of.get(latest["current_player"])
            if mover is not None:
                if seen[mover]["version"] != version:
                    seen[mover] = wait_state(sockets[mover], lambda m, v=version: m["version"] >= v)
                act(sockets[mover], version, seen[mover]["legal"][0]["id"])
            latest = seen[0] = wait_state(sockets[0], lambda m, v=version: m["version"] > v)
        return latest


def figures(url: str) -> dict[str, list[Any]]:
    """Every stored rating and rating change, in a fixed order."""
    return {
        "ratings": stored(
            url, "SELECT player, game, mu, sigma, games, updated_at FROM ratings ORDER BY 1, 2"
        ),
        "changes": stored(
            url, "SELECT table_id, player, game, mu, sigma, at FROM rating_changes ORDER BY 1, 2"
        ),
    }


def user_id(url: str, name: str) -> str:
    [(found,)] = stored(url, f"SELECT id FROM users WHERE username = '{name}'")
    return str(found)


def keys_of(value: Any) -> set[str]:
    """Every key of every object in a JSON answer."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


PROFILE_KEYS = {
    # the answer
    "username", "bot", "bot_account", "games", "results", "total", "limit", "offset", "puzzles",
    "tournaments",
    # a game
    "game", "rating", "rated_games", "history", "bots",
    # a rating (and a point of the history, a bot beside the player)
    "mu", "sigma", "provisional", "table", "at",
    # a finished game
    "finished_at", "seat", "score", "rank", "players", "rated",
}  # fmt: skip
"""Every key a profile may have: no id, hash or session ever."""

LEADERBOARD_KEYS = {"game", "players", "total", "limit", "offset", "place", "username", "bot",
                    "bot_account", "mu", "sigma", "rating", "provisional", "games"}  # fmt: skip
TABLE_RATINGS_KEYS = {"table", "game", "seats", "seat", "before", "after", "change", "rated_games",
                      "mu", "sigma", "rating", "provisional"}  # fmt: skip


# ---------------------------------------------------------------- the maths


def test_ranks_put_winners_first_and_share_ties() -> None:
    assert ranks([52, 29], [0]) == [0, 1]
    assert ranks([10, 30, 30, 5], [1, 2]) == [2, 0, 0, 3]
    assert ranks([10, 20, 20, 5], [1]) == [2, 0, 1, 3]
    # A tie-break that names one winner of two equal scores puts the other second.
    assert ranks([40, 40, 7], [1]) == [1, 0, 2]


def test_the_ladder_follows_openskill_and_rates_a_bot_seated_twice_once() -> None:
    model = PlackettLuce()
    ladder = Ladder()
    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    changes = ladder.play("t1", "take_stock", at, [("user:a", 0), ("bot:hard", 1)])
    [[a], [hard]] = model.rate([[model.rating()], [model.rating()]], ranks=[0.0, 1.0])
    assert [(c.player, c.mu, c.sigma) for c in changes] == [
        ("user:a", a.mu, a.sigma),
        ("bot:hard", hard.mu, hard.sigma),
    ]
    # Two Easy bots and a player: the level's new rating is the mean of its two seats'.
    later = ladder.when("take_stock", at, ["user:a", "bot:easy"])
    assert later == at + dt.timedelta(microseconds=1)  # after user:a's last game
    ladder.play("t2", "take_stock", later, [("bot:easy", 0), ("user:a", 1), ("bot:easy", 2)])
    teams = [[model.rating()], [model.rating(mu=a.mu, sigma=a.sigma)], [model.rating()]]
    [[e1], [a2], [e2]] = model.rate(teams, ranks=[0.0, 1.0, 2.0])
    easy = ladder.get("bot:easy", "take_stock")
    assert (easy.mu, easy.sigma, easy.games) == ((e1.mu + e2.mu) / 2, (e1.sigma + e2.sigma) / 2, 1)
    assert ladder.get("user:a", "take_stock").mu == a2.mu
    assert ladder.get("user:a", "take_stock").games == 2
    assert ladder.get("bot:hard", "card_stock_market").mu == DEFAULT_MU  # one rating per game
    assert displayed(DEFAULT_MU, DEFAULT_SIGMA) == pytest.approx(0)


def test_guests_and_lone_players_are_not_rated() -> None:
    assert rated_entries([(None, 0), ("bot:easy", 1)]) == []
    assert rated_entries([("bot:easy", 0), ("bot:easy", 1)]) == []  # a bot against itself
    assert rated_entries([("user:a", 1), (None, 0), ("bot:easy", 2)]) == [
        ("user:a", 1),
        ("bot:easy", 2),
    ]
    unrated = Finish("take_stock", False, ("user:a", "bot:easy"), (1.0, 2.0), (1, 0))
    assert unrated.entries() == []


# ---------------------------------------------------------------- games played to the end


def test_a_rated_game_stores_results_and_changes_ratings(
    site: TestClient, database_url: str
) -> None:
    sign_up(site, "Alice")
    table = rated_table(site, ["open", "hard"], seed=3)
    final = play_out(site, table["id"], [sit(site, table["id"])])
    scores = final["result"]["scores"]
    alice = f"user:{user_id(database_url, 'Alice')}"
    results = stored(database_url, "SELECT seat, player, score, rank FROM results ORDER BY seat")
    expected_ranks = ranks(scores, final["result"]["winners"])
    assert [(s, p, sc, r) for s, p, sc, r in results] == [
        (0, alice, scores[0], expected_ranks[0]),
        (1, "bot:hard", scores[1], expected_ranks[1]),
    ]
    model = PlackettLuce()
    new = model.rate([[model.rating()], [model.rating()]], ranks=[float(r) for r in expected_ranks])
    ratings = stored(database_url, "SELECT player, game, mu, sigma, games FROM ratings ORDER BY 1")
    assert sorted(ratings) == sorted(
        [
            (alice, "take_stock", new[0][0].mu, new[0][0].sigma, 1),
            ("bot:hard", "take_stock", new[1][0].mu, new[1][0].sigma, 1),
        ]
    )
    changes = stored(database_url, "SELECT table_id, player, mu FROM rating_changes ORDER BY 2")
    assert sorted(changes) == sorted(
        [(table["id"], alice, new[0][0].mu), (table["id"], "bot:hard", new[1][0].mu)]
    )
    [(finished_at,)] = stored(database_url, "SELECT DISTINCT finished_at FROM results")
    [(changed_at,)] = stored(database_url, "SELECT DISTINCT at FROM rating_changes")
    assert finished_at == changed_at

    shown = site.get("/api/players/alice").json()
    assert keys_of(shown) <= PROFILE_KEYS
    assert shown["username"] == "Alice" and shown["bot"] is None
    [take_stock] = [g for g in shown["games"] if g["game"] == "take_stock"]
    assert take_stock["rating"] == {
        "mu": new[0][0].mu,
        "sigma": new[0][0].sigma,
        "rating": displayed(new[0][0].mu, new[0][0].sigma),
        "provisional": True,  # a first rating
    }
    assert take_stock["rated_games"] == 1
    assert [(h["table"], h["mu"]) for h in take_stock["history"]] == [(table["id"], new[0][0].mu)]
    assert [b["bot"] for b in take_stock["bots"]] == ["hard"]
    assert shown["results"] == [
        {
            "table": table["id"],
            "game": "take_stock",
            "finished_at": take_stock["history"][0]["at"],
            "seat": 0,
            "score": scores[0],
            "rank": expected_ranks[0],
            "players": 2,
            "rated": True,
        }
    ]
    assert shown["total"] == 1
    others = [g for g in shown["games"] if g["game"] != "take_stock"]
    assert others and all(g["rating"] is None and g["history"] == [] for g in others)
    hard = site.get("/api/players/bot:hard").json()
    assert hard["username"] == "bot:hard" and hard["bot"] == "hard"
    assert hard["results"][0]["seat"] == 1 and hard["results"][0]["rated"] is True

    # The table says how it changed each seat's rating: from a new player's to the first.
    changed = site.get(f"/api/tables/{table['id']}/ratings").json()
    assert keys_of(changed) <= TABLE_RATINGS_KEYS
    assert changed["table"] == table["id"] and changed["game"] == "take_stock"
    start = displayed(DEFAULT_MU, DEFAULT_SIGMA)  # 0, as near as floats get
    for seat, (after,) in enumerate(new):
        entry = changed["seats"][seat]
        assert entry["seat"] == seat and entry["rated_games"] == 1
        assert entry["before"] == {
            "mu": DEFAULT_MU,
            "sigma": DEFAULT_SIGMA,
            "rating": start,
            "provisional": True,
        }
        assert entry["after"]["mu"] == after.mu and entry["after"]["provisional"] is True
        assert entry["change"] == displayed(after.mu, after.sigma) - entry["before"]["rating"]


def test_a_tables_rating_changes_follow_the_players_games(site: TestClient) -> None:
    sign_up(site, "Bea")
    first = rated_table(site, ["open", "easy"], seed=3)
    play_out(site, first["id"], [sit(site, first["id"])])
    second = rated_table(site, ["open", "easy"], seed=4)
    waiting = site.get(f"/api/tables/{second['id']}/ratings")
    assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "not_finished"
    play_out(site, second["id"], [sit(site, second["id"])])
    before = site.get(f"/api/tables/{first['id']}/ratings").json()["seats"][0]
    after = site.get(f"/api/tables/{second['id']}/ratings").json()["seats"][0]
    # The second game starts from the rating the first left.
    assert after["before"] == before["after"] and after["rated_games"] == 2
    unrated = rated_table(site, ["open", "easy"], seed=5, rated=False)
    play_out(site, unrated["id"], [sit(site, unrated["id"])])
    assert site.get(f"/api/tables/{unrated['id']}/ratings").json()["seats"] == []
    missing = site.get("/api/tables/no-such-table/ratings")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_table"


def test_a_rating_is_provisional_for_about_the_first_five_games() -> None:
    assert provisional(DEFAULT_SIGMA)
    ladder = Ladder()
    start = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    games = 0
    while provisional(ladder.get("user:a", "take_stock").sigma):
        games += 1
        at = ladder.when("take_stock", start, ["user:a", "bot:easy"])
        ladder.play(
            f"t{games}", "take_stock", at, [("user:a", games % 2), ("bot:easy", 1 - games % 2)]
        )
    assert 4 <= games <= 7


def test_an_unrated_game_stores_results_and_changes_no_rating(
    site: TestClient, database_url: str
) -> None:
    cookie = sign_up(site, "Bea")
    made = site.post(
        "/api/tables",
        json={
            "game": "take_stock",
            "seats": ["open", "open", "easy"],
            "options": ONE_ROUND,
            "seed": 4,
        },
        headers=ORIGIN,
    ).json()["table"]
    mine = sit(site, made["id"])
    use(site, None)
    guest = join(site, made["id"], "Guest")["token"]
    use(site, cookie)
    final = play_out(site, made["id"], [mine, guest])
    bea = f"user:{user_id(database_url, 'Bea')}"
    results = stored(database_url, "SELECT seat, player, score FROM results ORDER BY seat")
    assert results == [
        (0, bea, final["result"]["scores"][0]),
        (1, None, final["result"]["scores"][1]),  # a guest's seat belongs to no one
        (2, "bot:easy", final["result"]["scores"][2]),
    ]
    assert figures(database_url) == {"ratings": [], "changes": []}
    shown = site.get("/api/players/Bea").json()
    assert shown["results"][0]["rated"] is False and shown["results"][0]["players"] == 3
    assert all(g["rating"] is None for g in shown["games"])


def test_the_rebuild_gives_the_live_figures_exactly(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with client_for(database_url) as site:
        cara = sign_up(site, "Cara")
        use(site, None)
        dan = sign_up(site, "Dan")
        use(site, cara)
        first = rated_table(site, ["open", "medium"], seed=5)
        play_out(site, first["id"], [sit(site, first["id"])])
        # Two players and an Easy bot in two seats, then Dan against the medium bot.
        second = rated_table(site, ["open", "open", "easy", "easy"], seed=6)
        tokens = [sit(site, second["id"])]
        use(site, dan)
        tokens.append(sit(site, second["id"]))
        play_out(site, second["id"], tokens)
        third = rated_table(site, ["open", "medium"], seed=7)
        play_out(site, third["id"], [sit(site, third["id"])])
        live = figures(database_url)
        capsys.readouterr()
        if database_url.startswith("sqlite"):  # one server at a time on an SQLite file
            assert main(["ratings", "--rebuild", "--database", database_url]) == 1
            assert "in use by another closingbell server" in capsys.readouterr().err
        else:  # servers sharing a PostgreSQL database go on while it is rebuilt
            assert main(["ratings", "--rebuild", "--database", database_url]) == 0
            assert figures(database_url) == live
    assert len(live["changes"]) == 2 + 3 + 2
    games = {player: count for player, _, _, _, count, _ in live["ratings"]}
    assert games["bot:easy"] == 1 and games["bot:medium"] == 2
    assert sorted(games.values()) == [1, 2, 2, 2]

    capsys.readouterr()
    assert main(["ratings", "--rebuild", "--database", database_url]) == 0
    out = capsys.readouterr().out
    assert "4 ratings from 3 rated games" in out
    assert figures(database_url) == live

    assert main(["ratings", "--database", database_url]) == 0
    board = capsys.readouterr().out
    assert "Take Stock (4 rated)" in board and "Card Stock Market (0 rated)" in board
    assert "Dan" in board and "bot:medium" in board and "user:" not in board
    with client_for(database_url) as site:
        shown = site.get("/api/leaderboard/take_stock").json()
    assert keys_of(shown) <= LEADERBOARD_KEYS
    values = [p["rating"] for p in shown["players"]]
    assert values == sorted(values, reverse=True) and shown["total"] == 4
    assert [p["place"] for p in shown["players"]] == [1, 2, 3, 4]
    assert {p["username"] for p in shown["players"]} == {"Cara", "Dan", "bot:easy", "bot:medium"}
    assert all(p["bot"] == p["username"][4:] for p in shown["players"] if p["bot"])


def test_the_ratings_command_says_what_is_wrong_in_one_line(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    assert main(["ratings", "--database", str(missing)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such database file" in err and not missing.exists()
    foreign = tmp_path / "foreign.db"
    foreign.write_text("not a database at all, but long enough to be read as one " * 40)
    for argv in (["ratings"], ["ratings", "--rebuild"]):
        assert main([*argv, "--database", str(foreign)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is not an SQLite database" in err
    assert main(["ratings", "--database", "postgresql://nobody:x@127.0.0.1:1/none"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("closingbell ratings: cannot use")
    empty = tmp_path / "fresh.db"
    with client_for(f"sqlite:///{empty}"):
        pass
    assert main(["ratings", "--database", str(empty)]) == 0
    assert "no rated game yet" in capsys.readouterr().out
    assert run_ratings_from_environment(empty) == 0


def run_ratings_from_environment(path: Any) -> int:
    """``closingbell ratings`` with the database named by CLOSINGBELL_DATABASE only."""
    from closingbell.cli import ratings
    from closingbell.cli.main import build_parser

    args = build_parser().parse_args(["ratings"])
    return ratings.run(args, {"CLOSINGBELL_DATABASE": str(path)})


def test_profiles_and_leaderboards_are_bounded_and_say_what_is_unknown(
    site: TestClient, database_url: str
) -> None:
    sign_up(site, "Eve")
    for seed in (8, 9, 10):
        made = rated_table(site, ["open", "easy"], seed=seed)
        play_out(site, made["id"], [sit(site, made["id"])])
    page = site.get("/api/players/eve?limit=2").json()
    assert (page["total"], page["limit"], page["offset"], len(page["results"])) == (3, 2, 0, 2)
    rest = site.get("/api/players/eve?limit=2&offset=2").json()
    assert len(rest["results"]) == 1
    newest_first = [r["finished_at"] for r in page["results"] + rest["results"]]
    assert newest_first == sorted(newest_first, reverse=True)
    [history] = [g["history"] for g in page["games"] if g["game"] == "take_stock"]
    assert [h["at"] for h in history] == sorted(newest_first)  # oldest first
    assert site.get("/api/players/eve?offset=10").json()["results"] == []
    for query in ("limit=0", "limit=101", "offset=-1", "offset=100001", "limit=x"):
        refused = site.get(f"/api/players/eve?{query}")
        assert refused.status_code == 422, query
        assert refused.json()["error"]["code"] == "bad_request"
        refused = site.get(f"/api/leaderboard/take_stock?{query}")
        assert refused.status_code == 422, query
    board = site.get("/api/leaderboard/take_stock?limit=1&offset=1").json()
    assert [p["place"] for p in board["players"]] == [2] and board["total"] == 2
    assert site.get("/api/leaderboard/card_stock_market").json()["players"] == []
    for path, code in (
        ("/api/players/nobody", "unknown_player"),
        ("/api/players/bot:grandmaster", "unknown_player"),
        ("/api/players/" + "x" * 300, "unknown_player"),
        ("/api/leaderboard/chess", "unknown_game"),
    ):
        answer = site.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"]["code"] == code
    # Nothing private in any answer: no id, no hash, no session.
    eve = user_id(database_url, "Eve")
    for path in ("/api/players/Eve", "/api/players/bot:easy", "/api/leaderboard/take_stock"):
        text = site.get(path).text
        assert eve not in text and "user:" not in text and "argon2" not in text


def test_the_pages_are_served(site: TestClient) -> None:
    for path, script in (("/players/someone", "profile.js"), ("/leaderboard", "leaderboard.js")):
        answer = site.get(path)
        assert answer.status_code == 200 and f"/static/{script}" in answer.text
    assert 'href: "/leaderboard"' in site.get("/static/lobby.js").text


# ---------------------------------------------------------------- storage


def _table(table_id: str, seats: list[str]) -> TableRow:
    return TableRow(
        id=table_id,
        game="take_stock",
        options={"players": len(seats)},
        seed=1,
        clock=None,
        status="playing",
        seats=[SeatRow(seat=i, kind="bot", bot=b) for i, b in enumerate(seats)],
        rated=True,
    )


def test_a_failed_last_write_stores_neither_the_action_nor_the_results(
    database_url: str,
) -> None:
    finish = Finish("take_stock", True, ("bot:easy", "bot:hard"), (3.0, 1.0), (0, 1))

    async def run() -> None:
        store = Store(database_url)
        await store.open()
        try:
            await store.tables.create(_table("t1", ["easy", "hard"]))
            async with store.engine.begin() as conn:  # a results row in the way
                await conn.execute(
                    sa.text(
                        "INSERT INTO results (table_id, seat, player, score, rank, finished_at)"
                        " VALUES ('t1', 1, NULL, 0, 0, :at)"
                    ),
                    {"at": dt.datetime.now(dt.UTC)},
                )
            with pytest.raises(sa.exc.IntegrityError):
                await store.actions.append(
                    "t1", 0, 0, 5, text="x", status="finished", finish=finish
                )
        finally:
            await store.close()

    asyncio.run(run())
    assert stored(database_url, "SELECT version, status FROM tables") == [(0, "playing")]
    assert stored(database_url, "SELECT count(*) FROM actions") == [(0,)]
    assert figures(database_url) == {"ratings": [], "changes": []}


def test_two_servers_finishing_games_of_one_bot_take_turns_on_postgresql() -> None:
    """Server A holds bot:hard's rating (its game is being stored); server B's game with the
    same bot waits for it, then rates on top of A's change, dated after it even though A's
    clock runs an hour ahead; the rebuild agrees."""
    first = Finish("take_stock", True, ("bot:easy", "bot:hard"), (10.0, 5.0), (0, 1))
    second = Finish("take_stock", True, ("bot:hard", "bot:expert"), (3.0, 7.0), (1, 0))
    ahead = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)

    async def run(url: str) -> None:
        a, b = Store(url), Store(url)
        await a.open()
        await b.open()
        try:
            await a.tables.create(_table("t1", ["easy", "hard"]))
            await a.tables.create(_table("t2", ["hard", "expert"]))
            async with a.writing("actions") as conn:
                await a.ratings.store_finishes(
                    conn, [QueuedAction("t1", 0, 0, 5, "x", "finished", ahead, finish=first)]
                )
                waiting = asyncio.create_task(
                    b.actions.append("t2", 0, 0, 5, text="x", status="finished", finish=second)
                )
                await asyncio.sleep(0.5)
                assert not waiting.done()
            await waiting
        finally:
            await a.close()
            await b.close()

    with postgres_database() as url:
        asyncio.run(run(url))
        ladder = Ladder()
        ladder.play("t1", "take_stock", ahead, first.entries())
        after = ladder.when("take_stock", dt.datetime.now(dt.UTC), ["bot:hard", "bot:expert"])
        assert after == ahead + dt.timedelta(microseconds=1)
        ladder.play("t2", "take_stock", after, second.entries())
        live = figures(url)
        expected = sorted(
            (player, game, s.mu, s.sigma, s.games) for (player, game), s in ladder.standings.items()
        )
        assert [row[:5] for row in live["ratings"]] == expected
        [(t2_at,)] = stored(url, "SELECT DISTINCT finished_at FROM results WHERE table_id = 't2'")
        assert t2_at == after
        assert main(["ratings", "--rebuild", "--database", url]) == 0
        assert figures(url) == live
