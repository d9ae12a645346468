"""Finished games' replays and records are worked out off the event loop, once, and kept
within a bound (``server.replays``)."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from closingbell.server import replays
from closingbell.server.replays import FinishedGame, ReplayCache
from tests.server.helpers import client_for, create, sqlite_database
from tests.server.test_lobby import wait_finished


@pytest.mark.parametrize("processes", [0, 1])
def test_replays_and_records_are_worked_out_off_the_event_loop_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, processes: int
) -> None:
    threads: list[int] = []
    calls: list[str] = []

    def counted(work: Any) -> Any:
        def run(*args: Any) -> Any:
            threads.append(threading.get_ident())
            calls.append(work.__name__)
            return work(*args)

        return run

    with client_for(sqlite_database(tmp_path / "web.db"), bot_processes=processes) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        run = hub.bots.run

        async def spy(work: Any, *args: Any) -> Any:
            calls.append(f"run {work.__name__}")
            return await run(counted(work) if processes == 0 else work, *args)

        monkeypatch.setattr(client.app.state.replays, "_run", spy)  # type: ignore[attr-defined]
        table = create(client, "take_stock", ["random", "random"], seed=4)
        wait_finished(client, table["id"])
        loop_thread = client.portal.call(threading.get_ident)
        path = f"/api/tables/{table['id']}/replay"
        first = client.get(path, params={"limit": 1000, "lang": "en"}).json()
        again = client.get(path, params={"limit": 1000, "lang": "en"}).json()
        part = client.get(path, params={"start": 3, "limit": 2, "lang": "en"}).json()
        other = client.get(path, params={"limit": 1000}).json()
        record = client.get(f"/api/tables/{table['id']}/record").json()
        assert client.get(f"/api/tables/{table['id']}/record").json() == record
        record_file = client.get(f"/api/tables/{table['id']}/record.cbrec").text
        assert client.get(f"/api/tables/{table['id']}/record.cbrec").text == record_file
        # With helper processes, they did the work (they start with the first piece).
        assert hub.bots.started == (processes > 0)
    assert first == again
    assert part["steps"] == first["steps"][3:5] and part["total"] == first["total"]
    assert "lines" in first["steps"][1] and "lines" not in other["steps"][1]
    assert record["seed"] == 4
    # One piece of work per language and one per record form, never in the event loop's thread.
    assert calls.count("run replay_steps") == 2
    assert calls.count("run record_json") == 1
    assert calls.count("run record_text") == 1
    assert record_file == record["record"]
    assert loop_thread not in threads
    assert len(threads) == (4 if processes == 0 else 0)


def game(table_id: str) -> FinishedGame:
    return FinishedGame(table_id, "take_stock", {"players": 2}, 1, (), ("a", "b"), ("a", "b"))


def test_requests_for_a_replay_being_worked_out_wait_for_it() -> None:
    started: list[str] = []

    async def slow(work: Any, *args: Any) -> Any:
        started.append(args[0].table_id)
        await asyncio.sleep(0.05)
        return [b"{}"]

    async def main() -> list[list[bytes]]:
        cache = ReplayCache(slow, 1000)
        return await asyncio.gather(*(cache.steps(game("t"), None) for _ in range(5)))

    assert asyncio.run(main()) == [[b"{}"]] * 5
    assert started == ["t"]


def test_the_cache_keeps_at_most_its_limit_in_bytes() -> None:
    sizes = {"a": 40, "b": 40, "c": 40, "huge": 500}

    async def run(work: Any, *args: Any) -> Any:
        return [b"x" * sizes[args[0].table_id]]

    async def main() -> ReplayCache:
        cache = ReplayCache(run, 100)
        for table_id in ("a", "b", "a", "c", "huge"):
            await cache.steps(game(table_id), None)
        return cache

    cache = asyncio.run(main())
    assert cache.size == 80 <= cache.limit
    assert [key[0] for key in cache._kept] == ["a", "c"]  # b was the least recently asked for


def test_a_replay_page_is_the_steps_asked_for() -> None:
    steps = [replays.dumps({"index": i}) for i in range(5)]
    page = replays.replay_page("t", steps, 3, 10)
    assert json.loads(page) == {
        "table_id": "t",
        "total": 5,
        "start": 3,
        "steps": [{"index": 3}, {"index": 4}],
    }
