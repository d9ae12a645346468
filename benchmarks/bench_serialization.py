"""State serialization: the old code, today's Python code and the compiled code.

Usage: ``python benchmarks/bench_serialization.py [--rounds N] [--target S] [--game NAME]``.

For both games at every player count, on a game taken halfway and on a finished one, it
times ``to_json()`` and ``state_from_json`` of the state as dealt (its history replayed),
read as a position (``from_deal`` false: the same text, nothing replayed), and of a state
sampled from a seat's view (a position with an empty log), three ways: the old code
(``serialization_baseline.py``), today's Python code alone (``native.serialization(game,
"reference")``: no compiled codec, the reference replay) and today's code with the
compiled codec and replay that ``closingbell.native`` plugs in. The three run in turns
in one process, ``--rounds`` times each, every timing a loop of about ``--target``
seconds (short, so that some loops run while nothing else does); the best loop of each is
kept, as the least disturbed by other work on the machine. Before timing, all three are
checked to write the same text and to read the same state. Printed: microseconds per
call of each, the ratios old / Python and old / compiled, and beside each read what
``json.loads`` of the text costs alone and, for a dealt state, what the compiled replay
of its history costs alone: the floor that no reader replaying the history on this
engine can go under. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import serialization_baseline as baseline  # beside this script: benchmarks is no package

import closingbell
from closingbell import Game, State, native
from closingbell.core import replay
from closingbell.sim.bench import player_counts


@dataclass(frozen=True)
class Row:
    """One operation on one state, timed three ways."""

    game: str
    players: int
    stage: str
    operation: str
    size: int
    old_us: float
    python_us: float
    compiled_us: float
    parse_us: float | None
    replay_us: float | None

    @property
    def python_ratio(self) -> float:
        """How many times faster today's Python code is than the old."""
        return self.old_us / self.python_us

    @property
    def ratio(self) -> float:
        """How many times faster the compiled code is than the old."""
        return self.old_us / self.compiled_us


def per_call_us(call: Callable[[], object], target: float) -> tuple[int, float]:
    """How many calls fill about ``target`` seconds, and the µs of one call measured so."""
    count = 1
    while True:
        start = time.perf_counter()
        for _ in range(count):
            call()
        elapsed = time.perf_counter() - start
        if elapsed >= target / 4 or count > 1_000_000:
            return max(1, int(count * target / elapsed)), elapsed / count * 1e6
        count *= 4


def best_us(call: Callable[[], object], count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        call()
    return (time.perf_counter() - start) / count * 1e6


Way = tuple[Callable[[], object], Callable[[], None]]
"""A way to time: the call, and what to switch on before a loop of it."""


def in_turns(ways: list[Way], rounds: int, target: float) -> list[float]:
    """The best µs per call of each way, its loops timed in turns."""
    counts = []
    for call, switch in ways:
        switch()
        counts.append(per_call_us(call, target)[0])
    best = [math.inf] * len(ways)
    for _ in range(rounds):
        for i, (call, switch) in enumerate(ways):
            switch()
            best[i] = min(best[i], best_us(call, counts[i]))
    return best


def alone_us(call: Callable[[], object], rounds: int, target: float) -> float:
    count, _ = per_call_us(call, target)
    return min(best_us(call, count) for _ in range(rounds))


def stages(game: Game, seed: int) -> dict[str, State]:
    """A game played at random to its end, and the same game halfway."""
    rng = random.Random(f"bench-serialization/{seed}")
    finished = game.new_game(seed)
    while not finished.is_terminal():
        finished.apply(rng.choice(finished.legal_actions()))
    halfway = game.new_game(seed)
    for action in finished.history[: len(finished.history) // 2]:
        halfway.apply(action)
    return {"halfway": halfway, "finished": finished}


def as_position(state: State) -> str:
    data = json.loads(state.to_json())
    data["from_deal"] = False
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def measure(name: str, players: int, rounds: int, target: float) -> list[Row]:
    game = closingbell.load_game(name, players=players)
    python = (lambda: native.serialization(name, "reference"), "python")
    compiled = (lambda: native.serialization(name, "native"), "compiled")
    nothing = (lambda: None, "old")
    rows = []
    for stage, state in stages(game, seed=players).items():
        seat = state.current_player if state.current_player is not None else 0
        sampled = game.sample_state(state.view(seat), random.Random(players))
        reads = {
            "read dealt": state.to_json(),
            "read position": as_position(state),
            "read sampled": sampled.to_json(),
        }
        for writer, what in (("to_json dealt", state), ("to_json sampled", sampled)):
            texts = set()
            for switch, _ in (python, compiled):
                switch()
                texts.add(what.to_json())
            assert texts == {baseline.to_json(what)}, "the texts differ"
            old_us, python_us, compiled_us = in_turns(
                [
                    (lambda w=what: baseline.to_json(w), nothing[0]),
                    (what.to_json, python[0]),
                    (what.to_json, compiled[0]),
                ],
                rounds,
                target,
            )
            size = len(baseline.to_json(what))
            rows.append(
                Row(name, players, stage, writer, size, old_us, python_us, compiled_us, None, None)
            )
        for operation, text in reads.items():
            expected = baseline.state_from_json(game, text).to_json()
            for switch, _ in (python, compiled):
                switch()
                assert game.state_from_json(text).to_json() == expected, "the states differ"
            read = lambda t=text: game.state_from_json(t)  # noqa: E731
            old_us, python_us, compiled_us = in_turns(
                [
                    (lambda t=text: baseline.state_from_json(game, t), nothing[0]),
                    (read, python[0]),
                    (read, compiled[0]),
                ],
                rounds,
                target,
            )
            parse_us = alone_us(lambda t=text: json.loads(t), rounds, target)
            replay_us = None
            if operation == "read dealt":
                compiled[0]()
                engine = replay.registered(name)
                assert engine is not None
                replay_us = alone_us(
                    lambda s=state, e=engine: e(game, s.seed, s.history), rounds, target
                )
            rows.append(
                Row(
                    name,
                    players,
                    stage,
                    operation,
                    len(text),
                    old_us,
                    python_us,
                    compiled_us,
                    parse_us,
                    replay_us,
                )
            )
    native.serialization(name)
    return rows


def show(rows: list[Row]) -> None:
    heading = (
        f"{'game':<18} {'players':>7} {'stage':<9} {'operation':<15} {'bytes':>7} "
        f"{'old us':>9} {'python us':>9} {'c us':>8} {'old/py':>6} {'old/c':>6} "
        f"{'loads us':>8} {'replay us':>9}"
    )
    print(heading)
    print("-" * len(heading))
    for r in rows:
        parse = "" if r.parse_us is None else f"{r.parse_us:,.0f}"
        replayed = "" if r.replay_us is None else f"{r.replay_us:,.0f}"
        print(
            f"{r.game:<18} {r.players:>7} {r.stage:<9} {r.operation:<15} {r.size:>7,} "
            f"{r.old_us:>9,.1f} {r.python_us:>9,.1f} {r.compiled_us:>8,.1f} "
            f"{r.python_ratio:>6.1f} {r.ratio:>6.1f} {parse:>8} {replayed:>9}"
        )
    print()
    print("ratios by operation: geometric mean, lowest, highest")
    print(f"  {'':<15} {'old / python':^19}  {'old / compiled':^19}")
    for operation in dict.fromkeys(r.operation for r in rows):
        chosen = [r for r in rows if r.operation == operation]
        figures = []
        for ratios in ([r.python_ratio for r in chosen], [r.ratio for r in chosen]):
            mean = math.exp(statistics.fmean(map(math.log, ratios)))
            figures.append(f"{mean:5.1f} {min(ratios):6.1f} {max(ratios):6.1f}")
        print(f"  {operation:<15} {figures[0]}  {figures[1]}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="timings of each (default: 15)")
    parser.add_argument(
        "--target", type=float, default=0.004, help="seconds of one timing loop (default: 0.004)"
    )
    parser.add_argument("--game", action="append", help="a game (default: both)")
    args = parser.parse_args(argv)
    rows = []
    for name in args.game or closingbell.available_games():
        for players in player_counts(name):
            rows += measure(name, players, args.rounds, args.target)
    print(
        f"closingbell {closingbell.__version__}, Python {sys.version.split()[0]}: "
        "state serialization, the old code, today's Python and today's compiled code, best "
        f"of {args.rounds} alternating loops of ~{args.target:g} s"
    )
    show(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
