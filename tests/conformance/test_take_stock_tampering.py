"""Take Stock states whose cards, tokens or bookkeeping were tampered with are refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from closingbell import StateFormatError
from tests.conformance.common import Position

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

Data = dict[str, Any]


def _extra_token(d: Data) -> None:
    d["tokens"][0] += 1


def _duplicate_card(d: Data) -> None:
    d["hands"][0][0] = d["hands"][1][0]
    d["hands"][0].sort()


def _card_from_the_pile(d: Data) -> None:
    # The card count stays right, the pool bookkeeping does not.
    d["hands"][0].append(d["draw"].pop())
    d["hands"][0].sort()


def _lost_card(d: Data) -> None:
    d["draw"].pop()


def _extra_event(d: Data) -> None:
    d["ev_above"].append(d["ev_above"][0])


def _unsorted_hand(d: Data) -> None:
    d["hands"][0].reverse()


def _impossible_row(d: Data) -> None:
    d["rows"][0].append(13)


def _known_card_not_held(d: Data) -> None:
    d["known"][0].append(d["hands"][1][0])


def _nobody_decides(d: Data) -> None:
    d["cur"] = len(d["hands"])


def _unknown_phase(d: Data) -> None:
    d["phase"] = 99


def _negative_supply(d: Data) -> None:
    # The total of 30 tokens is kept: only the sign is wrong.
    d["tokens"][0] += d["supply"] + 1
    d["supply"] = -1


TAMPERS: list[Callable[[Data], None]] = [
    _extra_token,
    _duplicate_card,
    _card_from_the_pile,
    _lost_card,
    _extra_event,
    _unsorted_hand,
    _impossible_row,
    _known_card_not_held,
    _nobody_decides,
    _unknown_phase,
    _negative_supply,
]


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda t: t.__name__.strip("_"))
def test_tampered_state_is_refused(players: int, tamper: Callable[[Data], None]) -> None:
    state = Position("take_stock", players, 4, 25).build()
    data = json.loads(state.to_json())
    assert len(data["hands"][0]) > 1 and data["hands"][1] and len(data["draw"]) > 1
    state.game.state_from_json(json.dumps(data))  # untouched, it is accepted
    tamper(data)
    with pytest.raises(StateFormatError):
        state.game.state_from_json(json.dumps(data))
