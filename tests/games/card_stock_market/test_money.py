"""The bank's money, the $100 levy when it runs short, debts and their repayment."""

from __future__ import annotations

import pytest

from closingbell.games.card_stock_market.game import CardStockMarketState

from .craft import legal_texts, play, position

HAND = "7D QD 2S 3S 10C AH KH 4C"

# Total money: 1,240 + 3 x 200 = 1,840. The bank holds $20.
SHORT_BANK = (
    f"market: 8H; hands: {HAND} / {HAND} / ...; certs: QH / 6H 5H / -; "
    "cash: 150 / 30 / 1640; bank: 20"
)


def _short_bank(**options: object) -> CardStockMarketState:
    return position(SHORT_BANK, **options)


def test_the_bank_running_short_levies_100_from_everyone() -> None:
    st = _short_bank()
    play(st, "sell QH")  # 5 shares at $8: the bank has only $20
    levy = [e for e in st.visible_events(None) if e["type"] == "levy"]
    assert levy == [{"type": "levy", "paid": [100, 30, 100], "owed": [0, 70, 0]}]
    assert st.cash == [150 - 100 + 40, 0, 1540]
    assert st.debt == [0, 70, 0]
    assert st.bank == 20 + 230 - 40
    assert sum(st.cash) + st.bank == 1840 and st.levies == 1
    assert st.scores() == [90, -70, 1540]
    assert "debts: 0 / 70 / 0; bank: 210; levies: 1;" in st.to_position()


def test_a_debtor_repays_as_soon_as_money_comes_in() -> None:
    st = _short_bank()
    play(st, "sell QH", "done")
    assert st.current_player == 1 and st.debt[1] == 70
    play(st, "sell 6H")  # $48, all of it to the debt
    assert st.cash[1] == 0 and st.debt[1] == 22
    repay = [e for e in st.visible_events(2) if e["type"] == "repay"]
    assert repay == [{"type": "repay", "seat": 1, "amount": 48}]
    play(st, "sell 5H")  # $40: $22 repays the rest, $18 is the seat's
    assert st.cash[1] == 18 and st.debt[1] == 0
    assert sum(st.cash) + st.bank == 1840


def test_a_debtor_in_a_position() -> None:
    # Seat 1 owes $70 after one levy and has no cash; its sale repays the debt first.
    st = position(
        f"turn: 1; market: 8H; hands: {HAND} / {HAND} / ...; certs: - / 6H 5H / -; "
        "cash: 90 / 0 / 1540; debts: 0 / 70 / 0; bank: 210"
    )
    assert st.levies == 1 and st.dealer == 0 and st.current_player == 1
    play(st, "sell 6H")
    assert st.cash[1] == 0 and st.debt[1] == 22


def test_debt_repaid_at_the_end_of_the_debtors_turn_under_the_option() -> None:
    st = _short_bank(debt_repayment="end_of_turn")
    play(st, "sell QH", "done", "sell 6H")
    assert st.cash[1] == 48 and st.debt[1] == 70
    assert "buy 7D" in legal_texts(st)  # $35: the cash may be spent during the turn
    play(st, "buy 2S", "done")  # $10
    assert st.cash[1] == 0 and st.debt[1] == 32


def test_the_levy_repeats_until_the_bank_can_pay() -> None:
    st = position(
        f"market: 9S KS; hands: {HAND} / ...; certs: 10S / -; cash: 0 / 1640; bank: 0",
        players=2,
    )
    play(st, "sell 10S")  # $130 from a bank with nothing
    levies = [e for e in st.visible_events(None) if e["type"] == "levy"]
    assert [e["paid"] for e in levies] == [[0, 100], [0, 100]]
    assert [e["owed"] for e in levies] == [[100, 0], [100, 0]]
    # The $130 goes to seat 0's debt of $200.
    assert st.cash == [0, 1440] and st.debt == [70, 0] and st.bank == 200


def test_an_unlimited_bank_never_levies() -> None:
    st = position(f"market: 8H; hands: {HAND} / ... / ...; certs: QH / - / -", bank_money=None)
    assert "bank: unlimited;" in st.to_position()
    play(st, "sell QH")
    assert st.cash[0] == 240 and st.bank == -40 and st.levies == 0
    assert st.view(1).bank is None


@pytest.mark.reference  # crafts a state by changing its fields
def test_money_is_conserved_and_checked() -> None:
    st = _short_bank()
    play(st, "sell QH")
    st.cash[0] += 1
    with pytest.raises(AssertionError, match="every dollar"):
        st.check_invariants()
    st = _short_bank()
    play(st, "sell QH")
    st.cash[1] = 5  # a debtor holding cash under immediate repayment
    st.bank -= 5
    with pytest.raises(AssertionError, match="repay"):
        st.check_invariants()
