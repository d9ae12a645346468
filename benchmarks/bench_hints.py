"""How long a hint takes: the analysis of one decision on the hints' fixed budget.

Usage::

    python benchmarks/bench_hints.py [--games 3] [--per-game 12] [--pool] [--server N]

For each game and player count, plays ``--games`` random games and times a hint
(:func:`closingbell.bots.hints.hint`, :data:`~closingbell.bots.hints.HINT_WORLDS` worlds)
at ``--per-game`` of their decisions, the decisions with the most legal actions first
(the slowest: every action is played out from every world). Prints the mean, the 95th
percentile and the slowest, in seconds of wall time and of CPU time. With ``--pool`` it
also sends the slowest decisions through the web server's helper processes
(:class:`~closingbell.server.thinking.BotPool`, two of them), as a hint at a table is worked
out: the first one starts the helpers. With ``--server N`` it plays N practice tables of
each game through the web app (in-process, on a temporary SQLite file, two helper
processes, started as the player sits down, who then looks at the table for ``--read``
seconds), asking for a hint at every decision of the player and timing each from the
request to the ``hint`` message: what a player waits. A benchmark: the figures are printed,
never compared with a threshold.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

import closingbell
from closingbell.bots.hints import HINT_WORLDS, hint
from closingbell.core.game import State

CASES = [
    ("take_stock", 2),
    ("take_stock", 3),
    ("take_stock", 5),
    ("card_stock_market", 2),
    ("card_stock_market", 4),
]
"""The games and player counts measured."""


def decisions(name: str, players: int, games: int, per_game: int) -> list[tuple[State, int]]:
    """The ``per_game`` decisions with the most legal actions of each of ``games`` random
    games, as (state, decision number)."""
    game = closingbell.load_game(name, players=players)
    out: list[tuple[State, int]] = []
    for seed in range(games):
        state = game.new_game(seed)
        rng = random.Random(seed)
        found: list[tuple[int, State]] = []
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append((len(legal), state.clone()))
            state.apply(rng.choice(legal))
        found.sort(key=lambda f: -f[0])
        out += [(s, len(s.history)) for _, s in found[:per_game]]
    return out


def measure(cases: list[tuple[State, int]]) -> tuple[list[float], list[float], int]:
    """Wall and CPU seconds of each hint, and the most legal actions met."""
    wall, cpu = [], []
    most = 0
    for state, number in cases:
        seat = state.current_player
        assert seat is not None
        most = max(most, len(state.legal_actions()))
        started, used = time.perf_counter(), time.process_time()
        hint(state.game, state.view(seat), state.seed, number)  # type: ignore[attr-defined]
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return wall, cpu, most


def figures(values: list[float]) -> str:
    """Mean, 95th percentile and slowest, in seconds."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"mean {statistics.fmean(ordered):5.3f}  p95 {p95:5.3f}  max {ordered[-1]:5.3f}"


async def through_pool(cases: list[tuple[State, int]]) -> list[float]:
    """Wall seconds of each hint worked out in two helper processes (the first starts them)."""
    from closingbell.server.thinking import BotPool  # noqa: PLC0415 (the web extra)

    pool = BotPool(2)
    out = []
    try:
        for state, number in cases:
            seat = state.current_player
            assert seat is not None
            started = time.perf_counter()
            await pool.run(hint, state.game, state.view(seat), state.seed, number)  # type: ignore[attr-defined]
            out.append(time.perf_counter() - started)
    finally:
        await pool.stop()
    return out


def through_server(name: str, tables: int, read: float) -> list[float]:
    """Seconds from each ``hint`` request to its answer, at ``tables`` practice tables of
    ``name`` (one person, a medium bot) played to their end through the web app; the player
    looks at each table for ``read`` seconds before the first hint."""
    import json  # noqa: PLC0415
    import tempfile  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from fastapi.testclient import TestClient  # noqa: PLC0415 (the web extra)

    from closingbell.server.app import create_app  # noqa: PLC0415

    out: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            f"sqlite:///{Path(folder) / 'bench.db'}",
            bot_delay=0,
            bot_processes=2,
            rate=10_000.0,  # the player answers at once: no rate limit
            burst=10_000.0,
            address_rate=0,
        )
        with TestClient(app) as client:
            for _ in range(tables):
                body: dict[str, object] = {"game": name, "seats": ["open", "medium"]}
                if name == "take_stock":
                    body["options"] = {"rounds": 1}
                table = client.post("/api/tables", json=body).json()["table"]["id"]
                token = client.post(f"/api/tables/{table}/join", json={"name": "Ana"}).json()
                with client.websocket_connect(f"/ws/tables/{table}") as ws:
                    ws.send_text(json.dumps({"type": "hello", "token": token["token"]}))
                    time.sleep(read)
                    while True:
                        message = json.loads(ws.receive_text())
                        if message["type"] != "state" or (
                            message["status"] == "playing" and not message["legal"]
                        ):
                            continue
                        if message["status"] == "finished":
                            break
                        started = time.perf_counter()
                        ws.send_text(json.dumps({"type": "hint", "version": message["version"]}))
                        while (answer := json.loads(ws.receive_text()))["type"] != "hint":
                            pass
                        out.append(time.perf_counter() - started)
                        choice = answer["best"]["id"]
                        ws.send_text(
                            json.dumps(
                                {"type": "action", "version": message["version"], "action": choice}
                            )
                        )
    return out


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--per-game", type=int, default=12)
    parser.add_argument("--pool", action="store_true", help="also through helper processes")
    parser.add_argument(
        "--server", type=int, default=0, metavar="N", help="also N tables through the web app"
    )
    parser.add_argument(
        "--read", type=float, default=3.0, help="seconds a player looks before the first hint"
    )
    args = parser.parse_args()
    print(f"hints of {HINT_WORLDS} worlds; seconds per hint")
    slowest: list[tuple[State, int]] = []
    for name, players in CASES:
        cases = decisions(name, players, args.games, args.per_game)
        wall, cpu, most = measure(cases)
        print(f"{name:<18} {players} players  n={len(cases):>3}  up to {most:>2} actions")
        print(f"    wall  {figures(wall)}")
        print(f"    cpu   {figures(cpu)}")
        slowest += [cases[i] for i in sorted(range(len(cases)), key=lambda i: -wall[i])[:2]]
    if args.pool:
        times = asyncio.run(through_pool(slowest))
        print(f"through 2 helper processes, the slowest {len(times)} decisions:")
        print(f"    first (starts the helpers) {times[0]:5.3f}")
        print(f"    then  {figures(times[1:])}")
    for name in ("take_stock", "card_stock_market") if args.server else ():
        times = through_server(name, args.server, args.read)
        print(f"through the web app, {name}, every decision of {args.server} tables:")
        print(f"    n={len(times)}  first {times[0]:5.3f}  {figures(times)}")


if __name__ == "__main__":
    main()
