"""The checks of log values and field shapes, and the fast code compiled from them.

Each check made by ``core.serial`` is also written as Python code for the log reader. For
values as ``json.loads`` makes them the code must say exactly what the check says; for
other values (tuples, subclasses of int) it may only refuse more, the check then deciding.
"""

from __future__ import annotations

import enum
import itertools
import json
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import closingbell
from closingbell import StateFormatError
from closingbell.core import serial
from closingbell.core.checks import MAX_INT

CHECKS: dict[str, serial.ValueCheck] = {
    "ints": serial.ints(-3, 7),
    "seat": serial.SEAT,
    "number": serial.NUMBER,
    "bool": serial.BOOL,
    "one_of": serial.one_of("A", 1, True, None),
    "one_of_none": serial.one_of(),
    "one_of_float": serial.one_of(1.5, "x"),
    "optional": serial.optional(serial.ints(0, 5)),
    "tuple_of": serial.tuple_of(serial.ints(0, 9), 1, 3),
    "tuple_of_unbounded": serial.tuple_of(serial.BOOL, 2),
    "per_seat": serial.tuple_of(serial.SEAT, per_seat=True),
    "nested": serial.tuple_of(serial.tuple_of(serial.ints(0, 59)), per_seat=True),
    "optional_tuple": serial.optional(serial.tuple_of(serial.one_of("A", "B"), 0, 2)),
    "own": lambda value, players: isinstance(value, str) and len(value) == players,
}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-12, 12)
    | st.sampled_from([MAX_INT, MAX_INT + 1, -MAX_INT - 1, 2**70])
    | st.floats(allow_nan=False)
    | st.sampled_from(["A", "B", "x", "", "abc"]),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=10,
)


def compiled(check: serial.ValueCheck) -> Any:
    source = serial._Source()
    test = source.test(check, "value")
    return source.function("fast", ["def fast(value, players):", f"    return {test}"])


@pytest.mark.parametrize("name", sorted(CHECKS))
@given(value=json_values, players=st.integers(2, 6))
def test_the_compiled_code_of_a_check_agrees_on_json_values(
    name: str, value: object, players: int
) -> None:
    check = CHECKS[name]
    assert json.loads(json.dumps(value)) == value
    assert bool(compiled(check)(value, players)) == check(value, players)


class Small(enum.IntEnum):
    TWO = 2


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_on_other_values_the_compiled_code_refuses_no_less(name: str) -> None:
    check = CHECKS[name]
    fast = compiled(check)
    others = [(1, 2), (Small.TWO,), Small.TWO, ((1,), (2,)), [(0,), (1,)], ("A",), 2.0]
    for value, players in itertools.product(others, (2, 3)):
        if fast(value, players):
            assert check(value, players), value


def test_the_games_logs_are_checked_by_checks_made_here() -> None:
    for name in closingbell.available_games():
        schema = serial.schema_of(closingbell.load_game(name, players=2).state_class)
        assert schema.typed and schema.log.depth is not None


def test_depths_are_known_for_the_checks_made_here() -> None:
    assert serial.check_depth(CHECKS["ints"]) == 0
    assert serial.check_depth(CHECKS["optional"]) == 0
    assert serial.check_depth(CHECKS["tuple_of"]) == 1
    assert serial.check_depth(CHECKS["nested"]) == 2
    assert serial.check_depth(CHECKS["optional_tuple"]) == 1
    assert serial.check_depth(CHECKS["own"]) is None
    assert serial.check_depth(CHECKS["one_of_float"]) is None
    assert serial.check_depth(serial.tuple_of(CHECKS["own"])) is None
    assert serial.check_depth(serial.optional(CHECKS["own"])) is None


def described(spec: Any, value: object, players: int) -> bool:
    """What a description of ``serial.describe`` says of ``value``, read word for word."""
    kind = spec[0]
    if kind == "int":
        return type(value) is int and spec[1] <= value <= spec[2]
    if kind == "seat":
        return type(value) is int and 0 <= value < players
    if kind == "bool":
        return type(value) is bool
    if kind == "one_of":
        return any(type(value) is type(c) and value == c for c in spec[1])
    if kind == "optional":
        return value is None or described(spec[1], value, players)
    assert kind == "list"
    _, item, low, high, per_seat = spec
    if type(value) is not list:
        return False
    if per_seat:
        size_ok = len(value) == players
    else:
        size_ok = low <= len(value) and (high is None or len(value) <= high)
    return size_ok and all(described(item, v, players) for v in value)


@pytest.mark.parametrize("name", sorted(set(CHECKS) - {"own", "one_of_float"}))
@given(value=json_values, players=st.integers(2, 6))
def test_a_description_says_what_its_check_accepts(name: str, value: object, players: int) -> None:
    spec = serial.describe(CHECKS[name])
    assert spec is not None
    assert described(spec, value, players) == CHECKS[name](value, players)


def test_what_is_described() -> None:
    assert serial.describe(CHECKS["ints"]) == ("int", -3, 7)
    assert serial.describe(serial.SEAT) == ("seat",)
    assert serial.describe(CHECKS["optional_tuple"]) == (
        "optional",
        ("list", ("one_of", ("A", "B")), 0, 2, False),
    )
    assert serial.describe(CHECKS["per_seat"]) == ("list", ("seat",), 0, None, True)
    # A check of a game's own, and those made of one, are not described.
    for name in ("own", "one_of_float"):
        assert serial.describe(CHECKS[name]) is None
    assert serial.describe(serial.tuple_of(CHECKS["own"])) is None
    assert serial.describe(serial.optional(CHECKS["one_of_float"])) is None
    for name in closingbell.available_games():
        cls = closingbell.load_game(name, players=2).state_class
        for checks in cls.EVENT_VALUES.values():
            assert all(serial.describe(check) is not None for check in checks)


class Toy:
    """A state class's declarations, with a log value checked by a function of its own."""

    FORMAT = "toy"
    SHAPES: ClassVar[dict[str, str]] = {"count": "int", "log": "list"}
    EVENT_FIELDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "say": ("seat", "words"),
        "pair": ("cards",),
    }
    EVENT_VALUES: ClassVar[dict[str, tuple[serial.ValueCheck, ...]]] = {
        "say": (serial.SEAT, lambda value, players: True),
        "pair": (serial.tuple_of(serial.ints(0, 9), 2, 2),),
    }


def test_a_log_checked_by_a_function_of_the_games_own() -> None:
    schema = serial.StateSchema(Toy)  # type: ignore[arg-type]
    assert schema.log.depth is None  # its values may nest at any depth
    assert not schema.typed  # nor is it known which types it lets through
    deep = json.loads("[" * 70 + "]" * 70)
    log = [
        [None, ["say", 1, deep], None],
        [1, ["say", 1, "hi"], ["say", 1, None]],
        [None, ["pair", [3, 4]], None],
    ]
    assert schema.log.read(log, "Toy", 2) == [
        (None, ("say", 1, serial._tuplify(deep)), None),
        (1, ("say", 1, "hi"), ("say", 1, None)),
        (None, ("pair", (3, 4)), None),
    ]
    assert schema.depth({"options": {}}) is None
    # The same as the plain reader, entry for entry, refusals included.
    for bad in (
        [[None, ["pair", [3]], None]],
        [[0, ["say", 2, 1], None]],
        [[0, ["say", 1]]],
        [[1, ["pair", [3, 4]], ["pair", None]]],
        [[1, ["say", 1, [1]], ["say", 1, [2]]]],
    ):
        with pytest.raises(StateFormatError) as fast:
            schema.log.read(bad, "Toy", 2)
        with pytest.raises(StateFormatError) as plain:
            serial.read_log(bad, "Toy", Toy.EVENT_FIELDS, Toy.EVENT_VALUES, 2)
        assert str(fast.value) == str(plain.value)


@pytest.mark.parametrize("shape", sorted(serial._FITS))
@given(value=json_values)
def test_fields_checked_together_or_alone_fit_alike(shape: str, value: object) -> None:
    together = serial._FITS_ALL.get(shape)
    alone = serial._FITS[shape][0]
    assert alone(value) == serial.fits(value, shape)
    if together is not None:
        assert together([value, value]) == alone(value)
        assert together([]) is True
