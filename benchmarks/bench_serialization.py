"""State serialization, today's code against the old (``serialization_baseline.py``).

Usage: ``python benchmarks/bench_serialization.py [--rounds N] [--target S] [--game NAME]``.

For both games at every player count, on a game taken halfway and on a finished one, it
times ``to_json()`` and ``state_from_json`` of the state as dealt (its history replayed),
read as a position (``from_deal`` false: the same text, nothing replayed), and of a state
sampled from a seat's view (a position with an empty log). The old and today's code run
alternately in one process, ``--rounds`` times each, every timing a loop of about
``--target`` seconds (short, so that some loops run while nothing else does); the best
loop of each is kept, as the least disturbed by other work on the machine. Before timing,
both are checked to write the same text and to read the same state. Printed:
microseconds per call, old, new and their ratio, and beside each read what parsing the
JSON (``json.loads``) and replaying the history cost alone, which no check can save; and
the read of a dealt state with a replay that costs nothing (``read dealt, 0 us``), the
bound a compiled engine plugged into ``core.replay`` approaches. Figures only: nothing
is asserted.
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
from closingbell import Game, State
from closingbell.core import replay
from closingbell.sim.bench import player_counts


@dataclass(frozen=True)
class Row:
    """One operation on one state, timed both ways."""

    game: str
    players: int
    stage: str
    operation: str
    size: int
    old_us: float
    new_us: float
    parse_us: float | None
    replay_us: float | None

    @property
    def ratio(self) -> float:
        """How many times faster today's code is."""
        return self.old_us / self.new_us


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


def side_by_side(
    old: Callable[[], object], new: Callable[[], object], rounds: int, target: float
) -> tuple[float, float]:
    """The best µs per call of ``old`` and of ``new``, timed in turns."""
    old_count, _ = per_call_us(old, target)
    new_count, _ = per_call_us(new, target)
    olds, news = [], []
    for _ in range(rounds):
        olds.append(best_us(old, old_count))
        news.append(best_us(new, new_count))
    return min(olds), min(news)


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
            assert what.to_json() == baseline.to_json(what), "the texts differ"
            old_us, new_us = side_by_side(
                lambda w=what: baseline.to_json(w), what.to_json, rounds, target
            )
            size = len(what.to_json())
            rows.append(Row(name, players, stage, writer, size, old_us, new_us, None, None))
        for operation, text in reads.items():
            read = game.state_from_json(text)
            assert read.to_json() == baseline.state_from_json(game, text).to_json()
            old_us, new_us = side_by_side(
                lambda t=text: baseline.state_from_json(game, t),
                lambda t=text: game.state_from_json(t),
                rounds,
                target,
            )
            parse_us = alone_us(lambda t=text: json.loads(t), rounds, target)
            replay_us = None
            if operation == "read dealt":
                replay_us = alone_us(
                    lambda s=state: replay.reference_replay(game, s.seed, s.history),
                    rounds,
                    target,
                )
            rows.append(
                Row(name, players, stage, operation, len(text), old_us, new_us, parse_us, replay_us)
            )
            if operation == "read dealt":
                free_us = instant_replay_us(game, state, text, rounds, target)
                rows.append(Row(name, players, stage, FREE, len(text), old_us, free_us, None, 0.0))
    return rows


FREE = "read dealt, 0 us"
"""A dealt state read back as if its replay took no time: the bound that a compiled
engine's replay (``core.replay.register``) approaches; the old time is that of the
replay through the Python rules."""


def instant_replay_us(game: Game, state: State, text: str, rounds: int, target: float) -> float:
    """Today's read of a dealt state, its replay answered at once with the state itself."""
    replayed = replay.reference_replay(game, state.seed, state.history)
    replay.register(game.info.name, lambda *_: replayed)
    try:
        return alone_us(lambda: game.state_from_json(text), rounds, target)
    finally:
        replay.unregister(game.info.name)


def show(rows: list[Row]) -> None:
    heading = (
        f"{'game':<18} {'players':>7} {'stage':<9} {'operation':<17} {'bytes':>7} "
        f"{'old us':>9} {'new us':>9} {'ratio':>6} {'parse us':>9} {'replay us':>9}"
    )
    print(heading)
    print("-" * len(heading))
    for r in rows:
        parse = "" if r.parse_us is None else f"{r.parse_us:,.0f}"
        replayed = "" if r.replay_us is None else f"{r.replay_us:,.0f}"
        print(
            f"{r.game:<18} {r.players:>7} {r.stage:<9} {r.operation:<17} {r.size:>7,} "
            f"{r.old_us:>9,.1f} {r.new_us:>9,.1f} {r.ratio:>6.1f} {parse:>9} {replayed:>9}"
        )
    print()
    print("ratio (old / new) by operation: geometric mean, lowest, highest")
    for operation in dict.fromkeys(r.operation for r in rows):
        ratios = [r.ratio for r in rows if r.operation == operation]
        mean = math.exp(statistics.fmean(map(math.log, ratios)))
        print(f"  {operation:<17} {mean:5.1f}  {min(ratios):5.1f}  {max(ratios):5.1f}")


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
        "state serialization, the old code against today's, best of "
        f"{args.rounds} alternating loops of ~{args.target:g} s"
    )
    show(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
