"""BASELINE ONLY: state serialization as closingbell did it before it was made faster.

This module is a frozen copy of the old ``State.to_json`` / ``to_dict`` and
``Game.state_from_json`` / ``State.from_dict`` with the helpers of ``core.serial`` they
called, rewritten as plain functions. It is not used by closingbell itself: the benchmark
``bench_serialization.py`` times it against today's code, and
``tests/conformance/test_serialization_baseline.py`` checks that today's code writes the
same text and refuses the same inputs with the same messages. Do not change it to follow
the library: it stands for what was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import Any

from closingbell.core.checks import MAX_INT, shown
from closingbell.core.errors import IllegalActionError, RulesVersionError, StateFormatError
from closingbell.core.events import Entry
from closingbell.core.game import Game, State
from closingbell.core.rng import SEED_BITS

MAX_JSON_DEPTH = 64
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"?')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
HEADER_KEYS = ("format", "version", "options", "from_deal")


class JSONDepthError(ValueError):
    """JSON text nested more deeply than allowed."""


def check_json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    brackets = _NOT_BRACKETS.sub("", _JSON_STRING.sub("", text))
    if len(brackets) > limit and max(accumulate(map(_DEPTH_STEP.__getitem__, brackets))) > limit:
        raise JSONDepthError(f"arrays and objects nest deeper than {limit} levels")


def load_json(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> Any:
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    check_json_depth(text, limit)
    return json.loads(text, parse_constant=_refuse_constant)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


def fits(value: Any, shape: str) -> bool:
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
    if shape == "list of list of int":
        return [list(v) for v in value]
    if shape.startswith("list"):
        return json.loads(json.dumps(value)) if shape == "list" else list(value)
    return value


def check_fields(data: Mapping[str, Any], shapes: Mapping[str, str], title: str) -> None:
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
    return tuple(_tuplify(v) if type(v) is list else v for v in values)


def _seat(value: Any, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def _check_form(
    form: Any,
    fields: Mapping[str, Sequence[str]],
    values: Mapping[str, Sequence[Any]],
    players: int,
) -> str | None:
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
    for name, value, hidden in zip(names, full[1:], redacted[1:], strict=True):
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
    values: Mapping[str, Sequence[Any]],
    players: int,
) -> list[Entry]:
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
    return {"format": fmt, "version": game.info.version, "options": game.options_dict()}


# ---------------------------------------------------------------------- State and Game


def to_dict(state: State) -> dict[str, Any]:
    """The old ``State.to_dict``: every field dumped and parsed again."""
    out = header(state.game, state.FORMAT)
    out["from_deal"] = state.from_deal
    for name in state.SHAPES:
        out[name] = json.loads(json.dumps(getattr(state, name)))
    return out


def to_json(state: State) -> str:
    """The old ``State.to_json``."""
    return json.dumps(to_dict(state), sort_keys=True, separators=(",", ":"))


def state_from_json(game: Game, text: str | bytes) -> State:
    """The old ``Game.state_from_json``."""
    try:
        data = load_json(text)
    except (TypeError, ValueError) as exc:
        raise StateFormatError(f"not valid JSON: {exc}") from None
    return from_dict(game.state_class, game, data)


def from_dict(cls: type[State], game: Game, data: Any) -> State:
    """The old ``State.from_dict``."""
    title = game.info.title
    check_header(data, game, cls.FORMAT)
    check_fields(data, cls.SHAPES, title)
    n = game.options.players
    _check_turn(data, n, len(cls.PHASE_NAMES), game.info.num_distinct_actions, title)
    log = read_log(data["log"], title, cls.EVENT_FIELDS, cls.EVENT_VALUES, n)
    st = cls.__new__(cls)
    st.game = game
    st.n = n
    for name, shape in cls.SHAPES.items():
        if name != "log":
            setattr(st, name, copy_value(data[name], shape))
    st.log = log
    st.from_deal = data["from_deal"]
    st._legal = None
    st._after_read()
    try:
        st.check_invariants()
        _check_game_over(st)
    except (AssertionError, TypeError, ValueError, IndexError, KeyError) as exc:
        raise StateFormatError(f"inconsistent {title} state: {exc}") from None
    if data["from_deal"]:
        return _replayed(st, data)
    return st


def _check_game_over(state: State) -> None:
    log = state.log
    for i, (_, full, _) in enumerate(log):
        if full[0] == "game_over":
            expected = ("game_over", tuple(state.scores()), tuple(state.winners()))
            if i != len(log) - 1 or not state.is_terminal() or full != expected:
                raise AssertionError(
                    f"'log' entry {i} (game_over) must be the last of a finished game "
                    "and give its scores and winners"
                )
    finished = log and state.is_terminal() and "game_over" in state.EVENT_FIELDS
    if finished and log[-1][1][0] != "game_over":
        raise AssertionError("the 'log' of a finished game must end with game_over")


def _replayed(state: State, data: Mapping[str, Any]) -> State:
    title = state.game.info.title
    fresh = state.game.new_game(state.seed, engine="reference")
    for i, action in enumerate(state.history):
        if fresh.is_terminal():
            raise StateFormatError(
                f"inconsistent {title} state: 'history' goes on after the game is over (entry {i})"
            )
        try:
            fresh.apply(action)
        except IllegalActionError as exc:
            raise StateFormatError(
                f"inconsistent {title} state: 'history' entry {i} cannot be replayed "
                f"from the seed: {exc}"
            ) from None
    for name in state.SHAPES:
        if json.dumps(data[name]) != json.dumps(getattr(fresh, name)):
            raise StateFormatError(
                f"inconsistent {title} state: {name!r} is not what the 'seed' and the "
                "'history' make of the deal"
            )
    if not isinstance(fresh, type(state)):
        raise StateFormatError(f"{title} made a state of another class")
    return fresh


def _check_turn(data: Mapping[str, Any], n: int, phases: int, actions: int, title: str) -> None:
    cur = data.get("cur")
    if cur is not None and not 0 <= cur < n:
        raise StateFormatError(
            f"malformed {title} state: 'cur' must be a seat from 0 to {n - 1} or null, "
            f"not {shown(cur)}"
        )
    phase = data.get("phase")
    if not isinstance(phase, int) or not 0 <= phase < phases:
        raise StateFormatError(
            f"malformed {title} state: 'phase' must be from 0 to {phases - 1}, not {shown(phase)}"
        )
    for i, action in enumerate(data.get("history", ())):
        if not 0 <= action < actions:
            raise StateFormatError(
                f"malformed {title} state: 'history' entry {i} is {shown(action)}, "
                f"not an action id (0 to {actions - 1})"
            )
