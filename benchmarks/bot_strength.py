"""Print how strong the bots are against each other, with 95% confidence intervals.

Usage::

    python benchmarks/bot_strength.py [--games N] [--bots A,B] [--game NAME] [--players 2 4]
                                      [--workers W] [--out DIR]

For each game and player count it plays a rotated match (see docs/simulate.md): the first
bot in one seat and the second bot in every other seat, each deal played once per rotation,
and prints the simulator's summary (win rate and mean score per bot, with intervals, and
the time per game). ``--out DIR`` keeps every game in ``DIR/<game>-<players>p.csv`` so that
an interrupted measurement can be resumed. Figures only, never asserted.
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import closingbell
from closingbell import sim


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
    args = parser.parse_args()
    first, second = args.bots.split(",")
    print(f"closingbell {closingbell.__version__}, CPython {platform.python_version()}")
    for game in args.game or closingbell.available_games():
        for players in args.players:
            seats = [first] + [second] * (players - 1)
            out = None
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                out = args.out / f"{game}-{players}p.csv"
            results = sim.run_match(
                game, seats, games=args.games, seed=args.seed, workers=args.workers, out=out
            )
            heading = f"{game}, {players} players: {' vs '.join(sorted(set(seats)))}"
            print()
            print(sim.format_summary(sim.summarize(results), heading))


if __name__ == "__main__":
    main()
