"""The readings the rulebook leaves open, each with its option (docs/rules/card-stock-market.md):
the order of the two phases, a market change that changes nothing, buying a bankrupt suit at
$0, and the information strip."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import closingbell
from closingbell import OptionError, PositionError
from closingbell.core.options import option_infos
from closingbell.core.records import GameRecord
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.options import CardStockMarketOptions
from closingbell.text.card_stock_market import CardStockMarketNarrator

from .craft import assert_refused, card, craft, legal_texts, make_game, play

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

HAND = ["7D", "QD", "2S", "3S", "10C", "AH", "KH", "5H"]


def _turn(**options: Any) -> Any:
    """Seat 0 to play: diamonds $6, spades $4, hearts $5; seat 0 holds a nine of clubs."""
    return craft(
        make_game(3, **options),
        piles={"D": ["6D"], "S": ["4S"], "H": ["5H"]},
        hands={0: HAND},
        certs={0: ["9C"]},
        draw_top=["8C", "8D", "8H", "8S"],
    )


# ---------------------------------------------------------------------- phase_order


def test_by_default_a_player_may_change_the_market_then_trade() -> None:
    st = _turn()
    play(st, "market 7D")
    assert {"buy QD", "sell 9C"} <= set(legal_texts(st))
    play(st, "sell 9C")
    assert st.cash[0] == 200 + 9 * 5


def test_trade_first_refuses_any_trade_once_the_market_has_changed() -> None:
    st = _turn(phase_order="trade_first")
    play(st, "market 7D")
    texts = legal_texts(st)
    assert not [t for t in texts if t.startswith(("buy", "sell"))]
    assert "market 2S" in texts and "done" in texts
    reason = "with phase_order 'trade_first' the transactions come before the market changes"
    assert_refused(st, "sell 9C", reason)
    assert_refused(st, "buy QD", reason)
    # The second market change leaves nothing to do: the turn ends by itself.
    play(st, "market 2S")
    assert st.current_player == 1


def test_trade_first_still_lets_a_player_trade_then_change_the_market() -> None:
    st = _turn(phase_order="trade_first")
    play(st, "buy 7D", "market 2S")
    assert st.decision == "market"
    assert_refused(
        st, "sell 9C", "the transactions must be made together, before the market changes"
    )
    play(st, "market 3S")
    assert st.current_player == 1 and st.prices[SPADES] == 3


@pytest.mark.parametrize("order", ["either", "trade_first"])
def test_buy_change_sell_is_forbidden_under_both_readings(order: str) -> None:
    st = _turn(phase_order=order)
    play(st, "buy 7D", "market 2S")
    assert "sell 9C" not in legal_texts(st)
    assert_refused(
        st, "sell 9C", "the transactions must be made together, before the market changes"
    )


@pytest.mark.reference  # crafts a state by changing its fields
def test_a_state_that_traded_after_changing_the_market_breaks_trade_first() -> None:
    st = _turn()
    play(st, "market 7D", "sell 9C")
    st.check_invariants()
    st.game = make_game(3, phase_order="trade_first")
    with pytest.raises(AssertionError, match="no transaction follows a market change"):
        st.check_invariants()


def test_a_position_that_traded_after_changing_the_market_is_refused_under_trade_first() -> None:
    st = _turn()
    play(st, "market 7D", "sell 9C")
    text = st.to_position()
    assert make_game(3).state_from_position(text).to_position() == text
    with pytest.raises(PositionError) as info:
        make_game(3, phase_order="trade_first").state_from_position(text)
    assert info.value.field == "changed"
    assert "no transaction follows a market change" in info.value.reason


def test_a_position_after_two_changes_is_refused_under_trade_first() -> None:
    st = _turn(same_price_change=True)
    play(st, "market 7D", "market 5H")
    assert st.decision == "market"  # under "either" trading is still open
    with pytest.raises(PositionError, match="two market changes end the turn at once"):
        make_game(3, phase_order="trade_first").state_from_position(st.to_position())


def test_the_narrator_follows_the_phase_order() -> None:
    for order, left in (("either", (2, 1, 0)), ("trade_first", (0, 1, 0))):
        st = _turn(phase_order=order)
        play(st, "market 7D")
        narrator = CardStockMarketNarrator(st.game, ["Ana", "Bo", "Cy"], "en")
        assert narrator.left(st.view(0)) == left
        ends = narrator.describe_action(st.view(0), st.string_to_action("market 2S"))
        assert ("ends your turn" in ends) == (order == "trade_first")


# ---------------------------------------------------------------------- same_price_change


def _price_seven(**options: Any) -> Any:
    return craft(
        make_game(3, **options),
        piles={"S": ["4S", "7S"]},
        hands={0: ["7S", "8S", "9S", "10S", "5S", "4S", "2D", "3D"]},
    )


def test_a_number_card_at_the_current_price_is_refused_by_default() -> None:
    st = _price_seven()
    texts = legal_texts(st)
    assert "market 7S" not in texts
    assert {"market 4S", "market 5S", "market 8S", "market 9S", "market 10S"} <= set(texts)
    assert_refused(st, "market 7S", "Spades stands at $7 already: 7S would not change its value")
    assert st.prices[SPADES] == 7 and card("7S") in st.hands[0]


def test_same_price_change_allows_a_change_of_nothing() -> None:
    st = _price_seven(same_price_change=True)
    assert "market 7S" in legal_texts(st)
    play(st, "market 7S")
    assert st.prices[SPADES] == 7 and st.piles[SPADES][-2:] == [card("7S"), card("7S")]


def test_a_face_card_on_top_may_be_covered_by_any_number_card() -> None:
    # The price a face card set is never a number card's value, so nothing is refused.
    st = craft(
        make_game(3),
        piles={"S": ["5S", "JS"]},
        hands={0: ["AS", "5S", "10S", "2D", "3D", "4D", "5D", "6D"]},
    )
    assert {"market AS", "market 5S", "market 10S"} <= set(legal_texts(st))


def _bankrupt_spades(certs: dict[int, list[str]] | None = None, **options: Any) -> Any:
    return craft(
        make_game(3, **options),
        piles={"S": ["5S", "QS"]},
        bankrupt=["S"],
        hands={0: ["JS", "KS", "2D", "3D", "4D", "5D", "6D", "7D"]},
        certs=certs,
    )


def test_bankrupting_a_suit_at_zero_that_nobody_holds_is_refused_by_default() -> None:
    st = _bankrupt_spades()
    texts = legal_texts(st)
    assert "bankrupt JS" not in texts and "bankrupt KS" not in texts
    assert {"market JS", "market KS"} <= set(texts)  # raises change the price
    assert_refused(st, "bankrupt KS", "Spades is already bankrupt at $0 and nobody holds")


def test_bankrupting_a_suit_at_zero_wipes_out_shares_bought_at_zero() -> None:
    st = _bankrupt_spades(certs={1: ["10S", "2S"]})
    assert "bankrupt KS" in legal_texts(st)
    play(st, "bankrupt KS")
    assert st.held[1][SPADES] == 0 and not st.certs[1]
    assert {card("10S"), card("2S")} <= set(st.discard)


def test_same_price_change_allows_bankrupting_a_suit_nobody_holds_again() -> None:
    st = _bankrupt_spades(same_price_change=True)
    assert {"bankrupt JS", "bankrupt KS"} <= set(legal_texts(st))
    play(st, "bankrupt KS")
    assert st.prices[SPADES] == 0 and st.busted[SPADES]


def test_a_bankruptcy_above_zero_needs_no_shares_held() -> None:
    st = craft(
        make_game(3),
        piles={"S": ["6S"]},
        hands={0: ["QS", "2D", "3D", "4D", "5D", "6D", "7D", "8D"]},
    )
    assert not any(h[SPADES] for h in st.held)
    play(st, "bankrupt QS")
    assert st.prices[SPADES] == 0


def test_the_market_table_leaves_out_the_current_price() -> None:
    for same, spans in ((False, [(4, 6), (8, 10)]), (True, [(4, 10)])):
        st = _price_seven(same_price_change=same)
        narrator = CardStockMarketNarrator(st.game, ["Ana", "Bo", "Cy"], "en")
        assert narrator.number_spans(st.view(0), SPADES) == spans
        # The table shows exactly the spade number cards the engine lets seat 0 play.
        in_spans = {r for a, b in spans for r in range(a, b + 1)}
        ranks = {C.rank_of(c) for c in st.hands[0] if C.suit_of(c) == SPADES}
        changes = [a - A.MARKET for a in st.legal_actions() if A.MARKET <= a < A.BANKRUPT]
        legal = {C.rank_of(c) for c in changes if C.suit_of(c) == SPADES}
        assert legal == ranks & in_spans


# ---------------------------------------------------------------------- bankrupt_buying


def test_a_bankrupt_suit_gives_twelve_shares_for_nothing_worth_120_once_covered() -> None:
    """The consequence of the default bankrupt_buying="free", in one turn."""
    st = craft(
        make_game(3),
        piles={"S": ["5S", "KS"]},
        bankrupt=["S"],
        hands={0: ["10S", "2S", "10S", "3D", "4D", "5D", "6D", "7D"]},
    )
    play(st, "buy 10S", "buy 2S")
    assert st.held[0][SPADES] == C.MAX_SHARES == 12
    assert st.cash[0] == 200  # nothing paid
    play(st, "market 10S")  # any number card covers the face card
    assert st.prices[SPADES] == 10
    assert st.held[0][SPADES] * st.prices[SPADES] == 120


def test_bankrupt_buying_forbidden_refuses_that_line() -> None:
    st = craft(
        make_game(3, bankrupt_buying="forbidden"),
        piles={"S": ["5S", "KS"]},
        bankrupt=["S"],
        hands={0: ["10S", "2S", "10S", "3D", "4D", "5D", "6D", "7D"]},
    )
    assert not [t for t in legal_texts(st) if t.startswith("buy") and t.endswith("S")]
    assert_refused(
        st, "buy 10S", "Spades is bankrupt and cannot be bought until a number card covers it"
    )
    play(st, "market 10S", "buy 10S")  # covered first, the shares cost their price
    assert st.cash[0] == 200 - 100


# ---------------------------------------------------------------------- the strip


def test_the_strip_takes_a_name_and_keeps_the_eight_numbers() -> None:
    graded = make_game(3, strip="graded")
    assert graded.options.strip == C.STRIPS["graded"] == (2, 2, 4, 2, 4, 4, 2, 3)
    assert graded.options.strip == tuple(x for pair in C.GRADED_STRIP for x in pair)
    assert graded.options_dict()["strip"] == [2, 2, 4, 2, 4, 4, 2, 3]
    assert (graded.rise, graded.fall) == ((2, 4, 4, 2), (2, 2, 4, 3))
    assert make_game(3, strip="uniform").options.strip == C.DEFAULT_STRIP == (3,) * 8
    assert make_game(3).options == make_game(3, strip="uniform").options


def test_the_graded_strip_keeps_the_rulebooks_spade_fall_and_differs_by_suit_and_way() -> None:
    rise, fall = C.STRIPS["graded"][0::2], C.STRIPS["graded"][1::2]
    assert fall[SPADES] == 3
    assert len(set(rise)) > 1 and len(set(fall)) > 1  # by suit
    assert rise != fall  # by direction
    assert any(rise[s] > fall[s] for s in range(4)) and any(rise[s] < fall[s] for s in range(4))


def test_an_unknown_strip_name_is_refused_with_the_names() -> None:
    with pytest.raises(OptionError, match="or one of 'uniform', 'graded', not 'steep'"):
        make_game(3, strip="steep")


def test_the_graded_strip_decides_the_legal_changes() -> None:
    st = craft(
        make_game(3, strip="graded"),
        piles={"D": ["5D"], "S": ["7S"]},
        hands={0: ["9D", "10D", "3D", "2D", "9S", "10S", "4S", "3S"]},
    )
    texts = set(legal_texts(st))
    # Diamonds rise by up to $4 and fall by up to $2; spades rise by $2 and fall by $3.
    assert {"market 9D", "market 3D", "market 9S", "market 4S"} <= texts
    assert not {"market 10D", "market 2D", "market 10S", "market 3S"} & texts
    assert_refused(st, "market 10S", "Spades may rise by at most $2 a card")
    assert_refused(st, "market 2D", "Diamonds may fall by at most $2 a card")


def test_a_record_of_a_named_strip_keeps_the_numbers() -> None:
    st = make_game(2, strip="graded").new_game(3)
    st.apply(st.legal_actions()[0])
    record = GameRecord.from_state(st)
    assert record.options["strip"] == [2, 2, 4, 2, 4, 4, 2, 3]
    assert GameRecord.loads(record.dumps()).check().options == st.game.options


def test_the_strip_offers_its_presets_to_front_ends() -> None:
    info = next(o for o in option_infos(CardStockMarketOptions) if o.name == "strip")
    described = info.check.describe()
    assert described["presets"] == {"uniform": [3] * 8, "graded": [2, 2, 4, 2, 4, 4, 2, 3]}
    assert info.check("strip", "graded") == (2, 2, 4, 2, 4, 4, 2, 3)


def test_every_new_option_is_described_with_its_default() -> None:
    defaults = closingbell.load_game("card_stock_market", players=2).options_dict()
    assert defaults["phase_order"] == "either"
    assert defaults["same_price_change"] is False
    assert defaults["bankrupt_buying"] == "free"
    assert defaults["strip"] == [3] * 8


# ---------------------------------------------------------------------- the rules document

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "card-stock-market.md"


def _doc_position(heading: str) -> str:
    """The one ``text`` block of the section of the rules document under ``heading``."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    section = text[start : text.find("\n### ", start + 1)]
    (block,) = re.findall(r"```text\n(.*?)```", section, re.DOTALL)
    return str(block)


def test_the_documents_change_that_changes_nothing() -> None:
    block = _doc_position("### A market change that changes nothing")
    st = make_game(3).state_from_position(block)
    assert_refused(st, "market 7S", "Spades stands at $7 already: 7S would not change its value")
    assert_refused(st, "bankrupt JH", "Hearts is already bankrupt at $0 and nobody holds")
    assert {"market 8S", "market JH"} <= set(legal_texts(st))
    st = make_game(3, same_price_change=True).state_from_position(block)
    assert {"market 7S", "bankrupt JH"} <= set(legal_texts(st))
    st = make_game(3).state_from_position(block + "certs: - / 4H / -\n")
    play(st, "bankrupt JH")
    assert st.held[1][HEARTS] == 0


def test_the_documents_twelve_shares_for_nothing() -> None:
    block = _doc_position("### Buying a bankrupt suit at $0")
    for order in ("either", "trade_first"):
        st = make_game(3, phase_order=order).state_from_position(block)
        play(st, "buy 10S", "buy 2S", "market 10S")
        assert st.cash[0] == 200 and st.held[0][SPADES] == 12 and st.prices[SPADES] == 10
    st = make_game(3, bankrupt_buying="forbidden").state_from_position(block)
    assert "buy 10S" not in legal_texts(st)
