"""Speed of the compiled engines against the reference rules, on one core.

Usage: ``python benchmarks/bench_native.py [GAMES] [GAME ...]`` (random games per run of the
compiled engine, default 400, the reference playing a tenth as many; default games: every
game with a compiled engine). For each player count: random playouts on both engines with
the loop of ``closingbell.sim.bench.time_playouts`` (``legal_actions``, ``rng.choice``,
``apply`` until ``is_terminal``) over the same seeds, the engines alternated and the best of
five runs kept; then the mean cost of ``clone()``, of ``view()`` for the deciding seat, of
``to_reference()`` and of ``from_state()`` on states taken from random games. Figures only,
never asserted: the machine's other work shows in them, hence the best of several runs.
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import closingbell
from closingbell import native
from closingbell.core.game import Game, State
from closingbell.core.registry import game_class

RUNS = 5
"""Runs of each measurement; the best is kept."""
ENGINES = ("native", "reference")


def playouts(game: Game, engine: str, games: int, seed: int) -> tuple[int, float]:
    """Decisions made and seconds taken by ``games`` random games on ``engine``."""
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        state = native.new_game(game, seed + index, engine=engine)
        legal = state.legal_actions
        apply = state.apply
        while not state.is_terminal():
            apply(choice(legal()))
            decisions += 1
    return decisions, time.perf_counter() - start


def stages(game: Game, count: int, seed: int) -> list[State]:
    """``count`` native states taken along random games, from the deal to the end."""
    rng = random.Random(seed)
    out: list[State] = []
    index = 0
    while len(out) < count:
        state = native.new_game(game, seed + index, engine="native")
        index += 1
        step = 0
        while not state.is_terminal() and len(out) < count:
            if step % 23 == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            step += 1
    return out


def mean_us(call: Callable[[Any], object], items: Sequence[Any]) -> float:
    """The best, over ``RUNS``, of the mean microseconds of ``call(item)``."""
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        for item in items:
            call(item)
        best = min(best, (time.perf_counter() - start) / len(items))
    return best * 1e6


def bench(name: str, players: int, games: int) -> list[str]:
    """The table rows of one game at one player count."""
    game = closingbell.load_game(name, players=players)
    best: dict[str, tuple[float, float]] = {}
    for run in range(RUNS):
        for engine in ENGINES:
            count = games if engine == "native" else max(games // 10, 1)
            decisions, seconds = playouts(game, engine, count, 1000 * run)
            rate = decisions / seconds
            if engine not in best or rate > best[engine][0]:
                best[engine] = (rate, count / seconds)
    states = stages(game, 200, 7)
    refs = [native.to_reference(s) for s in states]
    costs = {
        "native": (
            mean_us(lambda s: s.clone(), states),
            mean_us(lambda s: s.view(s.current_player), states),
        ),
        "reference": (
            mean_us(lambda s: s.clone(), refs),
            mean_us(lambda s: s.view(s.current_player), refs),
        ),
    }
    rows = []
    for engine in ENGINES:
        rate, per_game = best[engine]
        clone, view = costs[engine]
        rows.append(
            f"{name:<18} {players:>2} {engine:<9} {rate:>12,.0f} {per_game:>9,.0f} "
            f"{clone:>8.2f} {view:>8.2f}"
        )
    convert = (
        f"{'':<21} to_reference {mean_us(native.to_reference, states):.1f} us, "
        f"from_state {mean_us(native.from_state, refs):.1f} us; "
        f"native/reference: {best['native'][0] / best['reference'][0]:.1f}x decisions/s"
    )
    return [*rows, convert]


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 400
    names = argv[1:] or sorted(native.GAME_MODULES)
    missing = [name for name in names if not native.available(name)]
    if missing:
        print(f"no compiled engine built for {', '.join(missing)}")
        return 1
    print(
        f"closingbell {closingbell.__version__}, {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, one core; best of {RUNS} runs"
    )
    print(
        f"{'game':<18} {'n':>2} {'engine':<9} {'decisions/s':>12} {'games/s':>9} "
        f"{'clone us':>8} {'view us':>8}"
    )
    for name in names:
        info = game_class(name).info
        for players in range(info.min_players, info.max_players + 1):
            for row in bench(name, players, games):
                print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
