"""Buying and selling: cost, the 12-share cap, money one does not have, the same suit twice."""

from __future__ import annotations

from .craft import assert_refused, card, craft, legal_texts, make_game, play

HAND = ["7D", "QD", "2S", "3S", "10C", "AH", "KH", "5H"]
HAND_7H = ["7D", "QD", "2S", "7H", "10C", "AH", "KH", "5H"]


def test_buying_costs_shares_times_price() -> None:
    # The rulebook's example: the 7 of diamonds with the 4 of diamonds showing costs $28.
    st = craft(make_game(3), piles={"D": ["4D"]}, hands={0: HAND})
    play(st, "buy 7D")
    assert st.cash[0] == 200 - 28 and st.bank == 1240 + 28
    assert st.certs[0] == [st.string_to_action("buy 7D")] and st.held[0][1] == 7
    assert len(st.hands[0]) == 7
    assert st.visible_events(2)[-1] == {
        "type": "buy",
        "seat": 0,
        "card": card("7D"),
        "price": 4,
        "cost": 28,
    }


def test_a_face_card_counts_five_shares() -> None:
    st = craft(make_game(3), piles={"D": ["4D"], "H": ["9H"]}, hands={0: HAND})
    play(st, "buy QD", "buy KH")
    assert st.held[0][1] == 5 and st.held[0][2] == 5
    assert st.cash[0] == 200 - 5 * 4 - 5 * 9


def test_an_ace_is_one_share() -> None:
    st = craft(make_game(3), piles={"H": ["6H"]}, hands={0: HAND})
    play(st, "buy AH")
    assert st.held[0][2] == 1 and st.cash[0] == 194


def test_twelve_shares_of_a_suit_at_most() -> None:
    st = craft(make_game(3), piles={"S": ["2S"]}, hands={0: HAND}, certs={0: ["10S"]})
    assert st.held[0][3] == 10
    assert "buy 2S" in legal_texts(st)
    assert_refused(
        st, "buy 3S", "seat 0 holds 10 shares of Spades; 3 more would pass the limit of 12"
    )
    play(st, "buy 2S")
    assert st.held[0][3] == 12


def test_no_spending_money_one_does_not_have() -> None:
    st = craft(
        make_game(3), piles={"C": ["9C"], "D": ["4D"]}, hands={0: HAND}, cash={0: 89}, bank=1240
    )
    assert_refused(st, "buy 10C", "10C costs $90 and seat 0 has only $89")
    play(st, "buy 7D")  # $28
    assert st.cash[0] == 61
    play(st, "buy QD")  # $20
    assert st.cash[0] == 41


def test_a_debtor_without_cash_cannot_buy() -> None:
    st = craft(make_game(3), hands={0: HAND}, cash={0: 0}, debts={0: 40}, bank=1240)
    assert not [t for t in legal_texts(st) if t.startswith("buy")]


def test_selling_pays_the_current_price_and_discards_the_certificate() -> None:
    st = craft(make_game(3), piles={"H": ["3H", "8H"]}, hands={0: HAND}, certs={0: ["6H", "JH"]})
    play(st, "sell JH")
    assert st.cash[0] == 200 + 5 * 8 and st.bank == 1240 - 40
    assert st.certs[0] == [st.string_to_action("buy 6H")]
    assert st.discard[-1] == st.string_to_action("buy JH")
    assert st.held[0][2] == 6


def test_two_transactions_then_the_market_or_the_end() -> None:
    st = craft(make_game(3), piles={"D": ["4D"], "H": ["6H"]}, hands={0: HAND}, certs={0: ["6H"]})
    play(st, "buy 7D", "sell 6H")
    assert st.decision == "trading"
    texts = legal_texts(st)
    assert not [t for t in texts if t.startswith(("buy", "sell", "discard"))]
    assert "market 5H" in texts and texts[-1] == "done"
    assert_refused(st, "buy 2S", "two transactions have been made this turn")


def test_buying_and_selling_the_same_suit_in_one_turn() -> None:
    state = {"piles": {"H": ["6H"]}, "hands": {0: HAND}, "certs": {0: ["6H"]}}
    st = craft(make_game(3), **state)  # type: ignore[arg-type]
    play(st, "sell 6H", "buy 5H")
    assert st.held[0][2] == 5
    st = craft(make_game(3, same_suit_trades=False), **state)  # type: ignore[arg-type]
    play(st, "sell 6H")
    assert_refused(st, "buy 5H", "seat 0 sold Hearts this turn and may not also buy it")
    st = craft(make_game(3, same_suit_trades=False), **state)  # type: ignore[arg-type]
    play(st, "buy 5H")
    assert_refused(st, "sell 6H", "seat 0 bought Hearts this turn and may not also sell it")


def test_buying_a_bankrupt_suit() -> None:
    state = {"piles": {"H": ["6H", "QH"]}, "bankrupt": ["H"], "hands": {0: HAND_7H}}
    st = craft(make_game(3), **state)  # type: ignore[arg-type]
    assert st.prices[2] == 0
    play(st, "buy 5H")
    assert st.cash[0] == 200 and st.held[0][2] == 5
    st = craft(make_game(3, bankrupt_buying="forbidden"), **state)  # type: ignore[arg-type]
    assert_refused(
        st, "buy 5H", "Hearts is bankrupt and cannot be bought until a number card covers it"
    )
    play(st, "market 7H", "buy 5H")  # any number card covers it; then it can be bought
    assert st.cash[0] == 200 - 5 * 7
