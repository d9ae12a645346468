"""A database made by the release before accounts (migration 0004) upgrades with its games.

``data/release-0004.db`` was made by that release (commit 335c263) through its own web API:
a finished Take Stock game between two bots, a Card Stock Market game under way (a guest
against a bot, three actions in), and a Take Stock table waiting for one more player. The
PostgreSQL test copies its rows, as they are, into a database migrated to 0004.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import shutil
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.config import Config
from alembic.script import ScriptDirectory

from closingbell.core.records import GameRecord, replay
from closingbell.server.store import Store
from closingbell.server.store.upgrades import newest_migration
from tests.server.helpers import act, client_for, expect, hello, join, wait_state
from tests.server.test_positions import migrate, schema
from tests.server.test_storage_faults import SCHEMA_HEAD

OLD = Path(__file__).parent / "data" / "release-0004.db"
FINISHED, PLAYING, WAITING = "MaEdHjPuQdOR", "vPZYkSpudQUK", "fL4AjXbpgIqw"
TOKEN = "SgzT3BOqmyTwjWrP9pR7l9g4eIKVX0gG"
"""The token of the guest's seat of the game under way, as that release gave it out."""
OLD_TABLES = ["tables", "seats", "actions", "leases", "servers"]
"""Migration 0004's tables, parents first."""


def copy_rows(source: str, target: str) -> None:
    """Copy every row of the old file's tables into ``target`` (migrated to 0004)."""

    async def run() -> None:
        old, new = Store(source), Store(target)
        try:
            async with old.engine.connect() as conn:
                rows = {
                    name: [
                        dict(r._mapping)
                        for r in await conn.execute(sa.text(f"SELECT * FROM {name}"))
                    ]
                    for name in OLD_TABLES
                }
            async with new.engine.begin() as conn:
                for name in OLD_TABLES:
                    if rows[name]:
                        table = await conn.run_sync(
                            lambda c, n=name: sa.Table(n, sa.MetaData(), autoload_with=c)
                        )
                        await conn.execute(table.insert(), [_typed(table, r) for r in rows[name]])
        finally:
            await old.close()
            await new.close()

    asyncio.run(run())


def _typed(table: sa.Table, row: dict[str, Any]) -> dict[str, Any]:
    """An SQLite row's values as PostgreSQL's columns take them (times are text in SQLite)."""
    out = {}
    for key, value in row.items():
        if isinstance(table.c[key].type, sa.DateTime) and isinstance(value, str):
            value = dt.datetime.fromisoformat(value).replace(tzinfo=dt.UTC)
        out[key] = value
    return out


@pytest.fixture
def old_database(empty_database_url: str, tmp_path: Path) -> str:
    """The old release's database on each kind of database, not yet upgraded."""
    if empty_database_url.startswith("sqlite"):
        copy = tmp_path / "old.db"
        shutil.copy(OLD, copy)
        return f"sqlite:///{copy}"
    migrate(empty_database_url, up="0004")
    copy_rows(f"sqlite:///{OLD}", empty_database_url)
    return empty_database_url


def test_an_old_database_upgrades_with_its_games_intact(old_database: str) -> None:
    assert schema(old_database)[0] == "0004"
    with client_for(old_database) as client:
        assert schema(old_database)[0] == SCHEMA_HEAD
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert {i: (t["status"], t["version"]) for i, t in listed.items()} == {
            FINISHED: ("finished", 283),
            PLAYING: ("playing", 3),
            WAITING: ("waiting", 0),
        }
        for table in listed.values():
            assert (table["rated"], table["move_time"], table["rematch"]) == (False, None, None)
            assert table["hints_used"] is False
            assert not any(s["account"] or s["invited"] for s in table["seats"])
        # The finished game replays to its end from its record.
        record = GameRecord.loads(client.get(f"/api/tables/{FINISHED}/record.cbrec").text)
        assert replay(record).is_terminal() and len(record.actions) == 283
        # The guest's old seat link still seats them, and the game goes on.
        with client.websocket_connect(f"/ws/tables/{PLAYING}") as ws:
            state = hello(ws, TOKEN)
            assert state["seat"] == 0 and state["version"] == 3
            if not state["legal"]:
                state = wait_state(ws, lambda m: m["current_player"] == 0 and m["legal"])
            act(ws, state["version"], state["legal"][0]["id"])
            assert expect(ws, "state")["version"] == state["version"] + 1
        # The waiting table fills and starts.
        joined = join(client, WAITING, "New Player")
        assert joined["seat"] == 1 and joined["table"]["status"] == "playing"
        # And the new parts work on it: accounts sign up and sign in.
        made = client.post(
            "/api/account/signup", json={"username": "newcomer", "password": "x" * 12}
        )
        assert made.status_code == 201


def test_the_newest_migration_read_from_the_files_is_alembics_head() -> None:
    """A server on a current database skips Alembic on this id: it must be Alembic's head."""
    config = Config()
    config.set_main_option("script_location", "closingbell.server:migrations")
    assert newest_migration() == ScriptDirectory.from_config(config).get_current_head()
