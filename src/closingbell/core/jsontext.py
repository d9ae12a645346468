"""JSON text read with bounded nesting: the reader of every untrusted text closingbell takes.

States, records, messages from browsers and rows of the database all go through
:func:`load_json` (or :func:`read_json`, which skips the depth scan for text that is read
well), so that no text can exhaust Python's recursion or smuggle in ``NaN``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any, TypeVar

T = TypeVar("T")

MAX_JSON_DEPTH = 64
"""How deeply arrays and objects may nest in JSON that closingbell reads: far more than any
state, record or message needs, and far less than what exhausts Python's recursion."""

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"?')
"""A JSON string (removed whole, so brackets inside it do not count). The pattern never
backtracks, and an unterminated string runs to the end of the text, so a scan is linear
whatever the input."""
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JSONDepthError(ValueError):
    """JSON text nested more deeply than allowed (refused before it is parsed)."""


class InvalidJSON(ValueError):
    """Text that :func:`load_json` refuses, with its reason as the message."""


def check_json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise :class:`JSONDepthError` if arrays and objects in ``text`` nest deeper than ``limit``.

    The text is scanned without recursion, so a hostile input of thousands of brackets
    costs a linear scan instead of a ``RecursionError`` from the parser.
    """
    brackets = _NOT_BRACKETS.sub("", _JSON_STRING.sub("", text))
    # The deepest point is the largest running sum of +1 per opening, -1 per closing.
    if len(brackets) > limit and max(accumulate(map(_DEPTH_STEP.__getitem__, brackets))) > limit:
        raise JSONDepthError(f"arrays and objects nest deeper than {limit} levels")


def load_json(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text whose nesting is at most ``limit`` deep; ``ValueError`` otherwise.

    Refuses the constants ``NaN`` and ``Infinity``, which are not JSON.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    check_json_depth(text, limit)
    return json.loads(text, parse_constant=_refuse_constant)


def read_json(
    text: str | bytes,
    read: Callable[[Any], T],
    depth: Callable[[Any], int | None],
    limit: int = MAX_JSON_DEPTH,
) -> T:
    """``read(load_json(text, limit))``, without scanning valid text for its depth.

    Scanning a long text for its depth costs more than parsing it, and a value that
    ``read`` accepts is usually shallow by construction: ``depth(value)``, asked once
    ``read`` has accepted ``value``, bounds how deeply it nests (``None``: no bound is
    known). So the text is parsed and read first, and scanned only when the parse or
    ``read`` fails, or the bound is missing or above ``limit``: a text nested too deeply
    is still refused for its depth before anything else, as :func:`load_json` refuses it.
    What :func:`load_json` would refuse is raised as :class:`InvalidJSON`; what ``read``
    raises is raised as it is.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidJSON(str(exc)) from None
    if not isinstance(text, str):
        _scan_depth(text, limit)  # refuses what is not text, as load_json does
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except (TypeError, ValueError, RecursionError) as exc:
        _scan_depth(text, limit)
        if isinstance(exc, RecursionError):
            raise
        raise InvalidJSON(str(exc)) from None
    try:
        result = read(value)
    except Exception:
        _scan_depth(text, limit)
        raise
    bound = depth(value)
    if bound is None or bound > limit:
        _scan_depth(text, limit)
    return result


def _scan_depth(text: Any, limit: int) -> None:
    """:func:`check_json_depth`, its errors raised as :class:`InvalidJSON`."""
    try:
        check_json_depth(text, limit)
    except (TypeError, ValueError) as exc:
        raise InvalidJSON(str(exc)) from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def nesting(value: Any) -> int:
    """How deeply lists, tuples and dicts nest in ``value`` (0 for a number or a string)."""
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, (list, tuple)):
        return 0
    inner = [v for v in value if isinstance(v, (list, tuple, dict))]
    return 1 + max(map(nesting, inner), default=0)
