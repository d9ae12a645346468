"""What one client's sign-up flood, or its tables full of experts, costs everyone else.

Run through ``python benchmarks/bench_attack.py --fairness`` (its options are there). It
starts a real ``closingbell serve`` (a temporary SQLite file, default settings but for
``--bot-delay 0`` and no limit on connections or tables per address, as bench_attack's
server), and keeps three victim tables of Take Stock playing from 127.0.0.1, each replaced
when its game ends:

- two people, who time the round trip from an action to the ``state`` that shows it;
- a person against a ``medium`` bot, who times the bot's moves (from the ``state`` that
  hands the bot the turn to the one that shows its move);
- a person against an ``expert`` bot, timed the same way.

People answer after 0.5 to 1.5 times ``--think`` seconds. Three phases follow, each
``--quiet``, ``--flood`` and ``--hold`` seconds long:

1. quiet: nobody attacks;
2. sign-ups: ``--sign-up-clients`` connections from 127.0.0.2 ask, in a loop, to sign up
   a name that is taken, without a pause (each on a connection of its own), from a process
   of their own (this file run with the flood's settings);
3. experts: 127.0.0.3 opens ``--expert-tables`` tables of six expert bots each (they play
   by themselves); ``--no-expert-cap`` lifts the server's limit on one address's expert
   seats, to see the fair turns alone.

For each phase it prints the people's round trips (p50, p99), the bots' moves (median,
p99, most), the server's CPU and its largest resident memory; then what the attackers
were answered, and how far the attacker's tables got. ``--server-src DIR`` runs another
source tree's server with the same clients. A benchmark: figures printed, never compared
with a threshold.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from closingbell.server.loadtest import percentile
from closingbell.server.loadtest.processes import process_cpu, process_memory, server_process
from closingbell.server.loadtest.wire import http_request

PASSWORD = "not the password 1"
"""The password every sign-up of the flood gives."""
TAKEN = "taken-name"
"""The account name the flood asks for, taken before it starts."""


class Victims:
    """Three tables of people (two people; one against medium; one against expert)."""

    def __init__(self, base: str, think: float) -> None:
        self.base = base
        self.think = think
        self.phase = "setup"
        self.round_trips: dict[str, list[float]] = {}
        self.bot_moves: dict[tuple[str, str], list[float]] = {}
        self.errors: Counter[str] = Counter()
        self.tasks: set[asyncio.Task[None]] = set()
        self.rng = random.Random(0)

    async def start(self) -> None:
        for seats in (["open", "open"], ["open", "medium"], ["open", "expert"]):
            await self._table(seats)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _table(self, seats: list[str]) -> None:
        body = {"game": "take_stock", "seats": seats}
        status, answer = await http_request(self.base, "POST", "/api/tables", body)
        if status != 201:
            self.errors[f"create {status}"] += 1
            return
        table_id = answer["table"]["id"]
        for seat, kind in enumerate(seats):
            if kind != "open":
                continue
            path = f"/api/tables/{table_id}/join"
            status, joined = await http_request(
                self.base, "POST", path, {"name": f"P{seat}", "seat": seat}
            )
            if status != 200:
                self.errors[f"join {status}"] += 1
                return
            client = self._client(table_id, seat, joined["token"], seats, first=seat == 0)
            self._spawn(client)

    async def _client(
        self, table_id: str, seat: int, token: str, seats: list[str], *, first: bool
    ) -> None:
        bot = next((s for s in seats if s != "open"), None)
        rng = random.Random(self.rng.getrandbits(64))
        url = f"ws://{self.base}/ws/tables/{table_id}"
        finished = False
        try:
            async with connect(url, ping_interval=None, max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                sent_at, sent_version, sent_phase = None, -1, self.phase
                last_state = None
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
                        self.round_trips.setdefault(sent_phase, []).append(now - sent_at)
                        sent_at = None
                    moved = message.get("last_action") or {}
                    if bot is not None and moved.get("by") == "bot" and last_state is not None:
                        key = (self.phase, bot)
                        self.bot_moves.setdefault(key, []).append(now - last_state)
                    last_state = now
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
            if finished and first:
                self._spawn(self._table(seats))


async def sign_up_flood(base: str, clients: int, until: float, answers: Counter[str]) -> None:
    """``clients`` loops from 127.0.0.2 asking to sign up a taken name until ``until``."""

    async def loop() -> None:
        while time.monotonic() < until:
            try:
                status, body = await http_request(
                    base,
                    "POST",
                    "/api/account/signup",
                    {"username": TAKEN, "password": PASSWORD},
                    source="127.0.0.2",
                )
                code = (body or {}).get("error", {}).get("code", "")
                answers[f"{status} {code}".strip()] += 1
            except (OSError, ValueError, IndexError) as exc:
                answers[type(exc).__name__] += 1
                await asyncio.sleep(0.01)

    await asyncio.gather(*(loop() for _ in range(clients)))


async def open_expert_tables(base: str, tables: int) -> tuple[list[str], Counter[str]]:
    """Open ``tables`` tables of six experts from 127.0.0.3: their ids, and the answers."""
    made, answers = [], Counter[str]()
    for _ in range(tables):
        asked = {"game": "take_stock", "seats": ["expert"] * 6}
        status, body = await http_request(base, "POST", "/api/tables", asked, source="127.0.0.3")
        code = (body or {}).get("error", {}).get("code", "")
        answers[f"{status} {code}".strip()] += 1
        if status == 201:
            made.append(body["table"]["id"])
    return made, answers


async def versions(base: str, tables: list[str]) -> int:
    """The actions played at ``tables``, all together."""
    total = 0
    for table_id in tables:
        status, body = await http_request(base, "GET", f"/api/tables/{table_id}")
        if status == 200:
            total += body["table"]["version"]
    return total


def _ms(samples: list[float], q: float) -> str:
    return f"{percentile([s * 1000 for s in samples], q):8.1f}" if samples else "       -"


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
    status, _ = await http_request(
        base, "POST", "/api/account/signup", {"username": TAKEN, "password": PASSWORD}
    )
    assert status == 201, status
    victims = Victims(base, args.think)
    await victims.start()
    cpu: dict[str, float] = {}
    rss: dict[str, float] = {}
    load: list[float] = []
    mark = [time.perf_counter(), process_cpu(pid) or 0.0]

    async def phase(name: str, seconds: float) -> None:
        mark[:] = [time.perf_counter(), process_cpu(pid) or 0.0]
        victims.phase = name
        load.append(os.getloadavg()[0])
        most = process_memory(pid) or 0.0
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            await asyncio.sleep(0.5)
            most = max(most, (process_memory(pid) or 0.0))
        now = (time.perf_counter(), process_cpu(pid) or 0.0)
        cpu[name] = (now[1] - mark[1]) / (now[0] - mark[0]) * 100
        rss[name] = most

    await asyncio.sleep(3)  # the expert's helpers start
    await phase("quiet", args.quiet)
    # The flood runs in a process of its own, so that its requests never slow the victims'
    # own event loop (only the server's).
    spec = json.dumps({"base": base, "clients": args.sign_up_clients, "seconds": args.flood})
    flood = await asyncio.create_subprocess_exec(
        sys.executable, __file__, spec, stdout=asyncio.subprocess.PIPE
    )
    await phase("sign-ups", args.flood)
    out, _ = await flood.communicate()
    flood_answers = Counter[str](json.loads(out))
    victims.phase = "after"
    await asyncio.sleep(5)
    made, table_answers = await open_expert_tables(base, args.expert_tables)
    before = await versions(base, made)
    await phase("experts", args.hold)
    played = await versions(base, made) - before
    await victims.stop()

    print(f"load average (1 min) at the start of each phase: {', '.join(f'{x:.2f}' for x in load)}")
    print(
        "phase      person's round trip ms  medium bot's move ms      expert bot's move ms"
        "        server"
    )
    print(
        "             n      p50      p99    n   median      p99     n   median      p99"
        "      most   CPU %  RSS MB"
    )
    for name in ("quiet", "sign-ups", "experts"):
        trips = victims.round_trips.get(name, [])
        medium = victims.bot_moves.get((name, "medium"), [])
        expert = victims.bot_moves.get((name, "expert"), [])
        print(
            f"{name:9} {len(trips):5} {_ms(trips, 0.5)} {_ms(trips, 0.99)} "
            f"{len(medium):4} {_ms(medium, 0.5)} {_ms(medium, 0.99)} "
            f"{len(expert):5} {_ms(expert, 0.5)} {_ms(expert, 0.99)} {_ms(expert, 1.0)} "
            f"{cpu[name]:6.0f} {rss[name]:7.0f}"
        )
    total = sum(flood_answers.values())
    print(
        f"sign-up flood ({args.sign_up_clients} connections at once from 127.0.0.2, "
        f"{args.flood:g} s): {total} answers, {dict(flood_answers.most_common())}"
    )
    print(
        f"expert tables from 127.0.0.3: {dict(table_answers)}; their {len(made)} tables played "
        f"{played} moves in {args.hold:g} s"
    )
    print(f"victims' errors: {dict(victims.errors) or 'none'}")


def flood_process(spec: str) -> None:
    """The sign-up flood's process: flood as ``spec`` says, then print the answers (JSON)."""
    asked = json.loads(spec)
    answers: Counter[str] = Counter()
    until = time.monotonic() + asked["seconds"]
    asyncio.run(sign_up_flood(asked["base"], asked["clients"], until, answers))
    print(json.dumps(dict(answers)), flush=True)


def run_fairness(args: argparse.Namespace) -> int:
    """Start the server, measure the three phases, print the figures."""
    own_path = os.environ.get("PYTHONPATH")
    if args.server_src is not None:
        os.environ["PYTHONPATH"] = str(Path(args.server_src).resolve())
    if args.no_expert_cap:
        os.environ["CLOSINGBELL_SEARCH_SEATS_PER_ADDRESS"] = "0"
    with (
        tempfile.TemporaryDirectory(prefix="closingbell-fairness-") as folder,
        server_process(f"sqlite:///{Path(folder) / 'fairness.db'}") as server,
    ):
        if own_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = own_path
        os.environ.pop("CLOSINGBELL_SEARCH_SEATS_PER_ADDRESS", None)
        print(f"server {args.server_src or 'of this tree'}, pid {server.process.pid}")
        asyncio.run(measure(args, server.port, server.process.pid))
    return 0


if __name__ == "__main__":
    flood_process(sys.argv[1])
