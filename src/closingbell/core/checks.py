"""Checks of a state's fields that hold whether or not Python runs with ``-O``.

A game's ``check_invariants`` uses these instead of ``assert`` statements: the same checks
guard :meth:`~closingbell.core.game.State.from_dict` against untrusted text, and ``-O``
would silently drop an ``assert``. Each raises ``AssertionError`` with a message that
names the field at fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

MAX_INT = 2**53 - 1
"""The largest number a state holds (the seed aside): the largest integer JavaScript reads
exactly, so that every number of a view reaches a web page unchanged."""


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut short so that a huge value cannot flood a message."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        try:
            return f"a number of {len(str(abs(value)))} digits"
        except ValueError:  # more digits than Python turns into text
            return "a number too long to show"
    try:
        text = repr(value)
    except ValueError:  # a list holding such a number
        return "a value too large to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def need(ok: bool, message: str) -> None:
    """Raise ``AssertionError(message)`` unless ``ok``."""
    if not ok:
        raise AssertionError(message)


def int_in(name: str, value: int, low: int, high: int) -> None:
    """``value``, the field ``name``, must be from ``low`` to ``high``."""
    if not low <= value <= high:
        raise AssertionError(f"{name!r} must be from {low} to {high}, not {shown(value)}")


def ints_in(
    name: str, values: Sequence[int], low: int, high: int, length: int | None = None
) -> None:
    """Every number of the list ``name`` must be from ``low`` to ``high``; ``length`` of them."""
    if length is not None and len(values) != length:
        raise AssertionError(f"{name!r} must hold {length} numbers, not {len(values)}")
    if not _plainly_within(values, low, high):
        _numbers_in(repr(name), values, low, high)


def _plainly_within(values: Sequence[Any], low: int, high: int) -> bool:
    """Whether ``values`` is a list of plain ints from ``low`` to ``high``, checked in C.

    False for anything else, which the checks one number at a time then look at.
    """
    if type(values) is not list or not _ONLY_INT.issuperset(map(type, values)):
        return False
    return not values or (min(values) >= low and max(values) <= high)


_ONLY_INT = frozenset({int})
_ONLY_LIST = frozenset({list})


def _numbers_in(label: str, values: Sequence[int], low: int, high: int) -> None:
    for value in values:
        if not low <= value <= high:
            raise AssertionError(
                f"{label} holds {shown(value)}; its numbers run from {low} to {high}"
            )


def per_seat(name: str, values: Sequence[Any], players: int) -> None:
    """The list ``name`` must hold one item per seat."""
    if len(values) != players:
        raise AssertionError(f"{name!r} must hold {players} items, one per seat, not {len(values)}")


def lists_in(
    name: str,
    lists: Sequence[Sequence[int]],
    low: int,
    high: int,
    *,
    length: int | None = None,
    size: int | None = None,
) -> None:
    """Every number of the lists ``name`` must be from ``low`` to ``high``.

    ``length`` is the number of lists (when it is fixed), ``size`` the length of each.
    """
    if length is not None and len(lists) != length:
        raise AssertionError(f"{name!r} must hold {length} lists, not {len(lists)}")
    if (
        type(lists) is list
        and _ONLY_LIST.issuperset(map(type, lists))
        and (size is None or set(map(len, lists)) <= {size})
        and _plainly_within(list(chain.from_iterable(lists)), low, high)
    ):
        return  # all well: each list need not be looked at alone
    for i, values in enumerate(lists):
        if size is not None and len(values) != size:
            raise AssertionError(f"{name!r}[{i}] must hold {size} numbers, not {len(values)}")
        _numbers_in(f"{name!r}[{i}]", values, low, high)
