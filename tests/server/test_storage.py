"""Storage, against SQLite and PostgreSQL alike: migrations, one row per action, token
hashes, and tables rebuilt from their actions when the server starts again."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import pytest
import sqlalchemy as sa

import closingbell
from closingbell.server.store import Store, StoreConflictError, TableRow, async_url, hash_token
from closingbell.server.store.schema import actions_table, seats_table, tables_table
from tests.server.helpers import act, client_for, create, expect, hello, join, wait_state
from tests.server.test_storage_faults import SCHEMA_HEAD, SCHEMA_TABLES


async def _rows(url: str, query: Any) -> list[Any]:
    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            return list((await conn.execute(query)).all())
    finally:
        await store.close()


def rows(url: str, query: Any) -> list[Any]:
    return asyncio.run(_rows(url, query))


def test_async_url_gives_each_database_its_driver() -> None:
    assert async_url("postgresql://u:p@h/db") == "postgresql+asyncpg://u:p@h/db"
    assert async_url("postgres://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert async_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert async_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert async_url("/tmp/games.db") == "sqlite+aiosqlite:////tmp/games.db"


def test_sqlite_commits_through_a_write_ahead_log(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    assert rows(url, sa.text("PRAGMA journal_mode")) == [("wal",)]
    assert rows(url, sa.text("PRAGMA synchronous")) == [(1,)]  # NORMAL


def test_migrations_make_the_schema_and_run_again_harmlessly(database_url: str) -> None:
    async def run() -> tuple[list[str], str]:
        store = Store(database_url)
        try:
            await store.upgrade()
            await store.upgrade()
            async with store.engine.connect() as conn:
                names = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
                head = (
                    await conn.execute(sa.text("select version_num from alembic_version"))
                ).scalar_one()
            return sorted(names), head
        finally:
            await store.close()

    names, head = asyncio.run(run())
    assert names == SCHEMA_TABLES
    assert head == SCHEMA_HEAD


def test_a_stale_append_writes_nothing(database_url: str) -> None:
    async def run() -> list[Any]:
        store = Store(database_url)
        try:
            await store.upgrade()
            row = TableRow(
                id="t1",
                game="take_stock",
                options={"players": 2},
                seed=1,
                clock=None,
                status="playing",
            )
            await store.tables.create(row)
            await store.actions.append("t1", 0, 0, 5, text="a", status="playing")
            with pytest.raises(StoreConflictError):
                await store.actions.append("t1", 0, 1, 6, text="b", status="playing")
            with pytest.raises(StoreConflictError):
                await store.actions.append("t1", 2, 1, 6, text="b", status="playing")
            loaded = await store.tables.load("t1")
            assert loaded is not None
            return [loaded.version, loaded.actions]
        finally:
            await store.close()

    assert asyncio.run(run()) == [1, [5]]


def test_actions_of_many_tables_arriving_together_are_stored_together(database_url: str) -> None:
    async def run() -> list[Any]:
        store = Store(database_url)
        try:
            await store.upgrade()
            for t in range(6):
                await store.tables.create(
                    TableRow(
                        id=f"g{t}",
                        game="take_stock",
                        options={"players": 2},
                        seed=t,
                        clock=None,
                        status="playing",
                    )
                )
            # Every table's first action at once, and one stale action among them.
            calls = [
                store.actions.append(f"g{t}", 0, 0, 10 + t, text="x", status="playing")
                for t in range(6)
            ]
            calls.append(store.actions.append("g3", 5, 1, 99, text="y", status="playing"))
            outcome = await asyncio.gather(*calls, return_exceptions=True)
            # ... then each table's second, while others still arrive.
            await asyncio.gather(
                *(
                    store.actions.append(f"g{t}", 1, 1, 20 + t, text="z", status="finished")
                    for t in range(6)
                )
            )
            loaded = [await store.tables.load(f"g{t}") for t in range(6)]
            return [
                [type(o).__name__ for o in outcome],
                [(r.version, r.actions, r.status) for r in loaded if r is not None],
            ]
        finally:
            await store.close()

    outcome, tables = asyncio.run(run())
    assert outcome == ["NoneType"] * 6 + ["StoreConflictError"]
    assert tables == [(2, [10 + t, 20 + t], "finished") for t in range(6)]


def test_every_action_is_a_row_and_tokens_are_stored_hashed(database_url: str) -> None:
    with client_for(database_url) as client:
        table = create(client, "take_stock", ["open", "open"], seed=21)
        tokens = [join(client, table["id"], n)["token"] for n in ("Ana", "Bob")]
        with (
            client.websocket_connect(f"/ws/tables/{table['id']}") as ws0,
            client.websocket_connect(f"/ws/tables/{table['id']}") as ws1,
        ):
            messages = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
            for version in range(10):
                mover = messages[0]["current_player"]
                act((ws0, ws1)[mover], version, messages[mover]["legal"][0]["id"])
                messages = [expect(ws0, "state"), expect(ws1, "state")]
    stored = rows(database_url, sa.select(tables_table).where(tables_table.c.id == table["id"]))
    assert stored[0].version == 10
    assert stored[0].seed == 21
    actions = rows(
        database_url,
        sa.select(actions_table)
        .where(actions_table.c.table_id == table["id"])
        .order_by(actions_table.c.number),
    )
    assert [a.number for a in actions] == list(range(10))
    state = closingbell.load_game("take_stock", players=2).new_game(21)
    for a in actions:
        assert a.seat == state.current_player
        assert a.text == state.action_to_string(a.action)
        state.apply(a.action)
    seats = rows(database_url, sa.select(seats_table).order_by(seats_table.c.seat))
    assert [s.token_hash for s in seats] == [hash_token(t) for t in tokens]
    everything = str(rows(database_url, sa.select(seats_table))) + str(stored)
    assert all(t not in everything for t in tokens)


def test_a_restarted_server_goes_on_from_the_same_position(database_url: str) -> None:
    with client_for(database_url) as client:
        table = create(client, "card_stock_market", ["open", "medium", "open"], seed=33)
        table_id = table["id"]
        tokens = {p: join(client, table_id, f"p{p}", seat=p)["token"] for p in (0, 2)}
        moved = 0
        while moved < 6:
            for token in tokens.values():
                with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                    message = hello(ws, token)
                    if message["legal"]:
                        act(ws, message["version"], message["legal"][0]["id"])
                        # Stop where a person must decide, not while the bot thinks.
                        wait_state(ws, lambda m: m["current_player"] in tokens)
                        moved += 1
        before = {}
        for seat, token in tokens.items():
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                before[seat] = hello(ws, token)
    # A new server on the same database: the table is rebuilt by replaying its actions.
    with client_for(database_url) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table_id]
        assert listed[0]["status"] == "playing"
        for seat, token in tokens.items():
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                after = hello(ws, token)
                assert after["version"] == before[seat]["version"]
                assert after["view"] == before[seat]["view"]
                assert after["events"] == before[seat]["events"]
                assert after["legal"] == before[seat]["legal"]
        # ... and play goes on.
        mover = before[0]["current_player"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            after = hello(ws, tokens[mover])
            act(ws, after["version"], after["legal"][0]["id"])
            assert expect(ws, "state")["version"] == after["version"] + 1


def test_bots_resume_after_a_restart(database_url: str) -> None:
    with client_for(database_url, bot_delay=0.02) as client:
        table = create(client, "take_stock", ["medium", "easy"], seed=4)
        for _ in range(500):
            stopped = client.get(f"/api/tables/{table['id']}").json()["table"]
            if stopped["version"] >= 3:
                break
            time.sleep(0.01)
    assert stopped["version"] >= 3
    assert stopped["status"] == "playing"
    with client_for(database_url) as client:
        for _ in range(1000):
            shown = client.get(f"/api/tables/{table['id']}").json()["table"]
            if shown["status"] == "finished":
                break
            time.sleep(0.02)
        assert shown["status"] == "finished"
        assert shown["version"] > stopped["version"]
        record = client.get(f"/api/tables/{table['id']}/record").json()
    assert len(record["actions"]) == shown["version"]


async def _cancel_statements_twice(url: str, rounds: int) -> list[asyncio.Task[Any]]:
    """Cancel tasks twice in a row at many points of their statements; the tasks left over."""
    store = Store(url)
    await store.open()

    async def read() -> None:
        async with store.engine.connect() as conn:
            for _ in range(1000):
                await conn.execute(sa.select(sa.func.count()).select_from(tables_table))

    for i in range(rounds):
        task = asyncio.create_task(read())
        await asyncio.sleep(0.0005 * (i % 7))
        task.cancel()
        for _ in range(i % 4):  # the second cancel lands at various points of the clean-up
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    # Every connection is given back or closed: the store closes, and nothing is left waiting.
    await asyncio.wait_for(store.close(), 30)
    await asyncio.sleep(0.2)
    return [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]


def test_statements_cancelled_twice_leave_no_task_waiting(database_url: str) -> None:
    # anyio's cancel scopes cancel a task until it leaves them: a WebSocket's handler whose
    # client goes away during a read is cancelled at any point of its connection's clean-up.
    # A connection stopped that way once left a task waiting for ever, and the server's event
    # loop then never closed.
    left = asyncio.run(_cancel_statements_twice(database_url, 150))
    assert left == []
