"""``closingbell puzzles build``: find puzzles in game records and in the bots' own games.

``closingbell puzzles build [RECORD...] [--from-selfplay N --game G --players P] --out FILE``
looks at every decision of the records given and of ``N`` games the rule-based bots play
among themselves, keeps those with one clearly best action (:mod:`closingbell.puzzles.finder`)
and writes them to ``FILE`` as JSON Lines (docs/puzzles.md). Self-play games are shared out
over ``--workers`` processes, with a progress bar; ``--append`` adds to a file already made
(a puzzle already in it is not written twice), so that a long build can go on from where it
stopped. ``closingbell puzzles import FILE`` adds a file of puzzles to a server's database.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import sys
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import closingbell
from closingbell.cli import arguments
from closingbell.cli.backup import DATABASE_HELP, server_database
from closingbell.cli.hints import install_extra
from closingbell.core.errors import ClosingbellError, RecordError
from closingbell.core.records import GameRecord
from closingbell.puzzles import Criteria, Finder, Puzzle, from_record, from_selfplay
from closingbell.puzzles.finder import WORLDS
from closingbell.puzzles.model import PuzzleFormatError, dumps, iter_puzzles, read_puzzles
from closingbell.server.environment import EnvironmentValueError, variable

NAME = "closingbell puzzles"


def add_parser(sub: Any) -> None:
    """Register the ``puzzles`` subcommand."""
    p = sub.add_parser(
        "puzzles",
        help="make puzzles from game records and bot games, or add them to a server",
        description="Puzzles: decisions of real games where one action is clearly best from "
        "what the seat could see (docs/puzzles.md).",
    )
    actions = p.add_subparsers(dest="puzzles_command", metavar="ACTION")
    build = actions.add_parser(
        "build",
        help="find puzzles in records and in the bots' own games",
        description="Look at every decision of the records given and of the bots' own games "
        "and write those with one clearly best action to --out as JSON Lines.",
    )
    build.add_argument("records", nargs="*", metavar="RECORD", help="game records (.cbrec)")
    build.add_argument(
        "--from-selfplay",
        type=arguments.non_negative_int,
        default=0,
        metavar="N",
        help="also look at N games the rule-based bots play among themselves",
    )
    build.add_argument(
        "--game",
        default="take_stock",
        help=f"the self-play game ({', '.join(closingbell.available_games())})",
    )
    build.add_argument("--players", type=int, default=4, help="self-play seats (default 4)")
    build.add_argument(
        "--option",
        action="append",
        type=arguments.option_pair,
        default=[],
        metavar="KEY=VALUE",
        help="a self-play rules option (repeatable)",
    )
    build.add_argument(
        "--bots", default="hard", help="self-play bot levels, comma-separated, seated in turn"
    )
    build.add_argument("--seed", type=arguments.seed, default=0, help="first self-play deal (0)")
    build.add_argument(
        "--worlds",
        type=int,
        default=None,
        help=f"worlds of each analysis (default: {_defaults(0)})",
    )
    build.add_argument(
        "--screen",
        type=arguments.non_negative_int,
        default=None,
        help=f"worlds of the quick first look (default: {_defaults(1)}; 0: none)",
    )
    build.add_argument("--workers", type=arguments.positive_int, default=1, help="processes")
    build.add_argument("--out", required=True, metavar="FILE", help="the JSON Lines file")
    build.add_argument(
        "--append", action="store_true", help="add to FILE rather than refuse to replace it"
    )
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    build.set_defaults(run=run_build)
    load = actions.add_parser(
        "import",
        help="add a file of puzzles to a server's database",
        description="Check every puzzle of FILE and add those the server's database has not "
        "got (an SQLite database needs its server stopped; on PostgreSQL servers go on).",
    )
    load.add_argument("file", metavar="FILE", help="the JSON Lines file of puzzles")
    load.add_argument(
        "--database",
        metavar="URL",
        help=f"{DATABASE_HELP} (default: as closingbell serve) [{variable('database')}]",
    )
    load.set_defaults(run=run_import)
    p.set_defaults(run=lambda args: _usage(p))


def _defaults(which: int) -> str:
    """Each game's default worlds (0: of an analysis, 1: of the first look), for the help."""
    return ", ".join(f"{game} {worlds[which]}" for game, worlds in WORLDS.items())


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _error(message: str) -> int:
    print(f"{NAME}: error: {message}", file=sys.stderr)
    return 2


def _selfplay_chunk(
    game_name: str, options: dict[str, Any], criteria: Criteria, bots: list[str], deal: int
) -> tuple[list[str], int]:
    """One self-play game's puzzles (as lines) and decisions looked at (a worker's task)."""
    game = closingbell.load_game(game_name, **options)
    finder = Finder(game, criteria)
    found = [dumps(p) for p in from_selfplay(finder, 1, seed=deal, bots=bots)]
    return found, finder.looked


def _selfplay(args: argparse.Namespace, criteria: Criteria) -> Iterator[tuple[list[str], int]]:
    options = {**dict(args.option), "players": args.players}
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    deals = range(args.seed, args.seed + args.from_selfplay)
    if args.workers == 1:
        for deal in deals:
            yield _selfplay_chunk(args.game, options, criteria, bots, deal)
        return
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [
            pool.submit(_selfplay_chunk, args.game, options, criteria, bots, d) for d in deals
        ]
        for future in futures:
            yield future.result()


def run_build(args: argparse.Namespace) -> int:
    """Build the puzzle file; 0 on success, 1 for a bad record or file, 2 for bad use."""
    if importlib.util.find_spec("tqdm") is None:
        return _error(f"the progress bar needs tqdm; install it with: {install_extra('sim')}")
    from tqdm import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415 (sim extra)

    if not args.records and not args.from_selfplay:
        return _error("name RECORD files or --from-selfplay N games to look at")
    try:
        criteria = Criteria(worlds=args.worlds, screen=args.screen, seed=args.seed)
        if args.from_selfplay:
            game = closingbell.load_game(
                args.game, **{**dict(args.option), "players": args.players}
            )
            for bot in args.bots.split(","):
                closingbell.make_bot(bot.strip(), game)
    except (ClosingbellError, ValueError, TypeError) as exc:
        return _error(str(exc))
    out = Path(args.out)
    seen: set[str] = set()
    if out.exists():
        if not args.append:
            return _error(f"{out} exists: --append adds to it")
        try:
            seen = {p.id for p in iter_puzzles(out)}
        except PuzzleFormatError as exc:
            print(f"{NAME}: {out}: {exc}", file=sys.stderr)
            return 1
    records = []
    for name in args.records:
        try:
            record = GameRecord.read(name)
            record.start()
        except (RecordError, OSError) as exc:
            print(f"{NAME}: {name}: {exc}", file=sys.stderr)
            return 1
        records.append((name, record))
    written = looked = 0
    start = time.perf_counter()
    total = len(records) + args.from_selfplay
    bar = tqdm(total=total, unit="game", disable=args.quiet, file=sys.stderr)

    def keep(lines: list[str], file: Any) -> int:
        kept = 0
        for line in lines:
            puzzle = Puzzle.from_json(json.loads(line))
            if puzzle.id not in seen:
                seen.add(puzzle.id)
                file.write(line + "\n")
                kept += 1
        file.flush()
        return kept

    with open(out, "a", encoding="utf-8") as file:
        for name, record in records:
            game = record.start().game
            finder = Finder(game, criteria)
            written += keep([dumps(p) for p in from_record(record, finder, name)], file)
            looked += finder.looked
            bar.update(1)
            bar.set_postfix(puzzles=written)
        for lines, count in _selfplay(args, criteria):
            written += keep(lines, file)
            looked += count
            bar.update(1)
            bar.set_postfix(puzzles=written)
    bar.close()
    seconds = time.perf_counter() - start
    print(
        f"{written} puzzles written to {out} from {looked} decisions looked at "
        f"in {total} games ({seconds:.0f} s)"
    )
    return 0


def run_import(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> int:
    """Add a file of puzzles to a server's database; 0 done, 1 a bad file or database, 2 bad use."""
    try:
        from closingbell.server.store import (  # noqa: PLC0415 (the web extra is optional)
            Store,
            UnusableDatabaseError,
            default_database_path,
        )
    except ImportError as exc:
        print(
            f"{NAME}: the web extra is missing ({exc.name}); install it with: "
            f"{install_extra('web')}",
            file=sys.stderr,
        )
        return 1
    try:
        puzzles = read_puzzles(args.file)
    except PuzzleFormatError as exc:
        print(f"{NAME}: {args.file}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{NAME}: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        database = server_database(args.database, environ)
    except EnvironmentValueError as exc:
        print(f"{NAME}: {exc}", file=sys.stderr)
        return 2
    store = Store(str(database or default_database_path()))

    async def add() -> int:
        try:
            await store.open()  # the database's lock and schema, as a server takes them
            added: int = await store.puzzles.add(puzzles)
            return added
        finally:
            await store.close()

    try:
        added = asyncio.run(add())
    except UnusableDatabaseError as exc:
        print(f"{NAME}: {exc}", file=sys.stderr)
        return 1
    print(
        f"{added} puzzles added to {store.where} "
        f"({len(puzzles) - added} of the file's {len(puzzles)} were there already)"
    )
    return 0
