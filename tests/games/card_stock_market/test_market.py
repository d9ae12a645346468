"""Market changes: the strip's limits, face cards raising or bankrupting, covering a face card."""

from __future__ import annotations

import pytest

from closingbell import OptionError

from .craft import assert_refused, card, legal_texts, make_game, play, position

SPADES = "hands: 4S 6S JS QS KS 2S AS 10S / ... / ..."


def test_the_rulebook_spades_example() -> None:
    # With the 9 of spades showing, the 4 is a fall of $5, over the strip's $3 for spades;
    # the 6 is a fall of $3 and may be played.
    st = position(f"market: 9S; {SPADES}")
    assert "market 4S" not in legal_texts(st)
    assert_refused(
        st, "market 4S", "Spades may fall by at most $3 a card; 4S would lower it from $9 to $4"
    )
    assert "market 6S" in legal_texts(st)
    play(st, "market 6S")
    assert st.prices[3] == 6 and st.piles[3] == [card("9S"), card("6S")]
    assert st.decision == "market"


def test_rises_are_limited_too() -> None:
    st = position(f"market: 6S; {SPADES}")
    assert "market 10S" not in legal_texts(st)
    assert_refused(st, "market 10S", "Spades may rise by at most $3 a card")
    st = position(f"market: 7S; {SPADES}")
    play(st, "market 10S")
    assert st.prices[3] == 10


def test_the_strip_option_replaces_the_table() -> None:
    # Clubs rise 1 / fall 5 ... spades rise 4 / fall 1.
    st = position(f"market: 6S; {SPADES}", strip=[1, 5, 3, 3, 3, 3, 4, 1])
    assert "market 10S" in legal_texts(st) and "market 4S" not in legal_texts(st)
    assert st.view(0).suits[3].max_rise == 4 and st.view(0).suits[3].max_fall == 1
    with pytest.raises(OptionError, match="strip"):
        make_game(3, strip=[3, 3, 3])


def test_two_market_changes_together_then_the_turn_ends_after_trading() -> None:
    st = position(f"market: 5S; {SPADES}")
    play(st, "market 4S", "market 6S")
    assert_refused(st, "market 2S", "two market changes have been made this turn")
    assert st.decision == "market" and st.current_player == 0
    play(st, "buy 2S")
    assert st.decision == "trading"
    play(st, "buy AS")  # the second transaction: nothing is left, so the turn ends
    assert st.current_player == 1


def test_after_two_changes_from_a_position_only_trading_is_left() -> None:
    st = position(
        "decide: 0 market; changed: 2; market: 5S 4S 6S; hands: JS QS KS 2S AS 10S / ... / ..."
    )
    texts = legal_texts(st)
    assert not [t for t in texts if t.startswith(("market", "bankrupt", "discard"))]
    assert {"buy 2S", "buy AS", "done"} <= set(texts)


@pytest.mark.parametrize(("face", "price"), [("JS", 11), ("QS", 12), ("KS", 13)])
def test_a_face_card_raises_to_eleven_twelve_or_thirteen(face: str, price: int) -> None:
    st = position(f"market: 2S; {SPADES}")
    play(st, f"market {face}")
    assert st.prices[3] == price and not st.busted[3]


def test_a_raise_must_raise() -> None:
    st = position(f"market: 4S QS; {SPADES}")
    assert "market JS" not in legal_texts(st) and "market KS" in legal_texts(st)
    assert_refused(st, "market JS", "Spades stands at $12; JS as a raise must raise it")


def test_the_face_raise_and_the_strip_option() -> None:
    st = position(f"market: 2S; {SPADES}")
    assert "market KS" in legal_texts(st)  # $2 to $13: not bound by the strip by default
    st = position(f"market: 9S; {SPADES}", face_raise_limited=True)
    assert "market QS" in legal_texts(st) and "market KS" not in legal_texts(st)
    assert_refused(st, "market KS", "would raise it from $9 to $13")


def test_bankruptcy_wipes_out_every_holding_without_payment() -> None:
    st = position(f"market: 8S; {SPADES}; certs: 3S AH / 6S QS / 5C")
    money = list(st.cash)
    bank = st.bank
    play(st, "bankrupt JS")
    assert st.prices[3] == 0 and st.busted[3]
    assert st.held[0][3] == st.held[1][3] == 0 and st.certs[1] == []
    assert st.certs[0] == [card("AH")] and st.certs[2] == [card("5C")]
    assert sorted(st.discard[-3:]) == sorted([card("3S"), card("6S"), card("QS")])
    assert st.cash == money and st.bank == bank
    lost = st.visible_events(2)[-1]
    assert lost == {"type": "bankrupt", "seat": 0, "card": card("JS"), "lost": [3, 11, 0]}
    assert "bankrupt: S;" in st.to_position() and "prices: 5 5 5 0;" in st.to_position()


def test_any_number_card_covers_a_face_card() -> None:
    for face_use in ("market QS", "bankrupt QS"):
        st = position(f"market: 5S; {SPADES}")
        play(st, face_use)
        texts = legal_texts(st)
        for number in ("AS", "2S", "4S", "6S", "10S"):
            assert f"market {number}" in texts, (face_use, number)
        play(st, "market AS")
        assert st.prices[3] == 1 and not st.busted[3]


def test_a_face_card_may_follow_a_face_card() -> None:
    # Seat 1 holds spades bought at $0, so a second bankruptcy still changes something.
    st = position(f"market: 5S QS; bankrupt: S; certs: - / 4S / -; {SPADES}")
    texts = legal_texts(st)
    assert {"market JS", "market QS", "market KS", "bankrupt JS", "bankrupt KS"} <= set(texts)


def test_only_cards_of_the_suit_in_the_hand_can_be_played() -> None:
    st = position(f"market: 5S; {SPADES}")
    assert_refused(st, "market 5S", "5S is not in seat 0's hand")
    assert_refused(st, "bankrupt JD", "JD is not in seat 0's hand")


def test_an_ace_is_a_number_card_worth_one() -> None:
    st = position(f"market: 3S; {SPADES}")
    play(st, "market AS")
    assert st.prices[3] == 1
    st = position(f"market: 5S; {SPADES}")
    assert_refused(
        st, "market AS", "Spades may fall by at most $3 a card; AS would lower it from $5 to $1"
    )
