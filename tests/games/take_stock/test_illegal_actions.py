"""Illegal actions are refused with a reason, and the state stays exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from closingbell import IllegalActionError

from .craft import assert_refused, play, position


def _state() -> Any:
    return position("""
        oil: 1 3
        tech: 1 7
        gem: 1 freeze
        hands: Oil5 Corn9 Gem4 / Tech2 Tech3 / ...
        certs: Movie2 Movie3 / - / -
        saved: Audit InsiderOil / - / -
        discard: Corn4 Oil8
        events: NoChange Upturn ...
    """)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("raise Oil 9", "Oil 9 is not in seat 0's hand"),
        ("raise Corn 9", "a raise may add at most 4"),
        ("raise Gem 4", "Gem is frozen"),
        ("save Oil 5", "the Limit rule: seat 0 has 2 certificates and the longest row has 2"),
        ("save Tech 2", "Tech 2 is not in seat 0's hand"),
        ("play Freeze", "seat 0 has no saved Freeze card"),
        ("play Market Closed", "Market Closed can never be saved or played"),
        ("discard Oil 5", "the pending decision is 'action' for seat 0"),
        ("choose Audit", "the pending decision is 'action'"),
        ("exercise Oil 5", "the pending decision is 'action'"),
        ("retrieve done", "the pending decision is 'action'"),
    ],
)
def test_refused_on_the_turn_action(action: str, reason: str) -> None:
    assert_refused(_state(), action, reason)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (True, "must be an integer id, not bool"),
        ("raise Oil 5", "must be an integer id, not str"),
        (None, "must be an integer id"),
        (-1, "action ids run from 0 to 363"),
        (364, "action ids run from 0 to 363"),
    ],
)
def test_refused_when_not_an_action_id(action: Any, reason: str) -> None:
    st = _state()
    before = st.to_json()
    with pytest.raises(IllegalActionError, match=reason):
        st.apply(action)
    assert st.to_json() == before


def test_refused_in_later_decisions() -> None:
    st = _state()
    play(st, "market A")
    assert_refused(st, "discard Tech 2", "Tech 2 is not in seat 0's hand")
    assert_refused(st, "market B", "the pending decision is 'discard' for seat 0")
    play(st, "discard Corn 9")
    assert_refused(st, "choose Audit", "that event is not one of the two cards drawn")
    play(st, "choose No Change")
    assert st.current_player == 1
    assert_refused(st, "raise Oil 5", "Oil 5 is not in seat 1's hand")


def test_refused_while_retrieving() -> None:
    st = _state()
    play(st, "play Insider Oil", "discard Gem 4")
    assert st.decision == "retrieve"
    assert_refused(st, "retrieve Corn 4", "retrieves only that stock")
    assert_refused(st, "retrieve Oil 9", "Oil 9 is not in the shares discard pile")
    assert_refused(st, "discard Oil 5", "the pending decision is 'retrieve'")


def test_refused_when_auditing_a_frozen_stock() -> None:
    st = _state()
    play(st, "play Audit", "discard Gem 4")
    assert_refused(st, "audit Gem", "a frozen stock cannot be audited")
    assert_refused(st, "audit card", "the pending decision is 'audit_stock'")


def test_refused_when_exercising_a_card_not_held() -> None:
    st = position("tech: 1 7; hands: Tech11 Corn2 / Oil2 / ...")
    play(st, "raise Tech 11")
    assert st.decision == "exercise"
    assert_refused(st, "exercise Oil 2", "Oil 2 is not in seat 0's hand")


def test_refused_after_the_game_is_over() -> None:
    st = position("tech: 1 7; hands: Tech11 Corn2 / ... / ...; tokens: 0 / 0 / 0", rounds=1)
    play(st, "raise Tech 11")
    assert st.is_terminal()
    assert_refused(st, "market A", "the game is over")
