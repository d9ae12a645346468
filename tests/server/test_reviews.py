"""Reviews of a finished game's seats over HTTP: worked out in the helpers, kept, refused
when they cannot be given (``server.reviews``)."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from closingbell.bots.analysis import ActionValue, DecisionAnalysis, Estimate
from closingbell.core.records import GameRecord
from closingbell.server import reviews
from closingbell.server.replays import FinishedGame
from closingbell.server.reviews import ReviewCache, TooManyReviews
from closingbell.text.review import review
from tests.server.helpers import client_for, create, sqlite_database
from tests.server.leakcheck import Leak, check_review, check_seat_replay
from tests.server.test_leaks import TWO_ROUNDS, play_through
from tests.server.test_lobby import wait_finished

BUDGET = 3
"""Worlds per decision in these tests (the server's default is 128)."""
ANSWER_KEYS = {"table_id", "seat", "status", "done", "total", "seconds_left", "review"}


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    return body  # type: ignore[no-any-return]


def finished_review(client: TestClient, table_id: str, seat: int, lang: str = "en") -> Any:
    """Ask for a seat's review and wait for it; the progress seen on the way, and the answer."""
    path = f"/api/tables/{table_id}/review"
    first = client.post(path, params={"seat": seat, "lang": lang})
    assert first.status_code in (200, 202), first.text
    seen = [first.json()]
    deadline = time.monotonic() + 120
    while seen[-1]["status"] == "working":
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.05)
        answer = client.get(path, params={"seat": seat, "lang": lang})
        assert answer.status_code in (200, 202), answer.text
        assert (answer.status_code == 202) == (answer.json()["status"] == "working")
        seen.append(answer.json())
    return seen, answer if len(seen) > 1 else first


def test_a_finished_games_review_is_worked_out_in_the_helpers_and_kept(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    with client_for(database_url, review_budget=BUDGET, bot_processes=1) as client:
        cache = client.app.state.reviews  # type: ignore[attr-defined]
        run = cache._run

        async def spy(work: Any, *args: Any, **kwargs: Any) -> Any:
            calls.append(work.__name__)
            return await run(work, *args, **kwargs)

        monkeypatch.setattr(cache, "_run", spy)
        table = create(client, "take_stock", ["heuristic", "random"], seed=7)
        wait_finished(client, table["id"])
        seen, answer = finished_review(client, table["id"], 0)
        assert answer.status_code == 200
        body = answer.json()
        assert set(body) == ANSWER_KEYS
        assert (body["table_id"], body["seat"], body["status"]) == (table["id"], 0, "done")
        assert body["done"] == body["total"] > 0 and body["seconds_left"] == 0
        # Progress: decision k of n, counted up, with the time left once there is a pace (a
        # few decisions in).
        assert seen[0]["status"] == "working" and seen[0]["review"] is None
        done = [s["done"] for s in seen]
        assert done == sorted(done)
        working = [s for s in seen if s["status"] == "working" and s["done"] > 0]
        assert all(s["total"] == body["total"] for s in working)
        for s in working:
            paced = s["done"] >= min(reviews.ESTIMATE_AFTER, s["total"])
            assert (s["seconds_left"] is not None) == paced, s
            assert not paced or s["seconds_left"] >= 0
        found = body["review"]
        assert (found["game"], found["seat"], found["name"]) == ("take_stock", 1, "Rule-based 1")
        assert (found["budget"], found["seed"]) == (BUDGET, reviews.REVIEW_SEED)
        assert len(found["decisions"]) == body["total"]
        assert found["mistakes"] == sum(d["mistake"] for d in found["decisions"]) > 0
        for d in found["decisions"]:
            assert d["actions"][0] == d["best"] and d["taken"] in d["actions"]
            assert ("reason" in d) == d["mistake"]
        # The same as `closingbell analyze` gives from the record file, bar the seats' names
        # (the record names a bot by its level, the page by its level and seat).
        text = client.get(f"/api/tables/{table['id']}/record.cbrec").text
        from_file = review(GameRecord.loads(text), 0, BUDGET, reviews.REVIEW_SEED)

        def unnamed(found: dict[str, Any]) -> dict[str, Any]:
            decisions = [{k: v for k, v in d.items() if k != "reason"} for d in found["decisions"]]
            return {**found, "name": None, "decisions": decisions}

        assert unnamed(from_file) == unnamed(found)
        # Kept: asked again, in either language, nothing is worked out again.
        worked = list(calls)
        again = client.post(f"/api/tables/{table['id']}/review", params={"seat": 0})
        assert again.status_code == 200 and again.json() == body
        chinese = client.get(f"/api/tables/{table['id']}/review?seat=0&lang=zh-Hant").json()
        assert calls == worked
        assert chinese["review"]["name"] != found["name"]
        assert [d["taken"]["margin"] for d in chinese["review"]["decisions"]] == [
            d["taken"]["margin"] for d in found["decisions"]
        ]
        assert (
            chinese["review"]["decisions"][0]["taken"]["label"]
            != (found["decisions"][0]["taken"]["label"])
        )
        assert len(cache) == 1 and cache.size > 0
        assert client.app.state.hub.bots.started  # type: ignore[attr-defined]
    # One list of decisions, one piece per decision, one for the words of every language.
    assert calls == ["review_plan"] + ["review_decision"] * body["total"] + ["review_texts"]


def test_reviews_refuse_bad_input_and_change_nothing(database_url: str) -> None:
    with client_for(database_url, review_budget=BUDGET) as client:
        refusals(client)


def refusals(client: TestClient) -> None:
    """Every bad request of a review is refused with its code, and starts nothing."""
    finished = create(client, "take_stock", ["random", "random"], seed=3)
    waiting = create(client, "take_stock", ["open", "random"])
    wait_finished(client, finished["id"])
    cache = client.app.state.reviews  # type: ignore[attr-defined]
    path = f"/api/tables/{finished['id']}/review"
    for send in (client.get, client.post):
        error_of(send("/api/tables/nosuchtable/review?seat=0"), 404, "unknown_table")
        error_of(send(f"/api/tables/{waiting['id']}/review?seat=0"), 409, "not_finished")
        error_of(send(f"{path}?seat=2"), 422, "bad_seat")
        error_of(send(f"{path}?seat=-1"), 422, "bad_request")
        error_of(send(f"{path}?seat=one"), 422, "bad_request")
        error_of(send(path), 422, "bad_request")
        error_of(send(f"{path}?seat=0&lang=fr"), 404, "bad_request")
    error_of(client.get(f"{path}?seat=1"), 404, "review_not_started")
    error_of(client.get(f"/api/tables/{finished['id']}/replay?seat=2"), 422, "bad_seat")
    error_of(client.get(f"/api/tables/{waiting['id']}/replay?seat=0"), 409, "not_finished")
    assert len(cache) == 0 and cache.working == 0


def test_too_many_reviews_at_once_are_refused_until_one_is_done(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url, review_budget=BUDGET, reviews_at_once=1, bot_processes=0) as client:
        table = create(client, "take_stock", ["random", "random"], seed=5)
        wait_finished(client, table["id"])
        path = f"/api/tables/{table['id']}/review"
        gate = threading.Event()
        cache = client.app.state.reviews  # type: ignore[attr-defined]
        run = cache._run

        async def held(work: Any, *args: Any, **kwargs: Any) -> Any:
            await asyncio.to_thread(gate.wait, 30)
            return await run(work, *args, **kwargs)

        cache._run = held
        assert client.post(path, params={"seat": 0}).status_code == 202
        refused = client.post(path, params={"seat": 1})
        error_of(refused, 503, "too_many_reviews")
        assert int(refused.headers["Retry-After"]) >= 1
        error_of(client.get(path, params={"seat": 1}), 404, "review_not_started")
        # The review under way is found again, not refused.
        assert client.post(path, params={"seat": 0}).status_code == 202
        gate.set()
        finished_review(client, table["id"], 0)
        _, answer = finished_review(client, table["id"], 1)
        assert answer.json()["review"]["seat"] == 2


@pytest.mark.parametrize(
    ("game", "seats", "seed", "options"),
    [
        ("take_stock", ["open", "medium"], 61_043, TWO_ROUNDS),
        ("card_stock_market", ["hard", "open"], 7_702, None),
    ],
)
def test_a_review_and_a_seats_replay_hold_what_the_record_gives_and_no_more(
    tmp_path: Path, game: str, seats: list[str], seed: int, options: dict[str, Any] | None
) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), review_budget=BUDGET) as client:
        played = play_through(client, game, seats, seed, ["en"], options=options)
        table_id = played.game.table_id
        for seat in range(len(seats)):
            for lang in ("en", "zh-Hant"):
                _, answer = finished_review(client, table_id, seat, lang)
                check_review(
                    played.game,
                    seat,
                    lang,
                    answer.text,
                    answer.json(),
                    budget=BUDGET,
                    seed=reviews.REVIEW_SEED,
                )
                replay = client.get(
                    f"/api/tables/{table_id}/replay",
                    params={"seat": seat, "lang": lang, "limit": 1000},
                )
                check_seat_replay(played.game, seat, lang, replay.text, replay.json()["steps"])
        # The checks catch what does not belong: a field of the full state, another seat's
        # view, or an analysis of other figures.
        _, answer = finished_review(client, table_id, 0)
        body = answer.json()
        planted = copy.deepcopy(body)
        planted["review"]["hands"] = [list(played.game.states[0].view(1).to_dict())]
        wrong = copy.deepcopy(body)
        wrong["review"]["decisions"][0]["taken"]["margin"] += 1
        for bad in (planted, wrong):
            with pytest.raises(Leak):
                check_review(
                    played.game,
                    0,
                    "en",
                    json.dumps(bad),
                    bad,
                    budget=BUDGET,
                    seed=reviews.REVIEW_SEED,
                )
        replay = client.get(f"/api/tables/{table_id}/replay?seat=1&lang=en&limit=1000").json()
        with pytest.raises(Leak):
            check_seat_replay(played.game, 0, "en", json.dumps(replay), replay["steps"])


# ---------------------------------------------------------------- the cache itself


def game(table_id: str) -> FinishedGame:
    return FinishedGame(table_id, "take_stock", {"players": 2}, 1, (), ("a", "b"), ("a", "b"))


def analysis(index: int) -> DecisionAnalysis:
    zero = Estimate(0.0, 0.0)
    return DecisionAnalysis(0, 2, (ActionValue(index, zero, zero, zero),))


def fake(sizes: dict[str, int], started: list[str] | None = None) -> Any:
    """A runner whose reviews have two decisions and ``sizes[table_id]`` bytes a language."""

    async def run(work: Any, *args: Any, **_: Any) -> Any:
        await asyncio.sleep(0)
        if work is reviews.review_plan:
            if started is not None:
                started.append(args[0].table_id)
            if args[0].table_id == "broken":
                raise RuntimeError("no such game")
            return [4, 9]
        if work is reviews.review_decision:
            return analysis(args[1])
        assert work is reviews.review_texts and sorted(args[2]) == [4, 9]
        size = sizes[args[0].table_id]
        return {"en": json.dumps("x" * (size - 2)).encode(), "zh-Hant": b"1"}

    return run


def test_a_review_is_worked_out_once_and_kept_within_the_limit() -> None:
    started: list[str] = []
    sizes = {"a": 40, "b": 40, "c": 40, "huge": 500}

    async def main() -> ReviewCache:
        cache = ReviewCache(fake(sizes, started), budget=2, seed=0, limit=100, at_once=4)
        first = cache.start(game("a"), 0)
        assert cache.start(game("a"), 0) is first and cache.find("a", 0) is first
        assert first.status == "working" and first.seconds_left() is None
        assert first.task is not None
        await first.task
        assert first.status == "done" and first.done == first.total == 2
        answer = json.loads(first.answer("zh-Hant"))
        assert answer == {
            "table_id": "a",
            "seat": 0,
            "status": "done",
            "done": 2,
            "total": 2,
            "seconds_left": 0.0,
            "review": 1,
        }
        for table_id in ("b", "a", "c", "huge"):
            review = cache.start(game(table_id), 0)
            if review.task is not None:
                await review.task
        return cache

    cache = asyncio.run(main())
    assert started == ["a", "b", "c", "huge"]
    assert cache.size == 82 <= cache.limit  # each kept review: 40 bytes and 1 byte
    assert [key[0] for key in cache._kept] == ["a", "c"]  # b was the least recently asked for
    assert cache.find("huge", 0) is None  # larger than the whole cache: not kept


def test_a_failed_review_says_so_and_is_started_again_when_asked() -> None:
    started: list[str] = []

    async def main() -> None:
        cache = ReviewCache(fake({}, started), budget=2, seed=0, limit=100, at_once=1)
        failed = cache.start(game("broken"), 1)
        assert failed.task is not None
        await failed.task
        assert failed.status == "failed" and cache.find("broken", 1) is failed
        assert json.loads(failed.answer("en"))["review"] is None
        assert cache.working == 0  # a failed review takes no place
        again = cache.start(game("broken"), 1)
        assert again is not failed
        assert again.task is not None
        await again.task

    asyncio.run(main())
    assert started == ["broken", "broken"]


def test_a_review_needs_two_worlds_and_a_place() -> None:
    with pytest.raises(ValueError, match="at least 2 worlds"):
        ReviewCache(fake({}), budget=1, seed=0, limit=1, at_once=1)
    with pytest.raises(ValueError, match="at least one review"):
        ReviewCache(fake({}), budget=2, seed=0, limit=1, at_once=0)
    assert issubclass(TooManyReviews, Exception)


def test_the_time_left_is_within_a_factor_of_two_after_a_few_decisions() -> None:
    # A game of 200 actions whose seat decided 40 times; counting them takes 3 s (a helper
    # process starting), and each decision takes time in proportion to the game left to play
    # out after it (10 ms an action): 2 s for the first, 0.05 s for the last.
    now = [0.0]
    history = tuple(range(200))
    indices = list(range(0, 200, 5))
    taken = {index: 0.01 * (200 - index) for index in indices}
    seen: list[tuple[int, float | None, float]] = []
    review: reviews.Review | None = None

    async def run(work: Any, *args: Any, **_: Any) -> Any:
        await asyncio.sleep(0)
        if work is reviews.review_plan:
            now[0] += 3.0
            return indices
        if work is reviews.review_decision:
            assert review is not None
            left = sum(t for i, t in taken.items() if i >= args[1])
            seen.append((review.done, review.seconds_left(), left))
            now[0] += taken[args[1]]
            return analysis(args[1])
        return {"en": b"1", "zh-Hant": b"1"}

    async def main() -> None:
        nonlocal review
        cache = ReviewCache(run, budget=2, seed=0, limit=100, at_once=1, clock=lambda: now[0])
        finished = FinishedGame(
            "long", "take_stock", {"players": 2}, 1, history, ("a", "b"), ("a", "b")
        )
        review = cache.start(finished, 0)
        assert review.task is not None
        await review.task

    asyncio.run(main())
    assert [done for done, _, _ in seen] == list(range(40))
    # No figure until a few decisions are done: the first ones say nothing of the pace.
    assert all(estimate is None for done, estimate, _ in seen if done < reviews.ESTIMATE_AFTER)
    for done, estimate, left in seen[reviews.ESTIMATE_AFTER :]:
        assert estimate is not None and left / 2 <= estimate <= left * 2, (done, estimate, left)
