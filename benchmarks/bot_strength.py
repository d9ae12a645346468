"""Print how strong the bots are against each other, with 95% confidence intervals.

Usage::

    python benchmarks/bot_strength.py [--games N] [--bots A,B] [--game NAME] [--players 2 4]
                                      [--workers W] [--out DIR] [--report]

For each game and player count it plays a rotated match (see docs/simulate.md): the first
bot in one seat and the second bot in every other seat, each deal played once per rotation,
and prints the simulator's summary (win rate and mean score per bot, with intervals, and
the time per game), then the first bot's figures over whole rotations only: its win rate
and its mean margin (its score minus the mean of the other seats', with a standard error).
``--out DIR`` keeps every game in ``DIR/<game>-<players>p.csv`` so that an interrupted
measurement can be resumed; ``--report`` prints the figures of the games already in ``DIR``
without playing any. Figures only, never asserted.
"""

from __future__ import annotations

import argparse
import platform
import statistics
from collections.abc import Sequence
from pathlib import Path

import closingbell
from closingbell import sim


def whole_rotations(results: Sequence[sim.GameResult]) -> list[sim.GameResult]:
    """The games of the leading rotations that are complete (every seat order played)."""
    if not results:
        return []
    players = results[0].players
    played = {r.index for r in results}
    end = 0
    while all(i in played for i in range(end, end + players)):
        end += players
    return [r for r in results if r.index < end]


def seat_figures(results: Sequence[sim.GameResult], bot: str) -> dict[int, tuple[float, float]]:
    """Each game's win share and margin (score less the others' mean) of ``bot``'s seat."""
    out = {}
    for r in results:
        seat = r.bots.index(bot)
        others = [s for k, s in enumerate(r.scores) if k != seat]
        out[r.index] = (r.wins[seat], r.scores[seat] - sum(others) / len(others))
    return out


def first_bot_figures(results: Sequence[sim.GameResult], first: str) -> str:
    """The first bot's win rate and mean margin over whole rotations, as one line."""
    games = whole_rotations(results)
    if len(games) < 2:
        return "whole rotations: too few games"
    figures = seat_figures(games, first).values()
    wins = sum(w for w, _ in figures)
    margins = [m for _, m in figures]
    low, high = sim.wilson_interval(wins, len(games))
    error = statistics.stdev(margins) / len(margins) ** 0.5
    seconds = sum(r.duration for r in games) / len(games)
    name = first.split(":", maxsplit=1)[0]
    return (
        f"{name}, whole rotations: {len(games)} games, win rate {wins / len(games):.1%} "
        f"[{low:.1%}, {high:.1%}], margin {statistics.fmean(margins):+.1f} ± {error:.1f} "
        f"(s.e.), {seconds:.0f} s a game"
    )


def main() -> None:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per table (default 400)")
    parser.add_argument("--bots", default="heuristic,random", help="two bot specs")
    parser.add_argument("--game", action="append", help="a game (default: every game)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--report", action="store_true", help="only report the games already in --out"
    )
    args = parser.parse_args()
    if args.report and args.out is None:
        parser.error("--report reads the games kept in --out DIR: name it")
    first, second = args.bots.split(",")
    print(f"closingbell {closingbell.__version__}, CPython {platform.python_version()}")
    for game in args.game or closingbell.available_games():
        for players in args.players:
            seats = [first] + [second] * (players - 1)
            out = None
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                out = args.out / f"{game}-{players}p.csv"
            if args.report:
                assert out is not None
                if not out.exists():
                    continue
                results = sim.read_results(out)
                if results and first not in results[0].bots:
                    played = " and ".join(sorted(set(results[0].bots)))
                    print(f"\n{out}: played by {played}, not by {first}")
                    continue
            else:
                results = sim.run_match(
                    game, seats, games=args.games, seed=args.seed, workers=args.workers, out=out
                )
            if not results:
                continue
            heading = f"{game}, {players} players: {' vs '.join(sorted(set(seats)))}"
            print()
            print(sim.format_summary(sim.summarize(results), heading))
            print(first_bot_figures(results, first))


if __name__ == "__main__":
    main()
