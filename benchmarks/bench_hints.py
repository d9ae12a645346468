"""How long a hint takes: the analysis of one decision on the hints' fixed budget.

Usage::

    python benchmarks/bench_hints.py [--games 3] [--per-game 12] [--pool]

For each game and player count, plays ``--games`` random games and times a hint
(:func:`closingbell.bots.hints.hint`, :data:`~closingbell.bots.hints.HINT_WORLDS` worlds)
at ``--per-game`` of their decisions, the decisions with the most legal actions first
(the slowest: every action is played out from every world). Prints the mean, the 95th
percentile and the slowest, in seconds of wall time and of CPU time. With ``--pool`` it
also sends the slowest decisions through the web server's helper processes
(:class:`~closingbell.server.tables.BotPool`, two of them), as a hint at a table is worked
out: the first one starts the helpers. A benchmark: the figures are printed, never
compared with a threshold.
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
    from closingbell.server.tables import BotPool  # noqa: PLC0415 (the web extra)

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


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--per-game", type=int, default=12)
    parser.add_argument("--pool", action="store_true", help="also through helper processes")
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


if __name__ == "__main__":
    main()
