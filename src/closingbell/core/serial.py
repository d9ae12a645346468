"""Helpers for reading serialized states back: header checks and JSON shapes.

A game declares the JSON shape of every field of its state (``"seed"``, ``"int"``,
``"int or null"``, ``"str or null"``, ``"bool"``, ``"list of int"``, ``"list of bool"``,
``"list of str"``, ``"list of list of int"`` or ``"list"``) and lets :func:`check_fields`
refuse anything else with a message naming the field, before any of it reaches the engine.
Every integer but the seed must lie within :data:`~closingbell.core.checks.MAX_INT` of 0.

A game also declares the type of every value of every kind of log entry with the small
checks below (:func:`ints`, :data:`SEAT`, :func:`one_of`, :func:`tuple_of` ...), so that
:func:`read_log` refuses an entry of an unknown kind or with values of the wrong type.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from closingbell.core.checks import MAX_INT, shown
from closingbell.core.errors import RulesVersionError, StateFormatError
from closingbell.core.events import Entry
from closingbell.core.rng import SEED_BITS

if TYPE_CHECKING:
    from closingbell.core.game import Game


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


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


def fits(value: Any, shape: str) -> bool:
    """Whether a JSON value has ``shape`` (integers within ``MAX_INT`` of 0, seeds aside)."""
    if shape == "seed":
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**SEED_BITS
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


_SHAPE_WORDS = {
    "seed": f"an integer from 0 to 2**{SEED_BITS} - 1",
    "int": f"an integer from -{MAX_INT} to {MAX_INT}",
    "int or null": f"null or an integer from -{MAX_INT} to {MAX_INT}",
    "list of int": f"a list of integers from -{MAX_INT} to {MAX_INT}",
    "list of list of int": f"a list of lists of integers from -{MAX_INT} to {MAX_INT}",
}


def check_header(data: Any, game: Game, fmt: str) -> dict[str, Any]:
    """Check a serialized state's format name, version and options against ``game``.

    A state saved under an older rules version that is still read is accepted when the
    options it played by (``Game.options_for_version``) are ``game``'s options.
    """
    title = game.info.title
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise StateFormatError(f"not a {title} state (missing or wrong 'format')")
    version = data.get("version")
    options = data.get("options")
    if version != game.info.version or isinstance(version, bool):
        try:
            if not isinstance(options, dict):
                raise ValueError("'options' is not an object")
            played = type(game).for_version(version, options).options_dict()
        except RulesVersionError as exc:
            raise StateFormatError(f"the state cannot be read: {exc}") from None
        except (TypeError, ValueError):
            played = None
        if played != game.options_dict():
            raise StateFormatError(
                f"the state's options, under its rules version {shown(version)}, differ "
                "from this game's options"
            )
    elif options != game.options_dict():
        raise StateFormatError("the state's options differ from this game's options")
    return data


def copy_value(value: Any, shape: str) -> Any:
    """A copy of a JSON value of ``shape`` that shares no list with it."""
    if shape == "list of list of int":
        return [list(v) for v in value]
    if shape.startswith("list"):
        return json.loads(json.dumps(value)) if shape == "list" else list(value)
    return value


HEADER_KEYS = ("format", "version", "options", "from_deal")
"""The keys every serialized state holds besides its game's fields."""


def check_fields(data: Mapping[str, Any], shapes: Mapping[str, str], title: str) -> None:
    """Refuse ``data`` unless it holds every field of ``shapes`` with its shape, and no other."""
    for name in data:
        if name not in shapes and name not in HEADER_KEYS:
            raise StateFormatError(f"malformed {title} state: unknown key {shown(name)}")
    if not isinstance(data.get("from_deal"), bool):
        raise StateFormatError(f"malformed {title} state: 'from_deal' must be true or false")
    for name, shape in shapes.items():
        if name not in data:
            raise StateFormatError(f"malformed {title} state: {name!r} is missing")
        if not fits(data[name], shape):
            raise StateFormatError(
                f"malformed {title} state: {name!r} must be {_SHAPE_WORDS.get(shape, shape)}, "
                f"not {shown(data[name])}"
            )


def _tuplify(values: list[Any]) -> tuple[Any, ...]:
    """JSON lists become tuples again at every depth (log forms are tuples)."""
    return tuple(_tuplify(v) if type(v) is list else v for v in values)


# ---------------------------------------------------------------------- log values

ValueCheck = Callable[[Any, int], bool]
"""Whether a value of a log entry has the right type: ``check(value, players)``."""


def ints(low: int, high: int) -> ValueCheck:
    """An integer from ``low`` to ``high``."""

    def check(value: Any, players: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    return check


def _seat(value: Any, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


SEAT: ValueCheck = _seat
"""A seat of the table."""

NUMBER: ValueCheck = ints(-MAX_INT, MAX_INT)
"""Any integer a state may hold."""


def _boolean(value: Any, players: int) -> bool:
    return isinstance(value, bool)


BOOL: ValueCheck = _boolean
"""``True`` or ``False``."""


def one_of(*choices: object) -> ValueCheck:
    """Exactly one of ``choices``, of the same type (``1`` is not ``True``)."""

    def check(value: Any, players: int) -> bool:
        return any(type(value) is type(c) and value == c for c in choices)

    return check


def optional(inner: ValueCheck) -> ValueCheck:
    """``None`` (a redacted value) or a value ``inner`` accepts."""

    def check(value: Any, players: int) -> bool:
        return value is None or inner(value, players)

    return check


def tuple_of(
    item: ValueCheck, low: int = 0, high: int | None = None, per_seat: bool = False
) -> ValueCheck:
    """A list of ``low`` to ``high`` values ``item`` accepts (one per seat if ``per_seat``)."""

    def check(value: Any, players: int) -> bool:
        if not isinstance(value, (list, tuple)):
            return False
        if per_seat:
            if len(value) != players:
                return False
        elif len(value) < low or (high is not None and len(value) > high):
            return False
        return all(item(v, players) for v in value)

    return check


def _check_form(
    form: Any,
    fields: Mapping[str, Sequence[str]],
    values: Mapping[str, Sequence[ValueCheck]],
    players: int,
) -> str | None:
    """Why a log form is malformed, or ``None`` when it is well formed."""
    if not isinstance(form, list) or not form or not isinstance(form[0], str):
        return "is not a list starting with its kind"
    kind = form[0]
    if kind not in fields:
        return f"has the unknown kind {shown(kind)}"
    names = fields[kind]
    if len(form) != len(names) + 1:
        return f"({kind}) must hold {len(names)} values, not {len(form) - 1}"
    for name, check, value in zip(names, values[kind], form[1:], strict=True):
        if not check(value, players):
            return f"({kind}) has {shown(value)} for {name!r}"
    return None


def _check_redaction(full: list[Any], redacted: list[Any], names: Sequence[str]) -> str | None:
    """Why a redacted form does more than put ``null`` for values of ``full``, or ``None``."""
    for name, value, hidden in zip(names, full[1:], redacted[1:], strict=True):
        # Compared as JSON text, so that 1 and true differ.
        if hidden is not None and json.dumps(hidden) != json.dumps(value):
            return (
                f"has a redacted form ({full[0]}) with {shown(hidden)} for {name!r}, "
                "which is neither the full form's value nor null"
            )
    return None


def read_log(
    data: Any,
    title: str,
    fields: Mapping[str, Sequence[str]],
    values: Mapping[str, Sequence[ValueCheck]],
    players: int,
) -> list[Entry]:
    """Read back a serialized event log, refusing malformed entries.

    Each entry is ``[seat or null, full form, redacted form or null]``; a form is
    ``[kind, *values]`` with a kind of ``fields`` and values that ``values`` accepts. Only
    a private entry (one with a seat) may have a redacted form: of the same kind, with each
    value the full form's own or ``null`` in its place, so that a field has one type
    whoever reads it.
    """
    log: list[Entry] = []
    for i, item in enumerate(data):
        if not isinstance(item, list) or len(item) != 3:
            raise StateFormatError(
                f"malformed {title} state: 'log' entry {i} is not [seat, form, redacted form]"
            )
        owner, full, redacted = item
        why = None
        if owner is not None and not _seat(owner, players):
            why = f"names {shown(owner)}, which is not a seat"
        if why is None:
            why = _check_form(full, fields, values, players)
        if why is None and redacted is not None:
            if owner is None:
                why = "is public but has a redacted form"
            else:
                why = _check_form(redacted, fields, values, players)
                if why is None and redacted[0] != full[0]:
                    why = "has a redacted form of another kind"
                elif why is not None:
                    why = "redacted " + why
                else:
                    why = _check_redaction(full, redacted, fields[full[0]])
        if why is not None:
            raise StateFormatError(f"malformed {title} state: 'log' entry {i} {why}")
        log.append((owner, _tuplify(full), None if redacted is None else _tuplify(redacted)))
    return log


def header(game: Game, fmt: str) -> dict[str, Any]:
    """The first keys of a serialized state: format name, game version and options."""
    return {"format": fmt, "version": game.info.version, "options": game.options_dict()}
