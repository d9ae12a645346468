"""The four turn actions: raising a price, saving a certificate, playing the market,
playing a saved event."""

from __future__ import annotations

import pytest

from closingbell.games.take_stock.game import TakeStockState

from .craft import assert_refused, card, cards, event, legal_names, play, position

OIL = 2


# ---------------------------------------------------------------------- raising a price


def _raise_state() -> TakeStockState:
    return position("""
        oil: 1 3
        gem: 1 freeze
        hands: Oil2 Oil4 Oil7 Oil8 Gem3 / ... / ...
    """)


def test_raise_by_one_to_four_only() -> None:
    st = _raise_state()
    raises = [a for a in legal_names(st) if a.startswith("raise")]
    assert raises == ["raise Oil 4", "raise Oil 7"]


def test_raise_puts_the_card_on_its_row_and_passes_the_turn() -> None:
    st = _raise_state()
    play(st, "raise Oil 7")
    assert st.rows[OIL] == [1, 3, 7] and st.prices()[OIL] == 7
    assert card("Oil 7") not in st.hands[0]
    assert st.current_player == 1
    assert {"type": "raise", "seat": 0, "card": card("Oil 7")} in st.visible_events(2)


def test_raise_refused_when_lower_with_reason() -> None:
    assert_refused(_raise_state(), "raise Oil 2", "Oil stands at 3", "must be higher")


def test_raise_refused_when_equal_because_that_card_is_on_the_row() -> None:
    assert_refused(_raise_state(), "raise Oil 3", "Oil 3 is not in seat 0's hand")


def test_raise_refused_by_five_with_reason() -> None:
    assert_refused(_raise_state(), "raise Oil 8", "Oil stands at 3", "at most 4")


def test_raise_refused_on_a_frozen_stock() -> None:
    assert_refused(_raise_state(), "raise Gem 3", "Gem is frozen")


@pytest.mark.parametrize(("top", "value"), [(7, 11), (10, 11), (8, 12)])
def test_raising_to_eleven_or_twelve_ends_the_round(top: int, value: int) -> None:
    st = position(f"""
        turn: 1
        tech: 1 {top}
        hands: ... / Tech{value} Corn2 / ...
        certs: - / - / Tech5
        tokens: 0 / 0 / 0
    """)
    play(st, f"raise Tech {value}")
    assert st.round_end_reasons() == ["high_card"]
    assert st.round_results() == [[0, 0, value]]  # one share at the closing price


# ---------------------------------------------------------------------- saving a certificate


def test_save_then_discard() -> None:
    st = position("hands: Oil5 Corn9 Gem2 / ... / ...")
    play(st, "save Corn 9")
    assert st.decision == "discard" and st.current_player == 0
    assert st.view(1).pending_discard_for == "save"
    assert legal_names(st) == ["discard Gem 2", "discard Oil 5"]
    play(st, "discard Oil 5")
    assert st.certs[0] == [card("Corn 9")]
    assert st.discard[-1] == card("Oil 5")
    assert st.hands[0] == [card("Gem 2")]
    assert st.current_player == 1


@pytest.mark.parametrize(("certificates", "may_save"), [(0, True), (1, False)])
def test_limit_rule_at_round_start(certificates: int, may_save: bool) -> None:
    st = position(f"""
        hands: Oil5 Corn9 / ... / ...
        certs: {" ".join(["Tech2", "Tech3"][:certificates]) or "-"} / - / -
    """)
    assert ("save Oil 5" in legal_names(st)) is may_save
    if not may_save:
        assert_refused(st, "save Oil 5", "Limit rule", "1 certificates", "1 cards")


@pytest.mark.parametrize(("counts_freeze", "may_save"), [(False, False), (True, True)])
def test_limit_counts_freeze_option(counts_freeze: bool, may_save: bool) -> None:
    st = position(
        """
        oil: 1 3
        gem: 1 5 freeze
        hands: Oil5 Corn9 / ... / ...
        certs: Tech2 Tech3 / - / -
        """,
        limit_counts_freeze=counts_freeze,
    )
    assert ("save Corn 9" in legal_names(st)) is may_save


def test_saving_with_two_cards_empties_the_hand_and_ends_the_round() -> None:
    st = position("""
        oil: 1 5
        hands: Oil9 Corn3 / ... / ...
        tokens: 0 / 0 / 0
    """)
    play(st, "save Oil 9", "discard Corn 3")
    assert st.round_end_reasons() == ["empty_hand"]
    assert st.round_results() == [[2 * 5, 0, 0]]  # the certificate saved counts


# ---------------------------------------------------------------------- playing the market


def test_market_a_draws_two_and_the_other_goes_face_down() -> None:
    st = position("""
        hands: Oil5 Corn9 / ... / ...
        events: NoChange Audit ...
    """)
    above = len(st.ev_above)
    play(st, "market A")
    assert st.decision == "discard" and st.ev_above[-1] == event("No Change")  # nothing drawn yet
    play(st, "discard Oil 5")
    assert st.decision == "choose_event" and len(st.ev_above) == above - 2
    assert legal_names(st) == ["choose Audit", "choose No Change"]
    assert st.view(0).drawn_events == (event("No Change"), event("Audit"))
    assert st.view(1).drawn_events == ()
    play(st, "choose No Change")
    assert st.current_player == 1
    # The Audit went face down: only the chooser knows it; the No Change was played openly.
    assert st.view(0).event_discard_known == (event("Audit"), event("No Change"))
    assert st.view(1).event_discard_known == (event("No Change"),)
    assert st.view(None).event_discard_known == (event("No Change"),)
    assert st.view(1).event_discard == 2
    seen_by_1 = [e for e in st.visible_events(1) if e["type"] == "event_discard"]
    assert seen_by_1 == [{"type": "event_discard", "seat": 0, "event": None}]
    seen_by_0 = [e for e in st.visible_events(0) if e["type"] == "event_discard"]
    assert seen_by_0 == [{"type": "event_discard", "seat": 0, "event": event("Audit")}]
    drew = {
        seat: [e for e in st.visible_events(seat) if e["type"] == "drew_events"]
        for seat in (0, 1, None)
    }
    pair = [event("No Change"), event("Audit")]
    assert drew[0] == [{"type": "drew_events", "seat": 0, "count": 2, "events": pair}]
    assert drew[1] == drew[None] == [{"type": "drew_events", "seat": 0, "count": 2, "events": None}]


def test_market_a_with_two_alike_offers_one_choice_and_may_ask_more() -> None:
    st = position("""
        oil: 1 3 7
        hands: Oil5 Corn9 / ... / ...
        events: Audit Audit ...
    """)
    play(st, "market A", "discard Corn 9")
    assert legal_names(st) == ["choose Audit"]
    play(st, "choose Audit")
    assert st.decision == "audit_stock" and st.current_player == 0
    play(st, "audit Oil")
    assert st.rows[OIL] == [1, 3] and st.current_player == 1
    assert st.view(0).event_discard_known == (event("Audit"), event("Audit"))
    assert st.view(1).event_discard_known == (event("Audit"),)


def test_market_b_keeps_the_card_hidden() -> None:
    st = position("hands: Oil5 Corn9 / ... / ...; events: SplitOil ...")
    play(st, "market B", "discard Corn 9")
    assert st.saved[0] == [event("Split Oil")]
    assert st.current_player == 1
    assert st.view(0).saved_events == (event("Split Oil"),)
    assert st.view(1).saved_events == ()
    assert st.view(1).saved_counts == (1, 0, 0)
    drawn = [e for e in st.visible_events(2) if e["type"] == "drew_events"]
    assert drawn == [{"type": "drew_events", "seat": 0, "count": 1, "events": None}]
    own = [e for e in st.visible_events(0) if e["type"] == "drew_events"]
    assert own == [{"type": "drew_events", "seat": 0, "count": 1, "events": [event("Split Oil")]}]


@pytest.mark.parametrize(
    ("option", "above"), [("A", ""), ("A", "Audit"), ("B", "")], ids=["A-first", "A-second", "B"]
)
def test_market_closed_drawn_ends_the_round(option: str, above: str) -> None:
    st = position(f"""
        turn: 1
        hands: ... / Oil5 Corn9 / ...
        events: {above} MarketClosed ...
    """)
    play(st, f"market {option}", "discard Oil 5")
    assert st.end_reason == "market_closed"
    assert st.decision == "exercise" and st.current_player == 1
    assert st.saved == [[], [], []] and st.pair == []
    # Market Closed is shown to everyone.
    for seat in (0, 1, 2, None):
        assert event("Market Closed") in st.view(seat).event_discard_known
    if above:
        # The card drawn with it has no effect and stays hidden from the others.
        assert event("Audit") in st.view(1).event_discard_known
        assert event("Audit") not in st.view(0).event_discard_known
        assert st.rows == [[1]] * 5
    play(st, "exercise done", "exercise done", "exercise done")
    assert st.round_end_reasons() == ["market_closed"]


def test_market_closed_can_never_be_played() -> None:
    st = position("hands: Oil5 Corn9 / ... / ...")
    assert_refused(st, "play Market Closed", "Market Closed can never be saved or played")


# ---------------------------------------------------------------------- playing a saved event


def test_playing_a_saved_event_discards_first_then_resolves() -> None:
    st = position("""
        oil: 1 3 7
        hands: Oil8 Corn9 / ... / ...
        saved: SplitOil Audit / - / -
    """)
    assert {"play Split Oil", "play Audit"} <= set(legal_names(st))
    play(st, "play Split Oil")
    assert st.decision == "discard" and st.saved[0] == [event("Audit")]
    assert st.view(1).pending_event == event("Split Oil")
    assert st.view(1).pending_discard_for == "play"
    assert st.rows[OIL] == [1, 3, 7] and st.splits[OIL] == 0  # not resolved yet
    play(st, "discard Corn 9")
    assert st.rows[OIL] == [1, 3] and st.splits[OIL] == 1
    assert st.discard[-2:] == cards(["Corn 9", "Oil 7"])
    assert st.current_player == 1


def test_cannot_play_an_event_not_saved() -> None:
    st = position("hands: Oil5 Corn9 / ... / ...; saved: - / Audit / -")
    assert_refused(st, "play Audit", "seat 0 has no saved Audit card")
