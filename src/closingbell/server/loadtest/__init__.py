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

The package's rooms: ``figures`` (the settings, the figures and their report),
``processes`` (the server processes and their CPU), ``wire`` (HTTP requests and raw
WebSocket frames) and ``clients`` (the run itself). A benchmark, not a test: the figures
are printed, never compared with a threshold.
"""

from __future__ import annotations

from closingbell.server.loadtest.clients import run_webbench
from closingbell.server.loadtest.figures import (
    ServerFigures,
    WebBenchResult,
    WebBenchSettings,
    format_report,
    percentile,
    settings_problem,
)

__all__ = [
    "ServerFigures",
    "WebBenchResult",
    "WebBenchSettings",
    "format_report",
    "percentile",
    "run_webbench",
    "settings_problem",
]
