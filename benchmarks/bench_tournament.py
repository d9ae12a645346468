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
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PASSWORD = "a good long password"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(database: str, folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """A ``closingbell serve`` process on a free port; its address once it answers."""
    port = free_port()
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(folder),
        "CLOSINGBELL_SIGN_UPS_PER_ADDRESS": "0",
        "CLOSINGBELL_ADDRESS_RATE": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "closingbell.cli.main", "serve", "--port", str(port),
         "--database", database, "--bot-delay", "0"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return base, process
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)


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
        base, process = serve(database, Path(folder))
        try:
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
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(30)
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
