"""Buying and selling: cost, the 12-share cap, money one does not have, the same suit twice."""

from __future__ import annotations

from .craft import assert_refused, card, legal_texts, play, position

HAND = "7D QD 2S 3S 10C AH KH 5H"
HAND_7H = "7D QD 2S 7H 10C AH KH 5H"


def test_buying_costs_shares_times_price() -> None:
    # The rulebook's example: the 7 of diamonds with the 4 of diamonds showing costs $28.
    st = position(f"market: 4D; hands: {HAND} / ... / ...")
    play(st, "buy 7D")
    assert st.cash[0] == 200 - 28 and st.bank == 1240 + 28
    assert st.certs[0] == [card("7D")] and st.held[0][1] == 7
    assert len(st.hands[0]) == 7
    assert st.visible_events(2)[-1] == {
        "type": "buy",
        "seat": 0,
        "card": card("7D"),
        "price": 4,
        "cost": 28,
    }
    assert "bought: D;" in st.to_position() and "decide: 0 trading;" in st.to_position()


def test_a_face_card_counts_five_shares() -> None:
    st = position(f"market: 4D 9H; hands: {HAND} / ... / ...")
    play(st, "buy QD", "buy KH")
    assert st.held[0][1] == 5 and st.held[0][2] == 5
    assert st.cash[0] == 200 - 5 * 4 - 5 * 9


def test_an_ace_is_one_share() -> None:
    st = position(f"market: 6H; hands: {HAND} / ... / ...")
    play(st, "buy AH")
    assert st.held[0][2] == 1 and st.cash[0] == 194


def test_twelve_shares_of_a_suit_at_most() -> None:
    st = position(f"market: 2S; hands: {HAND} / ... / ...; certs: 10S / - / -")
    assert st.held[0][3] == 10
    assert "buy 2S" in legal_texts(st)
    assert_refused(
        st, "buy 3S", "seat 0 holds 10 shares of Spades; 3 more would pass the limit of 12"
    )
    play(st, "buy 2S")
    assert st.held[0][3] == 12


def test_no_spending_money_one_does_not_have() -> None:
    st = position(f"market: 9C 4D; hands: {HAND} / ... / ...; cash: 89 / 200 / 200")
    assert st.bank == 1240 + 111
    assert_refused(st, "buy 10C", "10C costs $90 and seat 0 has only $89")
    play(st, "buy 7D")  # $28
    assert st.cash[0] == 61
    play(st, "buy QD")  # $20
    assert st.cash[0] == 41


def test_a_debtor_without_cash_cannot_buy() -> None:
    st = position(f"hands: {HAND} / ... / ...; cash: 0 / 200 / 200; debts: 40 / 0 / 0")
    assert st.levies == 1  # the fewest levies that explain the debt
    assert not [t for t in legal_texts(st) if t.startswith("buy")]


def test_selling_pays_the_current_price_and_discards_the_certificate() -> None:
    st = position(f"market: 5H 8H; hands: {HAND} / ... / ...; certs: 6H JH / - / -")
    play(st, "sell JH")
    assert st.cash[0] == 200 + 5 * 8 and st.bank == 1240 - 40
    assert st.certs[0] == [card("6H")]
    assert st.discard[-1] == card("JH")
    assert st.held[0][2] == 6


def test_two_transactions_then_the_market_or_the_end() -> None:
    st = position(f"market: 4D 6H; hands: {HAND} / ... / ...; certs: 6H / - / -")
    play(st, "buy 7D", "sell 6H")
    assert st.decision == "trading"
    texts = legal_texts(st)
    assert not [t for t in texts if t.startswith(("buy", "sell", "discard"))]
    assert "market 5H" in texts and texts[-1] == "done"
    assert_refused(st, "buy 2S", "two transactions have been made this turn")


def test_the_second_transaction_from_a_position_mid_turn() -> None:
    # Seat 0 bought diamonds (its hand is down to seven) and may trade once more.
    st = position(
        "decide: 0 trading; bought: D; market: 4D 6H; certs: 7D / - / -; "
        "hands: QD 2S 3S 10C AH KH 5H / ... / ..."
    )
    texts = legal_texts(st)
    assert "buy 5H" in texts and "sell 7D" in texts and "market 5H" in texts
    play(st, "buy 5H")
    assert st.decision == "trading" and st.trades == 2
    assert_refused(st, "buy 2S", "two transactions have been made this turn")


def test_buying_and_selling_the_same_suit_in_one_turn() -> None:
    text = f"market: 6H; hands: {HAND} / ... / ...; certs: 6H / - / -"
    st = position(text)
    play(st, "sell 6H", "buy 5H")
    assert st.held[0][2] == 5
    st = position(text, same_suit_trades=False)
    play(st, "sell 6H")
    assert_refused(st, "buy 5H", "seat 0 sold Hearts this turn and may not also buy it")
    st = position(text, same_suit_trades=False)
    play(st, "buy 5H")
    assert_refused(st, "sell 6H", "seat 0 bought Hearts this turn and may not also sell it")
    # The same, from a position that says what was sold this turn.
    st = position(
        "decide: 0 trading; sold: H; market: 6H; hands: 7D QD 2S 3S 10C AH KH 5H / ... / ...; "
        "discard: 6H ...",
        same_suit_trades=False,
    )
    assert_refused(st, "buy 5H", "seat 0 sold Hearts this turn and may not also buy it")


def test_buying_a_bankrupt_suit() -> None:
    text = f"market: 6H QH; bankrupt: H; hands: {HAND_7H} / ... / ..."
    st = position(text)
    assert st.prices[2] == 0
    play(st, "buy 5H")
    assert st.cash[0] == 200 and st.held[0][2] == 5
    st = position(text, bankrupt_buying="forbidden")
    assert_refused(
        st, "buy 5H", "Hearts is bankrupt and cannot be bought until a number card covers it"
    )
    play(st, "market 7H", "buy 5H")  # any number card covers it; then it can be bought
    assert st.cash[0] == 200 - 5 * 7
