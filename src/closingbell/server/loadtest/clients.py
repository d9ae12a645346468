"""The load test's clients: tables opened, seats joined, turns answered, figures counted.

The clients run in this process on one asyncio loop, the servers in their own processes
(``server.loadtest.processes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from closingbell.server.connections import raise_open_file_limit
from closingbell.server.loadtest.figures import (
    ServerFigures,
    WebBenchResult,
    WebBenchSettings,
    is_postgresql,
    percentile,
    settings_problem,
)
from closingbell.server.loadtest.processes import (
    ServerProcess,
    check_process,
    cpu_rate,
    cpu_sample,
    database_commits,
    server_process,
    total,
    wait_until_healthy,
)
from closingbell.server.loadtest.wire import http_request, replay_path
from closingbell.server.ratelimit import TokenBucket

CLIENT_RATE = 9.5
"""Messages a second a client sends at most: under the server's default of 10."""
CLIENT_BURST = 25.0
"""Messages a client sends at once at most: under the server's default of 30."""
REPLAYS_IN_FLIGHT = 64
"""Replay requests waiting for their answers at most (``replays``)."""
SETUP_CONCURRENCY = 16
"""Tables being opened (created, joined, connected) at the same time."""
NO_ADDRESS_LIMITS = ("--websockets-per-address", "0", "--messages-per-address", "0")
"""Every client of the benchmark comes from 127.0.0.1, as behind a proxy: the server's
limits per client address are lifted (those per connection stay)."""


def run_webbench(settings: WebBenchSettings) -> WebBenchResult:
    """Start the server processes, play on them with many clients, stop them; the figures.

    Raises ``ValueError`` for settings that cannot run (:func:`settings_problem`).
    """
    problem = settings_problem(settings)
    if problem is not None:
        raise ValueError(problem)
    with contextlib.ExitStack() as stack:
        database = settings.database
        if database is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="closingbell-web-"))
            database = f"sqlite:///{Path(folder) / 'bench.db'}"
        raise_open_file_limit()  # the servers inherit it
        servers = []
        for number in range(settings.processes):
            server = stack.enter_context(
                server_process(database, settings.bot_processes, NO_ADDRESS_LIMITS)
            )
            if number == 0:
                # The first one sets an empty database up alone; the others start after it.
                wait_until_healthy(server)
            servers.append(server)
        return asyncio.run(_Bench(settings, servers).run())


@dataclass
class _Figures:
    """What the clients count; only counted while ``measuring``."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    actions_by_server: Counter[int] = field(default_factory=Counter)
    expert_actions: int = 0
    replays: list[float] = field(default_factory=list)
    messages: int = 0
    games: int = 0
    paced: int = 0
    errors: Counter[str] = field(default_factory=Counter)


class _Bench:
    """One run: the tables' tasks, the figures and the server process."""

    def __init__(self, settings: WebBenchSettings, servers: list[ServerProcess]) -> None:
        self.settings = settings
        self.servers = servers
        self.server = servers[0]
        """The server asked when any will do (experts, replays)."""
        self.figures = _Figures()
        self.rng = random.Random(settings.seed)
        self.playing: set[str] = set()
        self.clients = [0] * len(servers)
        """Clients connected to each server."""
        self.opened = 0
        """Tables opened so far: the next one's seats start on server ``opened % len``."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopping = False

    async def run(self) -> WebBenchResult:
        s = self.settings
        for server in self.servers:
            await self._wait_for_server(server)
        started = time.perf_counter()
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)
        opened = [asyncio.create_task(self._open(gate)) for _ in range(s.tables)]
        await asyncio.gather(*opened)
        for _ in range(s.experts):
            self._spawn(self._experts())
        if s.replays:
            finished = await self._finished_table()
            # Asked once before measuring: a server that keeps replays has it ready.
            await http_request(self.server.base, "GET", replay_path(finished), parse=False)
            self._spawn(self._replays(finished))
        setup = time.perf_counter() - started
        held = [len(self.playing)]
        postgresql = is_postgresql(s.database)
        commits0 = await database_commits(s.database or "") if postgresql else None
        cpu0 = [cpu_sample(server.process.pid) for server in self.servers]
        client_cpu0 = time.process_time()
        t0 = time.perf_counter()
        self.figures.measuring = True
        while (elapsed := time.perf_counter() - t0) < s.seconds:
            await asyncio.sleep(min(0.5, s.seconds - elapsed))
            held.append(len(self.playing))
            self._check_server()
        self.figures.measuring = False
        seconds = time.perf_counter() - t0
        cpu1 = [cpu_sample(server.process.pid) for server in self.servers]
        client_cpu = (time.process_time() - client_cpu0) / seconds * 100
        commits1 = await database_commits(s.database or "") if postgresql else None
        tables_held, clients = len(self.playing), list(self.clients)
        self.stopping = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        f = self.figures
        servers = [
            ServerFigures(
                port=server.port,
                actions=f.actions_by_server[number],
                clients=clients[number],
                cpu=cpu_rate(cpu0[number][0], cpu1[number][0], seconds),
                loop_cpu=cpu_rate(cpu0[number][1], cpu1[number][1], seconds),
                helper_cpu=cpu_rate(cpu0[number][2], cpu1[number][2], seconds, at_least_0=True),
            )
            for number, server in enumerate(self.servers)
        ]
        return WebBenchResult(
            settings=s,
            tables_held=tables_held,
            tables_held_min=min(held),
            clients=sum(clients),
            seconds=round(seconds, 3),
            setup_seconds=round(setup, 3),
            actions=f.actions,
            games_finished=f.games,
            messages=f.messages,
            latency_ms={
                name: round(percentile(f.latencies, q) * 1000, 2)
                for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
            },
            errors=dict(f.errors),
            paced=f.paced,
            expert_actions=f.expert_actions,
            server_cpu=total(one.cpu for one in servers),
            helper_cpu=total(one.helper_cpu for one in servers),
            loop_cpu=total(one.loop_cpu for one in servers),
            replays_answered=len(f.replays),
            replay_ms={
                name: round(percentile(f.replays, q) * 1000, 2)
                for name, q in (("p50", 0.5), ("p99", 0.99), ("max", 1.0))
            },
            client_cpu=round(client_cpu, 1),
            cores=os.cpu_count() or 1,
            machine=f"{platform.machine()}, {platform.python_implementation()} "
            f"{platform.python_version()}",
            servers=servers,
            commits=None if commits0 is None or commits1 is None else commits1 - commits0,
        )

    def _check_server(self) -> None:
        for server in self.servers:
            check_process(server)

    async def _wait_for_server(self, server: ServerProcess) -> None:
        deadline = time.monotonic() + 60
        while True:
            check_process(server)
            with contextlib.suppress(OSError, ValueError, IndexError):
                status, _ = await http_request(server.base, "GET", "/api/health")
                if status == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer /api/health within 60 s")
            await asyncio.sleep(0.1)

    async def _open(self, gate: asyncio.Semaphore) -> None:
        """Create a table, join every seat and connect its clients; they then play.

        With several servers, the ``k``-th table opened is created on server ``k``, and
        its seat ``p`` joined and connected through server ``k + p`` (modulo their number).
        """
        s = self.settings
        first = self._next_server()
        where = [(first + p) % len(self.servers) for p in range(s.players)]
        async with gate:
            try:
                table_id = await self._create(["open"] * s.players, self.servers[first])
                tokens = []
                for p in range(s.players):
                    status, body = await http_request(
                        self.servers[where[p]].base,
                        "POST",
                        f"/api/tables/{table_id}/join",
                        {"name": f"Bench {p + 1}", "seat": p},
                    )
                    if status != 200:
                        raise RuntimeError(f"join: {status} {body}")
                    tokens.append(body["token"])
            except (OSError, RuntimeError, KeyError, ValueError, IndexError) as exc:
                self._error(f"setup: {type(exc).__name__}")
                if not self.stopping:
                    self._spawn(self._reopen())
                return
            ready = [asyncio.Event() for _ in tokens]
            for p, token in enumerate(tokens):
                self._spawn(self._client(table_id, p, token, ready[p], where[p]))
            await asyncio.gather(*(r.wait() for r in ready))
            self.playing.add(table_id)

    async def _experts(self) -> None:
        """Keep one table of expert bots playing, and count its actions while measuring."""
        s = self.settings
        while not self.stopping:
            try:
                server = self.servers[self._next_server()]
                table_id, seen = await self._create(["expert"] * s.players, server), 0
                while not self.stopping:
                    await asyncio.sleep(0.5)
                    status, body = await http_request(server.base, "GET", f"/api/tables/{table_id}")
                    if status != 200:
                        raise RuntimeError(f"table: {status} {body}")
                    version = body["table"]["version"]
                    if self.figures.measuring:
                        self.figures.expert_actions += version - seen
                    seen = version
                    if body["table"]["status"] == "finished":
                        break
            except (OSError, RuntimeError, KeyError, ValueError, IndexError) as exc:
                self._error(f"experts: {type(exc).__name__}")
                await asyncio.sleep(0.5)

    def _next_server(self) -> int:
        """The server on which the next table is opened: each in turn."""
        number = self.opened % len(self.servers)
        self.opened += 1
        return number

    async def _create(self, seats: list[str], server: ServerProcess | None = None) -> str:
        """Open a table of the game with ``seats`` on ``server`` (default: the first); its id."""
        status, body = await http_request(
            (server or self.server).base,
            "POST",
            "/api/tables",
            {"game": self.settings.game, "seats": seats},
        )
        if status != 201:
            raise RuntimeError(f"create: {status} {body}")
        return str(body["table"]["id"])

    async def _finished_table(self) -> str:
        """A table of random bots played to its end (with ``--bot-delay 0``): its id."""
        s = self.settings
        table_id = await self._create(["random"] * s.players)
        deadline = time.monotonic() + 120
        while True:
            status, body = await http_request(self.server.base, "GET", f"/api/tables/{table_id}")
            if status == 200 and body["table"]["status"] == "finished":
                return table_id
            if time.monotonic() > deadline:
                raise RuntimeError("the random bots did not finish their game within 120 s")
            await asyncio.sleep(0.2)

    async def _replays(self, table_id: str) -> None:
        """Ask for the whole replay of ``table_id`` in words, ``replays`` times a second.

        The requests start on time whether or not the earlier ones were answered (at most
        :data:`REPLAYS_IN_FLIGHT` at once), so a slow server gets the same load as a fast
        one. The answer is checked for its end, not parsed: parsing hundreds of kilobytes
        of JSON would load the clients' event loop and so the players' round trips.
        """
        path = replay_path(table_id)
        gate = asyncio.Semaphore(REPLAYS_IN_FLIGHT)

        async def once() -> None:
            started = time.perf_counter()
            try:
                status, body = await http_request(self.server.base, "GET", path, parse=False)
                if status != 200 or not body.endswith(b"]}"):
                    raise RuntimeError(f"replay: {status}")
            except (OSError, RuntimeError, ValueError, IndexError) as exc:
                self._error(f"replay: {type(exc).__name__}")
                return
            finally:
                gate.release()
            if self.figures.measuring:
                self.figures.replays.append(time.perf_counter() - started)

        next_at = time.perf_counter()
        while not self.stopping:
            await gate.acquire()
            self._spawn(once())
            next_at += 1 / self.settings.replays
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    async def _reopen(self) -> None:
        await asyncio.sleep(0.5)
        await self._open(asyncio.Semaphore(1))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _error(self, code: str) -> None:
        if not self.stopping:  # counted from the start, setup included
            self.figures.errors[code] += 1

    async def _client(
        self, table_id: str, seat: int, token: str, ready: asyncio.Event, server: int = 0
    ) -> None:
        """One seat's client, on server number ``server``: hello, then answer every turn."""
        f = self.figures
        think = self.settings.think
        rng = random.Random(self.rng.getrandbits(64))
        bucket = TokenBucket(CLIENT_RATE, CLIENT_BURST)
        url = f"ws://{self.servers[server].base}/ws/tables/{table_id}"
        finished = False
        connected = False
        try:
            async with connect(url, open_timeout=120, ping_interval=None) as ws:
                connected = True
                self.clients[server] += 1
                await self._send(ws, bucket, {"type": "hello", "token": token, "lang": "en"})
                ready.set()
                sent_at: float | None = None
                sent_version = -1
                async for raw in ws:
                    received = time.perf_counter()
                    message = json.loads(raw)
                    if f.measuring:
                        f.messages += 1
                    kind = message["type"]
                    if kind == "error":
                        self._error(message["code"])
                        sent_at = None
                        continue
                    if kind != "state":
                        continue
                    if sent_at is not None and message["version"] > sent_version:
                        if f.measuring:
                            f.latencies.append(received - sent_at)
                            f.actions += 1
                            f.actions_by_server[server] += 1
                        sent_at = None
                    if message["status"] == "finished":
                        finished = True
                        break
                    legal = message["legal"]
                    if not legal or message["current_player"] != seat:
                        continue
                    if think > 0:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    choice = legal[rng.randrange(len(legal))]["id"]
                    body = {"type": "action", "version": message["version"], "action": choice}
                    sent_version = message["version"]
                    sent_at = await self._send(ws, bucket, body)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # any failure of a client is a figure, not a crash
            self._error(f"client: {type(exc).__name__}")
        finally:
            ready.set()
            if connected:
                self.clients[server] -= 1
            if table_id in self.playing:
                self.playing.discard(table_id)
                if finished and f.measuring:
                    f.games += 1
                if not self.stopping:
                    self._spawn(self._open(asyncio.Semaphore(1)))

    async def _send(self, ws: ClientConnection, bucket: TokenBucket, body: dict[str, Any]) -> float:
        """Send ``body`` once the client's own rate limit allows; return when it was sent."""
        if not bucket.take():
            if self.figures.measuring:
                self.figures.paced += 1
            while not bucket.take():
                await asyncio.sleep(1 / CLIENT_RATE)
        sent = time.perf_counter()
        await ws.send(json.dumps(body))
        return sent
