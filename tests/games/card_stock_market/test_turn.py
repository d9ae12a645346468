"""The turn: trading and market changes in either order, or discarding, then drawing to eight."""

from __future__ import annotations

from typing import Any

import pytest

from closingbell import IllegalActionError

from .craft import assert_refused, card, cards, legal_texts, play, position

HAND = ["7D", "QD", "2S", "3S", "10C", "AH", "KH", "5H"]
STATE = (
    f"market: 6D 5H 4S; hands: {' '.join(HAND)} / ... / ...; certs: 9C / - / -; "
    "draw: 8C 8D 8H 8S ..."
)


def _state(more: str = "") -> Any:
    return position(f"{STATE}; {more}")


def test_the_first_decision_offers_everything() -> None:
    texts = legal_texts(_state())
    assert {"buy 7D", "sell 9C", "market 7D", "bankrupt QD", "discard 7D", "done"} <= set(texts)
    assert texts == [t for _, t in sorted((_state().string_to_action(t), t) for t in texts)]


def test_trading_first_then_the_market() -> None:
    st = _state()
    play(st, "buy 7D")
    assert st.decision == "trading"
    texts = legal_texts(st)
    assert "sell 9C" in texts and "market 5S" not in texts and "market 2S" in texts
    assert not [t for t in texts if t.startswith("discard")]
    play(st, "market 2S")
    assert st.decision == "market"
    assert_refused(
        st, "sell 9C", "the transactions must be made together, before the market changes"
    )
    play(st, "market 3S")  # the second change ends the turn: both phases are over
    assert st.current_player == 1
    assert sorted(st.hands[0]) == sorted(
        [card(c) for c in ["QD", "10C", "AH", "KH", "5H", "8C", "8D", "8H"]]
    )


def test_the_market_first_then_trading() -> None:
    st = _state()
    play(st, "market 7D")
    assert "buy QD" in legal_texts(st) and "market 2S" in legal_texts(st)
    play(st, "sell 9C")
    assert_refused(
        st, "market 2S", "the market changes must be made together, before the transactions"
    )
    assert st.prices[1] == 7
    play(st, "buy AH")
    assert st.current_player == 1


def test_either_phase_may_be_skipped_or_cut_short() -> None:
    st = _state()
    play(st, "sell 9C", "done")
    assert st.current_player == 1 and len(st.hands[0]) == 8
    st = _state()
    play(st, "done")  # a turn doing nothing at all
    assert st.current_player == 1 and st.hands[0] == sorted(card(c) for c in HAND)


def test_discarding_instead_of_a_turn() -> None:
    st = _state()
    play(st, "discard 7D", "discard 2S")
    assert st.decision == "discarding"
    texts = legal_texts(st)
    assert texts[-1] == "done" and all(t.startswith("discard") for t in texts[:-1])
    assert_refused(st, "buy 10C", "a player who discards neither buys nor sells that turn")
    assert_refused(st, "market 3S", "a player who discards does not change the market")
    play(st, "done")
    assert st.discard[-2:] == [card("7D"), card("2S")]
    assert len(st.hands[0]) == 8 and st.current_player == 1


def test_at_most_four_discards_then_the_turn_ends() -> None:
    st = _state()
    play(st, "discard 7D", "discard 2S", "discard 3S", "discard AH")
    assert st.current_player == 1 and len(st.hands[0]) == 8
    assert [card(c) for c in ["8C", "8D", "8H", "8S"]] == sorted(
        set(st.hands[0]) - {card(c) for c in HAND}
    )


def test_discarding_from_a_position_mid_turn() -> None:
    # Two cards discarded already (they lie on the discard pile): two more at most.
    st = position(
        "decide: 0 discarding; discarded: 2; hands: 7D QD 10C AH KH 5H / ... / ...; "
        "discard: 3S 2S ...; draw: 8C 8D 8H 8S ..."
    )
    texts = legal_texts(st)
    assert texts[-1] == "done" and all(t.startswith("discard") for t in texts[:-1])
    play(st, "discard 7D", "discard QD")  # the fourth discard ends the turn
    assert st.current_player == 1 and st.turns == 2
    assert sorted(st.hands[0]) == sorted(cards(["10C", "AH", "KH", "5H", "8C", "8D", "8H", "8S"]))


def test_no_discarding_after_trading() -> None:
    st = _state()
    play(st, "buy 7D")
    assert_refused(st, "discard 2S", "a player who trades or changes the market does not discard")


def test_drawing_back_up_to_eight_is_private() -> None:
    st = _state()
    play(st, "buy 7D", "sell 9C", "market 2S")
    assert st.current_player == 0  # one more market change may follow
    play(st, "done")
    draws = [e for e in st.visible_events(1) if e["type"] == "draw"]
    assert draws == [{"type": "draw", "seat": 0, "count": 2, "cards": None}]
    assert [e for e in st.visible_events(None) if e["type"] == "draw"] == draws
    draws = [e for e in st.visible_events(0) if e["type"] == "draw"]
    assert draws == [{"type": "draw", "seat": 0, "count": 2, "cards": [card("8C"), card("8D")]}]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("buy 9S", "9S is not in seat 0's hand"),
        ("sell 5H", "seat 0 holds no 5H certificate"),
        ("market 9S", "9S is not in seat 0's hand"),
        ("discard 9S", "9S is not in seat 0's hand"),
        ("market 10C", "Clubs may rise by at most $3 a card; 10C would raise it from $5 to $10"),
    ],
)
def test_refused_with_a_reason(action: str, reason: str) -> None:
    assert_refused(_state(), action, reason)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (True, "must be an integer id, not bool"),
        ("buy 7D", "must be an integer id, not str"),
        (-1, "action ids run from 0 to 220"),
        (221, "action ids run from 0 to 220"),
    ],
)
def test_refused_when_not_an_action_id(action: Any, reason: str) -> None:
    st = _state()
    before = st.to_json()
    with pytest.raises(IllegalActionError, match=reason):
        st.apply(action)
    assert st.to_json() == before


def test_nothing_is_legal_once_the_game_is_over() -> None:
    st = _state("jokers: draw")
    st2 = position(f"hands: {' '.join(HAND)} / ... / ...; draw: Joker ...")
    play(st2, "discard 7D", "done")
    assert st2.is_terminal() and st2.legal_actions() == []
    assert_refused(st2, "done", "the game is over")
    assert st.current_player == 0
