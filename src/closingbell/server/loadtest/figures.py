"""What a load test is asked and what it measures: its settings, its figures, their report.

A benchmark, not a test: the figures are printed, never compared with a threshold.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import closingbell
from closingbell.server.store import async_url

DEFAULT_TABLES = 500
"""Tables held when none are asked for."""
DEFAULT_SECONDS = 30.0
"""Length of the measurement when none is asked for."""
DEFAULT_THINK = 1.0
"""Mean seconds a client thinks before each action (drawn from 0.5 to 1.5 times it)."""


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


def _without_password(url: str) -> str:
    if "://" not in url or "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, _, where = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{where}"
