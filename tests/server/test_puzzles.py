"""Puzzles over HTTP: what a player is sent before and after choosing, ratings, refusals.

The server is given a small puzzle file of its own in place of the shipped ones. A puzzle
is sent as its seat's view (checked field by field, and for the position's hidden text);
the best action and every action's worth come only with the answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import closingbell
from closingbell.cli.main import main
from closingbell.puzzles import Puzzle, Worth, write_puzzles
from closingbell.server import puzzles as served
from closingbell.server.ratings import DEFAULT_MU, DEFAULT_SIGMA, displayed
from closingbell.server.store.puzzles import rate
from closingbell.text.games import narrator_for
from tests.puzzles.test_finder import SELL_CLUBS
from tests.puzzles.test_themes import LIMIT
from tests.server.helpers import client_for
from tests.server.leakcheck import position_parts
from tests.server.test_accounts import ORIGIN, sign_up

PUZZLE_KEYS = {
    "type", "id", "game", "title", "options", "seat", "names", "view", "legal", "question",
    "themes", "rating", "tried", "solved", "daily",
}  # fmt: skip
"""Every field of a puzzle as sent before the choice: nothing about the answer."""

ANSWER_KEYS = {
    "type", "id", "chosen", "best", "solved", "verdict", "worths", "reason", "horizon", "first",
    "rating", "puzzle_rating",
}  # fmt: skip


def made(
    game_name: str,
    players: int,
    position: str,
    themes: tuple[str, ...],
    *,
    best: int = 1,
    horizon: str = "game",
) -> Puzzle:
    """A puzzle of ``position`` whose ``best``-th legal action is the answer."""
    game = closingbell.load_game(game_name, players=players)
    state = game.state_from_position(position)
    seat = state.current_player
    assert seat is not None
    legal = list(state.legal_actions())
    order = [legal[best], *(a for a in legal if a != legal[best])]
    worths = tuple(
        Worth(
            a,
            (30.0 - 25 * i, 20.0 - 25 * i, 40.0 - 25 * i),
            (0.5, 0.4, 0.6),
            (-25.0 * i, -25.0 * i - 4, -25.0 * i + 4) if i else (0.0, 0.0, 0.0),
        )
        for i, a in enumerate(order)
    )
    return Puzzle(
        game=game_name,
        version=game.info.version,
        options=game.options_dict(),
        position=state.to_position(),
        seat=seat,
        best=order[0],
        worths=worths,
        themes=themes,
        reason={"en": f"Reason {seat}.", "zh-Hant": f"理由 {seat}。"},
        worlds=48,
        source="test",
        horizon=horizon,
    )


@pytest.fixture(scope="module")
def puzzles() -> list[Puzzle]:
    return [
        made("card_stock_market", 4, SELL_CLUBS, ("sell",)),
        made(
            "card_stock_market",
            4,
            SELL_CLUBS.replace("cash: 387 / 302 / 182 / 197", "cash: 388 / 302 / 182 / 196"),
            ("bankruptcy", "sell"),
        ),
        made("take_stock", 3, LIMIT, ("limit", "save"), horizon="round"),
    ]


@pytest.fixture
def site(
    database_url: str, puzzles: list[Puzzle], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    """A server on each database whose shipped puzzles are the test's."""
    path = tmp_path / "shipped.jsonl"
    write_puzzles(path, puzzles)
    monkeypatch.setattr(served, "shipped_files", lambda: [path])
    with client_for(database_url) as client:
        yield client


def _by_id(puzzles: list[Puzzle], puzzle_id: str) -> Puzzle:
    return next(p for p in puzzles if p.id == puzzle_id)


def check_shown(message: dict[str, Any], raw: str, puzzle: Puzzle, lang: str) -> None:
    """Every field of a shown puzzle, rebuilt from the seat's view; nothing of the answer."""
    assert set(message) == PUZZLE_KEYS
    game = puzzle.make_game()
    view = puzzle.view(game)
    assert message["view"] == json.loads(json.dumps(view.to_dict()))
    assert message["seat"] == puzzle.seat and message["game"] == puzzle.game
    assert message["options"] == dict(puzzle.options)
    narrator = narrator_for(game, message["names"], lang)
    assert narrator is not None
    assert message["legal"] == [
        {"id": a, "text": game.action_to_string(a), "label": narrator.describe_action(view, a)}
        for a in view.legal_actions  # type: ignore[attr-defined]
    ]
    assert [t["name"] for t in message["themes"]] == list(puzzle.themes)
    for part in position_parts(puzzle.position):
        assert part not in raw, part
    for text in puzzle.reason.values():
        assert text not in raw


def test_a_puzzle_is_its_seats_view_and_the_answer_comes_after_the_choice(
    site: TestClient, puzzles: list[Puzzle]
) -> None:
    seen = set()
    skip = None
    for _ in range(12):
        answer = site.get(
            "/api/puzzles/next", params={"game": "card_stock_market", "skip": skip or ""}
        )
        assert answer.status_code == 200, answer.text
        message = answer.json()
        puzzle = _by_id(puzzles, message["id"])
        check_shown(message, answer.text, puzzle, "en")
        seen.add(message["id"])
        skip = message["id"]
    assert seen == {p.id for p in puzzles if p.game == "card_stock_market"}
    puzzle = puzzles[0]
    wrong = next(w.action for w in puzzle.worths if w.action != puzzle.best)
    answer = site.post(f"/api/puzzles/{puzzle.id}/answer", json={"action": wrong}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == ANSWER_KEYS
    assert (body["solved"], body["best"], body["chosen"]) == (False, puzzle.best, wrong)
    assert (body["first"], body["rating"]) == (None, None)  # a guest: nothing rated
    assert [w["action"] for w in body["worths"]] == [w.action for w in puzzle.worths]
    assert body["worths"][1]["behind"] == list(puzzle.worths[1].behind)
    assert body["reason"] == puzzle.reason["en"] and body["horizon"] == "game"
    # A Take Stock puzzle judged at its round's end says so.
    stock = next(p for p in puzzles if p.game == "take_stock")
    judged = site.post(
        f"/api/puzzles/{stock.id}/answer", json={"action": stock.best}, headers=ORIGIN
    ).json()
    assert judged["solved"] and judged["horizon"] == "round"
    zh = site.post(
        f"/api/puzzles/{puzzle.id}/answer",
        params={"lang": "zh-Hant"},
        json={"action": puzzle.best},
        headers=ORIGIN,
    ).json()
    assert (
        zh["solved"]
        and zh["reason"] == puzzle.reason["zh-Hant"]
        and zh["verdict"] != body["verdict"]
    )


def test_an_accounts_first_answer_is_rated_and_later_ones_change_nothing(
    site: TestClient, puzzles: list[Puzzle]
) -> None:
    sign_up(site, "solver")
    puzzle = puzzles[0]
    first = site.post(
        f"/api/puzzles/{puzzle.id}/answer", json={"action": puzzle.best}, headers=ORIGIN
    ).json()
    (mu, sigma), (pmu, psigma) = rate(
        (DEFAULT_MU, DEFAULT_SIGMA), (DEFAULT_MU, DEFAULT_SIGMA), True
    )
    assert first["first"] is True
    assert first["rating"] == {
        "before": displayed(DEFAULT_MU, DEFAULT_SIGMA),
        "after": displayed(mu, sigma),
        "tried": 1,
        "solved": 1,
    }
    assert first["puzzle_rating"] == displayed(pmu, psigma)
    wrong = puzzle.worths[1].action
    again = site.post(
        f"/api/puzzles/{puzzle.id}/answer", json={"action": wrong}, headers=ORIGIN
    ).json()
    assert again["first"] is False and again["solved"] is False
    assert again["rating"]["after"] == first["rating"]["after"] and again["rating"]["tried"] == 1
    assert again["puzzle_rating"] == first["puzzle_rating"]
    index = site.get("/api/puzzles").json()
    assert index["ratings"] == {
        "card_stock_market": {"rating": displayed(mu, sigma), "tried": 1, "solved": 1}
    }
    # The next puzzle is one the account has not answered while there is one.
    for _ in range(4):
        shown = site.get("/api/puzzles/next", params={"game": "card_stock_market"}).json()
        assert shown["id"] != puzzle.id
        assert (shown["tried"], shown["solved"]) == (0, 0)
    # Skipping the only one left unanswered brings back one answered before.
    again = site.get(
        "/api/puzzles/next", params={"game": "card_stock_market", "skip": puzzles[1].id}
    )
    assert again.json()["id"] == puzzle.id


def test_rating_moves_the_player_and_the_puzzle_opposite_ways() -> None:
    start = (DEFAULT_MU, DEFAULT_SIGMA)
    (win_mu, win_sigma), (beaten_mu, _) = rate(start, start, True)
    (loss_mu, _), (held_mu, _) = rate(start, start, False)
    assert win_mu > DEFAULT_MU > loss_mu
    assert beaten_mu < DEFAULT_MU < held_mu
    assert win_sigma < DEFAULT_SIGMA


def test_themes_filter_and_the_index_counts_them(site: TestClient, puzzles: list[Puzzle]) -> None:
    for _ in range(4):
        shown = site.get(
            "/api/puzzles/next", params={"game": "card_stock_market", "theme": "bankruptcy"}
        ).json()
        assert shown["id"] == puzzles[1].id
    answer = site.get(
        "/api/puzzles/next", params={"game": "card_stock_market", "theme": "share_cap"}
    )
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    index = site.get("/api/puzzles", params={"lang": "zh-Hant"}).json()
    assert index["ratings"] is None
    market = next(g for g in index["games"] if g["game"] == "card_stock_market")
    assert market["count"] == 2
    counts = {t["name"]: t["count"] for t in market["themes"]}
    assert counts["sell"] == 2 and counts["bankruptcy"] == 1 and counts["share_cap"] == 0
    assert all(t["label"] and t["help"] for t in market["themes"])


def test_the_daily_puzzle_is_the_same_all_day(site: TestClient, puzzles: list[Puzzle]) -> None:
    first = site.get("/api/puzzles/daily", params={"game": "card_stock_market"}).json()
    again = site.get("/api/puzzles/daily", params={"game": "card_stock_market"}).json()
    assert first["daily"] is True and first["id"] == again["id"]
    check_shown(first, json.dumps(first), _by_id(puzzles, first["id"]), "en")
    ts = site.get("/api/puzzles/daily", params={"game": "take_stock", "lang": "zh-Hant"})
    assert ts.status_code == 200
    check_shown(ts.json(), ts.text, puzzles[2], "zh-Hant")


BAD_REQUESTS: list[tuple[str, str, Any, int, str]] = [
    ("get", "/api/puzzles/next?game=chess", None, 422, "unknown_game"),
    ("get", "/api/puzzles/next?game=take_stock&theme=nope", None, 422, "bad_request"),
    ("get", "/api/puzzles/next?lang=xx", None, 422, "bad_request"),
    ("get", "/api/puzzles/daily?game=chess", None, 422, "unknown_game"),
    ("post", "/api/puzzles/000000000000/answer", {"action": 1}, 404, "not_found"),
    ("post", "/api/puzzles/{id}/answer", {"action": 9999}, 422, "illegal_action"),
    ("post", "/api/puzzles/{id}/answer", {"action": "1"}, 422, "bad_request"),
    ("post", "/api/puzzles/{id}/answer", {"action": 1, "best": 1}, 422, "bad_request"),
    ("post", "/api/puzzles/{id}/answer", [], 422, "bad_request"),
]
"""Requests refused: method, address, body, status and error code."""


def test_bad_requests_are_refused_and_change_nothing(
    site: TestClient, puzzles: list[Puzzle]
) -> None:
    sign_up(site, "careful")
    for method, url, body, status, code in BAD_REQUESTS:
        url = url.replace("{id}", puzzles[0].id)
        answer = site.get(url) if method == "get" else site.post(url, json=body, headers=ORIGIN)
        assert answer.status_code == status, (url, body, answer.text)
        assert answer.json()["error"]["code"] == code, (url, body)
    assert site.get("/api/puzzles").json()["ratings"] == {}
    for puzzle in puzzles[:2]:
        other = puzzles[1] if puzzle is puzzles[0] else puzzles[0]
        shown = site.get(
            "/api/puzzles/next", params={"game": "card_stock_market", "skip": other.id}
        ).json()
        assert shown["id"] == puzzle.id and (shown["tried"], shown["solved"]) == (0, 0)


def test_the_shipped_puzzles_are_added_once(
    database_url: str, puzzles: list[Puzzle], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "shipped.jsonl"
    write_puzzles(path, puzzles[:1])
    monkeypatch.setattr(served, "shipped_files", lambda: [path])
    with client_for(database_url) as client:
        games = client.get("/api/puzzles").json()["games"]
        assert {g["game"]: g["count"] for g in games} == {"take_stock": 0, "card_stock_market": 1}
    write_puzzles(path, puzzles)
    with client_for(database_url) as client:
        counts = {g["game"]: g["count"] for g in client.get("/api/puzzles").json()["games"]}
    assert counts == {"take_stock": 1, "card_stock_market": 2}


def test_the_page_is_served(site: TestClient) -> None:
    page = site.get("/puzzles")
    assert page.status_code == 200 and "puzzles.js" in page.text


def test_puzzles_imported_into_a_servers_database_are_served(
    database_url: str,
    puzzles: list[Puzzle],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(served, "shipped_files", list)
    path = tmp_path / "more.jsonl"
    write_puzzles(path, puzzles[:2])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text() + "{nope\n")
    with client_for(database_url) as client:
        assert (
            client.get("/api/puzzles/next", params={"game": "card_stock_market"}).status_code == 404
        )
        if database_url.startswith("sqlite"):  # the server holds its SQLite file
            assert main(["puzzles", "import", str(path), "--database", database_url]) == 1
            assert "in use by another closingbell server" in capsys.readouterr().err
    assert main(["puzzles", "import", str(bad), "--database", database_url]) == 1
    assert "line 3: not JSON" in capsys.readouterr().err
    assert main(["puzzles", "import", str(path), "--database", database_url]) == 0
    assert "2 puzzles added" in capsys.readouterr().out
    assert main(["puzzles", "import", str(path), "--database", database_url]) == 0
    assert "0 puzzles added" in capsys.readouterr().out
    with client_for(database_url) as client:
        shown = client.get("/api/puzzles/next", params={"game": "card_stock_market"}).json()
        assert shown["id"] in {p.id for p in puzzles[:2]}


def test_an_account_keeps_its_history_and_any_puzzle_can_be_tried_again(
    site: TestClient, puzzles: list[Puzzle]
) -> None:
    refused = site.get("/api/puzzles/history")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "sign_in_required"
    sign_up(site, "historian")
    assert site.get("/api/puzzles/history").json() == {"attempts": []}
    wrong = puzzles[0].worths[1].action
    site.post(f"/api/puzzles/{puzzles[0].id}/answer", json={"action": wrong}, headers=ORIGIN)
    best = puzzles[2].best
    site.post(f"/api/puzzles/{puzzles[2].id}/answer", json={"action": best}, headers=ORIGIN)
    attempts = site.get("/api/puzzles/history", params={"limit": 5}).json()["attempts"]
    assert [(a["id"], a["game"], a["solved"]) for a in attempts] == [
        (puzzles[2].id, "take_stock", True),
        (puzzles[0].id, "card_stock_market", False),
    ]
    assert attempts[1]["rating_after"] < attempts[1]["rating_before"]
    assert all(a["at"].endswith("+00:00") for a in attempts)
    assert set(attempts[0]) == {"id", "game", "solved", "rating_before", "rating_after", "at"}
    assert site.get("/api/puzzles/history", params={"limit": 0}).status_code == 422
    # A puzzle by its id, as /next sends one: nothing of the answer.
    answer = site.get(f"/api/puzzles/{puzzles[0].id}", params={"lang": "zh-Hant"})
    check_shown(answer.json(), answer.text, puzzles[0], "zh-Hant")
    assert site.get("/api/puzzles/000000000000").status_code == 404
    assert site.get("/api/puzzles/" + "a" * 40).status_code == 404
