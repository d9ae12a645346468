"""``closingbell backup DATABASE FILE``: copy a server's database to a backup file.

An SQLite database is copied with SQLite's online backup API (safe while a server runs on
it), a PostgreSQL one dumped with ``pg_dump --format=custom`` (docs/deploy.md). Needs the
``web`` extra.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from closingbell.cli.hints import install_extra

DATABASE_HELP = (
    "the server's database, as closingbell serve --database takes it: an SQLite file's "
    "path, sqlite:///PATH, or postgresql://USER:PASSWORD@HOST[:PORT]/DB"
)
"""The help of a DATABASE argument."""


def server_database(given: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """The database a command acts on, as ``closingbell serve`` finds its own.

    ``given`` (a ``--database`` option) if there is one, else ``CLOSINGBELL_DATABASE``, else
    ``None`` (the server's default file). Raises ``EnvironmentValueError`` for a variable
    that cannot be read.
    """
    from closingbell.server.environment import read  # noqa: PLC0415 (the web extra)

    if given is not None:
        return given
    database: str | None = read(os.environ if environ is None else environ, "database", str)[1]
    return database


def add_parser(subparsers: Any) -> None:
    """Add the ``backup`` subcommand to the ``closingbell`` parser."""
    parser = subparsers.add_parser(
        "backup",
        help="copy the web server's database to a backup file",
        description=(
            "Copy the web server's database to FILE, while a server runs on it or not: "
            "an SQLite database to an SQLite file, a PostgreSQL one to a pg_dump archive "
            "(custom format). closingbell restore puts it back (docs/deploy.md)."
        ),
    )
    parser.add_argument("database", metavar="DATABASE", help=DATABASE_HELP)
    parser.add_argument("file", metavar="FILE", type=Path, help="the backup file to write")
    parser.add_argument(
        "--replace", action="store_true", help="overwrite FILE if it exists (default: refuse)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Back up the database; return the exit status."""
    return call(
        "backup", lambda module: module.backup(args.database, args.file, replace=args.replace)
    )


def call(command: str, work: Callable[[Any], str]) -> int:
    """Run ``work`` on :mod:`closingbell.server.backup`; say what it did or why it could not.

    The exit status: 0 done, 2 refused (nothing changed), 1 failed while working.
    """
    try:
        from closingbell.server import backup  # noqa: PLC0415 (the web extra is optional)
    except ImportError as exc:
        print(
            f"closingbell {command}: the web extra is missing ({exc.name}); "
            f"install it with: {install_extra('web')}",
            file=sys.stderr,
        )
        return 1
    try:
        done = work(backup)
    except backup.BackupError as exc:
        print(f"closingbell {command}: {exc}", file=sys.stderr)
        return exc.status
    print(f"closingbell {command}: {done}")
    return 0
