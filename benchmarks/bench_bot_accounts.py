"""How many bot-account games one server process holds with their programs on this machine.

Usage::

    python benchmarks/bench_bot_accounts.py [--database URL] [--games 20,50,100,200]
                                            [--think SECONDS]

For each number of games: starts ``closingbell serve`` (``--bot-delay 0``, a fresh SQLite
file unless a database is named), makes bot accounts with API tokens (20 games each at
most, the server's limit), opens that many two-seat Card Stock Market tables, each between
two bot accounts, and runs one ``closingbell.remote`` client per account in this process
(each choosing at random, as fast as it can, or after a pause of ``--think`` seconds a
decision, as a program that thinks), all at once, until every game is over.
Prints the decisions the server applied a second; the time from one action to the next at
a table, read from the stored actions' times, less the ``--think`` pause (its median, 95th
percentile and mean: the round trip of a state to the program and its action back, and the
server's work); how long the games took; the CPU the server process and this one used, and
the server's largest resident memory. Past the number of games where the server's CPU is
full, a game's decisions only come slower. A benchmark: the figures are printed, never
compared with a threshold.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from closingbell.core.game import Game
from closingbell.remote.agents import Choose, MakeChooser, bot_chooser
from closingbell.remote.client import Connector, Settings
from closingbell.server.loadtest.processes import (
    process_cpu,
    process_memory,
    server_process,
    wait_until_healthy,
)
from closingbell.server.store import async_url
from closingbell.server.store.schema import actions_table

PASSWORD = "a good long password"
PER_ACCOUNT = 20
"""Games a bot account sits at at once (``Settings.bot_account_games``)."""


SETTINGS = {
    "CLOSINGBELL_SIGN_UPS_PER_ADDRESS": "0",
    # Every program runs on this machine: no limits per address (each connection keeps
    # the people's limit of 10 messages a second, which a program meets as they do).
    "CLOSINGBELL_ADDRESS_RATE": "0",
    "CLOSINGBELL_ADDRESS_CONNECT_RATE": "0",
    "CLOSINGBELL_ADDRESS_CONNECTIONS": "0",
    "CLOSINGBELL_TABLES_PER_MINUTE": "0",
}
"""The server's settings besides the benchmark servers' own (no limits per address)."""


def bot_accounts(base: str, count: int) -> list[str]:
    """``count`` new bot accounts' API tokens."""
    tokens = []
    for i in range(count):
        with httpx.Client(base_url=base, headers={"Origin": base}, timeout=30) as owner:
            name = f"bench{i}x{os.getpid()}"
            owner.post(
                "/api/account/signup", json={"username": name, "password": PASSWORD}
            ).raise_for_status()
            owner.post("/api/account/bot").raise_for_status()
            made = owner.post("/api/account/tokens", json={"name": "bench"})
            made.raise_for_status()
            tokens.append(made.json()["token"])
    return tokens


def tables(base: str, tokens: list[str], games: int) -> list[str]:
    """``games`` two-seat tables, each seat taken by a bot account (each in 20 at most)."""
    out = []
    for g in range(games):
        first, second = tokens[(2 * g) % len(tokens)], tokens[(2 * g + 1) % len(tokens)]
        bearer = [{"Authorization": f"Bearer {t}"} for t in (first, second)]
        made = httpx.post(
            f"{base}/api/tables",
            json={"game": "card_stock_market", "seats": ["open", "open"]},
            headers=bearer[0],
            timeout=30,
        )
        made.raise_for_status()
        table = made.json()["table"]["id"]
        for seat in (0, 1):
            httpx.post(
                f"{base}/api/tables/{table}/join", json={"seat": seat}, headers=bearer[seat],
                timeout=30,
            ).raise_for_status()  # fmt: skip
        out.append(table)
    return out


def thinking(think: float) -> MakeChooser:
    """Random choosers that first pause ``think`` seconds (in the client's threads)."""
    random_bot = bot_chooser("random")

    def make(game: Game, seed: int) -> Choose:
        choose = random_bot(game, seed)

        def slow(view: Any) -> int:
            time.sleep(think)
            return choose(view)

        return slow if think > 0 else choose

    return make


async def play(
    base: str, tokens: list[str], games: int, think: float, pid: int
) -> tuple[float, float]:
    """Run one client per account until ``games`` games are over; the seconds it took and
    the server's largest resident memory meanwhile (MB)."""
    clients = [
        Connector(
            # Looking for new games as often as ``closingbell connect`` does by default.
            Settings(server=base, token=t, make=thinking(think), at_once=PER_ACCOUNT),
            say=lambda line: None,
        )
        for t in tokens
    ]
    started = time.perf_counter()
    running = [asyncio.create_task(c.run()) for c in clients]
    memory = 0.0
    while sum(c.played for c in clients) < 2 * games:
        await asyncio.sleep(0.1)
        memory = max(memory, process_memory(pid) or 0.0)
    took = time.perf_counter() - started
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    return took, memory


async def action_gaps(database: str, ids: list[str]) -> list[float]:
    """The seconds between each stored action of the tables ``ids`` and the one before it."""
    engine = create_async_engine(async_url(database), poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            rows = (
                await connection.execute(
                    sa.select(actions_table.c.table_id, actions_table.c.created_at)
                    .where(actions_table.c.table_id.in_(ids))
                    .order_by(actions_table.c.table_id, actions_table.c.number)
                )
            ).all()
    finally:
        await engine.dispose()
    return [
        (b.created_at - a.created_at).total_seconds()
        for a, b in itertools.pairwise(rows)
        if a.table_id == b.table_id
    ]


def measure(database: str | None, games: int, think: float) -> str:
    with tempfile.TemporaryDirectory() as folder:
        url = database or f"sqlite:///{Path(folder) / 'bench.db'}"
        with server_process(url, environment=SETTINGS) as server:
            wait_until_healthy(server)
            base = f"http://{server.base}"
            pid = server.process.pid
            tokens = bot_accounts(base, max(2, math.ceil(2 * games / PER_ACCOUNT)))
            ids = tables(base, tokens, games)
            server_cpu = process_cpu(pid) or 0.0
            own_cpu = time.process_time()
            took, memory = asyncio.run(play(base, tokens, games, think, pid))
            server_cpu = (process_cpu(pid) or 0.0) - server_cpu
            own_cpu = time.process_time() - own_cpu
            decisions = sum(
                httpx.get(f"{base}/api/tables/{t}", timeout=30).json()["table"]["version"]
                for t in ids
            )
            gaps = sorted(g - think for g in asyncio.run(action_gaps(url, ids)))
    rate = decisions / took
    median, p95 = gaps[len(gaps) // 2], gaps[int(len(gaps) * 0.95)]
    return (
        f"{games:4d} games at once ({len(tokens)} bot accounts): {decisions} decisions in "
        f"{took:5.1f} s = {rate:6.0f}/s; from an action to the next, beyond the thinking: "
        f"median {median * 1000:4.0f} ms, 95% {p95 * 1000:5.0f} ms, mean "
        f"{sum(gaps) / len(gaps) * 1000:5.0f} ms; server CPU "
        f"{server_cpu / took:4.0%} of a core, clients {own_cpu / took:4.0%}, server memory "
        f"{memory:4.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--games", default="20,50,100,200")
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds each decision takes (default 0)"
    )
    args = parser.parse_args()
    print(f"each decision after {args.think:g} s" if args.think else "at full speed", flush=True)
    for games in (int(g) for g in args.games.split(",")):
        print(measure(args.database, games, args.think), flush=True)


if __name__ == "__main__":
    main()
