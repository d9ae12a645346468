"""What players' accounts cost the server: password hashes, sign-ins, session checks.

Usage::

    python benchmarks/bench_accounts.py [--database URL] [--accounts 20] [--checks 2000]

In one process on the named database (default: a fresh SQLite file in a temporary
folder), through the app's own routes (Starlette's TestClient): ``--accounts`` sign-ups,
as many sign-ins, wrong passwords and unknown names, then ``--checks`` requests that each
check a session cookie (``GET /api/account``). Prints each one's mean and 95th percentile
in milliseconds and how many a second one process handles. The Argon2 hashes are worked
out in threads, so that the event loop is free meanwhile: the figure that matters for
play is how long the loop is held, which is near the session check's. A benchmark: the
figures are printed, never compared with a threshold.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from closingbell.server.app import create_app

ORIGIN = {"origin": "http://testserver"}


def timed(count: int, step: Callable[[int], Any]) -> list[float]:
    """Milliseconds of each of ``count`` calls of ``step``."""
    out = []
    for i in range(count):
        started = time.perf_counter()
        step(i)
        out.append((time.perf_counter() - started) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    """One line of figures."""
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    mean = statistics.fmean(ms)
    print(
        f"{name:<28} n={len(ms):>5}  mean {mean:7.2f} ms  p95 {p95:7.2f} ms  {1000 / mean:8.1f}/s"
    )


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=None)
    parser.add_argument("--accounts", type=int, default=20)
    parser.add_argument("--checks", type=int, default=2000)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    url = args.database or f"sqlite:///{Path(folder) / 'accounts.db'}"
    settings = {"sign_ins_per_account": 10**6, "sign_ins_per_address": 10**6}
    with TestClient(create_app(url, **settings)) as client:
        password = "a long enough password"

        def sign_up(i: int) -> None:
            client.cookies.clear()
            answer = client.post(
                "/api/account/signup", json={"username": f"bench{i}", "password": password}
            )
            assert answer.status_code == 201, answer.text

        def sign_in(i: int) -> None:
            client.cookies.clear()
            body = {"username": f"bench{i}", "password": password}
            assert client.post("/api/account/signin", json=body).status_code == 200

        def wrong(i: int) -> None:
            client.cookies.clear()
            body = {"username": f"bench{i}", "password": "not it at all"}
            assert client.post("/api/account/signin", json=body).status_code == 401

        def unknown(i: int) -> None:
            client.cookies.clear()
            body = {"username": f"nobody{i}", "password": "not it at all"}
            assert client.post("/api/account/signin", json=body).status_code == 401

        report("sign-up", timed(args.accounts, sign_up))
        report("sign-in", timed(args.accounts, sign_in))
        report("wrong password", timed(args.accounts, wrong))
        report("unknown name", timed(args.accounts, unknown))
        sign_in(0)
        report(
            "session check (GET account)",
            timed(args.checks, lambda i: client.get("/api/account").raise_for_status()),
        )
        client.cookies.clear()
        report(
            "guest (GET account)",
            timed(args.checks, lambda i: client.get("/api/account").raise_for_status()),
        )


if __name__ == "__main__":
    main()
