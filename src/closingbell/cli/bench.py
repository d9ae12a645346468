"""``closingbell bench``: speed figures of the engines, as a table or as JSON."""

from __future__ import annotations

import argparse
import json
import platform
import sys
from typing import Any

import closingbell
from closingbell.cli import arguments
from closingbell.sim import bench


def add_parser(sub: Any) -> None:
    """Register the ``bench`` subcommand."""
    p = sub.add_parser(
        "bench",
        help="measure random-play speed, clone and sample_state costs on one core",
        description="Measure, for each game and player count, random-play decisions and "
        "games per second on one core, and the mean cost of clone() and sample_state(). "
        "Figures only: nothing is compared against a threshold.",
    )
    p.add_argument(
        "--game",
        action="append",
        choices=closingbell.available_games(),
        help="a game to measure (repeatable; default: every registered game)",
    )
    p.add_argument(
        "--players",
        type=int,
        nargs="+",
        metavar="N",
        help="player counts to measure (default: every count each game allows)",
    )
    p.add_argument(
        "--games",
        type=arguments.positive_int,
        default=None,
        metavar="N",
        help="random games per player count (default: as many as fit in --seconds)",
    )
    p.add_argument(
        "--seconds",
        type=arguments.positive_float,
        default=bench.DEFAULT_SECONDS,
        metavar="S",
        help="playout time per player count when --games is not given; clone and "
        f"sample_state are each timed for S/8 (default: {bench.DEFAULT_SECONDS:g})",
    )
    p.add_argument(
        "--states",
        type=arguments.positive_int,
        default=bench.DEFAULT_STATES,
        metavar="N",
        help=f"states on which clone and sample_state are timed (default: {bench.DEFAULT_STATES})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the games played (default: 0)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Measure and print; return the exit code (2 for player counts no game allows)."""
    names: list[str] = args.game or closingbell.available_games()
    if args.players is not None:
        allowed = {n for name in names for n in bench.player_counts(name)}
        unknown = sorted(set(args.players) - allowed)
        if unknown:
            shown = ", ".join(map(str, unknown))
            print(f"closingbell bench: no chosen game allows {shown} players", file=sys.stderr)
            return 2
    results = bench.run_bench(
        names,
        args.players,
        games=args.games,
        seconds=args.seconds,
        states=args.states,
        seed=args.seed,
    )
    if args.json:
        doc = {
            "closingbell": closingbell.__version__,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "results": [r.to_dict() for r in results],
        }
        print(json.dumps(doc, indent=2))
    else:
        print(
            f"closingbell {closingbell.__version__} on "
            f"{platform.python_implementation()} {platform.python_version()}, one core"
        )
        print(bench.format_table(results))
    return 0
