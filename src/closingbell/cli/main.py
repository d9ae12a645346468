"""The ``closingbell`` command: one subcommand per front end or tool.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and ``run(args)``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

import closingbell

SUBCOMMANDS = (
    "play",
    "learn",
    "replay",
    "analyze",
    "puzzles",
    "bench",
    "simulate",
    "study",
    "serve",
    "connect",
    "backup",
    "restore",
    "ratings",
)
"""The modules of :mod:`closingbell.cli` that provide a subcommand."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="closingbell",
        description="Take Stock and Card Stock Market: play, learn, replay records, measure speed.",
    )
    parser.add_argument("--version", action="version", version=closingbell.__version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"closingbell.cli.{name}")
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
