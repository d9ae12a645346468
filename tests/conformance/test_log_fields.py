"""Every field of every log entry kind has one type, whoever reads it.

An entry private to one seat reaches every other seat and every spectator with ``null`` in
place of each value they may not see; anything they may know of it (how many cards were
drawn) is a field of its own that every reader gets. So a front end reads a field the
same way for every recipient, and ``null`` always means "not for you" or "none", never a
value of another type. Checked on the whole log of random games of every registered game
at every player count, read by each seat and a spectator.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from closingbell import State
from tests.conformance.common import case_params, get_game, move_rng, play_out

SEEDS = (3, 1_000, 2**40 + 11)
"""The deals played at each player count."""

JsonType = str | tuple[str, Any]
"""A JSON value's type: ``int``, ``str`` ... or ``("list", item type or None if empty)``."""


class Mismatch(AssertionError):
    """Two readings of one field have different types."""


def json_type(value: Any) -> JsonType:
    """The type of a JSON value, lists typed by their items (all of one type)."""
    if value is None:
        return "null"
    if isinstance(value, list):
        item: JsonType | None = None
        for v in value:
            item = json_type(v) if item is None else merge(item, json_type(v))
        return ("list", item)
    return type(value).__name__


def merge(a: JsonType, b: JsonType) -> JsonType:
    """The one type that both ``a`` and ``b`` are (an empty list is a list of anything)."""
    if a == b:
        return a
    if isinstance(a, tuple) and isinstance(b, tuple):
        if a[1] is None:
            return b
        if b[1] is None:
            return a
        return ("list", merge(a[1], b[1]))
    raise Mismatch(f"{a!r} and {b!r}")


def readings(state: State) -> Iterator[tuple[int | None, list[tuple[int | None, dict[str, Any]]]]]:
    """Each log entry's owner and its readings by every seat and a spectator.

    The log's own bookkeeping (who owns an entry, whether others read it at all) only
    lines the readers' lists up; every value compared comes from ``visible_events``.
    """
    readers: list[int | None] = [*range(state.game.players), None]
    seen = {r: iter(state.visible_events(r)) for r in readers}
    for owner, _, redacted in state.log:
        yield (
            owner,
            [
                (r, next(seen[r]))
                for r in readers
                if owner is None or owner == r or redacted is not None
            ],
        )
    for r in readers:
        assert next(seen[r], None) is None, f"reader {r} was given more entries than the log has"


def check_log(state: State, types: dict[tuple[str, str], JsonType]) -> int:
    """Check every entry of ``state``'s log; return how many hidden values others read.

    ``types`` gathers each (kind, field)'s type across calls, so that one kind is checked
    across games as well as across readers.
    """
    hidden = 0
    for owner, row in readings(state):
        full = next((e for r, e in row if r == owner), row[0][1])
        kind = full["type"]
        for reader, event in row:
            where = f"{kind} read by {'a spectator' if reader is None else f'seat {reader}'}"
            assert event.keys() == full.keys(), f"{where}: fields {sorted(event)}"
            for name, value in event.items():
                if value is None:
                    hidden += full[name] is not None
                    continue
                assert owner is None or reader == owner or value == full[name], (
                    f"{where}: {name!r} is {value!r}, neither the owner's {full[name]!r} nor null"
                )
                key = (kind, name)
                try:
                    found = json_type(value)
                    types[key] = merge(types[key], found) if key in types else found
                except Mismatch as exc:
                    raise Mismatch(f"{where}: {name!r} has two types: {exc}") from None
    return hidden


@pytest.mark.parametrize(("name", "players"), case_params())
def test_every_log_field_has_one_type_for_every_reader(name: str, players: int) -> None:
    game = get_game(name, players)
    types: dict[tuple[str, str], JsonType] = {}
    hidden = 0
    for seed in SEEDS:
        state = game.new_game(seed=seed)
        play_out(state, move_rng(seed), check=False)
        hidden += check_log(state, types)
    # Both games hide cards in their logs (a draw, a deal, set-aside cards): if nothing
    # was hidden, the readers were not told apart and the check proved nothing.
    assert hidden > 0
    fields = type(state).EVENT_FIELDS
    assert {kind for kind, _ in types} <= set(fields)


@pytest.mark.reference  # crafts a state by changing its fields
def test_the_check_catches_a_field_that_changes_type_by_reader() -> None:
    # The form the rule forbids, Take Stock's old ``drew_events``: kinds for the owner,
    # a number where the others read them.
    game = get_game("take_stock", 3)
    state = game.new_game(seed=SEEDS[0])
    play_out(state, move_rng(SEEDS[0]), check=False)
    check_log(state, {})
    i, (owner, full, _) = next((i, e) for i, e in enumerate(state.log) if e[1][0] == "drew_events")
    state.log[i] = (owner, full, (*full[:-1], len(full[-1])))
    with pytest.raises(AssertionError, match="neither the owner's"):
        check_log(state, {})


@pytest.mark.reference  # crafts a state by changing its fields
def test_the_check_catches_a_public_field_of_two_types() -> None:
    game = get_game("card_stock_market", 3)
    state = game.new_game(seed=SEEDS[0])
    play_out(state, move_rng(SEEDS[0]), check=False)
    i, (_, full, _) = next((i, e) for i, e in enumerate(state.log) if e[1][0] == "buy")
    state.log[i] = (None, (*full[:2], str(full[2]), *full[3:]), None)
    with pytest.raises(Mismatch, match="'card' has two types"):
        check_log(state, {})
