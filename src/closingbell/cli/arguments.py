"""Argument types shared by the subcommands: numbers checked as they are parsed."""

from __future__ import annotations

import argparse
import json
from typing import Any


def positive_int(text: str) -> int:
    """An integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def positive_float(text: str) -> float:
    """A number above 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of 0 or more."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def non_negative_float(text: str) -> float:
    """A number of 0 or more."""
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def pace(text: str) -> float:
    """A pause after each bot move: 0 to 60 seconds."""
    value = float(text)
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"must be from 0 to 60 seconds, not {text}")
    return value


def seed(text: str) -> int:
    """A seed: an integer of 0 or more."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def option_pair(text: str) -> tuple[str, Any]:
    """A rules option ``KEY=VALUE``, its value read as JSON or else kept as text.

    ``2``, ``true``, ``null`` and ``[1, 2]`` are JSON; ``none`` is null too; anything else
    (``turn_order``) is the text itself.
    """
    key, eq, value = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"takes KEY=VALUE, not {text!r}")
    value = value.strip()
    if value.lower() == "none":
        return key, None
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def add_save_and_pace(p: argparse.ArgumentParser) -> None:
    """The terminal games' ``--save FILE`` and ``--pace SECONDS`` (play and learn)."""
    p.add_argument(
        "--save",
        metavar="FILE",
        default=None,
        help="where to keep the game's record (default: a new file under "
        "$XDG_DATA_HOME/closingbell/games/, or the --resume file)",
    )
    p.add_argument(
        "--pace",
        type=pace,
        default=0.4,
        metavar="SECONDS",
        help="pause after each bot move (default: 0.4)",
    )
