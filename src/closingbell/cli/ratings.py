"""``closingbell ratings``: the leaderboard of each game, or ``--rebuild`` every rating.

The database is the server's: ``--database URL``, else ``CLOSINGBELL_DATABASE``, else the
SQLite file ``closingbell serve`` uses by default. ``--rebuild`` recomputes every rating
from the stored results of rated tables (but those where a hint was taken, which never
count), in the order the games ended, and rewrites the ratings and their history in one
transaction (docs/web.md, "Ratings and profiles"). Needs the ``web`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from closingbell.cli.arguments import positive_int
from closingbell.cli.backup import DATABASE_HELP, server_database
from closingbell.cli.hints import install_extra
from closingbell.server.environment import EnvironmentValueError, variable

SHOWN = 20
"""Places shown per game by default."""


def add_parser(subparsers: Any) -> None:
    """Add the ``ratings`` subcommand to the ``closingbell`` parser."""
    parser = subparsers.add_parser(
        "ratings",
        help="show the players' and bots' ratings, or rebuild them",
        description=(
            "Print the leaderboard of each game (ranked by the displayed rating, mu - 3 sigma), "
            "or, with --rebuild, recompute every rating from the stored results of rated "
            "games and rewrite them (docs/web.md). A rebuild of an SQLite database needs its "
            "server stopped; on PostgreSQL servers may go on running."
        ),
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help=f"{DATABASE_HELP} (default: as closingbell serve) [{variable('database')}]",
    )
    parser.add_argument(
        "--rebuild", action="store_true", help="recompute every rating from the games' results"
    )
    parser.add_argument(
        "--limit",
        type=positive_int,
        default=SHOWN,
        metavar="N",
        help=f"places shown per game (default: {SHOWN})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> int:
    """Print the leaderboards, or rebuild the ratings; the exit status.

    0 done; 1 the database could not be used (said in one line); 2 a bad option.
    """
    try:
        from closingbell.server import standings  # noqa: PLC0415 (the web extra is optional)
        from closingbell.server.store import (  # noqa: PLC0415
            Store,
            UnusableDatabaseError,
            default_database_path,
        )
    except ImportError as exc:
        print(
            f"closingbell ratings: the web extra is missing ({exc.name}); "
            f"install it with: {install_extra('web')}",
            file=sys.stderr,
        )
        return 1
    try:
        database = server_database(args.database, environ)
    except EnvironmentValueError as exc:
        print(f"closingbell ratings: {exc}", file=sys.stderr)
        return 2
    store = Store(str(database or default_database_path()))
    try:
        return asyncio.run(_run(store, standings, args))
    except UnusableDatabaseError as exc:
        print(f"closingbell ratings: {exc}", file=sys.stderr)
        return 1


async def _run(store: Any, standings: Any, args: argparse.Namespace) -> int:
    """Rebuild or print, on the opened database; raises ``UnusableDatabaseError``."""
    from sqlalchemy.exc import SQLAlchemyError  # noqa: PLC0415

    from closingbell.core.registry import available_games, game_class  # noqa: PLC0415
    from closingbell.server.store import UnusableDatabaseError  # noqa: PLC0415
    from closingbell.server.store.errors import error_text  # noqa: PLC0415

    try:
        path = store._sqlite_file()
        if path is not None and not Path(path).is_file():
            raise UnusableDatabaseError(f"{path}: no such database file")
        if args.rebuild:
            await store.open()  # the database's lock, as a server takes it
            try:
                games, ratings = await store.ratings.rebuild()
            except (SQLAlchemyError, OSError) as exc:
                raise UnusableDatabaseError(
                    f"cannot rebuild the ratings of {store.where}: {error_text(exc)}"
                ) from None
            print(
                f"closingbell ratings: rebuilt {ratings} ratings from {games} rated games "
                f"in {store.where}"
            )
            return 0
        await store.check()
        for game in available_games():
            board = await standings.leaderboard(store, game, args.limit, 0)
            print(_board(game_class(game).info.title, board))
        return 0
    finally:
        await store.close()


def _board(title: str, board: dict[str, Any]) -> str:
    """One game's leaderboard as text."""
    lines = [f"{title} ({board['total']} rated)"]
    if not board["players"]:
        lines.append("  no rated game yet")
    else:
        lines.append(
            f"  {'#':>3}  {'player':<32} {'rating':>7} {'mu':>7} {'sigma':>6} {'games':>6}"
        )
    for p in board["players"]:
        lines.append(
            f"  {p['place']:>3}  {p['username']:<32} {p['rating']:>7.2f} {p['mu']:>7.2f} "
            f"{p['sigma']:>6.2f} {p['games']:>6}"
        )
    return "\n".join(lines) + "\n"
