"""``closingbell study``: what a game is like, measured by bots, as a report with charts."""

from __future__ import annotations

import argparse
import importlib.util
import json
import shlex
import sys
from typing import Any

import closingbell
from closingbell import sim
from closingbell.cli import arguments
from closingbell.cli.hints import install_extra
from closingbell.cli.simulate import SIM_EXTRA, add_where, ray_missing
from closingbell.core.errors import ClosingbellError

NAME = "closingbell study"


def players_list(text: str) -> tuple[int, ...]:
    """Table sizes: ``4``, ``2,4,6`` or ``2-6``."""
    try:
        if "-" in text:
            low, high = (int(x) for x in text.split("-", 1))
            sizes = tuple(range(low, high + 1))
        else:
            sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N, N,M,... or N-M, not {text!r}") from None
    if not sizes:
        raise argparse.ArgumentTypeError(f"no table size in {text!r}")
    return tuple(sorted(set(sizes)))


def add_parser(sub: Any) -> None:
    """Register the ``study`` subcommand."""
    p = sub.add_parser(
        "study",
        help="measure what a game is like: the first player's edge, skill, length, options",
        description="Play bots against each other many times and write DIR/report.md, "
        "DIR/study.json and PNG charts: each place in the turn order's share of the wins, "
        "how often a stronger bot wins, game length and winning margins, what happens in a "
        "game, and what each rules option changes. Resumable: the games are kept in "
        "DIR/games/, and the same command goes on where it stopped. See docs/study.md.",
    )
    p.add_argument(
        "--game",
        required=True,
        help=f"the game ({', '.join(closingbell.available_games())})",
    )
    p.add_argument(
        "--players",
        type=players_list,
        default=(2, 3, 4, 5, 6),
        metavar="N",
        help="table sizes: N, N,M,... or N-M (default: 2-6)",
    )
    p.add_argument(
        "--games",
        type=arguments.positive_int,
        default=2000,
        metavar="N",
        help="games of each measurement (default: 2000)",
    )
    p.add_argument(
        "--option-players",
        type=int,
        default=4,
        metavar="N",
        help="the table size at which the rules options are compared (default: 4)",
    )
    p.add_argument(
        "--option",
        action="append",
        type=arguments.option_pair,
        default=[],
        metavar="KEY=VALUE",
        help="a rules option held for every game, e.g. rounds=2 (repeatable)",
    )
    p.add_argument("--seed", type=arguments.seed, default=0, help="the deals' seed (default: 0)")
    add_where(p)
    p.add_argument("--out", required=True, metavar="DIR", help="where the report goes")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=run)


def _error(message: str) -> int:
    print(f"{NAME}: error: {message}", file=sys.stderr)
    return 2


def command_line(args: argparse.Namespace) -> str:
    """The command that makes this study, as a user would type it."""
    sizes = args.players
    players = (
        f"{sizes[0]}-{sizes[-1]}"
        if list(sizes) == list(range(sizes[0], sizes[-1] + 1)) and len(sizes) > 1
        else ",".join(str(n) for n in sizes)
    )
    words = ["closingbell", "study", "--game", args.game, "--players", players]
    words += ["--games", str(args.games), "--seed", str(args.seed)]
    if args.option_players != 4:
        words += ["--option-players", str(args.option_players)]
    for key, value in args.option:
        text = value if isinstance(value, str) else json.dumps(value)
        words += ["--option", f"{key}={text}"]
    words += ["--out", args.out]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    """Play the study's games and write its report; 2 for bad use, 130 on Ctrl-C."""
    from closingbell.sim import study as studies  # noqa: PLC0415 (imports the sim extra lazily)
    from closingbell.sim.study_report import headlines, write_study  # noqa: PLC0415

    missing = [m for m in SIM_EXTRA if importlib.util.find_spec(m) is None]
    if missing:
        needed = ", ".join(missing)
        return _error(f"a study needs {needed}; install it with: {install_extra('sim')}")
    problem = ray_missing(args)
    if problem:
        return _error(problem)
    try:
        study = studies.Study(
            args.game,
            players=args.players,
            games=args.games,
            seed=args.seed,
            options=dict(args.option),
            option_players=args.option_players,
        )
    except (ClosingbellError, ValueError, TypeError) as exc:
        return _error(str(exc))
    try:
        results = studies.run_study(
            study,
            args.out,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            progress=not args.quiet,
        )
    except sim.SimulationError as exc:
        return _error(str(exc))
    except KeyboardInterrupt:
        print(
            f"\n{NAME}: interrupted: the games finished so far are in {args.out}/games; "
            "run the same command to go on",
            file=sys.stderr,
        )
        return 130
    doc = studies.analyze(study, results)
    paths = write_study(doc, args.out, command_line(args))
    for line in headlines(doc):
        print(f"- {line.replace('**', '')}")
    print(f"Report: {paths[1]}")
    print(f"Data: {paths[0]}; charts: {', '.join(str(p) for p in paths[2:])}")
    return 0
