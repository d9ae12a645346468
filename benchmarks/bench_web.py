"""Print the web server's figures for a curve of table counts (``closingbell bench --web``).

Usage: ``python benchmarks/bench_web.py [SECONDS [DATABASE_URL]]`` (time measured per
point, default 20; default database: a temporary SQLite file per point). Figures only,
never asserted.
"""

from __future__ import annotations

import sys

from closingbell.server.loadtest import WebBenchSettings, run_webbench

CURVE = (100, 250, 500)
"""Tables held at each point."""


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 20.0
    database = argv[1] if len(argv) > 1 else None
    print("tables  clients  actions/s  p50 ms  p95 ms  p99 ms  max ms  errors  server%  client%")
    for tables in CURVE:
        r = run_webbench(WebBenchSettings(tables=tables, seconds=seconds, database=database))
        lat = r.latency_ms
        print(
            f"{r.tables_held:6}  {r.clients:7}  {r.actions_per_second:9.1f}  {lat['p50']:6.1f}  "
            f"{lat['p95']:6.1f}  {lat['p99']:6.1f}  {lat['max']:6.1f}  {r.error_count:6}  "
            f"{r.server_cpu or 0:7.0f}  {r.client_cpu:7.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
