"""The grammar every game's position notation shares (see ``docs/positions.md``).

A position is a list of fields, each ``name: value``, separated by newlines or by ``;``
so that one line can be typed in a shell. Blank fields and lines starting with ``#`` are
ignored. A value that differs by seat lists one part per seat, in seat order, separated
by ``/``; a list of items is separated by spaces, and ``-`` stands for an empty list.

A game's notation module names its fields and reads their values with the helpers below;
every problem raises :class:`~closingbell.core.errors.PositionError` naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from closingbell.core.checks import shown
from closingbell.core.errors import PositionError
from closingbell.core.rng import SEED_BITS

MAX_POSITION_CHARS = 1 << 14
"""The longest position text read: 16 KiB, many times what the largest position needs."""

EMPTY = "-"
"""How an empty list is written."""

SEAT_SEPARATOR = "/"
"""What separates the parts of a field that differs by seat."""

_NAME_RE = re.compile(r"[a-z][a-z_]*")


def read_fields(text: object, known: Sequence[str], required: Sequence[str] = ()) -> dict[str, str]:
    """Split ``text`` into its fields, refusing unknown, repeated and missing ones."""
    if not isinstance(text, str):
        raise PositionError(None, f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_POSITION_CHARS:
        raise PositionError(None, f"the text is longer than {MAX_POSITION_CHARS} characters")
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        for part in line.split(";"):
            part = part.strip()
            if not part:
                continue
            name, colon, value = part.partition(":")
            name = name.strip()
            if not colon or not _NAME_RE.fullmatch(name):
                raise PositionError(None, f"{shown(part)} is not a field written 'name: value'")
            if name not in known:
                raise PositionError(name, f"no such field (the fields are {', '.join(known)})")
            if name in fields:
                raise PositionError(name, "the field is given twice")
            fields[name] = value.strip()
    for name in required:
        if name not in fields:
            raise PositionError(name, "the field is missing")
    return fields


def names_field(text: str, name: str) -> bool:
    """Whether ``text`` gives the field ``name`` (a quick look; nothing else is checked)."""
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        for part in line.split(";"):
            if part.partition(":")[0].strip() == name:
                return True
    return False


def write_fields(fields: Iterable[tuple[str, str]]) -> str:
    """The canonical one-line text of ``(name, value)`` fields, in the order given."""
    return "; ".join(f"{name}: {value}" for name, value in fields)


def per_seat(field: str, value: str, n: int) -> list[str]:
    """The ``n`` parts of a field that differs by seat."""
    parts = [part.strip() for part in value.split(SEAT_SEPARATOR)]
    if len(parts) != n:
        raise PositionError(
            field,
            f"{n} seats need {n} parts separated by {SEAT_SEPARATOR!r}, not {len(parts)}",
        )
    return parts


def items(value: str) -> list[str]:
    """The items of a list written with spaces; ``-`` (or nothing) is the empty list."""
    tokens = value.split()
    if tokens == [EMPTY]:
        return []
    return tokens


def write_items(tokens: Iterable[str]) -> str:
    """A list's text: its items separated by spaces, or ``-`` when it is empty."""
    text = " ".join(tokens)
    return text or EMPTY


def integer(field: str, token: str, low: int, high: int) -> int:
    """The whole number ``token``, from ``low`` to ``high``."""
    text = token.strip()
    if not re.fullmatch(r"-?\d{1,16}", text):
        raise PositionError(field, f"{shown(token)} is not a whole number")
    number = int(text)
    if not low <= number <= high:
        raise PositionError(field, f"{number} is not from {low} to {high}")
    return number


def write_per_seat(parts: Iterable[str]) -> str:
    """A field that differs by seat: its parts in seat order, separated by ``/``."""
    return f" {SEAT_SEPARATOR} ".join(parts)


def read_seed(field: str, token: str) -> int:
    """A game seed: a whole number from 0 to ``2**63 - 1`` (longer than :func:`integer` reads)."""
    text = token.strip()
    if not re.fullmatch(r"\d{1,19}", text):
        raise PositionError(field, f"{shown(token)} is not a seed (a whole number from 0)")
    number = int(text)
    if number >= 2**SEED_BITS:
        raise PositionError(field, f"{number} is not a seed (seeds are below 2**{SEED_BITS})")
    return number
