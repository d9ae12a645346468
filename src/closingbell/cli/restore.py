"""``closingbell restore FILE DATABASE``: put a backup back as a server's database.

Refuses a file that is not a closingbell backup of the database's kind, a database a
server runs on, and one that already holds closingbell's tables unless ``--replace`` is
given; the result is checked as a server starting on it would check it (docs/deploy.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from closingbell.cli.backup import DATABASE_HELP, call


def add_parser(subparsers: Any) -> None:
    """Add the ``restore`` subcommand to the ``closingbell`` parser."""
    parser = subparsers.add_parser(
        "restore",
        help="restore the web server's database from a backup file",
        description=(
            "Restore a backup made by closingbell backup into DATABASE, with no server "
            "running on it: an SQLite backup into an SQLite file, a pg_dump archive into a "
            "PostgreSQL database (docs/deploy.md). The restored database is migrated to this "
            "version's schema and checked, as a server starting on it would."
        ),
    )
    parser.add_argument("file", metavar="FILE", type=Path, help="the backup file")
    parser.add_argument("database", metavar="DATABASE", help=DATABASE_HELP)
    parser.add_argument(
        "--replace",
        action="store_true",
        help="replace the games of a DATABASE that already holds closingbell's tables "
        "(default: refuse it)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Restore the backup; return the exit status."""
    return call(
        "restore", lambda module: module.restore(args.file, args.database, replace=args.replace)
    )
