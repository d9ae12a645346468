"""Tables stored under an older rules version are rebuilt, and go on, under the rules they
began with: a database written at schema 0001 (before tables recorded their rules version)
holding Card Stock Market tables of rules version 1, which allowed a market change that
changes nothing (see tests/core/test_rules_versions.py for the record they come from)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command

from closingbell.core.records import GameRecord, replay
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.server.store import Store, hash_token
from closingbell.server.store.upgrades import alembic_config
from tests.server.helpers import act, client_for, create, expect, hello

FIXTURE = (
    Path(__file__).resolve().parent.parent
    / "golden"
    / "older"
    / "card_stock_market_v1_3p_same_price.cbrec"
)
SAME_PRICE_ACTION = 40
"""The record's action (counted from 1) that plays the ace of diamonds with diamonds at $1."""
TOKENS = ["token-of-seat-0", "token-of-seat-1", "token-of-seat-2"]


def _write_version_1_database(url: str, record: GameRecord) -> None:
    """A database as closingbell wrote it at schema 0001 and rules version 1: a finished
    table of the whole record, and one still playing, stopped before its same-price change."""
    game = record.check()
    ids = [game.string_to_action(a.text) for a in record.actions]
    seats = [a.seat for a in record.actions]
    now = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)

    async def run() -> None:
        store = Store(url)
        try:
            async with store.engine.begin() as conn:
                await conn.run_sync(lambda c: command.upgrade(alembic_config(c), "0001"))
                for table, status, count, kind in (
                    ("finished1", "finished", len(ids), "bot"),
                    ("playing1", "playing", SAME_PRICE_ACTION - 1, "human"),
                ):
                    await conn.execute(
                        sa.text(
                            "INSERT INTO tables (id, game, options, seed, clock, status, "
                            "version, created_at, updated_at) VALUES (:id, :game, :options, "
                            ":seed, NULL, :status, :version, :now, :now)"
                        ),
                        {
                            "id": table,
                            "game": record.game,
                            "options": json.dumps(record.options),
                            "seed": record.seed,
                            "status": status,
                            "version": count,
                            "now": now,
                        },
                    )
                    for seat in range(3):
                        await conn.execute(
                            sa.text(
                                "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash) "
                                "VALUES (:table, :seat, :kind, :bot, :name, :hash)"
                            ),
                            {
                                "table": table,
                                "seat": seat,
                                "kind": kind,
                                "bot": "random" if kind == "bot" else None,
                                "name": None if kind == "bot" else f"P{seat}",
                                "hash": None if kind == "bot" else hash_token(TOKENS[seat]),
                            },
                        )
                    for number in range(count):
                        await conn.execute(
                            sa.text(
                                "INSERT INTO actions (table_id, number, seat, action, text, "
                                "created_at) VALUES (:table, :number, :seat, :action, :text, :now)"
                            ),
                            {
                                "table": table,
                                "number": number,
                                "seat": seats[number],
                                "action": ids[number],
                                "text": record.actions[number].text,
                                "now": now,
                            },
                        )
        finally:
            await store.close()

    asyncio.run(run())


def _rules_versions(url: str) -> dict[str, int]:
    async def run() -> dict[str, int]:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                rows = await conn.execute(sa.text("SELECT id, rules_version FROM tables"))
                return {str(r[0]): int(r[1]) for r in rows.all()}
        finally:
            await store.close()

    return asyncio.run(run())


def test_a_version_1_table_on_sqlite_is_rebuilt_and_goes_on_under_version_1(
    tmp_path: Path,
) -> None:
    record = GameRecord.read(FIXTURE)
    assert record.version == 1 and "same_price_change" not in record.options
    url = f"sqlite:///{tmp_path / 'v1.db'}"
    _write_version_1_database(url, record)

    with client_for(url) as client:
        # The finished game: shown, and its record replays to the same result.
        finished = client.get("/api/tables/finished1").json()["table"]
        assert finished["status"] == "finished"
        assert finished["options"]["same_price_change"] is True
        text = client.get("/api/tables/finished1/record.cbrec").text
        again = GameRecord.loads(text)
        assert again.version == CardStockMarket.info.version == 2
        assert again.options["same_price_change"] is True
        assert [a.text for a in again.actions] == [a.text for a in record.actions]
        assert record.result is not None and replay(again).scores() == list(record.result.scores)

        # The game still playing is offered, and accepts, the change version 1 allowed.
        playing = client.get("/api/tables/playing1").json()["table"]
        assert playing["status"] == "playing" and playing["version"] == SAME_PRICE_ACTION - 1
        seat = record.actions[SAME_PRICE_ACTION - 1].seat
        with client.websocket_connect("/ws/tables/playing1") as ws:
            message: dict[str, Any] = hello(ws, TOKENS[seat])
            offered = {a["text"]: a["id"] for a in message["legal"]}
            assert "market AD" in offered
            act(ws, message["version"], offered["market AD"])
            after = expect(ws, "state")
            assert after["version"] == SAME_PRICE_ACTION
            assert after["last_action"]["text"] == "market AD"

        # A new table is made under today's rules.
        new = create(client, "card_stock_market", ["random", "random"], seed=3)
        assert new["options"]["same_price_change"] is False

    assert _rules_versions(url) == {"finished1": 1, "playing1": 1, new["id"]: 2}
