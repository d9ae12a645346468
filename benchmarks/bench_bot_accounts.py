"""How many bot-account games one server process holds with their programs on this machine.

Usage::

    python benchmarks/bench_bot_accounts.py [--database URL] [--games 20,50,100,200]

For each number of games: starts ``closingbell serve`` (``--bot-delay 0``, a fresh SQLite
file unless a database is named), makes bot accounts with API tokens (20 games each at
most, the server's limit), opens that many two-seat Card Stock Market tables, each between
two bot accounts, and runs one ``closingbell.remote`` client per account in this process
(each choosing at random, as fast as it can), all at once, until every game is over.
Prints the decisions the server applied a second, the mean seconds from one state to the
next at a table (a decision's round trip, the client's choosing included), how long the
games took, and the CPU the server process and this one used: past the number of games
where the server's CPU is full, a game's decisions only come slower. A benchmark: the
figures are printed, never compared with a threshold.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import tempfile
import time
from pathlib import Path

import httpx

from closingbell.remote.agents import bot_chooser
from closingbell.remote.client import Connector, Settings
from closingbell.server.loadtest.processes import process_cpu, server_process, wait_until_healthy

PASSWORD = "a good long password"
PER_ACCOUNT = 20
"""Games a bot account sits at at once (``Settings.bot_account_games``)."""


SETTINGS = {
    "CLOSINGBELL_SIGN_UPS_PER_ADDRESS": "0",
    # Every program runs on this machine: no limits per address (each connection keeps
    # the people's limit of 10 messages a second, which a program meets as they do).
    "CLOSINGBELL_ADDRESS_RATE": "0",
    "CLOSINGBELL_ADDRESS_CONNECT_RATE": "0",
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


async def play(base: str, tokens: list[str], games: int) -> float:
    """Run one client per account until ``games`` games are over; the seconds it took."""
    clients = [
        Connector(
            Settings(
                server=base, token=t, make=bot_chooser("random"), at_once=PER_ACCOUNT, poll=0.5
            ),
            say=lambda line: None,
        )
        for t in tokens
    ]
    started = time.perf_counter()
    running = [asyncio.create_task(c.run()) for c in clients]
    while sum(c.played for c in clients) < 2 * games:
        await asyncio.sleep(0.1)
    took = time.perf_counter() - started
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    return took


def measure(database: str | None, games: int) -> str:
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
            took = asyncio.run(play(base, tokens, games))
            server_cpu = (process_cpu(pid) or 0.0) - server_cpu
            own_cpu = time.process_time() - own_cpu
            decisions = sum(
                httpx.get(f"{base}/api/tables/{t}", timeout=30).json()["table"]["version"]
                for t in ids
            )
    rate = decisions / took
    step = took * games / decisions
    return (
        f"{games:4d} games at once ({len(tokens)} bot accounts): {decisions} decisions in "
        f"{took:5.1f} s = {rate:6.0f}/s; {step * 1000:5.1f} ms from a state to the next at a "
        f"table; server CPU {server_cpu / took:4.0%} of a core, clients {own_cpu / took:4.0%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--games", default="20,50,100,200")
    args = parser.parse_args()
    for games in (int(g) for g in args.games.split(",")):
        print(measure(args.database, games), flush=True)


if __name__ == "__main__":
    main()
