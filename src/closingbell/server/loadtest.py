"""Load test of the web server: many WebSocket clients playing on ``closingbell serve``.

:func:`run_webbench` starts a real ``closingbell serve`` process on a free loopback port
(``--bot-delay 0``, a temporary SQLite file unless a database is named), opens tables
over HTTP with every seat open, joins each seat and connects one WebSocket client per
seat. Each client answers its turns with a legal action from its latest ``state`` message
(seeded random choice, the right ``version``), after an optional think time, and times the
round trip from sending the action to receiving the ``state`` message that reflects it. A
finished table is replaced by a new one, so the number of tables held stays constant.

With ``experts``, that many more tables have an expert bot in every seat: they think all
the time, so the run shows what search bots cost the people playing beside them. Their
actions are counted by reading each table's version every half second, and the server's
helper processes (``--bot-processes``) are measured with the server.

With ``replays``, a client asks that many times a second for a finished game's whole
replay (``GET /api/tables/{id}/replay``, as the page's replay does), so the run
shows what replays cost the people playing: the report adds the replays answered, their
latency, and the CPU time of the server's main thread (its event loop) per replay.

The clients run in this process on one asyncio loop, the server in its own process: the
CPU time of each is measured so that a reader can tell which side was the bottleneck.
Clients keep to the server's default rate limit per connection (10 messages a second, 30
at once) with a token bucket of their own, since ``closingbell serve`` has no option to
raise it; its limits per client address are lifted, since every client shares one.

With ``processes`` above 1 (PostgreSQL only), that many server processes share the
database (``closingbell.server.cluster``), each on a port of its own so that the benchmark
chooses where each client goes: the tables are created on each process in turn, and a
table's seats are joined and connected through different processes (seat ``p`` of the
``k``-th table opened on process ``(k + p) mod processes``), so every action is applied
by one process and reaches the table's other players through another's copy, by the
database's notice. The report then gives each process's actions, clients and CPU time
(with its helpers'), and the database's commits a second, from PostgreSQL's
``pg_stat_database`` (every transaction committed in that database, read ones too)
before and after the measurement; on PostgreSQL it gives them with one process too.

A benchmark, not a test: the figures are printed, never compared with a threshold.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import http.client
import json
import math
import os
import platform
import random
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool
from websockets.asyncio.client import ClientConnection, connect

import closingbell
from closingbell.server.connections import raise_open_file_limit
from closingbell.server.ratelimit import TokenBucket
from closingbell.server.store import async_url

DEFAULT_TABLES = 500
"""Tables held when none are asked for."""
DEFAULT_SECONDS = 30.0
"""Length of the measurement when none is asked for."""
DEFAULT_THINK = 1.0
"""Mean seconds a client thinks before each action (drawn from 0.5 to 1.5 times it)."""
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


@dataclass(frozen=True)
class WebBenchSettings:
    """What to measure and how."""

    tables: int = DEFAULT_TABLES
    """Tables held at once."""
    seconds: float = DEFAULT_SECONDS
    """Length of the measurement, after every table has been opened."""
    database: str | None = None
    """The server's database URL; ``None``: a temporary SQLite file."""
    game: str = "take_stock"
    """The game played."""
    players: int = 2
    """Seats per table, every one played by a client."""
    think: float = DEFAULT_THINK
    """Mean think time before each action, in seconds (0: answer at once)."""
    seed: int = 0
    """Seed of the clients' choices and think times."""
    experts: int = 0
    """Tables of expert bots only, thinking beside the players' tables."""
    bot_processes: int | None = None
    """The server's ``--bot-processes`` (``None``: its default, one per core)."""
    replays: float = 0.0
    """Requests a second for a finished game's whole replay (0: none)."""
    processes: int = 1
    """Server processes sharing the database (more than 1 needs PostgreSQL)."""


def settings_problem(settings: WebBenchSettings) -> str | None:
    """What makes ``settings`` impossible to run, in one line, or ``None``."""
    if settings.processes < 1:
        return f"--processes must be 1 or more, not {settings.processes}"
    if settings.processes > 1 and not is_postgresql(settings.database):
        return (
            f"--processes {settings.processes} needs a PostgreSQL database "
            "(--database postgresql://USER:PASSWORD@HOST/DB): an SQLite file takes one "
            "server process"
        )
    return None


def is_postgresql(database: str | None) -> bool:
    """Whether the database URL ``database`` names a PostgreSQL database."""
    return database is not None and async_url(database).startswith("postgresql")


@dataclass(frozen=True)
class ServerFigures:
    """The figures of one server process over the measurement."""

    port: int
    """The loopback port it listened on."""
    actions: int
    """Actions its clients sent and had acknowledged by it."""
    clients: int
    """Its WebSocket clients connected at the end of the measurement."""
    cpu: float | None
    """Its CPU time, in percent of one core."""
    loop_cpu: float | None
    """Its main thread's (its event loop's) CPU time, in percent of one core."""
    helper_cpu: float | None
    """Its helper processes' CPU time, in percent of one core."""


@dataclass(frozen=True)
class WebBenchResult:
    """The figures of one run."""

    settings: WebBenchSettings
    """What was measured."""
    tables_held: int
    """Tables playing at the end of the measurement."""
    tables_held_min: int
    """The fewest tables playing at any sample during the measurement."""
    clients: int
    """WebSocket clients connected at the end of the measurement."""
    seconds: float
    """Measured wall-clock time."""
    setup_seconds: float
    """Time taken to open the first ``tables`` tables."""
    actions: int
    """Actions acknowledged (their ``state`` received) during the measurement."""
    games_finished: int
    """Games played to the end during the measurement (each replaced by a new table)."""
    messages: int
    """Server messages received by the clients during the measurement."""
    latency_ms: dict[str, float]
    """Round-trip latency of an action, in milliseconds: ``p50``, ``p95``, ``p99``, ``max``."""
    errors: dict[str, int]
    """Error messages received and client failures, by code, from the start (setup too)."""
    paced: int
    """Actions a client delayed to keep under the server's rate limit."""
    expert_actions: int
    """Actions played at the expert tables during the measurement."""
    server_cpu: float | None
    """Server process CPU time over the measurement, in percent of one core (with several
    processes, their sum)."""
    helper_cpu: float | None
    """The server's helper processes' CPU time over the measurement, in percent of a core
    (with several processes, their sum)."""
    loop_cpu: float | None
    """The server's main thread (its event loop) CPU time over the measurement, in percent
    (with several processes, their sum)."""
    replays_answered: int
    """Replays received complete during the measurement."""
    replay_ms: dict[str, float]
    """Latency of a whole replay, in milliseconds: ``p50``, ``p99``, ``max``."""
    client_cpu: float
    """This process's CPU time over the measurement, in percent of one core."""
    cores: int
    """CPU cores of the machine."""
    machine: str
    """The machine's architecture and Python."""
    servers: list[ServerFigures] = field(default_factory=list)
    """Each server process's figures, in the order they were started."""
    commits: int | None = None
    """Transactions committed in the database during the measurement, by PostgreSQL's
    ``pg_stat_database`` (``None``: SQLite)."""

    @property
    def commits_per_second(self) -> float | None:
        """The database's commits per second (``None``: SQLite)."""
        if self.commits is None or self.seconds <= 0:
            return None
        return self.commits / self.seconds

    @property
    def actions_per_second(self) -> float:
        """Actions acknowledged per second."""
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def expert_actions_per_second(self) -> float:
        """Actions played at the expert tables per second."""
        return self.expert_actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def loop_ms_per_replay(self) -> float | None:
        """The event loop's CPU milliseconds per replay answered (all its work counted)."""
        if self.loop_cpu is None or not self.replays_answered:
            return None
        return self.loop_cpu * 10 * self.seconds / self.replays_answered

    @property
    def error_count(self) -> int:
        """Every error, of any code."""
        return sum(self.errors.values())

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain data (for ``--json``)."""
        out = asdict(self)
        out["actions_per_second"] = round(self.actions_per_second, 2)
        out["expert_actions_per_second"] = round(self.expert_actions_per_second, 2)
        commits = self.commits_per_second
        out["commits_per_second"] = None if commits is None else round(commits, 1)
        per_replay = self.loop_ms_per_replay
        out["loop_ms_per_replay"] = None if per_replay is None else round(per_replay, 2)
        out["closingbell"] = closingbell.__version__
        return out


def percentile(samples: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``samples`` (0 for none); ``fraction`` in [0, 1]."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), math.ceil(fraction * len(ordered))))
    return ordered[rank - 1]


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
                _server(database, settings.bot_processes, NO_ADDRESS_LIMITS)
            )
            if number == 0:
                # The first one sets an empty database up alone; the others start after it.
                _wait_until_healthy(server)
            servers.append(server)
        return asyncio.run(_Bench(settings, servers).run())


def format_report(result: WebBenchResult) -> str:
    """The figures as lines of text."""
    s = result.settings
    lat = result.latency_ms
    shown_db = "temporary SQLite file" if s.database is None else _without_password(s.database)
    cpu = _percent(result.server_cpu)
    helpers = _percent(result.helper_cpu)
    processes = "one per core" if s.bot_processes is None else str(s.bot_processes)
    errors = ", ".join(f"{k} {v}" for k, v in sorted(result.errors.items())) or "none"
    rows = [
        (
            "settings",
            f"{s.game}, {s.players} open seats a table, think {s.think:g} s, "
            f"{s.seconds:g} s measured, seed {s.seed}",
        ),
        ("database", shown_db),
        ("machine", f"{result.cores} cores, {result.machine}"),
        ("processes", _processes_line(s.processes)),
        (
            "tables held",
            f"{result.tables_held} (fewest while measuring: {result.tables_held_min};"
            f" opened in {result.setup_seconds:.1f} s)",
        ),
        ("clients", str(result.clients)),
        (
            "actions",
            f"{result.actions} in {result.seconds:.1f} s: {result.actions_per_second:.1f} a second",
        ),
        ("games finished", str(result.games_finished)),
        ("messages", f"{result.messages} received"),
        (
            "latency (ms)",
            f"p50 {lat['p50']:.1f}  p95 {lat['p95']:.1f}  p99 {lat['p99']:.1f}  "
            f"max {lat['max']:.1f}",
        ),
        ("errors", errors),
        ("paced", f"{result.paced} actions delayed for the rate limit"),
        (
            "cpu (% of a core)",
            f"{'server' if s.processes == 1 else 'servers together'} {cpu}, "
            f"clients {result.client_cpu:.0f}%",
        ),
    ]
    if s.processes > 1:
        rows += [
            (
                f"server {number} (port {one.port})",
                f"{one.actions} actions ({one.actions / result.seconds:.1f} a second), "
                f"{one.clients} clients, cpu {_percent(one.cpu)} (event loop "
                f"{_percent(one.loop_cpu)}), helpers {_percent(one.helper_cpu)}",
            )
            for number, one in enumerate(result.servers, 1)
        ]
    commits = result.commits_per_second
    if result.commits is not None and commits is not None:
        rows.append(
            (
                "database commits",
                f"{result.commits} in {result.seconds:.1f} s: {commits:.1f} a second "
                "(pg_stat_database)",
            )
        )
    if s.replays:
        per_replay = result.loop_ms_per_replay
        rl = result.replay_ms
        rows += [
            (
                "replays",
                f"{result.replays_answered} asked {s.replays:g} a second: p50 {rl['p50']:.1f}  "
                f"p99 {rl['p99']:.1f}  max {rl['max']:.1f} ms",
            ),
            (
                "event loop",
                f"{'n/a' if result.loop_cpu is None else f'{result.loop_cpu:.0f}%'} of a core, "
                f"{'n/a' if per_replay is None else f'{per_replay:.1f} ms'} per replay",
            ),
        ]
    if s.experts:
        rows[4:4] = [("expert tables", f"{s.experts}, bot processes: {processes}")]
        rows += [
            (
                "expert actions",
                f"{result.expert_actions}: {result.expert_actions_per_second:.1f} a second",
            ),
            ("helpers' cpu", helpers),
        ]
    width = max(len(k) for k, _ in rows)
    head = f"closingbell {closingbell.__version__} bench --web"
    return "\n".join([head, *(f"{k.ljust(width)}  {v}" for k, v in rows)])


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}%"


def _processes_line(processes: int) -> str:
    if processes == 1:
        return "server: one `closingbell serve` (uvicorn); clients: this process"
    return (
        f"servers: {processes} `closingbell serve` (uvicorn) on one database, a port each, "
        "a table's seats on different ones; clients: this process"
    )


# ---------------------------------------------------------------- the server process


@dataclass
class _Server:
    """A running server process and where to reach it."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"127.0.0.1:{self.port}"


@contextlib.contextmanager
def _server(
    database: str, bot_processes: int | None = None, options: tuple[str, ...] = ()
) -> Iterator[_Server]:
    """``closingbell serve`` on a free loopback port, stopped when the block ends.

    ``options`` are more arguments of ``closingbell serve``.
    """
    extra = (
        [*options] if bot_processes is None else [*options, "--bot-processes", str(bot_processes)]
    )
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    with tempfile.TemporaryDirectory(prefix="closingbell-web-log-") as folder:
        log = Path(folder) / "server.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "closingbell.cli.main",
                    "serve",
                    "--port",
                    str(port),
                    "--database",
                    database,
                    "--bot-delay",
                    "0",
                    # Every client is on this machine: no per-address limits.
                    "--connections-per-address",
                    "0",
                    "--tables-per-minute",
                    "0",
                    *extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        server = _Server(process, port, log)
        try:
            yield server
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_healthy(server: _Server, timeout: float = 60.0) -> None:
    """Wait for ``server`` to answer ``GET /api/health``; raise if it stops or takes too long."""
    deadline = time.monotonic() + timeout
    while True:
        _check_process(server)
        with contextlib.suppress(OSError, http.client.HTTPException):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            try:
                connection.request("GET", "/api/health")
                if connection.getresponse().status == 200:
                    return
            finally:
                connection.close()
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer /api/health within {timeout:g} s")
        time.sleep(0.1)


def _check_process(server: _Server) -> None:
    """Raise, with the end of its log, if ``server``'s process has stopped."""
    if server.process.poll() is not None:
        tail = server.log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"the server stopped (exit {server.process.returncode}):\n{tail}")


async def _database_commits(database: str) -> int:
    """Transactions committed so far in PostgreSQL database ``database`` (its URL).

    PostgreSQL's backends report their counts at most about once a second, so the figure
    lags by up to a second; over a measurement of many seconds that is small.
    """
    engine = create_async_engine(async_url(database), poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            value = await connection.scalar(
                sa.text(
                    "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                )
            )
    finally:
        await engine.dispose()
    return int(value)


def _process_cpu(pid: int, stat: str = "stat") -> float | None:
    """CPU seconds (user and system) a process has used so far, from ``/proc``; Linux only.

    ``stat`` is the file read under ``/proc/PID``: ``task/TID/stat`` for one thread.
    """
    try:
        fields = Path(f"/proc/{pid}/{stat}").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def child_processes(pid: int) -> list[int]:
    """The running (not yet exited) children of process ``pid``, from ``/proc``; Linux only."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError):
            continue
        if int(parent) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def _thread_cpu(pid: int) -> float | None:
    """CPU seconds the main thread of process ``pid`` (its event loop) has used; Linux only."""
    return _process_cpu(pid, f"task/{pid}/stat")


def _helpers_cpu(pid: int) -> float | None:
    """CPU seconds the running children of process ``pid`` have used so far; Linux only."""
    if not Path("/proc").is_dir():
        return None
    return sum(_process_cpu(child) or 0.0 for child in child_processes(pid))


def _cpu_sample(pid: int) -> tuple[float | None, float | None, float | None]:
    """CPU seconds so far of process ``pid``, of its main thread and of its helpers."""
    return _process_cpu(pid), _thread_cpu(pid), _helpers_cpu(pid)


def _rate(
    before: float | None, after: float | None, seconds: float, *, at_least_0: bool = False
) -> float | None:
    """CPU seconds used between two samples, in percent of one core over ``seconds``.

    ``at_least_0``: for the helpers, whose sum drops when one of them exits.
    """
    if before is None or after is None:
        return None
    used = max(0.0, after - before) if at_least_0 else after - before
    return round(used / seconds * 100, 1)


def _total(values: Iterable[float | None]) -> float | None:
    """The sum of ``values``, ``None`` if any is unknown."""
    known = list(values)
    if any(value is None for value in known):
        return None
    return round(sum(value for value in known if value is not None), 1)


def _without_password(url: str) -> str:
    if "://" not in url or "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, _, where = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{where}"


async def _http(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    *,
    parse: bool = True,
    source: str | None = None,
) -> tuple[int, Any]:
    """One HTTP/1.1 request on its own connection; the status and the JSON answer.

    Without ``parse``, the answer's bytes. ``source`` is the local address to send from
    (``127.0.0.2``, say), when not the system's choice. A few lines of asyncio rather than
    an HTTP client library: the ``web`` extra has none, and the answers have a
    ``Content-Length``.
    """
    host, port = base.rsplit(":", 1)
    data = b"" if body is None else json.dumps(body).encode()
    local = None if source is None else (source, 0)
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=local)
    try:
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: {base}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if not parse:
        return status, payload
    return status, json.loads(payload) if payload else None


def _replay_path(table_id: str) -> str:
    """A table's whole replay in words, as the page asks for it."""
    return f"/api/tables/{table_id}/replay?start=0&limit=1000&lang=en"


# ---------------------------------------------------------------- raw WebSockets


def masked_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One whole client frame (text by default), masked as clients must mask."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    size = len(payload)
    if size < 126:
        head = bytes([0x80 | opcode, 0x80 | size])
    elif size < 1 << 16:
        head = bytes([0x80 | opcode, 0x80 | 126]) + struct.pack("!H", size)
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + struct.pack("!Q", size)
    return head + mask + body


def open_raw_websocket(
    port: int, path: str, source: str = "127.0.0.1", receive_buffer: int | None = None
) -> tuple[socket.socket | None, int]:
    """A WebSocket to ``path`` on 127.0.0.1 from ``source``, as a bare socket.

    Returns the socket and 101, or ``None`` and the HTTP status of a refusal. A client
    that floods or never reads is written with it: no library stands in the way.
    ``receive_buffer`` sets the socket's ``SO_RCVBUF`` before connecting.
    """
    sock = socket.socket()
    sock.settimeout(10)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)  # byte by byte: nothing of the first frames is consumed
        if not chunk:
            break
        head += chunk
    fields = head.split(b" ", 2)
    status = int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
    if status != 101:
        sock.close()
        return None, status
    return sock, status


def _read_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


def read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """The next server frame: its opcode (1 text, 8 close ...) and payload."""
    first, second = _read_exact(sock, 2)
    size = second & 0x7F
    if size == 126:
        size = struct.unpack("!H", _read_exact(sock, 2))[0]
    elif size == 127:
        size = struct.unpack("!Q", _read_exact(sock, 8))[0]
    return first & 0x0F, _read_exact(sock, size)


def close_code(payload: bytes) -> int:
    """The code of a close frame's payload (1005 when it has none)."""
    return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else 1005


# ---------------------------------------------------------------- the clients


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

    def __init__(self, settings: WebBenchSettings, servers: list[_Server]) -> None:
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
            await _http(self.server.base, "GET", _replay_path(finished), parse=False)
            self._spawn(self._replays(finished))
        setup = time.perf_counter() - started
        held = [len(self.playing)]
        postgresql = is_postgresql(s.database)
        commits0 = await _database_commits(s.database or "") if postgresql else None
        cpu0 = [_cpu_sample(server.process.pid) for server in self.servers]
        client_cpu0 = time.process_time()
        t0 = time.perf_counter()
        self.figures.measuring = True
        while (elapsed := time.perf_counter() - t0) < s.seconds:
            await asyncio.sleep(min(0.5, s.seconds - elapsed))
            held.append(len(self.playing))
            self._check_server()
        self.figures.measuring = False
        seconds = time.perf_counter() - t0
        cpu1 = [_cpu_sample(server.process.pid) for server in self.servers]
        client_cpu = (time.process_time() - client_cpu0) / seconds * 100
        commits1 = await _database_commits(s.database or "") if postgresql else None
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
                cpu=_rate(cpu0[number][0], cpu1[number][0], seconds),
                loop_cpu=_rate(cpu0[number][1], cpu1[number][1], seconds),
                helper_cpu=_rate(cpu0[number][2], cpu1[number][2], seconds, at_least_0=True),
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
            server_cpu=_total(one.cpu for one in servers),
            helper_cpu=_total(one.helper_cpu for one in servers),
            loop_cpu=_total(one.loop_cpu for one in servers),
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
            _check_process(server)

    async def _wait_for_server(self, server: _Server) -> None:
        deadline = time.monotonic() + 60
        while True:
            _check_process(server)
            with contextlib.suppress(OSError, ValueError, IndexError):
                status, _ = await _http(server.base, "GET", "/api/health")
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
                    status, body = await _http(
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
                    status, body = await _http(server.base, "GET", f"/api/tables/{table_id}")
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

    async def _create(self, seats: list[str], server: _Server | None = None) -> str:
        """Open a table of the game with ``seats`` on ``server`` (default: the first); its id."""
        status, body = await _http(
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
            status, body = await _http(self.server.base, "GET", f"/api/tables/{table_id}")
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
        path = _replay_path(table_id)
        gate = asyncio.Semaphore(REPLAYS_IN_FLIGHT)

        async def once() -> None:
            started = time.perf_counter()
            try:
                status, body = await _http(self.server.base, "GET", path, parse=False)
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
