"""``closingbell bench``: speed figures of the engines, as a table or as JSON.

``closingbell bench --web`` measures the web server instead: many WebSocket clients
playing on one ``closingbell serve`` process, or with ``--processes`` on several sharing a
PostgreSQL database (:mod:`closingbell.server.loadtest`).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from typing import Any

import closingbell
from closingbell.cli import arguments
from closingbell.cli.hints import install_extra
from closingbell.sim import bench

WEB_TABLES = 500
"""Tables held by ``--web`` when ``--tables`` is not given (as in the server's module)."""
WEB_SECONDS = 30.0
"""Seconds measured by ``--web`` when ``--seconds`` is not given."""
WEB_THINK = 1.0
"""Mean think time of ``--web``'s clients when ``--think`` is not given."""


def add_parser(sub: Any) -> None:
    """Register the ``bench`` subcommand."""
    p = sub.add_parser(
        "bench",
        help="measure the engines' speed on one core, the compiled one beside the Python "
        "reference (--web: the web server under load)",
        description="Measure, for each game and player count and on each engine (the Python "
        "reference and the compiled code of closingbell.native, with the same seeds and "
        "states), random-play decisions and games per second on one core; the mean cost of "
        "clone(), view(), sample_state() and one rule-based decision; rule-based games per "
        "second; to_json() and state_from_json() on dealt states (whose history is replayed "
        "when read) and on states sampled from their views; ISMCTS iterations and the expert's "
        "paired-search worlds per second; and the vector environment's learner steps per "
        "second; then the compiled engine's speed-up figure by figure. "
        "With --web, measure the web server instead: tables held, actions a second and "
        "round-trip latency of many WebSocket clients playing on one `closingbell serve` "
        "process, or on --processes of them sharing a PostgreSQL database (docs/web.md, "
        "docs/scaling.md). Figures only: nothing is compared against a threshold.",
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
        default=None,
        metavar="S",
        help="playout time per player count when --games is not given; clone, "
        "sample_state and the JSON of dealt and of sampled states (on each engine) are each "
        "timed for S/8 "
        f"(default: {bench.DEFAULT_SECONDS:g}); "
        f"with --web, the time measured once every table is open (default: {WEB_SECONDS:g})",
    )
    p.add_argument(
        "--states",
        type=arguments.positive_int,
        default=bench.DEFAULT_STATES,
        metavar="N",
        help="states on which clone, sample_state and the JSON costs are timed "
        f"(default: {bench.DEFAULT_STATES})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the games played (default: 0)")
    p.add_argument(
        "--engine",
        action="append",
        choices=("reference", "native"),
        help="an engine to measure (repeatable; default: both, the compiled one where built); "
        "every figure is measured on each engine with the same seeds and states",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    web = p.add_argument_group("the web server (--web)")
    web.add_argument(
        "--web",
        action="store_true",
        help="measure the web server: a `closingbell serve` process and one WebSocket "
        "client per seat of --tables tables (one --game, one --players count; default "
        "take_stock, 2)",
    )
    web.add_argument(
        "--tables",
        type=arguments.positive_int,
        default=WEB_TABLES,
        metavar="N",
        help=f"tables held at once, every seat played by a client (default: {WEB_TABLES})",
    )
    web.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="the server's database: sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DB "
        "(default: a temporary SQLite file); the benchmark's tables stay in it",
    )
    web.add_argument(
        "--processes",
        type=arguments.positive_int,
        default=1,
        metavar="P",
        help="server processes sharing the --database, which must then be PostgreSQL, each "
        "on its own port, a table's seats connected through different ones; the report adds "
        "each process's figures and the database's commits a second (default: 1)",
    )
    web.add_argument(
        "--think",
        type=float,
        default=WEB_THINK,
        metavar="S",
        help="mean seconds a client thinks before each action, drawn from 0.5 to 1.5 "
        f"times S; 0 answers at once and measures the server saturated (default: {WEB_THINK:g})",
    )
    web.add_argument(
        "--experts",
        type=int,
        default=0,
        metavar="N",
        help="also keep N tables of expert bots thinking, to see what search bots cost the "
        "players beside them (default: 0)",
    )
    web.add_argument(
        "--replays",
        type=float,
        default=0.0,
        metavar="N",
        help="also ask N times a second for a finished game's whole replay, to see what "
        "replays cost the players (default: 0)",
    )
    web.add_argument(
        "--bot-processes",
        type=int,
        default=None,
        metavar="N",
        help="the server's --bot-processes: helper processes for expert bots "
        "(default: one per core; 0: a thread of the server)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Measure and print; return the exit code (2 for player counts no game allows)."""
    if args.web:
        return run_web(args)
    if args.seconds is None:
        args.seconds = bench.DEFAULT_SECONDS
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
        engines=args.engine,
    )
    if args.json:
        doc = {
            "closingbell": closingbell.__version__,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "results": [r.to_dict() for r in results],
            "speedups": bench.speedups(results),
        }
        print(json.dumps(doc, indent=2))
    else:
        print(
            f"closingbell {closingbell.__version__} on "
            f"{platform.python_implementation()} {platform.python_version()}, one core"
        )
        print(bench.format_table(results))
        compared = bench.format_speedups(results)
        if compared:
            print()
            print("native engine's speed-up over the reference (the same work):")
            print(compared)
    return 0


def run_web(args: argparse.Namespace) -> int:
    """``bench --web``: load the web server and print its figures; return the exit code."""
    if len(args.game or []) > 1 or len(args.players or []) > 1:
        print("closingbell bench --web: give one --game and one --players count", file=sys.stderr)
        return 2
    for name in ("think", "experts", "replays", "bot_processes"):
        value = getattr(args, name)
        if value is not None and value < 0:
            flag = "--" + name.replace("_", "-")
            print(f"closingbell bench --web: {flag} must be 0 or more", file=sys.stderr)
            return 2
    try:
        from closingbell.server import loadtest  # noqa: PLC0415 (the web extra is optional)
    except ImportError as exc:
        print(
            f"closingbell bench --web: the web extra is missing ({exc.name}); "
            f"install it with: {install_extra('web')}",
            file=sys.stderr,
        )
        return 1
    settings = loadtest.WebBenchSettings(
        tables=args.tables,
        seconds=WEB_SECONDS if args.seconds is None else args.seconds,
        database=args.database,
        game=args.game[0] if args.game else "take_stock",
        players=args.players[0] if args.players else 2,
        think=args.think,
        seed=args.seed,
        experts=args.experts,
        bot_processes=args.bot_processes,
        replays=args.replays,
        processes=args.processes,
    )
    problem = loadtest.settings_problem(settings)
    if problem is not None:
        print(f"closingbell bench --web: {problem}", file=sys.stderr)
        return 2
    result = loadtest.run_webbench(settings)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(loadtest.format_report(result))
    return 0
