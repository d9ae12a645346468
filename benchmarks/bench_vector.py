"""Agent steps per second of the learning environments, one core: single, fallback, compiled.

Usage: ``python benchmarks/bench_vector.py [SECONDS] [GAME ...]`` (default 1 second per
figure and round, every game with a compiled engine, at its default player count).

For each game it times, with random learner actions drawn from the masks:

- the single Gymnasium environment (``ClosingbellEnv``, a view and an encoding per step);
- the vector environment on the pure-Python fallback (``engine="reference"``);
- the vector environment on the compiled engines at several batch sizes, with random
  bots, and at 64 games with rule-based (``heuristic``) bots;
- the batched self-play interface on the compiled engines at the same sizes.

An agent step is one decision of a learner: one game's step of the Gymnasium
environments (its bots' moves in between are not counted), one action of the self-play
one. Two figures each: the whole loop (drawing the actions included) and ``step`` alone.
Each figure is the best of three rounds, the rounds of every case taken in turn, since
the machine's other work only ever slows a round down. Figures only, never asserted.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np

from closingbell import native
from closingbell.core.registry import default_players
from closingbell.envs.gymnasium import ClosingbellEnv
from closingbell.envs.vector import ClosingbellVectorEnv, SelfPlayVectorEnv
from closingbell.sim.bench import StepFigures, time_vector_steps

BATCHES = (1, 16, 64, 256)
"""Games stepped together by the compiled environments."""
ROUNDS = 3
"""Rounds of every case; the best is printed."""


def time_single(name: str, seconds: float, seed: int = 0) -> StepFigures:
    """Step one ``ClosingbellEnv`` for about ``seconds``, resetting it at each episode's end."""
    env = ClosingbellEnv(name)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = 0
    in_env = 0.0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        before = clock()
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
        in_env += clock() - before
        steps += 1
    return StepFigures(steps, clock() - start, in_env)


def cases(name: str, seconds: float) -> list[tuple[str, Callable[[], StepFigures]]]:
    """What is timed for the game ``name``: a label and a measurement for each case."""
    out: list[tuple[str, Callable[[], StepFigures]]] = [
        ("single env", lambda: time_single(name, seconds)),
        (
            "vector, fallback, 16 games",
            lambda: time_vector_steps(
                ClosingbellVectorEnv(name, num_envs=16, engine="reference", copy=False), seconds
            ),
        ),
    ]
    if not native.available(name) or native.module("_vector") is None:
        return out
    for size in BATCHES:
        out.append(
            (
                f"vector, compiled, {size} games",
                lambda size=size: time_vector_steps(
                    ClosingbellVectorEnv(name, num_envs=size, engine="native", copy=False),
                    seconds,
                ),
            )
        )
    out.append(
        (
            "vector, compiled, 64 games, rule-based bots",
            lambda: time_vector_steps(
                ClosingbellVectorEnv(
                    name, num_envs=64, opponents="heuristic", engine="native", copy=False
                ),
                seconds,
            ),
        )
    )
    for size in BATCHES:
        out.append(
            (
                f"self-play, compiled, {size} games",
                lambda size=size: time_vector_steps(
                    SelfPlayVectorEnv(name, num_envs=size, engine="native", copy=False), seconds
                ),
            )
        )
    return out


def main(argv: list[str]) -> None:
    """Print the figures of each game."""
    seconds = float(argv[0]) if argv else 1.0
    names = argv[1:] or sorted(native.GAME_MODULES)
    for name in names:
        players = default_players(name)
        print(f"{name}, {players} players: agent steps per second, one core (best of {ROUNDS})")
        measured = cases(name, seconds)
        best: dict[str, StepFigures] = {}
        for _ in range(ROUNDS):
            for label, run in measured:
                figures = run()
                if label not in best or figures.steps_per_second > best[label].steps_per_second:
                    best[label] = figures
        width = max(len(label) for label, _ in measured)
        print(f"  {'':{width}}  {'with actions':>14}  {'step alone':>14}")
        for label, _ in measured:
            figures = best[label]
            print(
                f"  {label:{width}}  {figures.steps_per_second:14,.0f}"
                f"  {figures.env_steps_per_second:14,.0f}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
