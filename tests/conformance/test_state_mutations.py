"""States changed field by field are either refused or sound enough to play to the end.

Valid states of random games of every registered game (dealt games, the same read as
positions, and states sampled from a seat's view) are changed one to three times: numbers
pushed to extremes, lists cut, grown, shuffled or emptied, values swapped for other types,
keys added and removed, fields swapped, log entries forged. Reading the result back must
either raise ``StateFormatError`` or give a state that passes every invariant, shows every
seat its view and log, and plays on at random to the end of the game without any other
exception.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from closingbell import StateFormatError
from tests.conformance.common import Position, positions

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

Data = dict[str, Any]

EXTREMES = (-1, 0, 1, 2, -(10**12), 10**12, 2**53, -(2**53), 2**63, 10**40, -(10**40))
"""Numbers a forger tries first."""
STRANGERS: tuple[object, ...] = (None, "junk", "", [], [[]], {}, {"a": 1}, 1.5, True, False)
"""Values of other types than the one expected (drawn through ``_strangers``: copies, since a
later change may put a card into a list drawn, which must not change the constant)."""
_strangers = st.sampled_from(STRANGERS).map(copy.deepcopy)
"""A copy of one of ``STRANGERS``."""
MAX_PLAY = 20_000
"""Random actions after which a game that goes on counts as stuck."""


def _scalar(draw: st.DrawFn) -> object:
    """A value a forged log entry might hold."""
    return draw(
        st.one_of(
            st.integers(-2, 70),
            st.sampled_from(EXTREMES),
            _strangers,
            st.lists(st.integers(-1, 60), max_size=8),
        )
    )


def _replacement(draw: st.DrawFn, value: object) -> object:
    """Something to put where ``value`` was."""
    if isinstance(value, bool):
        return draw(st.sampled_from((not value, 0, 1, None, "true")))
    if isinstance(value, int):
        near = (value - 1, value + 1, -value, value * 2)
        return draw(st.one_of(st.sampled_from(EXTREMES + near), st.integers(-3, 70)))
    if isinstance(value, list):
        items = list(value)
        how = draw(st.sampled_from(("cut", "grow", "shuffle", "reverse", "empty", "swap")))
        if how == "cut" and items:
            del items[draw(st.integers(0, len(items) - 1))]
        elif how == "grow":
            extra = draw(st.sampled_from(items)) if items and draw(st.booleans()) else None
            items.insert(draw(st.integers(0, len(items))), extra if extra is not None else 0)
        elif how == "shuffle":
            random.Random(draw(st.integers(0, 2**32))).shuffle(items)
        elif how == "reverse":
            items.reverse()
        elif how == "empty":
            items = []
        elif len(items) >= 2:
            i, j = draw(st.integers(0, len(items) - 1)), draw(st.integers(0, len(items) - 1))
            items[i], items[j] = items[j], items[i]
        return items
    if isinstance(value, dict):
        out = dict(value)
        if out and draw(st.booleans()):
            del out[draw(st.sampled_from(sorted(out)))]
        else:
            out[draw(st.sampled_from(("players", "junk", "rounds")))] = _scalar(draw)
        return out
    return draw(st.one_of(_strangers, st.sampled_from(EXTREMES)))


def _change_somewhere(draw: st.DrawFn, data: Data) -> str:
    """Change one value at a random depth of ``data``; return where."""
    key = draw(st.sampled_from(sorted(data)))
    holder: Any = data
    where: Any = key
    value = data[key]
    path = [key]
    while isinstance(value, list) and value and draw(st.booleans()):
        holder, where = value, draw(st.integers(0, len(value) - 1))
        value = value[where]
        path.append(where)
    if draw(st.integers(0, 5)) == 0:
        holder[where] = draw(_strangers)
    else:
        holder[where] = _replacement(draw, value)
    return "/".join(map(str, path))


def _forge_log_entry(draw: st.DrawFn, data: Data, fields: dict[str, Any], players: int) -> str:
    """Insert a log entry of a known kind (or not) with plausible values."""
    kind = draw(st.one_of(st.sampled_from(sorted(fields)), st.just("no_such_kind")))
    count = len(fields.get(kind, ())) + draw(st.sampled_from((0, 0, 0, -1, 1)))
    form = [kind, *(_scalar(draw) for _ in range(max(count, 0)))]
    owner = draw(st.one_of(st.none(), st.integers(-1, players)))
    redacted = None
    if owner is not None and draw(st.booleans()):
        redacted = [kind, *(None for _ in form[1:])]
    log = data["log"]
    log.insert(draw(st.integers(0, len(log))), [owner, form, redacted])
    return f"forged {kind} entry"


def _swap_fields(draw: st.DrawFn, data: Data) -> str:
    first, second = draw(
        st.lists(st.sampled_from(sorted(data)), min_size=2, max_size=2, unique=True)
    )
    data[first], data[second] = data[second], data[first]
    return f"swapped {first} and {second}"


def _nudge_a_number(draw: st.DrawFn, data: Data) -> str:
    """Move one number anywhere by a little: the change most likely to pass for real."""
    found: list[tuple[Any, Any, str]] = []

    def collect(holder: Any, where: Any, value: Any, path: str) -> None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                collect(value, i, item, f"{path}/{i}")
        elif isinstance(value, int) and not isinstance(value, bool):
            found.append((holder, where, path))

    for key in sorted(data):
        if key != "options":
            collect(data, key, data[key], key)
    if not found:
        return "nothing to nudge"
    holder, where, path = draw(st.sampled_from(found))
    holder[where] = draw(st.sampled_from((holder[where] - 1, holder[where] + 1, 0, 1, 5)))
    return f"nudged {path}"


def _lists_of_numbers(data: Data) -> list[tuple[str, list[Any]]]:
    """Every list of numbers in ``data`` (hands, piles, rows ...), with where it is."""
    found: list[tuple[str, list[Any]]] = []

    def collect(value: Any, path: str) -> None:
        if isinstance(value, list):
            if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                found.append((path, value))
            elif path != "log":
                for i, item in enumerate(value):
                    collect(item, f"{path}/{i}")

    for key in sorted(data):
        collect(data[key], key)
    return found


def _move_a_card(draw: st.DrawFn, data: Data) -> str:
    """Move one number from a list to another, as a cheat moves a card: nothing is lost."""
    lists = _lists_of_numbers(data)
    sources = [(path, values) for path, values in lists if values]
    if not sources or not lists:
        return "no card to move"
    source, values = draw(st.sampled_from(sources))
    target, into = draw(st.sampled_from(lists))
    card = values.pop(draw(st.integers(0, len(values) - 1)))
    into.insert(draw(st.integers(0, len(into))), card)
    if into is not values and into[:-1] == sorted(into[:-1]):
        into.sort()  # hands and certificates are kept sorted
    return f"moved {card} from {source} to {target}"


def _mutate(draw: st.DrawFn, data: Data, fields: dict[str, Any], players: int) -> str:
    how = draw(
        st.sampled_from(
            ("change", "change", "nudge", "nudge", "move", "move", "drop", "add", "forge", "swap")
        )
    )
    if how == "nudge":
        return _nudge_a_number(draw, data)
    if how == "move":
        return _move_a_card(draw, data)
    if how == "drop":
        key = draw(st.sampled_from(sorted(data)))
        del data[key]
        return f"dropped {key}"
    if how == "add":
        data[draw(st.sampled_from(("junk", "score", "seat")))] = _scalar(draw)
        return "added a key"
    if how == "forge" and isinstance(data.get("log"), list):
        return _forge_log_entry(draw, data, fields, players)
    if how == "swap":
        return _swap_fields(draw, data)
    return _change_somewhere(draw, data)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    position=positions(),
    source=st.sampled_from(("dealt", "position", "sampled")),
    data=st.data(),
    play=st.integers(0, 2**32),
)
def test_a_changed_state_is_refused_or_plays_on(
    position: Position, source: str, data: st.DataObject, play: int
) -> None:
    game = position.game
    state = position.build()
    if source == "sampled":
        seat = data.draw(st.integers(0, position.players - 1))
        state = game.sample_state(state.view(seat), random.Random(play))
    raw = json.loads(state.to_json())
    if source == "position":
        raw["from_deal"] = False
    fields = dict(state.EVENT_FIELDS)
    original = json.dumps(raw, sort_keys=True)
    changes = [
        _mutate(data.draw, raw, fields, position.players)
        for _ in range(data.draw(st.integers(1, 3)))
    ]
    assume(json.dumps(raw, sort_keys=True) != original)  # a change that changes nothing
    try:
        changed = game.state_from_json(json.dumps(raw))
    except StateFormatError:
        event("refused")
        return
    event(f"accepted ({source})")
    # Accepted: the state must be sound, shown to everyone, and play to the end.
    note = f"accepted after {changes}"
    changed.check_invariants()
    text = changed.to_json()
    assert game.state_from_json(text).to_json() == text, note
    for seat in position.seats:
        changed.view(seat)
        changed.visible_events(seat)
    rng = random.Random(play)
    for _ in range(MAX_PLAY):
        if changed.is_terminal():
            break
        legal = changed.legal_actions()
        assert legal, f"{note}: no legal action in a game that is not over"
        changed.apply(rng.choice(legal))
        changed.check_invariants()
    assert changed.is_terminal(), f"{note}: still going after {MAX_PLAY} actions"
    assert len(changed.winners()) >= 1
    for seat in position.seats:
        changed.view(seat)
        changed.visible_events(seat)
