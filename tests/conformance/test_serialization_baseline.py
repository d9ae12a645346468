"""Today's state serialization against the old one it replaced, input for input.

``benchmarks/serialization_baseline.py`` keeps the old ``to_json`` and ``state_from_json``
as they were. Today's must write the same text byte for byte, and read every input, good
or bad, to the same outcome: the same state, or the same error with the same message.
The inputs are states of every game and player count (dealt, read as positions, sampled
from a view), and those states changed in every field, in log entries value by value,
at random (the mutations of ``test_state_mutations``), nested too deeply, or given as
Python data instead of text.
"""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from closingbell import Game, State, StateFormatError
from tests import benchmarks
from tests.conformance.common import CASES, Position, case_params, get_game, positions
from tests.conformance.test_state_mutations import EXTREMES, STRANGERS, _mutate

Data = dict[str, Any]


@cache
def baseline() -> ModuleType:
    return benchmarks.load("serialization_baseline")


def outcome(read: Callable[[], State]) -> tuple[str, str]:
    """What reading gave: the state's text, or the kind of error and its message."""
    try:
        state = read()
    except StateFormatError as exc:
        return "refused", str(exc)
    except Exception as exc:  # any other error counts too: both must raise the same one
        return type(exc).__name__, str(exc)
    return "read", baseline().to_json(state)


def assert_read_alike(game: Game, text: str | bytes) -> tuple[str, str]:
    old = outcome(lambda: baseline().state_from_json(game, text))
    new = outcome(lambda: game.state_from_json(text))
    assert new == old
    return new


def text_of(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@cache
def states_of(name: str, players: int) -> tuple[State, ...]:
    """States of one case: dealt (fresh, mid-game, finished) and sampled from views."""
    dealt = [Position(name, players, seed, steps).build() for seed, steps in ((1, 0), (2, 60))]
    dealt.append(Position(name, players, 3, 10_000).build())
    game = get_game(name, players)
    sampled = [game.sample_state(s.view(players - 1), random.Random(4)) for s in dealt[1:]]
    played = sampled[0].clone()
    rng = random.Random(5)
    for _ in range(15):
        if played.is_terminal():
            break
        played.apply(rng.choice(played.legal_actions()))
    return (*dealt, *sampled, played)


def as_position(state: State) -> Data:
    data: Data = json.loads(state.to_json())
    data["from_deal"] = False
    return data


@pytest.mark.parametrize(("name", "players"), case_params())
def test_states_are_written_and_read_alike(name: str, players: int) -> None:
    game = get_game(name, players)
    for state in states_of(name, players):
        text = state.to_json()
        assert text == baseline().to_json(state)
        assert state.to_dict() == baseline().to_dict(state)
        assert list(state.to_dict()) == list(baseline().to_dict(state))
        assert json.dumps(state.to_dict()) == json.dumps(baseline().to_dict(state))
        assert assert_read_alike(game, text) == ("read", text)
        assert_read_alike(game, text_of(as_position(state)))
        # Other spellings of the same JSON, and text that is not quite JSON.
        assert_read_alike(game, json.dumps(json.loads(text), indent=1))
        assert_read_alike(game, text.encode())
        for bad in ("\ufeff" + text, text[:-1], text + "]", text.replace(":", "=", 1)):
            assert_read_alike(game, bad)


def replacements(value: object) -> list[object]:
    """What a changed value may become: values of other types, extremes, neighbours."""
    out: list[object] = [*STRANGERS, *EXTREMES[:6]]
    if isinstance(value, int) and not isinstance(value, bool):
        out += [value - 1, value + 1, float(value), str(value)]
    if isinstance(value, list):
        out += [value[:-1], [*value, value[-1] if value else 0], (tuple(value),)]
    return out


def changed_top_level(data: Data) -> Iterator[Data]:
    for key in sorted(data):
        yield {k: v for k, v in data.items() if k != key}
        for new in replacements(data[key]):
            yield {**data, key: new}
    yield {**data, "junk": 1}


def changed_log(data: Data, entries: int) -> Iterator[Data]:
    """The log changed value by value, in ``entries`` entries spread over it."""
    log = data["log"]
    for i in sorted({len(log) * k // entries for k in range(entries)} & set(range(len(log)))):
        entry = log[i]
        for where, value in enumerate(entry):
            for new in replacements(value):
                yield {
                    **data,
                    "log": [*log[:i], [*entry[:where], new, *entry[where + 1 :]], *log[i + 1 :]],
                }
        for where in (1, 2):
            form = entry[where]
            if not isinstance(form, list):
                continue
            for k, value in enumerate(form):
                for new in replacements(value):
                    changed = [
                        *entry[:where],
                        [*form[:k], new, *form[k + 1 :]],
                        *entry[where + 1 :],
                    ]
                    yield {**data, "log": [*log[:i], changed, *log[i + 1 :]]}


def numbers_in(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every number and flag in ``value`` (lists searched), with the path to it."""
    if isinstance(value, (bool, int)):
        yield path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from numbers_in(item, (*path, i))


def lists_in(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """The path to every list of plain numbers in ``value``."""
    if isinstance(value, list):
        if all(type(item) is int for item in value):
            yield path
        for i, item in enumerate(value):
            yield from lists_in(item, (*path, i))


def at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


SETTINGS = (None, 0, 1, 2, 3, -1, True, False, [], [0], [1, 0], "market_closed", "high_card")
"""Values a forger sets a field to (other fields' values, of other types)."""


def changed_values(data: Data, rng: random.Random, count: int) -> Iterator[Data]:
    """``count`` copies of ``data``, each changed once as a forger would: a number moved by a
    little, a card moved to another list (kept sorted if it was), two items swapped, one
    dropped or doubled, ``from_deal`` flipped, or a field set to another value. The log
    is changed too; the options are not (their changes are refused before anything else)."""
    keys = sorted(k for k in data if k != "options")
    numbers = [p for k in keys for p, _ in numbers_in(data[k], (k,))]
    lists = [p for k in keys for p in lists_in(data[k], (k,))]
    made = 0
    while made < count:
        changed = json.loads(json.dumps(data))
        how = rng.choice(
            ("nudge", "nudge", "nudge", "move", "move", "swap", "drop", "double", "flip", "set")
        )
        full = [p for p in lists if at(changed, p)]
        if how == "nudge":
            path = rng.choice(numbers)
            value = at(changed, path)
            new = (not value) if type(value) is bool else value + rng.choice((-2, -1, 1, 2))
            at(changed, path[:-1])[path[-1]] = new
        elif how == "move" and full:
            source, target = at(changed, rng.choice(full)), at(changed, rng.choice(lists))
            card = source.pop(rng.randrange(len(source)))
            was_sorted = target == sorted(target)
            target.insert(rng.randrange(len(target) + 1), card)
            if was_sorted:
                target.sort()
        elif how == "swap" and any(len(at(changed, p)) > 1 for p in full):
            values = at(changed, rng.choice([p for p in full if len(at(changed, p)) > 1]))
            i, j = rng.sample(range(len(values)), 2)
            values[i], values[j] = values[j], values[i]
        elif how in ("drop", "double") and full:
            values = at(changed, rng.choice(full))
            if how == "drop":
                values.pop(rng.randrange(len(values)))
            else:
                values.append(rng.choice(values))
        elif how == "flip":
            changed["from_deal"] = not changed["from_deal"]
        else:
            changed[rng.choice(keys)] = rng.choice(SETTINGS)
        made += 1
        yield changed


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, p in CASES if p in (2, 4, 6)])
def test_values_changed_as_a_forger_would_are_read_alike(name: str, players: int) -> None:
    game = get_game(name, players)
    rng = random.Random(f"forger/{name}/{players}")
    results = set()
    for state in states_of(name, players):
        for changed in changed_values(as_position(state), rng, 25):
            results.add(assert_read_alike(game, text_of(changed))[0])
    assert results == {"read", "refused"}  # both outcomes were compared


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, p in CASES if p in (2, 5)])
def test_changed_positions_are_refused_alike(name: str, players: int) -> None:
    game = get_game(name, players)
    results = set()
    mid_game, played_from_a_sample = states_of(name, players)[1::4]
    for state in (mid_game, played_from_a_sample):
        data = as_position(state)
        for changed in (*changed_top_level(data), *changed_log(data, entries=12)):
            results.add(assert_read_alike(game, text_of(changed))[0])
    assert "refused" in results and "read" in results  # both outcomes were compared


@pytest.mark.parametrize(("name", "players"), [(n, 3) for n in sorted({n for n, _ in CASES})])
def test_changed_dealt_states_are_refused_alike(name: str, players: int) -> None:
    # Read from the deal, a change that passes every other check meets the replay.
    game = get_game(name, players)
    data: Data = json.loads(states_of(name, players)[1].to_json())
    for changed in (*changed_top_level(data), *changed_log(data, entries=6)):
        assert_read_alike(game, text_of(changed))


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    position=positions(),
    from_deal=st.booleans(),
    data=st.data(),
)
def test_random_changes_are_read_alike(
    position: Position, from_deal: bool, data: st.DataObject
) -> None:
    state = position.build()
    raw = json.loads(state.to_json())
    raw["from_deal"] = from_deal
    fields = dict(state.EVENT_FIELDS)
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(data.draw, raw, fields, position.players)
    assert_read_alike(position.game, json.dumps(raw))


@pytest.mark.parametrize("depth", [60, 63, 64, 65, 200, 900])
def test_deep_nesting_is_read_alike(depth: int) -> None:
    game = get_game("take_stock", 3)
    data = json.loads(game.new_game(1).to_json())
    deep = json.loads("[" * depth + "]" * depth)
    for key in ("log", "options", "hands", "junk", "version", "format"):
        assert_read_alike(game, text_of({**data, key: deep}))
    entry = [0, ["draw", 0, deep], ["draw", 0, None]]
    assert_read_alike(game, text_of({**data, "log": [entry]}))
    for deeper in (depth, depth * 50):
        for text in ("[" * deeper + "]" * deeper, '{"a":' * deeper + "1" + "}" * deeper):
            assert_read_alike(game, text)
            assert_read_alike(game, text[:-1])


class Seat(enum.IntEnum):
    FIRST = 0


@pytest.mark.parametrize(("name", "players"), [(n, 3) for n in sorted({n for n, _ in CASES})])
def test_python_data_is_read_alike(name: str, players: int) -> None:
    # from_dict takes data that JSON never makes: tuples, subclasses of int.
    game = get_game(name, players)
    cls = game.state_class
    for state in states_of(name, players)[1:4]:
        data = as_position(state)
        log = data["log"]
        variants: list[Data] = [
            {**data, "history": tuple(data["history"])},
            {**data, "dealer": Seat.FIRST},
            {**data, "log": [tuple(e) for e in log]},
            {**data, "log": [[e[0], tuple(e[1]), e[2]] for e in log]},
            {**data, "log": [[Seat.FIRST if e[0] == 0 else e[0], e[1], e[2]] for e in log]},
            {
                **data,
                "log": [
                    [
                        e[0],
                        [e[1][0], *(tuple(v) if isinstance(v, list) else v for v in e[1][1:])],
                        e[2],
                    ]
                    for e in log
                ],
            },
        ]
        for variant in variants:
            old = outcome(lambda v=variant: baseline().from_dict(cls, game, v))
            new = outcome(lambda v=variant: cls.from_dict(game, v))
            assert new == old


def test_a_state_is_refused_alike_whatever_its_json_type() -> None:
    game = get_game("card_stock_market", 4)
    for value in ("", "{}", "[]", "null", "1", '"state"', b"\xff", bytearray(b"{}"), 5, None):
        old = outcome(lambda v=value: baseline().state_from_json(game, v))
        new = outcome(lambda v=value: game.state_from_json(v))
        assert new == old
    with pytest.raises(StateFormatError, match="not valid JSON"):
        game.state_from_json(bytearray(b"{}"))  # type: ignore[arg-type]
