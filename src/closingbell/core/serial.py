"""Helpers for reading serialized states back: header checks and JSON shapes.

A game declares the JSON shape of every field of its state (``"int"``, ``"int or null"``,
``"str or null"``, ``"bool"``, ``"list of int"``, ``"list of bool"``, ``"list of str"``,
``"list of list of int"`` or ``"list"``) and lets :func:`check_fields` refuse anything
else with a message naming the field, before any of it reaches the engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from closingbell.core.errors import StateFormatError
from closingbell.core.events import Entry

if TYPE_CHECKING:
    from closingbell.core.game import Game


MAX_JSON_DEPTH = 64
"""How deeply arrays and objects may nest in JSON that closingbell reads: far more than any
state, record or message needs, and far less than what exhausts Python's recursion."""

_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*+"?|[\[\]{}]')
"""Strings (skipped whole, so brackets inside them do not count) and brackets. The string
pattern never backtracks, and an unterminated string runs to the end of the text, so a
scan is linear whatever the input."""


class JSONDepthError(ValueError):
    """JSON text nested more deeply than allowed (refused before it is parsed)."""


def check_json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise :class:`JSONDepthError` if arrays and objects in ``text`` nest deeper than ``limit``.

    The text is scanned without recursion, so a hostile input of thousands of brackets
    costs a linear scan instead of a ``RecursionError`` from the parser.
    """
    depth = 0
    for match in _JSON_TOKENS.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                raise JSONDepthError(f"arrays and objects nest deeper than {limit} levels")
        elif char in "]}":
            depth -= 1


def load_json(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text whose nesting is at most ``limit`` deep; ``ValueError`` otherwise.

    Refuses the constants ``NaN`` and ``Infinity``, which are not JSON.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    check_json_depth(text, limit)
    return json.loads(text, parse_constant=_refuse_constant)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def fits(value: Any, shape: str) -> bool:
    """Whether a JSON value has ``shape``."""
    if shape == "int":
        return _is_int(value)
    if shape == "bool":
        return isinstance(value, bool)
    if shape == "int or null":
        return value is None or _is_int(value)
    if shape == "str or null":
        return value is None or isinstance(value, str)
    if not isinstance(value, list):
        return False
    if shape == "list of int":
        return all(_is_int(v) for v in value)
    if shape == "list of bool":
        return all(isinstance(v, bool) for v in value)
    if shape == "list of str":
        return all(isinstance(v, str) for v in value)
    if shape == "list of list of int":
        return all(isinstance(v, list) and all(_is_int(x) for x in v) for v in value)
    if shape == "list":
        return True
    raise ValueError(f"unknown shape {shape!r}")


def check_header(data: Any, game: Game, fmt: str) -> dict[str, Any]:
    """Check a serialized state's format name, version and options against ``game``."""
    title = game.info.title
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise StateFormatError(f"not a {title} state (missing or wrong 'format')")
    if data.get("version") != game.info.version:
        raise StateFormatError(
            f"state version {data.get('version')!r} does not match the game's "
            f"version {game.info.version}"
        )
    if data.get("options") != game.options_dict():
        raise StateFormatError("the state's options differ from this game's options")
    return data


def check_fields(data: Mapping[str, Any], shapes: Mapping[str, str], title: str) -> None:
    """Refuse ``data`` unless every field of ``shapes`` is present with its shape."""
    for name, shape in shapes.items():
        if name not in data:
            raise StateFormatError(f"malformed {title} state: {name!r} is missing")
        if not fits(data[name], shape):
            raise StateFormatError(
                f"malformed {title} state: {name!r} must be {shape}, not {data[name]!r}"
            )


def _tuplify(value: Any) -> Any:
    """JSON lists become tuples again at every depth (log forms are tuples)."""
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value


def read_log(data: Any, title: str) -> list[Entry]:
    """Read back a serialized event log, refusing malformed entries."""
    log: list[Entry] = []
    for i, item in enumerate(data):
        ok = isinstance(item, list) and len(item) == 3
        if ok:
            owner, full, redacted = item
            ok = (
                (owner is None or _is_int(owner))
                and isinstance(full, list)
                and bool(full)
                and isinstance(full[0], str)
                and (redacted is None or isinstance(redacted, list))
            )
        if not ok:
            raise StateFormatError(f"malformed {title} state: log entry {i} is {item!r}")
        log.append((owner, _tuplify(full), None if redacted is None else _tuplify(redacted)))
    return log


def header(game: Game, fmt: str) -> dict[str, Any]:
    """The first keys of a serialized state: format name, game version and options."""
    return {"format": fmt, "version": game.info.version, "options": game.options_dict()}
