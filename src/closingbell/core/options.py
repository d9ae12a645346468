"""Rules options as data: one frozen, validated, keyword-only object per game.

A game declares its options as a frozen dataclass deriving from :class:`RulesOptions`,
each field made with :func:`option`, which carries a one-line description and a check.
The checks run when the object is made, so an options object is always valid, and
unknown keys are refused with the closest known names.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from closingbell.core.errors import OptionError

T = TypeVar("T", bound="RulesOptions")
Check = Callable[[str, Any], Any]


def option(default: Any, doc: str, check: Check) -> Any:
    """Declare one option field: its default, a one-line description and its check."""
    return dataclasses.field(default=default, metadata={"doc": doc, "check": check})


def choice(*values: object) -> Check:
    """A check that accepts exactly one of ``values``."""

    def check(name: str, value: Any) -> Any:
        if isinstance(value, bool) or value not in values:
            shown = ", ".join(repr(v) for v in values)
            raise OptionError(f"option {name!r} must be one of {shown}, not {value!r}")
        return value

    return check


def boolean() -> Check:
    """A check that accepts ``True`` or ``False``."""

    def check(name: str, value: Any) -> Any:
        if not isinstance(value, bool):
            raise OptionError(f"option {name!r} must be true or false, not {value!r}")
        return value

    return check


def integer(low: int, high: int, allow_none: bool = False) -> Check:
    """A check that accepts an integer from ``low`` to ``high`` (and ``None`` if allowed)."""

    def check(name: str, value: Any) -> Any:
        if value is None and allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            extra = " or null" if allow_none else ""
            raise OptionError(
                f"option {name!r} must be an integer from {low} to {high}{extra}, not {value!r}"
            )
        return value

    return check


def seat(allow_none: bool = False) -> Check:
    """A check that accepts a seat of the table (and ``None`` if allowed).

    The upper bound depends on the ``players`` option, so :class:`RulesOptions` checks it
    once all fields are known.
    """
    check = integer(0, 5, allow_none)
    setattr(check, "is_seat", True)  # noqa: B010 (a marker read by RulesOptions)
    return check


def int_tuple(length: int, low: int, high: int) -> Check:
    """A check that accepts a sequence of ``length`` integers, each from ``low`` to ``high``."""

    def check(name: str, value: Any) -> Any:
        ok = isinstance(value, Sequence) and not isinstance(value, str) and len(value) == length
        if ok:
            ok = all(
                isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in value
            )
        if not ok:
            raise OptionError(
                f"option {name!r} must be a list of {length} integers from {low} to {high}, "
                f"not {value!r}"
            )
        return tuple(value)

    return check


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
            is_seat = getattr(field.metadata.get("check"), "is_seat", False)
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


def describe_options(cls: type[RulesOptions]) -> list[tuple[str, Any, str]]:
    """List each option of ``cls`` as ``(name, default, description)``."""
    rows = []
    for field in dataclasses.fields(cls):
        if field.name == "players":
            continue
        default = field.default if field.default is not dataclasses.MISSING else None
        rows.append((field.name, default, str(field.metadata.get("doc", ""))))
    return rows
