"""Rules options as data: one frozen, validated, keyword-only object per game.

A game declares its options as a frozen dataclass deriving from :class:`RulesOptions`,
each field made with :func:`option`, which carries a one-line description and a check.
The checks run when the object is made, so an options object is always valid, and
unknown keys are refused with the closest known names.
"""

from __future__ import annotations

import abc
import dataclasses
import difflib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, TypeVar

from closingbell.core.errors import OptionError

T = TypeVar("T", bound="RulesOptions")

MAX_SEAT = 5
"""The highest seat number any game has (six players)."""

OptionKind = Literal["integer", "boolean", "choice", "int_tuple", "seat"]
"""The kinds of option values, as :meth:`Check.describe` names them."""


@dataclasses.dataclass(frozen=True)
class Check(abc.ABC):
    """The check of one option, and what it accepts as data.

    Called with the option's name and a value, it returns the value to keep (a sequence
    becomes a tuple) or raises :class:`OptionError` saying why. Its kind and bounds
    (:meth:`describe`) let a front end build a form for the option without knowing the
    game.
    """

    kind: ClassVar[OptionKind]
    """What kind of value the option takes."""

    @abc.abstractmethod
    def __call__(self, name: str, value: Any) -> Any:
        """Check ``value`` for the option ``name``; return the value to keep."""

    def describe(self) -> dict[str, Any]:
        """The check as JSON-ready data.

        ``kind``, ``nullable`` (whether ``None`` is allowed) and, by kind, the bounds or
        the values.
        """
        return {"kind": self.kind, "nullable": False}


@dataclasses.dataclass(frozen=True)
class Choice(Check):
    """Exactly one of ``values``."""

    kind: ClassVar[OptionKind] = "choice"
    values: tuple[object, ...]
    """The values allowed, in the order a front end offers them."""

    def __call__(self, name: str, value: Any) -> Any:
        """Check ``value`` for the option ``name``; return the value to keep."""
        if isinstance(value, bool) or value not in self.values:
            shown = ", ".join(repr(v) for v in self.values)
            raise OptionError(f"option {name!r} must be one of {shown}, not {value!r}")
        return value

    def describe(self) -> dict[str, Any]:
        """``kind``, ``nullable`` and ``values``."""
        return {"kind": self.kind, "nullable": False, "values": list(self.values)}


@dataclasses.dataclass(frozen=True)
class Boolean(Check):
    """``True`` or ``False``."""

    kind: ClassVar[OptionKind] = "boolean"

    def __call__(self, name: str, value: Any) -> Any:
        """Check ``value`` for the option ``name``; return the value to keep."""
        if not isinstance(value, bool):
            raise OptionError(f"option {name!r} must be true or false, not {value!r}")
        return value


@dataclasses.dataclass(frozen=True)
class Integer(Check):
    """An integer from ``low`` to ``high`` (and ``None`` if ``nullable``)."""

    kind: ClassVar[OptionKind] = "integer"
    low: int
    """The smallest value allowed."""
    high: int
    """The largest value allowed."""
    nullable: bool = False
    """Whether ``None`` is allowed too."""

    def __call__(self, name: str, value: Any) -> Any:
        """Check ``value`` for the option ``name``; return the value to keep."""
        if value is None and self.nullable:
            return None
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not self.low <= value <= self.high
        ):
            extra = " or null" if self.nullable else ""
            raise OptionError(
                f"option {name!r} must be an integer from {self.low} to {self.high}{extra}, "
                f"not {value!r}"
            )
        return value

    def describe(self) -> dict[str, Any]:
        """``kind``, ``min``, ``max`` and ``nullable``."""
        return {"kind": self.kind, "min": self.low, "max": self.high, "nullable": self.nullable}


@dataclasses.dataclass(frozen=True)
class Seat(Check):
    """A seat of the table, from 0 (and ``None`` if ``nullable``).

    The upper bound depends on the ``players`` option, so :class:`RulesOptions` checks it
    once all fields are known; this check only refuses what is never a seat.
    """

    kind: ClassVar[OptionKind] = "seat"
    nullable: bool = False
    """Whether ``None`` is allowed too."""

    def __call__(self, name: str, value: Any) -> Any:
        """Check ``value`` for the option ``name``; return the value to keep."""
        return Integer(0, MAX_SEAT, self.nullable)(name, value)

    def describe(self) -> dict[str, Any]:
        """``kind`` and ``nullable`` (the seats are those of the table)."""
        return {"kind": self.kind, "nullable": self.nullable}


@dataclasses.dataclass(frozen=True)
class IntTuple(Check):
    """A sequence of ``length`` integers, each from ``low`` to ``high``, or a preset's name.

    A preset is a named sequence (a game's alternative tables, say); its name is accepted
    as the value and kept as its numbers, so a stored option is always the numbers.
    """

    kind: ClassVar[OptionKind] = "int_tuple"
    length: int
    """How many integers."""
    low: int
    """The smallest value of each."""
    high: int
    """The largest value of each."""
    presets: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The named sequences accepted by name, in the order a front end offers them."""

    def __call__(self, name: str, value: Any) -> Any:
        """Check ``value`` for the option ``name``; return the value to keep."""
        if isinstance(value, str):
            for preset, numbers in self.presets:
                if value == preset:
                    return numbers
        ok = (
            isinstance(value, Sequence) and not isinstance(value, str) and len(value) == self.length
        )
        if ok:
            ok = all(
                isinstance(v, int) and not isinstance(v, bool) and self.low <= v <= self.high
                for v in value
            )
        if not ok:
            named = ", or one of " + ", ".join(repr(p) for p, _ in self.presets)
            raise OptionError(
                f"option {name!r} must be a list of {self.length} integers from {self.low} "
                f"to {self.high}{named if self.presets else ''}, not {value!r}"
            )
        return tuple(value)

    def describe(self) -> dict[str, Any]:
        """``kind``, ``nullable``, ``length``, ``min``, ``max`` and any ``presets``.

        ``presets`` maps each preset's name to its numbers, in order; it is left out when
        there are none.
        """
        out: dict[str, Any] = {
            "kind": self.kind,
            "nullable": False,
            "length": self.length,
            "min": self.low,
            "max": self.high,
        }
        if self.presets:
            out["presets"] = {p: list(numbers) for p, numbers in self.presets}
        return out


def option(default: Any, doc: str, check: Check) -> Any:
    """Declare one option field: its default, a one-line description and its check."""
    return dataclasses.field(default=default, metadata={"doc": doc, "check": check})


def choice(*values: object) -> Choice:
    """A check that accepts exactly one of ``values``."""
    return Choice(values)


def boolean() -> Boolean:
    """A check that accepts ``True`` or ``False``."""
    return Boolean()


def integer(low: int, high: int, allow_none: bool = False) -> Integer:
    """A check that accepts an integer from ``low`` to ``high`` (and ``None`` if allowed)."""
    return Integer(low, high, allow_none)


def seat(allow_none: bool = False) -> Seat:
    """A check that accepts a seat of the table (and ``None`` if allowed)."""
    return Seat(allow_none)


def int_tuple(
    length: int, low: int, high: int, presets: Mapping[str, Sequence[int]] | None = None
) -> IntTuple:
    """A check that accepts a sequence of ``length`` integers, each from ``low`` to ``high``.

    ``presets`` names sequences that are also accepted by name (and kept as numbers).
    """
    named = tuple((p, tuple(numbers)) for p, numbers in (presets or {}).items())
    for p, numbers in named:
        if len(numbers) != length or not all(low <= v <= high for v in numbers):
            raise ValueError(f"preset {p!r} is not {length} integers from {low} to {high}")
    return IntTuple(length, low, high, named)


@dataclasses.dataclass(frozen=True, kw_only=True)
class RulesOptions:
    """Base of every game's options: validates each field with its declared check."""

    players: int
    """The number of seats at the table."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            check = field.metadata.get("check")
            if check is not None:
                object.__setattr__(self, field.name, check(field.name, getattr(self, field.name)))
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            is_seat = isinstance(field.metadata.get("check"), Seat)
            if is_seat and value is not None and value >= self.players:
                raise OptionError(
                    f"option {field.name!r} must be a seat from 0 to {self.players - 1}, "
                    f"not {value}"
                )

    def to_dict(self) -> dict[str, Any]:
        """Return the options as a JSON-ready dict (tuples become lists)."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            out[field.name] = list(value) if isinstance(value, tuple) else value
        return out


def build_options(cls: type[T], values: Mapping[str, Any]) -> T:
    """Make ``cls`` from ``values``, refusing unknown keys with a helpful message."""
    names = [f.name for f in dataclasses.fields(cls)]
    for key in values:
        if key not in names:
            close = difflib.get_close_matches(key, names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise OptionError(f"unknown option {key!r}{hint} (known: {', '.join(names)})")
    if "players" not in values:
        raise OptionError("option 'players' is required")
    return cls(**values)


@dataclasses.dataclass(frozen=True)
class OptionInfo:
    """One option of a game as data: what a front end needs to offer it."""

    name: str
    """The option's key, as :func:`build_options` takes it."""
    default: Any
    """Its value when not given (the rulebook's)."""
    doc: str
    """A one-line description, in English, for programmers."""
    check: Check
    """Its check, whose :meth:`Check.describe` gives its kind and bounds."""


def option_infos(cls: type[RulesOptions]) -> list[OptionInfo]:
    """Every option of ``cls`` but ``players`` (set from the seats), in declaration order."""
    rows = []
    for field in dataclasses.fields(cls):
        if field.name == "players":
            continue
        default = field.default if field.default is not dataclasses.MISSING else None
        check = field.metadata.get("check")
        assert isinstance(check, Check), f"option {field.name!r} has no check"
        rows.append(OptionInfo(field.name, default, str(field.metadata.get("doc", "")), check))
    return rows


def describe_options(cls: type[RulesOptions]) -> list[tuple[str, Any, str]]:
    """List each option of ``cls`` (but ``players``) as ``(name, default, description)``."""
    return [(o.name, o.default, o.doc) for o in option_infos(cls)]
