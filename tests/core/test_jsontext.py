"""The bounded JSON reader every front end uses for untrusted text."""

from __future__ import annotations

import json

import pytest

from closingbell import StateFormatError
from closingbell.core.jsontext import (
    MAX_JSON_DEPTH,
    InvalidJSON,
    JSONDepthError,
    check_json_depth,
    load_json,
    read_json,
)


def nested(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


def test_depth_up_to_the_limit_is_read() -> None:
    assert load_json(nested(MAX_JSON_DEPTH)) == json.loads(nested(MAX_JSON_DEPTH))
    assert load_json(b'{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 990, 100_000])
def test_deeper_nesting_is_refused_before_parsing(depth: int) -> None:
    with pytest.raises(JSONDepthError, match=f"deeper than {MAX_JSON_DEPTH} levels"):
        load_json(nested(depth))
    mixed = '{"a":' * depth + "1" + "}" * depth
    with pytest.raises(JSONDepthError):
        load_json(mixed)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps(["[" * 500, "{" * 500, 'a"[[[[', "\\"])
    assert load_json(text) == json.loads(text)
    # An escaped backslash ends the string: the brackets after it count.
    with pytest.raises(JSONDepthError):
        check_json_depth('["\\\\"' + "[" * (MAX_JSON_DEPTH + 1))


def test_a_smaller_limit_can_be_asked_for() -> None:
    load_json(nested(3), limit=3)
    with pytest.raises(JSONDepthError):
        load_json(nested(4), limit=3)


@pytest.mark.parametrize("text", ["[NaN]", "Infinity", "[-Infinity]", "[1,", '"abc', "{'a': 1}"])
def test_what_is_not_json_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        load_json(text)


def test_hostile_strings_are_scanned_in_one_pass() -> None:
    # Unterminated strings full of escaped quotes: a backtracking scan would take minutes.
    for text in ['"' + '\\"' * 200_000, '"a' * 200_000, '"' * 200_001]:
        with pytest.raises(ValueError):
            load_json(text)


def test_a_text_that_may_be_too_deep_is_scanned_even_when_read() -> None:
    deep = "[" * 70 + "]" * 70

    def read(value: object) -> object:
        return value

    assert read_json("[[1]]", read, lambda value: None) == [[1]]
    with pytest.raises(InvalidJSON, match="nest deeper than 64"):
        read_json(deep, read, lambda value: None)
    with pytest.raises(InvalidJSON, match="nest deeper than 64"):
        read_json(deep, read, lambda value: 65)


def test_what_the_reader_refuses_is_scanned_first() -> None:
    def refuse(value: object) -> object:
        raise StateFormatError("no")

    with pytest.raises(StateFormatError, match="no"):
        read_json("[1]", refuse, lambda value: 1)
    with pytest.raises(InvalidJSON, match="nest deeper"):
        read_json("[" * 65 + "]" * 65, refuse, lambda value: 1)
    for text, message in (("[1,", "Expecting value"), ("[NaN]", "NaN is not a JSON value")):
        with pytest.raises(InvalidJSON, match=message):
            read_json(text, refuse, lambda value: 1)
    with pytest.raises(InvalidJSON, match="nest deeper"):
        read_json("[" * 5000, refuse, lambda value: 1)
