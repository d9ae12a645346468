"""How long a server takes to seat a Swiss round: from the round's start to every table made.

Usage::

    python benchmarks/bench_tournament.py [--database URL] [--entrants 64] [--table-size 2]
        [--repeats 3]

Starts ``closingbell serve`` (``--bot-delay 0``, a fresh SQLite file unless a database is
named), makes a Swiss tournament of ``--entrants`` built-in bots (``random``) at tables of
``--table-size``, starts it, and reads it every 10 ms until its first round's tables are
all made and playing. Prints, for each repeat, the time from the round's start (the
``round_at`` its director wrote) to the last table seen made, and from the start request
(its creator's "start now") to then, which adds the wait for the director's next look (at
most ``Settings.tournament_tick``, 1 s). A benchmark: the figures are printed, never
compared with a threshold.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from closingbell.server.loadtest.processes import server_process, wait_until_healthy

PASSWORD = "a good long password"


SETTINGS = {
    "CLOSINGBELL_SIGN_UPS_PER_ADDRESS": "0",
    "CLOSINGBELL_ADDRESS_RATE": "0",
}
"""The server's settings besides the benchmark servers' own (no limits per address)."""


def one_round(base: str, client: httpx.Client, entrants: int, size: int) -> tuple[float, float]:
    """Seconds from round start, and from the start request, to every table made."""
    made = client.post(
        "/api/tournaments",
        json={
            "kind": "swiss", "name": "Seating", "game": "card_stock_market",
            "table_size": size, "rounds": 1, "starts_in": 3600, "bots": ["random"] * entrants,
        },
    )  # fmt: skip
    made.raise_for_status()
    tid = made.json()["tournament"]["id"]
    asked = dt.datetime.now(dt.UTC)
    client.post(f"/api/tournaments/{tid}/start").raise_for_status()
    tables = -(-entrants // size) if size > 2 else entrants // 2
    while True:
        shown = client.get(f"/api/tournaments/{tid}").json()
        rounds = shown["rounds"]
        made_all = rounds and len(rounds[0]["tables"]) == tables
        if made_all and all(t["status"] != "waiting" for t in rounds[0]["tables"]):
            seen = dt.datetime.now(dt.UTC)
            started = dt.datetime.fromisoformat(shown["tournament"]["round_at"])
            return (seen - started).total_seconds(), (seen - asked).total_seconds()
        time.sleep(0.01)


def main() -> None:
    """Seat ``--repeats`` first rounds and print the times."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--table-size", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or f"sqlite:///{Path(folder) / 'bench.db'}"
        with server_process(database, environment=SETTINGS) as server:
            wait_until_healthy(server)
            base = f"http://{server.base}"
            with httpx.Client(base_url=base, headers={"Origin": base}, timeout=30) as client:
                name = f"bench{os.getpid()}"
                signed = client.post(
                    "/api/account/signup", json={"username": name, "password": PASSWORD}
                )
                signed.raise_for_status()
                figures = [
                    one_round(base, client, args.entrants, args.table_size)
                    for _ in range(args.repeats)
                ]
    seated = [f[0] for f in figures]
    asked = [f[1] for f in figures]
    print(
        f"{args.entrants} entrants at tables of {args.table_size} on {database.split(':')[0]}: "
        f"every table made {statistics.median(seated) * 1000:.0f} ms after the round started "
        f"(median of {len(seated)}: {', '.join(f'{s * 1000:.0f}' for s in seated)} ms); "
        f"{statistics.median(asked) * 1000:.0f} ms after the start was asked for"
    )


if __name__ == "__main__":
    main()
