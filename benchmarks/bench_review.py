"""How long a finished game's review takes through the server, and what it costs play.

Usage::

    python benchmarks/bench_review.py [--budget 128] [--players 2] [--seed 7] [--seat 0]
                                      [--play expert] [--rounds 1] [--database URL]

In one process (the app's own routes, Starlette's TestClient) with the server's defaults
(helper processes, one per core): two rule-based bots play a Take Stock game to its end,
then ``POST /api/tables/{id}/review?seat=N`` starts the review at ``--budget`` worlds per
decision (the server's default, 128) and ``GET`` is asked every half second until it is
done. Meanwhile ``GET /api/health`` is timed every 50 ms (the event loop's answer while the
review runs), and, with ``--play LEVEL``, bots of that level play another game of
``--rounds`` rounds (1), timed from its start to its end, and the same game again once the
review is done, to compare (``expert``, the search bot, thinks in the same helpers).
Prints the review's wall time, its decisions and mistakes, its size, and those figures.
A benchmark: the figures are printed, never compared with a threshold.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from closingbell.server.app import create_app


def finish(
    client: TestClient, seats: list[str], seed: int, options: dict[str, Any]
) -> tuple[str, float]:
    """A bots-only Take Stock table played to its end: its id and the seconds it took."""
    started = time.monotonic()
    body = {"game": "take_stock", "seats": seats, "seed": seed, "options": options}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["table"]["id"]
    while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
        time.sleep(0.05)
    return table_id, time.monotonic() - started


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=int, default=128)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--play", default=None, metavar="LEVEL")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the --play game (1)")
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.db'}"
        app = create_app(url, bot_delay=0.0, allow_seed=True, review_budget=args.budget)
        with TestClient(app) as client:
            seats = ["heuristic"] * args.players
            table_id, _ = finish(client, seats, args.seed, {"players": args.players})
            path = f"/api/tables/{table_id}/review"
            health: list[float] = []
            stop = threading.Event()

            def watch() -> None:
                while not stop.is_set():
                    started = time.perf_counter()
                    client.get("/api/health")
                    health.append((time.perf_counter() - started) * 1000)
                    time.sleep(0.05)

            played: dict[str, float] = {}

            def play(key: str) -> None:
                options = {"players": args.players, "rounds": args.rounds}
                played[key] = finish(client, [args.play] * args.players, args.seed + 1, options)[1]

            watcher = threading.Thread(target=watch, daemon=True)
            game = threading.Thread(target=play, args=("during",), daemon=True)
            started = time.monotonic()
            answer: Any = client.post(path, params={"seat": args.seat}).json()
            watcher.start()
            if args.play:
                game.start()
            while answer["status"] == "working":
                time.sleep(0.5)
                answer = client.get(path, params={"seat": args.seat}).json()
            took = time.monotonic() - started
            stop.set()
            watcher.join()
            if args.play:
                game.join()
                play("alone")
            size = sum(
                len(client.get(path, params={"seat": args.seat, "lang": lang}).content)
                for lang in ("en", "zh-Hant")
            )
    review = answer["review"]
    print(
        f"review of seat {args.seat + 1}, {args.players}-player Take Stock, "
        f"{args.budget} worlds: {answer['status']} in {took:.1f} s"
    )
    print(f"  {answer['total']} decisions, {review['mistakes']} mistakes, {size:,} bytes kept")
    health.sort()
    p95 = health[min(len(health) - 1, int(len(health) * 0.95))]
    print(
        f"  GET /api/health meanwhile: median {statistics.median(health):.1f} ms, "
        f"p95 {p95:.1f} ms, max {health[-1]:.1f} ms ({len(health)} asked)"
    )
    if args.play:
        print(
            f"  a {args.rounds}-round game of {args.play} bots: {played['during']:.1f} s during "
            "the review, "
            f"{played['alone']:.1f} s alone"
        )


if __name__ == "__main__":
    main()
