"""Rules options carry their checks as data: kind, bounds, choices, whether null is allowed."""

from __future__ import annotations

import dataclasses

import pytest

import closingbell
from closingbell.core.errors import OptionError
from closingbell.core.options import (
    Boolean,
    Check,
    Choice,
    Integer,
    IntTuple,
    Seat,
    boolean,
    choice,
    int_tuple,
    integer,
    option_infos,
    seat,
)
from closingbell.core.registry import available_games


def test_each_check_describes_what_it_accepts() -> None:
    assert choice("a", "b").describe() == {
        "kind": "choice",
        "nullable": False,
        "values": ["a", "b"],
    }
    assert boolean().describe() == {"kind": "boolean", "nullable": False}
    assert integer(1, 4).describe() == {"kind": "integer", "min": 1, "max": 4, "nullable": False}
    assert integer(0, 9, allow_none=True).describe()["nullable"] is True
    assert seat(allow_none=True).describe() == {"kind": "seat", "nullable": True}
    assert int_tuple(3, 0, 5).describe() == {
        "kind": "int_tuple",
        "nullable": False,
        "length": 3,
        "min": 0,
        "max": 5,
    }


@pytest.mark.parametrize(
    ("check", "good", "bad"),
    [
        (choice("a", "b"), "a", "c"),
        (boolean(), True, 1),
        (integer(1, 4), 4, 5),
        (integer(1, 4, allow_none=True), None, 0),
        (seat(), 5, 6),
        (int_tuple(2, 0, 3), (0, 3), (0, 4)),
    ],
)
def test_the_described_checks_still_refuse_with_a_reason(
    check: Check, good: object, bad: object
) -> None:
    assert check("x", good) == good
    with pytest.raises(OptionError, match="option 'x' must be"):
        check("x", bad)


def test_checks_are_data() -> None:
    assert integer(1, 4) == Integer(1, 4) and hash(integer(1, 4)) == hash(Integer(1, 4))
    assert isinstance(seat(), Seat) and isinstance(boolean(), Boolean)
    assert isinstance(choice("a"), Choice) and isinstance(int_tuple(1, 0, 1), IntTuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        integer(1, 4).low = 0  # type: ignore[misc]


@pytest.mark.parametrize("name", available_games())
def test_every_option_of_every_game_has_a_check_that_accepts_its_default(name: str) -> None:
    game = closingbell.load_game(name, players=2)
    infos = option_infos(type(game.options))
    assert infos and "players" not in [o.name for o in infos]
    for info in infos:
        default = info.default
        assert info.check(info.name, default) == default
        described = info.check.describe()
        if described["kind"] == "choice":
            assert default in described["values"]
        if described["kind"] == "int_tuple":
            assert len(default) == described["length"]
        if default is None:
            assert described["nullable"] is True


def test_a_seat_option_is_still_bounded_by_the_players() -> None:
    with pytest.raises(OptionError, match="seat from 0 to 1"):
        closingbell.load_game("take_stock", players=2, first_dealer=2)
    assert closingbell.load_game("take_stock", players=3, first_dealer=2).options.first_dealer == 2
