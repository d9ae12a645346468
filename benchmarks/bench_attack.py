"""What an attacker costs the other tables of one ``closingbell serve`` process.

Usage::

    python benchmarks/bench_attack.py [--tables 10] [--think 0.5] [--quiet 15] [--flood 20]
                                      [--hold 40] [--non-readers 4] [--frame-rate 80000]
                                      [--server-src DIR]
    python benchmarks/bench_attack.py --fairness [--quiet 15] [--flood 20] [--hold 40]
                                      [--sign-up-clients 64] [--expert-tables 20]
                                      [--no-expert-cap] [--server-src DIR]

Without ``--fairness``, a WebSocket flood (below). With ``--fairness``, the two ways one
client could once make every other game slow (``bench_fairness``): a flood of sign-ups,
which cost a password hash each, and tables full of expert bots, whose searches share the
helper processes with every other table's.

It starts a real ``closingbell serve`` process (``--bot-delay 0``, a temporary SQLite file)
and keeps ``--tables`` Take Stock tables playing, two clients a table on 127.0.0.1, each
answering its turns after a think time drawn from 0.5 to 1.5 times ``--think`` and timing
the round trip from its action to the ``state`` that reflects it (a finished table is
replaced). Three phases follow, with the players' round trips measured in each (a round
trip counts in the phase its action was sent in):

1. quiet: nobody attacks (``--quiet`` seconds);
2. flood: one connection from 127.0.0.2 sends ``ping`` frames, up to ``--frame-rate``
   (80,000) a second, as fast as the server takes them, and reads whatever comes back;
   when the server closes it, it connects again after a second, as a reconnecting client
   would (``--flood`` seconds);
3. non-readers: ``--non-readers`` connections, from 127.0.0.3 onwards, flood the same way
   and never read a byte (``--hold`` seconds); the server process's resident memory is
   read from ``/proc`` before, every second, and at the end.

The attackers run in a child process with raw sockets (hand-made WebSocket frames, so the
attack is not held back by a client library), apart from the players' asyncio loop.
``--server-src`` runs the server from another source tree (``PYTHONPATH``), to measure
another version of the server with the same clients. Linux only (``/proc``, the 127.0.0.x
source addresses). A benchmark: the figures are printed, never compared with a threshold.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from bench_fairness import rss_mb, run_fairness
from websockets.asyncio.client import connect

from closingbell.server.loadtest import percentile
from closingbell.server.loadtest.processes import process_cpu, server_process
from closingbell.server.loadtest.wire import (
    close_code,
    http_request,
    masked_frame,
    open_raw_websocket,
    read_frame,
)

PING = json.dumps({"type": "ping"}).encode()
"""What the attackers send, frame after frame."""
HELLO = json.dumps({"type": "hello"}).encode()
"""An attacker's first message: watch the table as a spectator."""
FRAMES_PER_WRITE = 2000
"""Frames in each write of an attacker's socket."""


# ---------------------------------------------------------------- the attackers (child process)


def _reader(sock: socket.socket, stats: Counter[str]) -> None:
    """Read server frames until the end; count them and note the close code."""
    with contextlib.suppress(OSError, ConnectionError):
        while True:
            opcode, payload = read_frame(sock)
            if opcode == 0x8:
                stats[f"closed {close_code(payload)}"] += 1
                return
            stats["frames received"] += 1


def _attacker(
    port: int, source: str, path: str, *, read: bool, until: float, rate: float, stats: Counter[str]
) -> None:
    """Flood ``path`` from ``source`` until ``until`` at up to ``rate`` frames a second,
    connecting again after each end."""
    flood = masked_frame(PING) * FRAMES_PER_WRITE
    while time.monotonic() < until:
        try:
            sock, status = open_raw_websocket(port, path, source)
        except OSError:
            stats["connect failed"] += 1
            time.sleep(1)
            continue
        if sock is None:
            stats[f"refused {status}"] += 1
            time.sleep(1)
            continue
        stats["connections"] += 1
        reader = None
        if read:
            reader = threading.Thread(target=_reader, args=(sock, stats), daemon=True)
            reader.start()
        try:
            sock.settimeout(None)
            sock.sendall(masked_frame(HELLO))
            paced = time.monotonic()
            while (now := time.monotonic()) < until:
                time.sleep(max(0.0, paced - now))
                paced = max(paced, now) + FRAMES_PER_WRITE / rate
                sock.sendall(flood)
                stats["frames sent"] += FRAMES_PER_WRITE
        except OSError:
            stats["ended by the server"] += 1
        finally:
            sock.close()
        if reader is not None:
            reader.join(timeout=2)
        time.sleep(1)


def attack(
    port: int, table: str, sources: list[str], *, read: bool, seconds: float, rate: float
) -> None:
    """The child process: one attacker thread per source address; print the counts."""
    until = time.monotonic() + seconds
    stats: Counter[str] = Counter()
    threads = [
        threading.Thread(
            target=_attacker,
            args=(port, source, f"/ws/tables/{table}"),
            kwargs={"read": read, "until": until, "rate": rate, "stats": stats},
            daemon=True,
        )
        for source in sources
    ]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stats["CPU % of a core"] = round(time.process_time() / seconds * 100)
    print(json.dumps(dict(stats)), flush=True)
    os._exit(0)  # attackers blocked in a write end with the process


# ---------------------------------------------------------------- the players (this process)


class Players:
    """Tables of two clients each, playing and timing their round trips by phase."""

    def __init__(self, base: str, tables: int, think: float) -> None:
        self.base = base
        self.tables = tables
        self.think = think
        self.phase = "setup"
        self.latencies: dict[str, list[float]] = {}
        self.errors: Counter[str] = Counter()
        self.tasks: set[asyncio.Task[None]] = set()
        self.rng = random.Random(0)

    async def start(self) -> None:
        await asyncio.gather(*(self._table() for _ in range(self.tables)))

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _table(self) -> None:
        status, body = await http_request(
            self.base, "POST", "/api/tables", {"game": "take_stock", "seats": ["open", "open"]}
        )
        if status != 201:
            self.errors[f"create {status}"] += 1
            return
        table_id = body["table"]["id"]
        tokens = []
        for seat in range(2):
            join = {"name": f"P{seat}", "seat": seat}
            status, body = await http_request(
                self.base, "POST", f"/api/tables/{table_id}/join", join
            )
            tokens.append(body["token"])
        ready = [asyncio.Event(), asyncio.Event()]
        for seat, token in enumerate(tokens):
            task = asyncio.create_task(self._client(table_id, seat, token, ready[seat]))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        await asyncio.gather(*(r.wait() for r in ready))

    async def _client(self, table_id: str, seat: int, token: str, ready: asyncio.Event) -> None:
        rng = random.Random(self.rng.getrandbits(64))
        url = f"ws://{self.base}/ws/tables/{table_id}"
        finished = False
        try:
            async with connect(url, ping_interval=None, local_addr=("127.0.0.1", 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                ready.set()
                sent_at, sent_version, sent_phase = None, -1, self.phase
                async for raw in ws:
                    now = time.perf_counter()
                    message = json.loads(raw)
                    if message["type"] == "error":
                        self.errors[message["code"]] += 1
                        sent_at = None
                        continue
                    if message["type"] != "state":
                        continue
                    if sent_at is not None and message["version"] > sent_version:
                        self.latencies.setdefault(sent_phase, []).append(now - sent_at)
                        sent_at = None
                    if message["status"] == "finished":
                        finished = True
                        break
                    if message["current_player"] != seat or not message["legal"]:
                        continue
                    await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))
                    legal = message["legal"]
                    choice = legal[rng.randrange(len(legal))]["id"]
                    sent_version, sent_phase = message["version"], self.phase
                    sent_at = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "action", "version": sent_version, "action": choice})
                    )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.errors[f"client {type(exc).__name__}"] += 1
        finally:
            ready.set()
            if finished and seat == 0:
                task = asyncio.create_task(self._table())
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)


def _attackers(
    port: int, table: str, sources: list[str], *, read: bool, seconds: float, rate: float
) -> subprocess.Popen[bytes]:
    """The attackers' process, started."""
    spec = {"port": port, "table": table, "sources": sources}
    spec |= {"read": read, "seconds": seconds, "rate": rate}
    return subprocess.Popen(
        [sys.executable, __file__, "--attacker", json.dumps(spec)],
        stdout=subprocess.PIPE,
    )


def _summary(samples: list[float]) -> str:
    ms = [s * 1000 for s in samples]
    return (
        f"{len(ms):6}  {percentile(ms, 0.5):8.1f}  {percentile(ms, 0.95):8.1f}  "
        f"{percentile(ms, 0.99):8.1f}  {percentile(ms, 1.0):8.1f}"
    )


async def measure(args: argparse.Namespace, port: int, pid: int) -> None:
    base = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(OSError, ValueError, IndexError):
            if (await http_request(base, "GET", "/api/health"))[0] == 200:
                break
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.1)
    players = Players(base, args.tables, args.think)
    await players.start()
    _, body = await http_request(
        base, "POST", "/api/tables", {"game": "take_stock", "seats": ["open", "open"]}
    )
    target = body["table"]["id"]
    load: list[float] = []
    print(f"server pid {pid}, RSS at start {rss_mb(pid):.0f} MB", flush=True)

    cpu: dict[str, float] = {}

    def phase(name: str) -> None:
        """Start phase ``name``; note the server's CPU time over the one before."""
        now = (time.perf_counter(), process_cpu(pid) or 0.0)
        if players.phase != "setup":
            cpu[players.phase] = (now[1] - mark[1]) / (now[0] - mark[0]) * 100
        mark[:] = now
        players.phase = name
        load.append(os.getloadavg()[0])

    mark = [time.perf_counter(), process_cpu(pid) or 0.0]
    phase("quiet")
    await asyncio.sleep(args.quiet)

    phase("flood")
    child = _attackers(
        port, target, ["127.0.0.2"], read=True, seconds=args.flood, rate=args.frame_rate
    )
    await asyncio.sleep(args.flood)
    out, _ = await asyncio.to_thread(child.communicate)
    flood_stats = out.decode().strip()

    phase("after flood")
    await asyncio.sleep(3)
    phase("non-readers")
    sources = [f"127.0.0.{3 + i}" for i in range(args.non_readers)]
    rss = [rss_mb(pid)]
    child = _attackers(port, target, sources, read=False, seconds=args.hold, rate=args.frame_rate)
    started = time.monotonic()
    while time.monotonic() - started < args.hold:
        await asyncio.sleep(1)
        rss.append(rss_mb(pid))
    out, _ = await asyncio.to_thread(child.communicate)
    hold_stats = out.decode().strip()
    phase("end")
    await players.stop()

    print(f"players: {args.tables} tables of 2 clients on 127.0.0.1, think {args.think:g} s")
    shown = ", ".join(f"{x:.2f}" for x in load)
    print(f"load average (1 min) at the start of each phase and at the end: {shown}")
    print("phase          round trips   p50 ms    p95 ms    p99 ms    max ms  server CPU %")
    for name in ("quiet", "flood", "after flood", "non-readers"):
        print(f"{name:14} {_summary(players.latencies.get(name, []))}  {cpu[name]:12.0f}")
    print(f"flooder (1 connection, reads): {flood_stats}")
    print(f"non-readers ({args.non_readers} connections, never read): {hold_stats}")
    print(
        f"server RSS: {rss[0]:.0f} MB before the non-readers, {rss[-1]:.0f} MB after "
        f"{args.hold:g} s (most {max(rss):.0f} MB)"
    )
    print(f"players' errors: {dict(players.errors) or 'none'}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--quiet", type=float, default=15.0)
    parser.add_argument("--flood", type=float, default=20.0)
    parser.add_argument("--hold", type=float, default=40.0)
    parser.add_argument("--non-readers", type=int, default=4)
    parser.add_argument(
        "--frame-rate", type=float, default=80_000.0, help="frames a second per attacker, at most"
    )
    parser.add_argument("--server-src", default=None, help="PYTHONPATH of the server process")
    parser.add_argument("--attacker", default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--fairness", action="store_true", help="the sign-up flood and the expert tables"
    )
    parser.add_argument("--sign-up-clients", type=int, default=64)
    parser.add_argument("--expert-tables", type=int, default=20)
    parser.add_argument(
        "--no-expert-cap",
        action="store_true",
        help="let the attacker keep any number of expert seats (the fair turns alone)",
    )
    args = parser.parse_args(argv)
    if args.attacker is not None:
        attack(**json.loads(args.attacker))
        return 0
    if args.fairness:
        return run_fairness(args)
    own_path = os.environ.get("PYTHONPATH")
    if args.server_src is not None:
        os.environ["PYTHONPATH"] = str(Path(args.server_src).resolve())
    with (
        tempfile.TemporaryDirectory(prefix="closingbell-attack-") as folder,
        server_process(f"sqlite:///{Path(folder) / 'attack.db'}", 0) as server,
    ):
        # The attackers' processes run this source tree, whichever server is measured.
        if own_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = own_path
        asyncio.run(measure(args, server.port, server.process.pid))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
