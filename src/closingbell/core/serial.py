"""Helpers for writing and reading states as JSON: field shapes, log checks, codecs.

A game declares the JSON shape of every field of its state (``"seed"``, ``"int"``,
``"int or null"``, ``"str or null"``, ``"bool"``, ``"list of int"``, ``"list of bool"``,
``"list of str"``, ``"list of list of int"`` or ``"list"``) and lets :func:`check_fields`
refuse anything else with a message naming the field, before any of it reaches the engine.
Every integer but the seed must lie within :data:`~closingbell.core.checks.MAX_INT` of 0.

A game also declares the type of every value of every kind of log entry with the small
checks below (:func:`ints`, :data:`SEAT`, :func:`one_of`, :func:`tuple_of` ...), so that
:func:`read_log` refuses an entry of an unknown kind or with values of the wrong type.

Reading thousands of log entries is the dear part of reading a state, so each state class
gets a :class:`StateSchema` made once (:func:`schema_of`): a checker per field, and for
each kind of log entry one small function compiled from the kind's checks that accepts a
well-formed entry at once. Whatever those fast checks do not accept is handed to the
plain checks above, which decide and say why; so both ways refuse exactly the same data
with the same message.

A compiled writer and reader of a game's states can take the place of this code for that
game (:func:`register_codec`): :func:`state_json` and ``Game.state_from_json`` ask it
first, and it hands back to the code here whatever it does not accept.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, ClassVar, Protocol, TypeVar

from closingbell.core.checks import MAX_INT, shown
from closingbell.core.errors import StateFormatError
from closingbell.core.events import Entry
from closingbell.core.info import GameInfo
from closingbell.core.jsontext import nesting
from closingbell.core.rng import SEED_BITS

# ---------------------------------------------------------------------- field shapes


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


_ONLY_INT = frozenset({int})
_ONLY_BOOL = frozenset({bool})
_ONLY_STR = frozenset({str})
_ONLY_LIST = frozenset({list})


def _all_ints(values: Sequence[Any]) -> bool:
    """Whether every item of ``values`` is an integer within ``MAX_INT`` of 0."""
    if _ONLY_INT.issuperset(map(type, values)):  # plain ints, as JSON gives them: at C speed
        return not values or (min(values) >= -MAX_INT and max(values) <= MAX_INT)
    return all(map(_is_int, values))


def _fits_seed(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**SEED_BITS


def _fits_int_or_null(value: Any) -> bool:
    return value is None or _is_int(value)


def _fits_str_or_null(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _fits_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _fits_int_list(value: Any) -> bool:
    return isinstance(value, list) and _all_ints(value)


def _fits_bool_list(value: Any) -> bool:
    return isinstance(value, list) and _ONLY_BOOL.issuperset(map(type, value))


def _fits_str_list(value: Any) -> bool:
    if not isinstance(value, list):
        return False
    return _ONLY_STR.issuperset(map(type, value)) or all(isinstance(v, str) for v in value)


def _fits_int_lists(value: Any) -> bool:
    if not isinstance(value, list):
        return False
    if _ONLY_LIST.issuperset(map(type, value)):
        return _all_ints(list(chain.from_iterable(value)))
    return all(isinstance(v, list) and _all_ints(v) for v in value)


def _fits_list(value: Any) -> bool:
    return isinstance(value, list)


_FITS: dict[str, tuple[Callable[[Any], bool], int | None]] = {
    "seed": (_fits_seed, 0),
    "int": (_is_int, 0),
    "bool": (_fits_bool, 0),
    "int or null": (_fits_int_or_null, 0),
    "str or null": (_fits_str_or_null, 0),
    "list of int": (_fits_int_list, 1),
    "list of bool": (_fits_bool_list, 1),
    "list of str": (_fits_str_list, 1),
    "list of list of int": (_fits_int_lists, 2),
    "list": (_fits_list, None),
}
"""Each shape's check, and how deeply the lists of a value of that shape nest (``None``:
any depth)."""


def _all_int_lists(values: Sequence[Any]) -> bool:
    return _ONLY_LIST.issuperset(map(type, values)) and _all_ints(list(chain.from_iterable(values)))


def _all_int_list_lists(values: Sequence[Any]) -> bool:
    return _ONLY_LIST.issuperset(map(type, values)) and _all_int_lists(
        list(chain.from_iterable(values))
    )


def _all_bool_lists(values: Sequence[Any]) -> bool:
    return _ONLY_LIST.issuperset(map(type, values)) and _ONLY_BOOL.issuperset(
        map(type, chain.from_iterable(values))
    )


_FITS_ALL: dict[str, Callable[[Sequence[Any]], bool]] = {
    "int": _all_ints,
    "bool": lambda values: _ONLY_BOOL.issuperset(map(type, values)),
    "list of int": _all_int_lists,
    "list of bool": _all_bool_lists,
    "list of list of int": _all_int_list_lists,
}
"""Checks of several values of one shape at once, for the shapes that most fields have.
Each is true only if every value has the shape (and the values are JSON's plain lists and
ints): a false one sends the values to their checks one by one."""


def fits(value: Any, shape: str) -> bool:
    """Whether a JSON value has ``shape`` (integers within ``MAX_INT`` of 0, seeds aside)."""
    known = _FITS.get(shape)
    if known is not None:
        return known[0](value)
    if not isinstance(value, list):
        return False
    raise ValueError(f"unknown shape {shape!r}")


_SHAPE_WORDS = {
    "seed": f"an integer from 0 to 2**{SEED_BITS} - 1",
    "int": f"an integer from -{MAX_INT} to {MAX_INT}",
    "int or null": f"null or an integer from -{MAX_INT} to {MAX_INT}",
    "list of int": f"a list of integers from -{MAX_INT} to {MAX_INT}",
    "list of list of int": f"a list of lists of integers from -{MAX_INT} to {MAX_INT}",
}


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
    _check_marker(data, title)
    for name, shape in shapes.items():
        if name not in data:
            raise StateFormatError(f"malformed {title} state: {name!r} is missing")
        if not fits(data[name], shape):
            raise _misshapen(data, name, shape, title)


def _check_marker(data: Mapping[str, Any], title: str) -> None:
    if not isinstance(data.get("from_deal"), bool):
        raise StateFormatError(f"malformed {title} state: 'from_deal' must be true or false")


def _misshapen(data: Mapping[str, Any], name: str, shape: str, title: str) -> StateFormatError:
    return StateFormatError(
        f"malformed {title} state: {name!r} must be {_SHAPE_WORDS.get(shape, shape)}, "
        f"not {shown(data[name])}"
    )


def _tuplify(values: list[Any]) -> tuple[Any, ...]:
    """JSON lists become tuples again at every depth (log forms are tuples)."""
    return tuple(_tuplify(v) if type(v) is list else v for v in values)


# ---------------------------------------------------------------------- log values

ValueCheck = Callable[[Any, int], bool]
"""Whether a value of a log entry has the right type: ``check(value, players)``."""


@dataclass(frozen=True)
class _Code:
    """How a check made below is written as Python code (see :class:`_Source`)."""

    write: Callable[[_Source, str], str]
    """Writes the check as an expression over the variable it is given."""
    depth: int | None
    """How deeply lists nest in the values the check accepts (``None``: any depth)."""
    bounds: tuple[str, str] | None = None
    """For a check of integers from a low to a high bound, the bounds as expressions:
    a list of such integers is then checked at once with ``min`` and ``max``."""
    spec: tuple[Any, ...] | None = None
    """What the check accepts, as :func:`describe` gives it (``None``: not described)."""


_CODE: weakref.WeakKeyDictionary[ValueCheck, _Code] = weakref.WeakKeyDictionary()
"""How each check made below is written as code. A check of a game's own has no entry:
compiled code calls it."""


def _written(check: ValueCheck, code: _Code) -> ValueCheck:
    """Record how ``check`` is written as code; return ``check``."""
    _CODE[check] = code
    return check


def check_depth(check: ValueCheck) -> int | None:
    """How deeply lists nest in the values ``check`` accepts (``None``: it is not known)."""
    code = _CODE.get(check)
    return None if code is None else code.depth


def describe(check: ValueCheck) -> tuple[Any, ...] | None:
    """What a check made in this module accepts, as data; ``None`` for any other check.

    The description is one of ``("int", low, high)``, ``("seat",)`` (an integer from 0 to
    the number of seats less one), ``("bool",)``, ``("one_of", choices)``,
    ``("optional", inner)`` (``None`` or what ``inner`` describes) and
    ``("list", item, low, high, per_seat)`` (``low`` to ``high`` items, ``high`` ``None``
    for no bound, or exactly one per seat if ``per_seat``), where ``inner`` and ``item`` are
    descriptions too. Compiled readers of logs are built from it, to accept exactly what
    the checks accept.
    """
    code = _CODE.get(check)
    return None if code is None else code.spec


def _integers(check: ValueCheck, low: str, high: str, spec: tuple[Any, ...]) -> ValueCheck:
    """``check``, of integers from ``low`` to ``high`` (both written as code)."""
    return _written(
        check,
        _Code(lambda _, v: f"(type({v}) is int and {low} <= {v} <= {high})", 0, (low, high), spec),
    )


def ints(low: int, high: int) -> ValueCheck:
    """An integer from ``low`` to ``high``."""

    def check(value: Any, players: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    return _integers(check, str(low), str(high), ("int", low, high))


def _seat(value: Any, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


SEAT: ValueCheck = _integers(_seat, "0", "players - 1", ("seat",))
"""A seat of the table."""

NUMBER: ValueCheck = ints(-MAX_INT, MAX_INT)
"""Any integer a state may hold."""


def _boolean(value: Any, players: int) -> bool:
    return isinstance(value, bool)


BOOL: ValueCheck = _written(_boolean, _Code(lambda _, v: f"(type({v}) is bool)", 0, spec=("bool",)))
"""``True`` or ``False``."""

_CHOICE_TYPES = (int, str, bool, type(None))
"""The types of choice that :func:`one_of` writes as code (others are called)."""


def one_of(*choices: object) -> ValueCheck:
    """Exactly one of ``choices``, of the same type (``1`` is not ``True``)."""

    def check(value: Any, players: int) -> bool:
        return any(type(value) is type(c) and value == c for c in choices)

    if not all(type(c) in _CHOICE_TYPES for c in choices):
        return check
    by_type: dict[type, frozenset[object]] = {}
    for choice in choices:
        by_type[type(choice)] = by_type.get(type(choice), frozenset()) | {choice}

    def write(source: _Source, v: str) -> str:
        tests = [
            f"(type({v}) is {source.constant(kind)} and {v} in {source.constant(values)})"
            for kind, values in by_type.items()
        ]
        return f"({' or '.join(tests) or 'False'})"

    return _written(check, _Code(write, 0, spec=("one_of", choices)))


def optional(inner: ValueCheck) -> ValueCheck:
    """``None`` (a redacted value) or a value ``inner`` accepts."""

    def check(value: Any, players: int) -> bool:
        return value is None or inner(value, players)

    def write(source: _Source, v: str) -> str:
        return f"({v} is None or {source.test(inner, v)})"

    inner_spec = describe(inner)
    spec = None if inner_spec is None else ("optional", inner_spec)
    return _written(check, _Code(write, check_depth(inner), spec=spec))


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

    def write(source: _Source, v: str) -> str:
        if per_seat:
            size = f"len({v}) == players"
        else:
            size = f"{low} <= len({v})" + ("" if high is None else f" <= {high}")
        code = _CODE.get(item)
        if code is not None and code.bounds is not None:
            # Plain ints only, then the smallest and the largest: each a pass in C.
            least, most = code.bounds
            items = (
                f"{source.constant(_ONLY_INT)}.issuperset(map(type, {v})) and "
                f"(not {v} or ({least} <= min({v}) and max({v}) <= {most}))"
            )
        else:
            x = source.variable()
            items = f"all({source.test(item, x)} for {x} in {v})"
        return f"(type({v}) is list and {size} and {items})"

    inner = check_depth(item)
    item_spec = describe(item)
    spec = None if item_spec is None else ("list", item_spec, low, high, per_seat)
    return _written(check, _Code(write, None if inner is None else inner + 1, spec=spec))


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


# ---------------------------------------------------------------------- compiled checks

_SAME_JSON_TYPES = frozenset({int, str, bool})
"""Types whose equal values have equal JSON text (unlike floats, where 0.0 == -0.0)."""


class _Source:
    """The Python source of one compiled function, and the constants it refers to."""

    def __init__(self) -> None:
        self.constants: dict[str, object] = {"_tuplify": _tuplify, "_SAME": _SAME_JSON_TYPES}
        self._variables = 0

    def constant(self, value: object) -> str:
        """A name under which the compiled code reads ``value``."""
        name = f"_k{len(self.constants)}"
        self.constants[name] = value
        return name

    def variable(self) -> str:
        """A fresh variable name (for the items of a list)."""
        self._variables += 1
        return f"_x{self._variables}"

    def test(self, check: ValueCheck, v: str) -> str:
        """An expression true when ``check`` accepts the value of ``v``.

        It is true exactly when ``check`` is for values as ``json.loads`` makes them; for
        other values (tuples, subclasses of int) it may be false where ``check`` is true,
        and the caller then asks ``check`` itself.
        """
        code = _CODE.get(check)
        if code is None:
            return f"{self.constant(check)}({v}, players)"
        return code.write(self, v)

    def function(self, name: str, lines: Iterable[str]) -> Callable[..., Any]:
        """Compile the function ``name`` whose source is ``lines``."""
        namespace = dict(self.constants)
        exec("\n".join(lines), namespace)
        function: Callable[..., Any] = namespace[name]  # type: ignore[assignment]
        return function


_EntryReader = Callable[[Any, list[Any], Any, int], "Entry | None"]


def _compile_kind(checks: Sequence[ValueCheck]) -> _EntryReader:
    """The fast reader of the log entries of one kind, whose values ``checks`` check.

    ``entry(owner, full, redacted, players)``, given an entry whose ``owner`` is a seat or
    ``None`` and whose ``full`` form is a list that starts with the kind, is the entry as
    :func:`read_log` reads it if the entry is well formed: a full form of the right size
    and values, and a redacted form only for a private entry, of the same kind and size,
    with each value ``None`` or the full form's own (and such that the kind's checks
    accept it). For anything else it is ``None``, and the plain checks decide.
    """
    source = _Source()
    tests, redactions = [], []
    full_items: list[str] = []
    redacted_items: list[str] = []
    for i, check in enumerate(checks):
        v, w = f"v{i}", f"w{i}"
        tests.append(source.test(check, w))
        # A redacted value is a null the check accepts, or the full form's own value: an
        # equal one of a type whose equal values write the same JSON (the check accepts
        # it as it accepted the full form's).
        redactions.append(
            f"(({v} is None and {source.test(check, v)}) or "
            f"(type({v}) in _SAME and type({v}) is type({w}) and {v} == {w}))"
        )
        full_items.append(_as_tuple(w, check_depth(check)))
        redacted_items.append(_as_tuple(v, check_depth(check)))
    full = f"(k, {''.join(f'{x}, ' for x in full_items)})"
    redacted = f"(k, {''.join(f'{x}, ' for x in redacted_items)})"
    size = len(checks) + 1
    return source.function(
        "entry",
        [
            "def entry(owner, f, r, players):",
            f"    if len(f) != {size}:",
            "        return None",
            f"    k, {''.join(f'w{i}, ' for i in range(len(checks)))}= f",
            f"    if not ({' and '.join(tests) or 'True'}):",
            "        return None",
            "    if r is None:",
            f"        return (owner, {full}, None)",
            f"    if owner is None or type(r) is not list or len(r) != {size}:",
            "        return None",
            "    if type(r[0]) is not str or r[0] != k:",
            "        return None",
            f"    _, {''.join(f'v{i}, ' for i in range(len(checks)))}= r",
            f"    if {' and '.join(redactions) or 'True'}:",
            f"        return (owner, {full}, {redacted})",
            "    return None",
        ],
    )


def _as_tuple(v: str, depth: int | None) -> str:
    """An expression turning the value of ``v`` into its log form: lists become tuples."""
    if depth == 0:
        return v
    convert = "tuple" if depth == 1 else "_tuplify"
    return f"({convert}({v}) if type({v}) is list else {v})"


def _deepest(depths: Iterable[int | None], around: int) -> int | None:
    """``around`` levels more than the deepest of ``depths``; ``None`` if one is unknown."""
    known = list(depths)
    if None in known:
        return None
    return around + max((d for d in known if d is not None), default=0)


class LogSchema:
    """The log checks of one state class, compiled once: :meth:`read` is :func:`read_log`."""

    def __init__(
        self, fields: Mapping[str, Sequence[str]], values: Mapping[str, Sequence[ValueCheck]]
    ) -> None:
        self.fields = fields
        """The field names of each kind of entry."""
        self.values = values
        """The checks of the values of each kind of entry."""
        self._kinds = {kind: _compile_kind(values[kind]) for kind in fields}
        self.depth = _deepest((check_depth(c) for kind in fields for c in values[kind]), 3)
        """How deeply lists nest in a log this schema accepts (the log, an entry, a form and
        the values), or ``None`` if a check of the game's own leaves it open."""
        self.typed = self.depth is not None
        """Whether every check is made in this module all the way down (exactly when the
        depth is known), each of them letting through only the JSON types it names (never
        a boolean or a float for an integer): then equal values of accepted logs are equal
        JSON."""

    def read(self, data: list[Any], title: str, players: int) -> list[Entry]:
        """:func:`read_log` of ``data``: the same entries, or the same refusal."""
        log = self._read_well_formed(data, players)
        if log is None:
            return read_log(data, title, self.fields, self.values, players)
        return log

    def _read_well_formed(self, data: list[Any], players: int) -> list[Entry] | None:
        """The entries of ``data`` if the compiled checks accept every one, else ``None``."""
        kinds = self._kinds
        log: list[Entry] = []
        append = log.append
        try:
            for item in data:
                if type(item) is not list or len(item) != 3:
                    return None
                owner, full, redacted = item
                if owner is not None and (type(owner) is not int or not 0 <= owner < players):
                    return None
                # A form that is not a list, or whose kind is no string, is refused below,
                # or raises TypeError or IndexError here: either way the plain checks decide.
                read = kinds.get(full[0]) if type(full) is list and type(full[0]) is str else None
                entry = None if read is None else read(owner, full, redacted, players)
                if entry is None:
                    return None
                append(entry)
        except (TypeError, IndexError):
            return None
        return log


class Declared(Protocol):
    """What a state class declares about its JSON (every game's ``State`` class does)."""

    SHAPES: ClassVar[Mapping[str, str]]
    """The JSON shape of every serialized field."""
    EVENT_FIELDS: ClassVar[Mapping[str, Sequence[str]]]
    """The field names of each kind of log entry."""
    EVENT_VALUES: ClassVar[Mapping[str, Sequence[ValueCheck]]]
    """The type of each field of each kind of log entry."""


class Described(Protocol):
    """What :func:`state_json` asks of a state's game (every ``Game`` is one)."""

    @property
    def info(self) -> GameInfo:
        """The game's facts: its registered name and rules version."""

    @property
    def options_data(self) -> Mapping[str, Any]:
        """The game's options as JSON-ready data."""


class Stored(Declared, Protocol):
    """What :func:`state_json` asks of a state (every game's ``State`` is one)."""

    FORMAT: ClassVar[str]
    """The format name written into the state's JSON."""
    from_deal: bool
    """Whether the state's history runs from the deal of its seed."""

    @property
    def game(self) -> Described:
        """The game the state belongs to."""


class StateSchema:
    """What a state class declares about its JSON, prepared once (see :func:`schema_of`)."""

    def __init__(self, state_class: type[Declared]) -> None:
        shapes = state_class.SHAPES
        for shape in shapes.values():
            if shape not in _FITS:
                raise ValueError(f"unknown shape {shape!r}")
        self.shapes = shapes
        """The shape of every field, as the class declares them."""
        self.names: tuple[str, ...] = tuple(shapes)
        """The fields, in the class's order (the order of the checks and their messages)."""
        self.values_of: Callable[[object], tuple[Any, ...]] = _getter(self.names)
        """The values of every field of a state, in the order of :attr:`names`."""
        self.log = LogSchema(state_class.EVENT_FIELDS, state_class.EVENT_VALUES)
        """The checks of the log."""
        self._fits = [(name, _FITS[shape][0], shape) for name, shape in shapes.items()]
        by_shape: dict[str, list[str]] = {}
        for name, shape in shapes.items():
            by_shape.setdefault(shape, []).append(name)
        self._groups = [
            (_items(names), _FITS_ALL.get(shape) or _fit_each(_FITS[shape][0]))
            for shape, names in by_shape.items()
        ]
        self._keys = frozenset((*HEADER_KEYS, *shapes))
        self.typed = self.log.typed
        """Whether values accepted for the fields, equal as Python values, are equal JSON
        (the shapes' checks let through only the JSON types they name, and so do the log's
        if :attr:`LogSchema.typed`)."""
        self._depth = _deepest(
            (
                self.log.depth if name == "log" else _FITS[shape][1]
                for name, shape in shapes.items()
            ),
            1,
        )

    def check_fields(self, data: Mapping[str, Any], title: str) -> None:
        """:func:`check_fields` against this class's shapes: the same refusals."""
        if data.keys() != self._keys:  # an unknown or a missing key: the full check says which
            check_fields(data, self.shapes, title)
            return
        _check_marker(data, title)
        if all(fit(values(data)) for values, fit in self._groups):
            return
        for name, fit, shape in self._fits:  # one is misshapen: the first in order is named
            if not fit(data[name]):
                raise _misshapen(data, name, shape, title)

    def depth(self, data: Any) -> int | None:
        """How deeply a state's data that this schema accepted may nest (``None``: unknown)."""
        if self._depth is None:
            return None
        return max(self._depth, 1 + nesting(data.get("options")))

    def fill(self, state: object, data: Mapping[str, Any], copy: bool) -> None:
        """Set every field of ``state`` but the log from ``data`` (copies if ``copy``)."""
        for name, shape in self.shapes.items():
            if name != "log":
                value = data[name]
                setattr(state, name, copy_value(value, shape) if copy else value)


def _getter(names: Sequence[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the attributes ``names`` of an object as a tuple."""
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return attrgetter(*names)


def _items(names: Sequence[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the values of the keys ``names`` of a mapping as a tuple."""
    if len(names) == 1:
        name = names[0]
        return lambda data: (data[name],)
    return itemgetter(*names)


def _fit_each(fit: Callable[[Any], bool]) -> Callable[[Sequence[Any]], bool]:
    """A check of several values that ``fit`` checks one by one."""
    return lambda values: all(map(fit, values))


@cache
def schema_of(state_class: type[Declared]) -> StateSchema:
    """The schema of ``state_class``, made on first use."""
    return StateSchema(state_class)


# ---------------------------------------------------------------------- compiled codecs


G_contra = TypeVar("G_contra", contravariant=True)
S = TypeVar("S")


class Codec(Protocol[G_contra, S]):
    """A faster writer and reader of one game's states, plugged in by :func:`register_codec`.

    Both are held to the plain code here, which stays the specification: what a codec
    does not handle, or is not sure of, it leaves to that code by answering ``None``.
    A codec is registered for one game, by name, and is given that game's states only:
    it is typed over that game's classes (``G_contra`` and ``S``).
    """

    def write(self, state: S) -> str | None:
        """:func:`state_json` of ``state``, byte for byte, or ``None`` to leave it to it."""

    def read(self, game: G_contra, text: object) -> S | None:
        """What ``game.state_from_json(text)`` reads, or ``None`` to leave it to the plain code.

        A state returned must be the very state the plain code would read: of the game's
        state class, equal field for field with the same Python types, and sharing
        nothing. Any input it does not accept (refusals among them) it answers with
        ``None`` and never an error of its own, so that the plain code decides and words
        every refusal.
        """


_CODECS: dict[str, Codec[Any, Any]] = {}
"""The codec registered for each game that has one, by the game's registered name."""


def register_codec(game: str, codec: Codec[Any, Any]) -> None:
    """Write and read the states of the game named ``game`` with ``codec`` from now on.

    The place to register a compiled codec is ``closingbell.native``, when it is imported
    (this package never imports it), as for :func:`closingbell.core.replay.register`.
    """
    _CODECS[game] = codec


def unregister_codec(game: str) -> None:
    """Go back to the plain code for the states of the game named ``game``."""
    _CODECS.pop(game, None)


def registered_codec(game: str) -> Codec[Any, Any] | None:
    """The codec registered for the game named ``game``, or ``None`` (the plain code)."""
    return _CODECS.get(game)


_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), check_circular=False).encode
"""The JSON writer of states: sorted keys, no spaces. A state holds no cycle, so the
encoder need not look for one (which saves a third of its time)."""


def state_json(state: Stored) -> str:
    """The JSON text of ``state``: its header, ``from_deal`` and every field.

    The fields are written as they are, the state's own lists and the log's tuples
    alike, without a copy first.
    """
    game = state.game
    codec = _CODECS.get(game.info.name)
    if codec is not None:
        text = codec.write(state)
        if text is not None:
            return text
    data = {
        "format": state.FORMAT,
        "version": game.info.version,
        "options": game.options_data,
        "from_deal": state.from_deal,
    }
    schema = schema_of(type(state))
    data.update(zip(schema.names, schema.values_of(state), strict=True))
    return _ENCODE(data)


def fields_json(state: Stored) -> str:
    """The JSON text of the fields of ``state`` alone, as :func:`state_json` writes them."""
    schema = schema_of(type(state))
    return _ENCODE(dict(zip(schema.names, schema.values_of(state), strict=True)))
