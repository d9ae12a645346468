"""Take Stock states read back from JSON: pending decisions that could never happen are refused.

Each state is reached by real moves from a short position (read back as a position, since
its history does not start at the deal) and then changed in one way that keeps every card
and token in the game, so only the check of the decision itself can refuse it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from closingbell import StateFormatError
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.game import TakeStockState

from .craft import card, event, play, position

OIL = 2
Data = dict[str, Any]


def _refused(st: TakeStockState, change: Callable[[Data], None]) -> str:
    data = json.loads(st.to_json())
    st.game.state_from_json(json.dumps(data))  # untouched, it is read back
    change(data)
    with pytest.raises(StateFormatError) as info:
        st.game.state_from_json(json.dumps(data))
    return str(info.value)


def _with_saved(name: str, text: str = "") -> TakeStockState:
    return position(f"""
        hands: Corn2 Corn3 Gem5 / Gem2 Gem3 / Tech2
        saved: {name} / - / -
        {text}
    """)


def test_an_audit_cannot_ask_about_a_split_that_is_not_there() -> None:
    st = _with_saved("Audit", "oil: 1 3 7 split")
    play(st, "play Audit", "discard Corn 2", "audit Oil")
    assert st.decision == "audit_what"

    def no_split(d: Data) -> None:
        # The split card goes to the event discard pile: all 40 cards are still there.
        d["splits"][OIL] = 0
        d["ev_discard"].append(C.SPLIT + OIL)
        d["ev_discard_mask"].append(15)

    assert "'ev_stock'" in _refused(st, no_split)


def test_a_discard_for_a_played_event_needs_the_event() -> None:
    st = _with_saved("SplitOil")
    play(st, "play Split Oil")
    assert st.decision == "discard" and st.ev_active == event("Split Oil")

    def lost_event(d: Data) -> None:
        d["ev_discard"].append(d["ev_active"])
        d["ev_discard_mask"].append(15)
        d["ev_active"] = -1

    assert "'ev_active'" in _refused(st, lost_event)


def test_the_downturn_queue_follows_the_turn_order() -> None:
    st = _with_saved("Downturn")
    play(st, "play Downturn", "discard Corn 2")
    assert st.decision == "downturn_discard" and st.queue == [0, 1, 2]
    play(st, "discard Gem 5")

    def out_of_order(d: Data) -> None:
        # Seat 2 before seat 1, as if seat 1 had already discarded.
        d["queue"] = [2, 1]
        d["cur"] = 2

    assert "'queue'" in _refused(st, out_of_order)

    def nothing_hidden(d: Data) -> None:
        d["hands"][0] = sorted(d["hands"][0] + d["hidden"][0])
        d["hidden"][0] = []

    assert "'hidden'[0]" in _refused(st, nothing_hidden)


def test_insider_trading_cannot_owe_more_discards_than_cards_retrieved() -> None:
    st = _with_saved("InsiderOil", "discard: Oil9 Oil5")
    play(st, "play Insider Oil", "discard Corn 2", "retrieve Oil 5", "retrieve done")
    assert st.decision == "insider_discard" and st.owed == 1

    def owes_two(d: Data) -> None:
        d["owed"] = 2

    assert "'owed'" in _refused(st, owes_two)


def test_an_exercise_needs_a_token_per_card() -> None:
    st = position("""
        tech: 1 7
        hands: Tech11 Corn2 Corn3 / ... / ...
        tokens: 1 / 2 / 3
    """)
    play(st, "raise Tech 11", "exercise Corn 2")
    assert st.decision == "exercise" and st.current_player == 1
    assert st.hidden[0] == [card("Corn 2")]

    def no_token(d: Data) -> None:
        d["tokens"][0] = 0
        d["supply"] += 1

    assert "'hidden'[0]" in _refused(st, no_token)
