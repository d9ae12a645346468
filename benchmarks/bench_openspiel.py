"""Random play side by side: closingbell's engines and OpenSpiel's C++ games, from Python.

Usage: ``python benchmarks/bench_openspiel.py [SECONDS] [ROUNDS]`` (time per engine and
round, default 2 s; rounds, default 3). closingbell's games are played at 4 players through
the door the documentation teaches, ``closingbell.load_game(...).new_game(seed)``, and
through the same door asked for the Python rules (``engine="reference"``); the last column
is each engine's actions a second over all of hearts' (its deal's chance actions
included, the generous reading for hearts). Every engine is driven by the same Python loop
(``apply(choice(legal()))`` with one ``random.Random``), the engines take turns within each
round so that a busy machine slows them alike, and the best round of each is printed.

OpenSpiel's games deal through chance nodes: those actions are applied by the same loop
but counted apart, so "decisions/s" counts only the players' decisions for every engine
(closingbell deals inside ``new_game``, whose time is counted). Figures only.
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import pyspiel

import closingbell
from closingbell import native

Runner = Callable[[float], tuple[int, int, int, float]]
"""Plays random games for about the given seconds: (games, decisions, chance actions, s)."""


def closingbell_runner(name: str, players: int, engine: str) -> Runner:
    """Random games of a closingbell game through its front door, ``load_game(...).new_game``.

    ``native``: the door as users call it (``engine="auto"``), which deals compiled states
    where they are built; ``reference``: the same door asked for the Python rules.
    """
    game = closingbell.load_game(name, players=players)
    if engine == "native":
        if native.engine_of(game.new_game(0)) != "native":
            raise SystemExit("the compiled engine is not built (pip install -e .)")
        new: Callable[[int], Any] = game.new_game
    else:

        def new(seed: int) -> Any:
            return game.new_game(seed, engine="reference")

    def run(seconds: float) -> tuple[int, int, int, float]:
        rng = random.Random(0)
        choice = rng.choice
        games = decisions = 0
        clock = time.perf_counter
        start = clock()
        while not games or clock() - start < seconds:
            state = new(games)
            legal = state.legal_actions
            apply = state.apply
            while not state.is_terminal():
                apply(choice(legal()))
                decisions += 1
            games += 1
        return games, decisions, 0, clock() - start

    return run


def openspiel_runner(name: str) -> Runner:
    """Random games of an OpenSpiel game (C++), chance nodes included."""
    game = pyspiel.load_game(name)

    def run(seconds: float) -> tuple[int, int, int, float]:
        rng = random.Random(0)
        choice = rng.choice
        games = decisions = chance = 0
        clock = time.perf_counter
        start = clock()
        while not games or clock() - start < seconds:
            state = game.new_initial_state()
            legal = state.legal_actions
            apply = state.apply_action
            is_chance = state.is_chance_node
            while not state.is_terminal():
                apply(choice(legal()))
                if is_chance():
                    chance += 1
                else:
                    decisions += 1
            games += 1
        return games, decisions, chance, clock() - start

    return run


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 2.0
    rounds = int(argv[1]) if len(argv) > 1 else 3
    runners: dict[str, Runner] = {}
    for name, players in (("take_stock", 4), ("card_stock_market", 4)):
        engines = ["reference", "native"] if native.available(name) else ["reference"]
        for engine in engines:
            door = "new_game" if engine == "native" else 'new_game(engine="reference")'
            label = f"closingbell {name} {players}p, {door}"
            runners[label] = closingbell_runner(name, players, engine)
    runners["openspiel hearts (C++)"] = openspiel_runner("hearts")
    runners["openspiel gin_rummy (C++)"] = openspiel_runner("gin_rummy")
    best: dict[str, tuple[int, int, int, float]] = {}
    for _ in range(rounds):
        for label, run in runners.items():
            figures = run(seconds)
            old = best.get(label)
            if old is None or figures[1] / figures[3] > old[1] / old[3]:
                best[label] = figures
    print(
        f"closingbell {closingbell.__version__}, {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}; best of {rounds} rounds "
        f"of {seconds:g} s, one core"
    )
    width = max(len(label) for label in best)
    hearts = best["openspiel hearts (C++)"]
    hearts_all = (hearts[1] + hearts[2]) / hearts[3]
    print(
        f"{'engine':<{width}}  {'games/s':>10}  {'decisions/s':>12}  {'all actions/s':>13}"
        f"  {'x hearts':>8}"
    )
    for label, (games, decisions, chance, spent) in best.items():
        print(
            f"{label:<{width}}  {games / spent:>10,.1f}  {decisions / spent:>12,.0f}  "
            f"{(decisions + chance) / spent:>13,.0f}"
            f"  {(decisions + chance) / spent / hearts_all:>8.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
