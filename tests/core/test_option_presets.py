"""A list-of-numbers option may name presets: accepted by name, kept as numbers, offered to
front ends (Card Stock Market's ``strip="graded"``)."""

from __future__ import annotations

import pytest

from closingbell import OptionError
from closingbell.core.options import int_tuple
from closingbell.text.games import options_for_people

CHECK = int_tuple(3, 0, 5, {"low": [1, 1, 1], "high": (5, 4, 5)})


def test_a_preset_name_becomes_its_numbers() -> None:
    assert CHECK("table", "low") == (1, 1, 1)
    assert CHECK("table", "high") == (5, 4, 5)
    assert CHECK("table", [2, 3, 4]) == (2, 3, 4)


@pytest.mark.parametrize("value", ["middle", "LOW", [1, 2], [1, 2, 6], None])
def test_anything_else_is_refused_naming_the_presets(value: object) -> None:
    with pytest.raises(
        OptionError, match=r"list of 3 integers from 0 to 5, or one of 'low', 'high'"
    ):
        CHECK("table", value)


def test_without_presets_a_name_is_refused_as_before() -> None:
    with pytest.raises(OptionError, match=r"from 0 to 5, not 'low'$"):
        int_tuple(3, 0, 5)("table", "low")


def test_the_presets_are_described_in_order() -> None:
    described = CHECK.describe()
    assert described["presets"] == {"low": [1, 1, 1], "high": [5, 4, 5]}
    assert list(described["presets"]) == ["low", "high"]
    assert "presets" not in int_tuple(3, 0, 5).describe()


def test_a_preset_outside_the_bounds_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="preset 'big' is not 3 integers from 0 to 5"):
        int_tuple(3, 0, 5, {"big": [9, 9, 9]})


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_front_ends_get_each_preset_with_its_label(lang: str) -> None:
    strip = next(r for r in options_for_people("card_stock_market", lang) if r["name"] == "strip")
    assert [p["value"] for p in strip["presets"]] == ["uniform", "graded"]
    assert strip["presets"][1]["numbers"] == [2, 2, 4, 2, 4, 4, 2, 3]
    assert strip["default"] == strip["presets"][0]["numbers"]
    assert all(p["label"] and p["label"] != p["value"] for p in strip["presets"])
