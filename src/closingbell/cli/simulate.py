"""``closingbell simulate``: bots play a match or a round robin; results to CSV, a summary out."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from typing import Any

import closingbell
from closingbell import native, sim
from closingbell.cli import arguments
from closingbell.cli.hints import install_extra
from closingbell.core.errors import ClosingbellError
from closingbell.sim.specs import parse_value

EPILOG = """\
bot specs: NAME[:KEY=VALUE]..., e.g. ismcts:iterations=200:c=0.7 or heuristic:epsilon=0.1;
the spec string names the bot in the results. Each deal is played once per rotation of the
seat list. Ctrl-C keeps the games finished in --out; the same command resumes them.
See docs/simulate.md."""


def add_parser(sub: Any) -> None:
    """Register the ``simulate`` subcommand."""
    p = sub.add_parser(
        "simulate",
        help="play bots against each other many times and summarize the results",
        description="Play a match of bots (every rotation of the seats on each deal) or a "
        "round-robin tournament, on every core, and print win rates with 95% intervals, "
        "seat advantage, game length and openskill ratings.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--game",
        default="take_stock",
        help=f"the game ({', '.join(closingbell.available_games())}; default: take_stock)",
    )
    p.add_argument(
        "--seats", metavar="SPECS", help="a match: comma-separated bot specs, one per seat"
    )
    p.add_argument(
        "--tournament",
        action="store_true",
        help="a round robin: a rotated match at a table for every combination of --bots",
    )
    p.add_argument("--bots", metavar="SPECS", help="the tournament's comma-separated bot specs")
    p.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="seats per table (tournament default: 2; a match takes it from --seats)",
    )
    p.add_argument(
        "--games",
        type=arguments.positive_int,
        default=100,
        metavar="N",
        help="games in a match, or per table in a tournament, rounded up to a multiple of "
        "the seats (default: 100)",
    )
    p.add_argument("--seed", type=arguments.seed, default=0, help="the run's seed (default: 0)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rules option of the game, e.g. rounds=2 (repeatable)",
    )
    add_where(p)
    p.add_argument(
        "--out",
        metavar="FILE",
        help="CSV file each game is appended to; an existing one is resumed",
    )
    p.add_argument(
        "--engine",
        choices=native.ENGINES,
        default="auto",
        help="where games and bots run: compiled code where it is built (auto, the default), "
        "compiled or an error (native), or the Python rules (reference); the results are "
        "the same on every engine",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--plot", metavar="DIR", help="save PNG charts of the results in DIR")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def add_where(p: argparse.ArgumentParser) -> None:
    """The arguments that say where games are played: --workers, --backend, --address."""
    p.add_argument(
        "--workers",
        type=arguments.positive_int,
        metavar="N",
        help="worker processes, or the local Ray cluster's CPUs (default: every core; "
        "1 plays in this process)",
    )
    p.add_argument(
        "--backend",
        choices=sim.BACKENDS,
        default="processes",
        help="local processes (default) or Ray tasks",
    )
    p.add_argument(
        "--address",
        help="the Ray cluster to join (default: start a local one); needs --backend ray",
    )


def ray_missing(args: argparse.Namespace) -> str | None:
    """Why the arguments' backend cannot run (bad --address, no Ray), or ``None``."""
    if args.address and args.backend != "ray":
        return "--address needs --backend ray"
    if args.backend == "ray":
        try:
            sim.runner.import_ray()
        except sim.SimulationError as exc:
            return f"{exc}; install it with: {install_extra('dist')}"
    return None


def _specs(text: str) -> list[str]:
    specs = [s.strip() for s in text.split(",")]
    if any(not s for s in specs):
        raise sim.SimulationError(f"empty bot spec in {text!r}")
    return specs


def _options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise sim.SimulationError(f"--option takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = parse_value(value.strip())
    return options


def _plan(args: argparse.Namespace) -> sim.Plan:
    """The run's plan from the arguments (raises ``SimulationError`` when they are wrong)."""
    options = _options(args.option)
    if args.address and args.backend != "ray":
        raise sim.SimulationError("--address needs --backend ray")
    if args.tournament:
        if args.seats:
            raise sim.SimulationError("a tournament takes --bots, not --seats")
        if not args.bots:
            raise sim.SimulationError("a tournament needs --bots")
        return sim.tournament_plan(
            args.game,
            _specs(args.bots),
            players=2 if args.players is None else args.players,
            games=args.games,
            seed=args.seed,
            options=options,
        )
    if args.bots:
        raise sim.SimulationError(
            "--bots is for a tournament (add --tournament); a match takes --seats"
        )
    if not args.seats:
        raise sim.SimulationError("a match needs --seats (or use --tournament --bots)")
    seats = _specs(args.seats)
    if args.players is not None and args.players != len(seats):
        raise sim.SimulationError(f"--players is {args.players} but --seats names {len(seats)}")
    return sim.match_plan(args.game, seats, games=args.games, seed=args.seed, options=options)


def _heading(plan: sim.Plan) -> str:
    tables = len(plan.tables)
    kind = f"tournament of {tables} tables" if tables > 1 else "match"
    return (
        f"{plan.game}, {plan.players} players, {kind}: {plan.games:,} games "
        f"({plan.deals:,} deals x {plan.rotations} rotations"
        + (f" x {tables} tables" if tables > 1 else "")
        + f"), seed {plan.seed}"
    )


def _error(message: str) -> int:
    print(f"closingbell simulate: error: {message}", file=sys.stderr)
    return 2


SIM_EXTRA = ("tqdm", "openskill", "matplotlib")
"""The modules of the ``sim`` extra that a simulation uses."""


def run(args: argparse.Namespace) -> int:
    """Run the match or tournament and print its summary; 2 for bad arguments, 130 on Ctrl-C."""
    missing = [m for m in SIM_EXTRA if importlib.util.find_spec(m) is None]
    if missing:
        needed = ", ".join(missing)
        return _error(f"the simulator needs {needed}; install it with: {install_extra('sim')}")
    try:
        plan = _plan(args)
    except (ClosingbellError, ValueError) as exc:
        return _error(str(exc))
    problem = ray_missing(args)
    if problem:
        return _error(problem)
    try:
        results = sim.execute(
            plan,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            out=args.out,
            progress=not args.quiet,
            engine=args.engine,
        )
    except sim.SimulationError as exc:
        return _error(str(exc))
    except KeyboardInterrupt:
        if args.out:
            saved = f"the games finished so far are in {args.out}; run the same command to resume"
        else:
            saved = "nothing was saved (--out FILE keeps finished games)"
        print(f"\nclosingbell simulate: interrupted: {saved}", file=sys.stderr)
        return 130
    summary = sim.summarize(results)
    plots = [str(p) for p in sim.plot_summary(results, summary, args.plot)] if args.plot else []
    if args.json:
        doc = {
            "game": plan.game,
            "options": json.loads(plan.options),
            "seed": plan.seed,
            "deals": plan.deals,
            **summary,
        }
        if args.out:
            doc["out"] = args.out
        if plots:
            doc["plots"] = plots
        print(json.dumps(doc, indent=2))
    else:
        print(sim.format_summary(summary, heading=_heading(plan)))
        if args.out:
            print(f"Results: {args.out}")
        if plots:
            print(f"Plots: {', '.join(plots)}")
    return 0
