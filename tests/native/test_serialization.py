"""The compiled codecs of states against the plain Python code, input for input.

``closingbell.native`` registers, for each game, a compiled writer and reader of its states
(``core.serial.register_codec``). The writer must write every state byte for byte as the
plain code does, or leave it to that code; the reader must read what the plain code reads,
to an equal state of the same types, and answer ``None`` (handing the input back, so that
the plain code words the refusal) for everything the plain code refuses. On JSON written
as the states write it (sorted keys, no spaces), at the current rules version, it must
read everything the plain code reads. The states are those of every game, player count
and option set, at every decision kind, dealt, read as positions and sampled from views;
the inputs are those states changed as the conformance tests change them.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from closingbell import Game, State, StateFormatError, native
from closingbell.core import replay, serial
from closingbell.core.registry import game_class
from closingbell.native.differential import ODD_ACTIONS, OPTION_SETS
from tests.conformance.common import CASES, get_game
from tests.conformance.test_serialization_baseline import (
    as_position,
    changed_log,
    changed_top_level,
    changed_values,
    states_of,
    text_of,
)
from tests.core.test_serial_checks import CHECKS, json_values

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference

NAMES = sorted(native.SERIAL_MODULES)


@contextmanager
def plain(name: str) -> Iterator[None]:
    """The plain Python code writes and reads the game's states meanwhile."""
    codec = serial.registered_codec(name)
    serial.unregister_codec(name)
    try:
        yield
    finally:
        if codec is not None:
            serial.register_codec(name, codec)


def codec_of(name: str) -> serial.Codec:
    codec = serial.registered_codec(name)
    assert codec is not None
    return codec


def typed(value: Any) -> Any:
    """``value`` with the type of every part of it, so that ``1`` and ``True`` differ."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [typed(v) for v in value])
    return (type(value).__name__, value)


def slots(state: State) -> dict[str, Any]:
    """Every attribute of a reference state, typed (its game by identity)."""
    names = {name for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())}
    return {
        name: id(state.game) if name == "game" else typed(getattr(state, name))
        for name in sorted(names)
    }


def plain_read(game: Game, text: object) -> State | str:
    """What the plain code reads: the state, or its refusal's message."""
    with plain(game.info.name):
        try:
            return game.state_from_json(text)  # type: ignore[arg-type]
        except StateFormatError as exc:
            return f"refused: {exc}"


def own_header(game: Game, text: object) -> bool:
    """Whether ``text`` holds the game's rules version and options as its states write them
    (an older version, or an option written as ``3.0``, is left to the plain code)."""
    raw = text.decode() if isinstance(text, bytes) else text
    data = json.loads(raw) if isinstance(raw, str) else None
    return (
        isinstance(data, dict)
        and typed(data.get("version")) == typed(game.info.version)
        and typed(data.get("options")) == typed(dict(game.options_data))
    )


def assert_read_alike(game: Game, text: object, *, canonical: bool) -> str:
    """The compiled reader reads ``text`` as the plain code does; what both did.

    ``canonical``: ``text`` is written as states write it, so a state the plain code reads
    with the game's own header must be read by the compiled reader too.
    """
    expected = plain_read(game, text)
    got = codec_of(game.info.name).read(game, text)
    if isinstance(expected, str):
        assert got is None, f"the compiled reader took what the plain code refuses: {expected}"
        return "refused"
    if got is None:
        assert not (canonical and own_header(game, text)), "the compiled reader left a state"
        return "left"
    assert type(got) is type(expected) is game.state_class
    assert got.game is game
    assert slots(got) == slots(expected)
    assert got.to_json() == expected.to_json()
    return "read"


def native_game(name: str, players: int, options: dict[str, Any]) -> Game:
    return game_class(name)(players=players, **options)


@cache
def options_states(name: str) -> tuple[State, ...]:
    """States under every option set: one per decision kind met in a random game, and one
    sampled from each of a few of those."""
    out: list[State] = []
    rng = random.Random(f"options/{name}")
    for i, options in enumerate(OPTION_SETS[name]):
        info = game_class(name).info
        players = info.min_players + i % (info.max_players - info.min_players + 1)
        game = native_game(name, players, options)
        state = game.new_game(rng.randrange(2**63))
        seen: dict[int, State] = {}
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            seen.setdefault(state.phase, state.clone())
        kept = [*seen.values(), state]
        for dealt in kept[:3]:
            seat = dealt.current_player if dealt.current_player is not None else 0
            kept.append(game.sample_state(dealt.view(seat), rng))
        out += kept
    return tuple(out)


def every_state(name: str) -> list[State]:
    return [s for n, p in CASES if n == name for s in states_of(n, p)] + list(options_states(name))


def test_each_game_has_its_codec_and_replay_registered() -> None:
    assert sorted(native.GAME_MODULES) == NAMES
    for name in NAMES:
        module = native.module(native.SERIAL_MODULES[name])
        assert module is not None
        assert type(serial.registered_codec(name)) is module.Codec
        assert replay.registered(name) is module.replay


@pytest.mark.parametrize("name", NAMES)
def test_the_writer_writes_what_the_plain_code_writes(name: str) -> None:
    codec = codec_of(name)
    for state in every_state(name):
        with plain(name):
            expected = state.to_json()
            on_engine = native.from_state(state)
            expected_on_engine = on_engine.to_json()
        assert codec.write(state) == expected
        assert state.to_json() == expected
        assert codec.write(on_engine) == expected_on_engine == expected
        assert on_engine.to_json() == expected
        if state.from_deal:  # played on the engine: its log is records, not yet entries
            played = native.new_game(state.game, state.seed)
            for action in state.history:
                played.apply(action)
            assert codec.write(played) == expected


@pytest.mark.parametrize("name", NAMES)
def test_the_writer_leaves_what_it_does_not_write_to_the_plain_code(name: str) -> None:
    codec = codec_of(name)
    base = states_of(name, 3)[1]
    odd: list[tuple[str, object]] = [
        ("history", [*base.history[:-1], float(base.history[-1])]),
        ("history", [*base.history, 2**64]),
        ("dealer", 2**100),
        ("draw", ("tuple", "\u00e9", 'a "quote"', "back\\slash", "tab\t", "\x7f")),
        ("log", [*base.log, (None, ("note", {"a": 1}), None)]),
        ("log", [*base.log, (None, ("deep", json.loads("[" * 60 + "]" * 60)), None)]),
    ]
    for field, value in odd:
        state = base.clone()
        setattr(state, field, value)
        assert codec.write(state) is None
        with plain(name):
            expected = state.to_json()
        assert state.to_json() == expected
    # A state that lacks a field fails as in the plain code.
    broken = base.clone()
    object.__delattr__(broken, "history")
    assert codec.write(broken) is None
    with pytest.raises(AttributeError):
        broken.to_json()


@pytest.mark.parametrize("name", NAMES)
def test_the_reader_reads_every_state_as_the_plain_code(name: str) -> None:
    done = set()
    for state in every_state(name):
        text = state.to_json()
        game = state.game
        done.add(assert_read_alike(game, text, canonical=True))
        assert assert_read_alike(game, text_of(as_position(state)), canonical=True) == "read"
        assert_read_alike(game, text.encode(), canonical=True)
    assert done == {"read"}


@pytest.mark.parametrize("name", NAMES)
def test_other_spellings_are_read_alike_or_left(name: str) -> None:
    for state in states_of(name, 4):
        text = state.to_json()
        data = json.loads(text)
        game = state.game
        shuffled = dict(sorted(data.items(), key=lambda item: item[0][::-1]))
        spellings: list[object] = [
            json.dumps(data),
            json.dumps(data, indent=2),
            " \n" + text + "\t ",
            json.dumps(shuffled, separators=(",", ":")),
            text.replace('"log":', '"log" : ', 1),
            text.replace('"format":', '"\\u0066ormat":', 1),
            text_of({**data, "turn": float(data["turn"])}),
            text.replace(',"turn":', ',"turn":0,"turn":', 1),
            text[:-1] + ',"cur":' + json.dumps(data["cur"]) + "}",
            "\ufeff" + text,
            text + "\x00",
            text.replace("}", "} x", 1),
            bytearray(text.encode()),
            text.replace('"format":"', '"format":"\u00e9', 1),
            text.replace('"format":"', '"format":"\\u00e9', 1),
        ]
        for spelling in spellings:
            assert_read_alike(game, spelling, canonical=False)
            with plain(name):
                try:
                    expected: object = game.state_from_json(spelling).to_json()  # type: ignore[arg-type]
                except StateFormatError as exc:
                    expected = str(exc)
            try:
                got: object = game.state_from_json(spelling).to_json()  # type: ignore[arg-type]
            except StateFormatError as exc:
                got = str(exc)
            assert got == expected


def changed_inputs(name: str, players: int, *, share: bool = False) -> Iterator[tuple[Game, str]]:
    """The changed inputs of the conformance tests, and a forger's changes, as text.

    Every one, or with ``share`` the suite's share of them: every forger's change; every
    other change of the log; every change of the top level of the state as dealt, and every
    8th of the state read as a position (the same fields, nothing replayed). The share is
    about half, and meets every reason for a refusal that the whole meets
    (``benchmarks/serialization_changes.py`` checks the whole and counts them).
    """
    game = get_game(name, players)
    rng = random.Random(f"compiled/{name}/{players}")
    for state in states_of(name, players):
        for dealt, data in ((True, json.loads(state.to_json())), (False, as_position(state))):
            top = 1 if dealt or not share else 8
            log = 2 if share else 1
            for changed in itertools.islice(changed_top_level(data), 0, None, top):
                yield game, text_of(changed)
            for changed in itertools.islice(changed_log(data, entries=4), 0, None, log):
                yield game, text_of(changed)
            for changed in changed_values(data, rng, 30):
                yield game, text_of(changed)


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, p in CASES if p in (2, 5)])
def test_changed_states_are_refused_or_read_alike(name: str, players: int) -> None:
    seen = {"read": 0, "refused": 0, "left": 0}
    for game, text in changed_inputs(name, players, share=True):
        seen[assert_read_alike(game, text, canonical=True)] += 1
    assert seen["read"] > 50 and seen["refused"] > 500


@pytest.mark.parametrize("name", NAMES)
def test_states_under_every_option_set_changed_are_read_alike(name: str) -> None:
    rng = random.Random(f"options-changed/{name}")
    seen = set()
    for state in options_states(name):
        for changed in changed_values(as_position(state), rng, 12):
            seen.add(assert_read_alike(state.game, text_of(changed), canonical=True))
    assert {"read", "refused"} <= seen


def test_a_state_of_an_older_rules_version_is_left_to_the_plain_code() -> None:
    state = states_of("card_stock_market", 3)[1]
    data = json.loads(state.to_json())
    older = state.game.info.version - 1
    assert older in state.game.info.older_versions
    data["version"] = older
    text = text_of(data)
    assert codec_of("card_stock_market").read(state.game, text) is None
    assert state.game.state_from_json(text).to_json() == state.to_json()


def test_a_game_subclass_or_another_game_is_left_to_the_plain_code() -> None:
    state = states_of("take_stock", 3)[1]
    text = state.to_json()
    other = get_game("card_stock_market", 3)
    assert codec_of("take_stock").read(other, text) is None
    with pytest.raises(StateFormatError, match="not a Card Stock Market state"):
        other.state_from_json(text)

    class Variant(type(state.game)):  # type: ignore[misc]
        pass

    variant = Variant(players=3)
    assert codec_of("take_stock").read(variant, text) is None
    assert variant.state_from_json(text).to_json() == text


def replayed(engine: Callable[..., Any], game: Game, seed: int, history: Sequence[object]) -> Any:
    """What a replay gives: the state's JSON, or where and why it stopped."""
    try:
        return engine(game, seed, history).to_json()
    except replay.ReplayError as exc:
        return ("stopped", exc.entry, exc.reason)


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_replay_gives_the_references_states_and_refusals(name: str) -> None:
    compiled = replay.registered(name)
    assert compiled is not None
    game = get_game(name, 3)
    finished = states_of(name, 3)[2]
    history: list[object] = list(finished.history)
    rng = random.Random(9)
    cases: list[list[object]] = [history, history[:40], [*history, 0], []]
    for _ in range(12):
        changed = list(history)
        changed[rng.randrange(len(changed))] = rng.randrange(game.info.num_distinct_actions)
        cases.append(changed)
    for odd in ODD_ACTIONS:
        cases.append([*history[:10], odd, *history[11:]])
    # A numpy integer is an action too (State.apply coerces it), legal or not.
    cases.append([*history[:5], np.int64(history[5]), *history[6:]])
    cases.append([*history[:5], np.int64(history[5] + 1), *history[6:]])
    for case in cases:
        expected = replayed(replay.reference_replay, game, finished.seed, case)
        assert replayed(compiled, game, finished.seed, case) == expected


def test_a_registered_replay_of_ones_own_is_called_for_dealt_states() -> None:
    state = states_of("take_stock", 3)[1]
    calls = []

    def noted(game: Game, seed: int, history: Sequence[int]) -> State:
        calls.append(seed)
        return replay.reference_replay(game, seed, history)

    kept = replay.registered("take_stock")
    assert kept is not None
    replay.register("take_stock", noted)
    try:
        assert codec_of("take_stock").read(state.game, state.to_json()) is None
        assert state.game.state_from_json(state.to_json()).to_json() == state.to_json()
        assert calls == [state.seed]
        # A position is not replayed: the compiled reader keeps it.
        assert codec_of("take_stock").read(state.game, text_of(as_position(state))) is not None
    finally:
        replay.register("take_stock", kept)


@pytest.mark.parametrize("engine", ["reference", "native"])
def test_serialization_switches_between_the_engines(engine: str) -> None:
    codecs = {name: serial.registered_codec(name) for name in NAMES}
    replays = {name: replay.registered(name) for name in NAMES}
    try:
        for name in NAMES:
            native.serialization(name, engine)
            assert (serial.registered_codec(name) is None) == (engine == "reference")
            assert (replay.registered(name) is None) == (engine == "reference")
            state = states_of(name, 2)[1]
            assert state.game.state_from_json(state.to_json()).to_json() == state.to_json()
    finally:
        for name in NAMES:
            native.serialization(name)
            assert type(serial.registered_codec(name)) is type(codecs[name])
            assert replay.registered(name) is replays[name]
    with pytest.raises(ValueError, match="engine must be one of"):
        native.serialization("take_stock", "fast")


@pytest.mark.parametrize("name", NAMES)
def test_the_log_reader_reads_logs_as_the_plain_code(name: str) -> None:
    from closingbell.native import _serial

    cls = get_game(name, 2).state_class
    reader = _serial.LogReader(cls.EVENT_FIELDS, cls.EVENT_VALUES, "game_over")
    rng = random.Random(4)
    for players in (2, 5):
        for state in states_of(name, players):
            log = json.loads(state.to_json())["log"]
            variants = [log] + [changed["log"] for changed in changed_log({"log": log}, entries=3)]
            for _ in range(20):
                changed = next(changed_values({"log": log, "from_deal": True}, rng, 1))
                variants.append(changed["log"])
            for variant in variants:
                if not isinstance(variant, list):
                    continue  # the shape of the field refuses it before the log is read
                try:
                    expected: object = serial.read_log(
                        variant, "t", cls.EVENT_FIELDS, cls.EVENT_VALUES, players
                    )
                except StateFormatError:
                    expected = None
                got = reader.read_text(json.dumps(variant, separators=(",", ":")), players)
                if expected is None or got is None:
                    assert got == expected
                else:
                    assert typed(got) == typed(expected)


DESCRIBED = sorted(name for name, check in CHECKS.items() if serial.describe(check) is not None)


@pytest.mark.parametrize("name", DESCRIBED)
@given(value=json_values, hidden=json_values, players=st.integers(2, 6))
def test_the_log_reader_checks_each_value_as_its_check(
    name: str, value: object, hidden: object, players: int
) -> None:
    from closingbell.native import _serial

    check = CHECKS[name]
    fields, values = {"k": ("v",)}, {"k": (check,)}
    reader = _serial.LogReader(fields, values)
    private = [["k", hidden], ["k", None], ["k", json.loads(json.dumps(value))]]
    for entry in ([None, ["k", value], None], *([players - 1, ["k", value], r] for r in private)):
        try:
            expected: object = serial.read_log([entry], "t", fields, values, players)
        except StateFormatError:
            expected = None
        got = reader.read_text(json.dumps([entry]), players)
        assert typed(got) == typed(expected)
