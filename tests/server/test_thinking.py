"""Search work is shared out fairly: no address's queue of work holds back another's, and
an address keeps a bounded number of search bots."""

from __future__ import annotations

import asyncio
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from closingbell.bots import searches
from closingbell.server.app import create_app
from closingbell.server.protocol import CreateTable
from closingbell.server.thinking import Asker, BotPool, FairQueue, _Job
from tests.server.helpers import client_for, create


def nap(seconds: float) -> float:
    """In a helper: sleep, then say when the work began (wall clock)."""
    began = time.time()
    time.sleep(seconds)
    return began


def job(address: str, group: str, loop: asyncio.AbstractEventLoop) -> _Job:
    return _Job(Asker(address, group), nap, (0.0,), loop.create_future())


def test_the_queue_takes_addresses_in_turn_then_their_tables_in_turn() -> None:
    async def main() -> list[tuple[str, str]]:
        loop = asyncio.get_running_loop()
        queue = FairQueue(per_address=10)
        for _ in range(3):
            queue.push(job("flooder", "t1", loop))
            queue.push(job("flooder", "t2", loop))
        queue.push(job("victim", "v", loop))
        queue.push(job("other", "o", loop))
        order = []
        while (found := queue.pop()) is not None:
            order.append(found.asker)
        return order

    order = asyncio.run(main())
    # One piece of work of each address in turn, whatever the flooder had queued first;
    # the flooder's tables in turn too.
    assert order[:3] == [("flooder", "t1"), ("victim", "v"), ("other", "o")]
    assert order[3:] == [("flooder", t) for t in ("t2", "t1", "t2", "t1", "t2")]


def test_an_address_holds_at_most_its_share_of_the_helpers() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        queue = FairQueue(per_address=1)
        jobs = [job("flooder", f"t{i}", loop) for i in range(4)]
        for j in jobs:
            queue.push(j)
        first = queue.pop()
        assert first is jobs[0]
        assert queue.pop() is None  # the flooder holds its one helper
        assert queue.running("flooder") == 1
        queue.push(victim := job("victim", "v", loop))
        assert queue.pop() is victim  # another address still finds a helper
        queue.done(first)
        assert queue.pop() is jobs[1]
        # Work whose caller stopped waiting is dropped, not run.
        jobs[2].future.cancel()
        queue.done(jobs[1])
        assert queue.pop() is jobs[3]
        assert queue.waiting() == 0

    asyncio.run(main())
    with pytest.raises(ValueError, match="at least 1"):
        FairQueue(per_address=0)


def test_one_address_with_many_tables_does_not_hold_back_another() -> None:
    """Two helpers, twelve long pieces of work from one address: another address's work
    starts at once on the helper the first may not take, and a third's after one piece."""

    async def main() -> dict[str, Any]:
        pool = BotPool(2)
        try:
            # Both helpers started (each its own address, so both run at once).
            await asyncio.gather(*(pool.run(nap, 0.2, asker=Asker(a, a)) for a in "xy"))
            t0 = time.time()
            flood = [
                asyncio.ensure_future(pool.run(nap, 0.5, asker=Asker("flooder", f"t{i}")))
                for i in range(12)
            ]
            await asyncio.sleep(0.1)
            victim = await pool.run(nap, 0.0, asker=Asker("victim", "v"))
            other = await pool.run(nap, 0.0, asker=Asker("other", "o"))
            assert pool.waiting() >= 9  # the flooder's work waits for its one helper
            flooded = await asyncio.gather(*flood)
            return {"victim": victim, "other": other, "flood": sorted(flooded), "t0": t0}
        finally:
            await pool.stop()

    started = asyncio.run(main())
    flood = started["flood"]
    # Not behind the flooder's twelve half-seconds: before its second piece began.
    assert started["victim"] < flood[1] and started["other"] < flood[1]
    # The flooder's work still got done, one helper's worth: a piece after another.
    assert flood[-1] - flood[0] > 11 * 0.5 - 0.1


def test_a_search_bots_caller_that_gives_up_frees_its_place() -> None:
    async def main() -> int:
        pool = BotPool(1)
        try:
            await pool.run(nap, 0.0)
            busy = asyncio.ensure_future(pool.run(nap, 0.3, asker=Asker("a", "1")))
            await asyncio.sleep(0.05)
            waiting = asyncio.ensure_future(pool.run(nap, 5.0, asker=Asker("b", "2")))
            await asyncio.sleep(0.05)
            waiting.cancel()
            await busy
            t0 = time.time()
            began = await pool.run(nap, 0.0, asker=Asker("c", "3"))
            return round(began - t0)
        finally:
            await pool.stop()

    assert asyncio.run(main()) == 0  # the cancelled five seconds never ran


def test_search_bots_are_named() -> None:
    assert searches("expert") and searches("ismcts")
    assert not any(searches(name) for name in ("random", "heuristic", "easy", "medium", "hard"))


def test_an_address_keeps_a_bounded_number_of_search_bots(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url, search_seats_per_address=4) as client:
        # Waiting tables: their bots do not think before the open seat is taken.
        create(client, "take_stock", ["expert", "expert", "open"])
        create(client, "take_stock", ["open", "ismcts"])
        refused = client.post(
            "/api/tables", json={"game": "take_stock", "seats": ["open", "expert", "expert"]}
        )
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["code"] == "too_many_search_bots"
        assert "at most 4 seats of search bots" in error["message"]
        assert "it has 3" in error["message"]
        # Rule-based bots are not counted, and another address has its own count.
        create(client, "take_stock", ["open", "medium", "hard", "easy"])
        hub = client.app.state.hub  # type: ignore[attr-defined]
        request = CreateTable(game="take_stock", seats=["open", "expert", "expert"])
        portal: Any = client.portal  # type: ignore[attr-defined]
        made = portal.call(partial(hub.create, request, address="192.0.2.7"))
        assert made.address == "192.0.2.7"
        assert made.asker == ("192.0.2.7", made.id)
        listed = client.get("/api/tables").json()["tables"]
        assert len(listed) == 4  # the refused table was never made


def test_no_limit_when_told(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", search_seats_per_address=0)
    with TestClient(app) as client:
        for _ in range(3):
            create(client, "card_stock_market", ["open", *["expert"] * 5])
