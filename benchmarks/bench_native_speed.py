"""The compiled engines against the reference: random play, clones and views, per player count.

Usage: ``python benchmarks/bench_native_speed.py [ROUNDS] [GAME ...]`` (default 5 rounds;
default games: every game with a compiled engine). Each round plays the same seeds on both
engines, one after the other, in the loop of ``closingbell.sim.bench.time_playouts``
(``apply(choice(legal()))`` until the end, a new seed each game); the best round of each
engine is printed, since the machine's other work only ever slows a round down. Clones and
views are timed on positions spread over random games. Figures only, never asserted.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from closingbell import native
from closingbell.core.game import Game, State
from closingbell.core.registry import game_class, load_game
from closingbell.sim.bench import sample_positions

GAMES_PER_ROUND = {"native": 400, "reference": 100}
"""Games each engine plays in one round (the reference is several times slower)."""


def playouts(game: Game, engine: str, seeds: range) -> tuple[int, float]:
    """Decisions made and seconds taken playing every seed to the end at random."""
    rng = random.Random(0)
    choice = rng.choice
    decisions = 0
    start = time.perf_counter()
    for seed in seeds:
        state = native.new_game(game, seed, engine=engine)
        legal = state.legal_actions
        apply = state.apply
        while not state.is_terminal():
            apply(choice(legal()))
            decisions += 1
    return decisions, time.perf_counter() - start


def per_call(states: list[Any], call: Callable[[Any], object], rounds: int) -> float:
    """The best round's time of one ``call(state)``, in microseconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for state in states:
            call(state)
        best = min(best, (time.perf_counter() - start) / len(states))
    return best * 1e6


def clone(state: State) -> object:
    """A copy of the state."""
    return state.clone()


def seat_view(state: State) -> object:
    """The view of the seat that decides (the spectator's once the game is over)."""
    return state.view(state.current_player)


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 5
    names = argv[1:] or sorted(native.GAME_MODULES)
    for name in names:
        if not native.available(name):
            print(f"{name}: the compiled engine is not built")
            return 1
        info = game_class(name).info
        for players in range(info.min_players, info.max_players + 1):
            game = load_game(name, players=players)
            best: dict[str, tuple[float, float]] = {}
            for r in range(rounds):
                for engine, count in GAMES_PER_ROUND.items():
                    seeds = range(r * 100_000, r * 100_000 + count)
                    decisions, seconds = playouts(game, engine, seeds)
                    if decisions / seconds > best.get(engine, (0.0, 0.0))[0]:
                        best[engine] = (decisions / seconds, count / seconds)
            refs = sample_positions(game, 200, seed=players)
            nats = [native.from_state(s, engine="native") for s in refs]
            figures = [
                f"{engine} {rate:,.0f} decisions/s {games:,.0f} games/s"
                for engine, (rate, games) in best.items()
            ]
            speedup = best["native"][0] / best["reference"][0]
            print(f"{name} {players} players: " + "; ".join(figures) + f" (x{speedup:.1f})")
            for what, call in (("clone", clone), ("view", seat_view)):
                ref_us = per_call(refs, call, rounds)
                nat_us = per_call(nats, call, rounds)
                print(f"    {what}: native {nat_us:.2f} us, reference {ref_us:.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
