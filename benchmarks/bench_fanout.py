"""How soon a player on one server sees a move made through another, on one PostgreSQL.

Usage::

    python benchmarks/bench_fanout.py --database postgresql://USER:PASSWORD@HOST/DB
                                      [--tables 20] [--moves 40] [--think 0.05]

It starts two real ``closingbell serve`` processes, A and B, on the named PostgreSQL
database (which it must be free to write tables into; a throwaway one is best), and plays
``--tables`` Take Stock tables of two people at once, ``--moves`` moves each, in two layouts:

- **same server**: both players of a table on A (what one process gives today);
- **two servers**: seat 0 on A, seat 1 on B (every move of one reaches the other through
  PostgreSQL's notices).

For every move it times, from sending the action, the mover's round trip (to the ``state``
that reflects it, from the mover's own server) and the other player's delay (to the same
``state``, from the other player's server), and prints their 50th and 99th percentiles per
layout. Each player waits ``--think`` seconds (0.5 to 1.5 times) before its move, as people
do. A benchmark: the figures are printed, never compared with a threshold.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

QUICK = {
    "CLOSINGBELL_RATE": "10000",
    "CLOSINGBELL_BURST": "10000",
    "CLOSINGBELL_ADDRESS_RATE": "0",
    "CLOSINGBELL_ADDRESS_CONNECTIONS": "0",
    "CLOSINGBELL_TABLES_PER_MINUTE": "0",
}
"""The servers' limits lifted: every client of the benchmark comes from 127.0.0.1."""


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(database: str, folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """A ``closingbell serve`` on ``database`` and a free port; its address and process."""
    port = free_port()
    env = {**os.environ, **QUICK, "XDG_DATA_HOME": str(folder)}
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "closingbell.cli.main", "serve", "--port", str(port)),
            *("--database", database, "--bot-delay", "0"),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return base, process
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit(f"the server at {base} did not start")
        time.sleep(0.1)


async def play_table(
    bases: tuple[str, str], moves: int, think: float, rounds: list[float], others: list[float]
) -> None:
    """One table, seat 0 through ``bases[0]`` and seat 1 through ``bases[1]``."""
    async with httpx.AsyncClient() as http:
        made = await http.post(
            f"{bases[0]}/api/tables", json={"game": "take_stock", "seats": ["open", "open"]}
        )
        table_id = made.json()["table"]["id"]
        tokens = []
        for seat in (0, 1):
            joined = await http.post(
                f"{bases[seat]}/api/tables/{table_id}/join", json={"name": f"P{seat}", "seat": seat}
            )
            tokens.append(joined.json()["token"])
    sockets = [
        await websockets.connect(f"{bases[seat].replace('http', 'ws')}/ws/tables/{table_id}")
        for seat in (0, 1)
    ]
    try:
        states = []
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            states.append(await next_state(ws, lambda m: True))
        for _ in range(moves):
            mover = states[0]["current_player"]
            if mover is None or states[0]["status"] != "playing":
                break
            other = 1 - mover
            await asyncio.sleep(think * random.uniform(0.5, 1.5))
            version = states[mover]["version"]
            action = random.choice(states[mover]["legal"])["id"]
            sent = time.perf_counter()
            await sockets[mover].send(
                json.dumps({"type": "action", "version": version, "action": action})
            )
            (mine, took), (theirs, later) = await asyncio.gather(
                seen(sockets[mover], version, sent), seen(sockets[other], version, sent)
            )
            rounds.append(took)
            others.append(later)
            states[mover], states[other] = mine, theirs
    finally:
        for ws in sockets:
            await ws.close()


async def seen(ws: Any, version: int, sent: float) -> tuple[dict[str, Any], float]:
    """The ``state`` after ``version`` on ``ws``, and the seconds since ``sent``."""
    state = await next_state(ws, lambda m: m["version"] > version)
    return state, time.perf_counter() - sent


async def next_state(ws: Any, wanted: Any) -> dict[str, Any]:
    """The next ``state`` message ``wanted`` accepts."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] == "error":
            raise RuntimeError(f"the server refused a move: {message}")
        if message["type"] == "state" and wanted(message):
            return message


def percentiles(values: list[float]) -> str:
    """The 50th and 99th percentiles of ``values`` in milliseconds."""
    cuts = statistics.quantiles(values, n=100)
    return f"p50 {cuts[49] * 1000:6.1f} ms   p99 {cuts[98] * 1000:6.1f} ms"


async def measure(args: argparse.Namespace, a: str, b: str) -> None:
    """Play both layouts and print the figures."""
    for name, bases in (("same server", (a, a)), ("two servers", (a, b))):
        rounds: list[float] = []
        others: list[float] = []
        await asyncio.gather(
            *(play_table(bases, args.moves, args.think, rounds, others) for _ in range(args.tables))
        )
        print(f"{name:12}  {len(rounds):5} moves")
        print(f"  mover's round trip        {percentiles(rounds)}")
        print(f"  other player's delay      {percentiles(others)}")


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL URL (tables are added)")
    parser.add_argument("--tables", type=int, default=20, help="tables played at once")
    parser.add_argument("--moves", type=int, default=40, help="moves a table")
    parser.add_argument("--think", type=float, default=0.05, help="seconds before a move")
    args = parser.parse_args()
    if not args.database.startswith(("postgresql://", "postgres://", "postgresql+")):
        parser.error("--database must be a PostgreSQL URL: the servers share it")
    with tempfile.TemporaryDirectory() as folder:
        a, first = start_server(args.database, Path(folder))
        b, second = start_server(args.database, Path(folder))
        try:
            asyncio.run(measure(args, a, b))
        finally:
            for process in (first, second):
                process.send_signal(signal.SIGTERM)
            for process in (first, second):
                process.wait(timeout=30)


if __name__ == "__main__":
    main()
