"""Every market event card, each resolved from a short position."""

from __future__ import annotations

from typing import Any

import pytest

from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.game import TakeStockState

from .craft import assert_refused, card, cards, event, legal_names, play, position

CORN, GEM, OIL, TECH, MOVIE = range(5)


def _playing(event_name: str, text: str = "", players: int = 3, **options: Any) -> TakeStockState:
    """Seat 0 to act with ``event_name`` saved, holding Corn 2 and Corn 3 to pay with.

    ``text`` adds fields to that short position; a ``hands`` or ``saved`` field in it
    replaces the default one.
    """
    token = event_name.replace(" ", "")
    others = " / ".join(["..."] * (players - 1))
    nobody = " / ".join(["-"] * (players - 1))
    fields = text
    if "hands:" not in text:
        fields += f"\nhands: Corn2 Corn3 / {others}"
    if "saved:" not in text:
        fields += f"\nsaved: {token} / {nobody}"
    return position(fields, players, **options)


def _play(st: TakeStockState, event_name: str, pay: str = "Corn 2") -> None:
    play(st, f"play {event_name}", f"discard {pay}")


# ---------------------------------------------------------------------- stock split


def test_split_removes_the_top_card_and_doubles() -> None:
    st = _playing("Split Oil", "oil: 1 4 6")
    _play(st, "Split Oil")
    assert st.rows[OIL] == [1, 4] and st.splits[OIL] == 1 and st.prices()[OIL] == 8
    assert st.discard[-1] == card("Oil 6")
    assert st.visible_events(1)[-2] == {
        "type": "split",
        "stock": OIL,
        "removed": card("Oil 6"),
        "discarded": False,
    }


def test_split_on_the_one_alone_removes_nothing() -> None:
    st = _playing("Split Oil")
    discard = list(st.discard)
    _play(st, "Split Oil")
    assert st.rows[OIL] == [1] and st.splits[OIL] == 1 and st.prices()[OIL] == 2
    assert st.discard == [*discard, card("Corn 2")]


def test_split_on_a_frozen_stock_is_discarded() -> None:
    st = _playing("Split Oil", "oil: 1 4 6 freeze")
    _play(st, "Split Oil")
    assert st.rows[OIL] == [1, 4, 6] and st.splits[OIL] == 0 and st.frozen[OIL]
    assert st.ev_discard == [event("Split Oil")]
    assert st.view(2).event_discard_known == (event("Split Oil"),)
    assert st.current_player == 1


def test_split_multipliers_two_three_four() -> None:
    st = position("""
        tech: 1 2 3 5
        hands: Corn2 Corn3 / Corn4 Corn5 / Corn6 Corn7
        saved: SplitTech / SplitTech / SplitTech
    """)
    prices = []
    for q in range(3):
        assert st.current_player == q
        _play(st, "Split Tech", f"Corn {2 + 2 * q}")
        prices.append(st.prices()[TECH])
    assert prices == [3 * 2, 2 * 3, 1 * 4]
    assert st.splits[TECH] == 3 and st.rows[TECH] == [1]


# ---------------------------------------------------------------------- stock crash


@pytest.mark.parametrize(
    ("row", "left"),
    [
        ([1], [1]),
        ([1, 3], [1]),
        ([1, 3, 5], [1, 3]),
        ([1, 3, 5, 7], [1, 3]),
        ([1, 3, 5, 7, 9], [1, 3, 5]),
        ([1, 2, 3, 5, 7, 9], [1, 2, 3]),
    ],
)
def test_crash_removes_the_top_half_rounded_down_counting_the_one(
    row: list[int], left: list[int]
) -> None:
    st = _playing("Crash Movie", f"movie: {' '.join(map(str, row))}")
    _play(st, "Crash Movie")
    assert st.rows[MOVIE] == left
    gone = cards(f"Movie {v}" for v in reversed(row[len(left) :]))
    assert st.discard[len(st.discard) - len(gone) :] == gone
    assert st.ev_discard == [event("Crash Movie")]


def test_crash_removes_one_split_only() -> None:
    st = _playing("Crash Gem", "gem: 1 5 split split")
    _play(st, "Crash Gem")
    assert st.rows[GEM] == [1] and st.splits[GEM] == 1 and st.prices()[GEM] == 2
    assert st.ev_discard == [event("Crash Gem"), event("Split Gem")]


def test_crash_on_a_bare_one_with_a_split_removes_the_split() -> None:
    st = _playing("Crash Gem", "gem: 1 split")
    _play(st, "Crash Gem")
    assert st.rows[GEM] == [1] and st.splits[GEM] == 0 and st.prices()[GEM] == 1


def test_crash_removes_the_freeze_first_then_crashes() -> None:
    st = _playing("Crash Gem", "gem: 1 3 4 split freeze")
    _play(st, "Crash Gem")
    assert not st.frozen[GEM]
    assert st.rows[GEM] == [1, 3] and st.splits[GEM] == 0
    assert st.ev_discard == [event("Crash Gem"), event("Freeze"), event("Split Gem")]
    crash = [e for e in st.visible_events(1) if e["type"] == "crash"]
    assert crash == [
        {
            "type": "crash",
            "stock": GEM,
            "removed": [card("Gem 4")],
            "split_removed": True,
            "freeze_removed": True,
        }
    ]


# ---------------------------------------------------------------------- market crash


def test_market_crash_crashes_all_five() -> None:
    st = _playing(
        "Market Crash",
        """
        corn: 1 4 6
        gem: 1 3 4 7 8 split
        oil: 1 2 freeze
        tech: 1 5 9 10
        movie: 1 split split
        hands: Tech2 Tech3 / ... / ...
        """,
    )
    _play(st, "Market Crash", "Tech 2")
    assert st.rows == [[1, 4], [1, 3, 4], [1], [1, 5], [1]]
    assert st.splits == [0, 0, 0, 0, 1]
    assert st.frozen == [False] * 5
    assert st.prices() == [4, 4, 1, 5, 2]
    assert sorted(st.ev_discard) == sorted(
        [event("Market Crash"), event("Split Gem"), event("Split Movie"), event("Freeze")]
    )
    assert st.current_player == 1


# ---------------------------------------------------------------------- insider trading


def _insider(
    order: str = "discard_first", hand: str = "Corn2 Corn3 Gem2 Gem3 Tech2"
) -> TakeStockState:
    return _playing(
        "Insider Oil",
        f"""
        hands: {hand} / ... / ...
        discard: Gem5 Oil10 Oil9 Oil6 Oil4
        """,
        insider_order=order,
    )


def test_insider_retrieves_only_that_stock() -> None:
    st = _insider()
    _play(st, "Insider Oil")
    assert st.decision == "retrieve" and st.current_player == 0
    assert legal_names(st) == [
        "retrieve Oil 4",
        "retrieve Oil 6",
        "retrieve Oil 9",
        "retrieve Oil 10",
        "retrieve done",
    ]
    assert_refused(st, "retrieve Gem 5", "retrieves only that stock")
    assert_refused(st, "retrieve Oil 5", "Oil 5 is not in the shares discard pile")


def test_insider_discard_first_three_cards_then_one_discard_each() -> None:
    st = _insider()
    _play(st, "Insider Oil")
    play(st, "retrieve Oil 10", "retrieve Oil 9")
    assert st.decision == "retrieve"
    play(st, "retrieve Oil 4")  # the third card: no more may be taken
    assert st.decision == "insider_discard" and st.view(1).owed_discards == 3
    # The retrieved cards are not in the hand yet: they cannot pay for themselves.
    assert legal_names(st) == ["discard Corn 3", "discard Gem 2", "discard Gem 3", "discard Tech 2"]
    assert st.view(1).retrieved == tuple(cards(["Oil 10", "Oil 9", "Oil 4"]))
    play(st, "discard Corn 3", "discard Gem 2", "discard Gem 3")
    assert st.hands[0] == sorted(cards(["Tech 2", "Oil 4", "Oil 9", "Oil 10"]))
    assert card("Oil 6") in st.discard and card("Oil 9") not in st.discard
    assert st.current_player == 1
    # Everyone saw the retrieved cards go into seat 0's hand.
    expected = tuple(sorted(cards(["Oil 4", "Oil 9", "Oil 10"])))
    assert st.view(1).known_in_hands[0] == expected
    assert st.view(None).known_in_hands[0] == expected
    retrieved = [e["card"] for e in st.visible_events(2) if e["type"] == "retrieve"]
    assert retrieved == cards(["Oil 10", "Oil 9", "Oil 4"])


def test_insider_discard_first_cannot_retrieve_more_than_the_hand_can_pay() -> None:
    st = _insider(hand="Corn2 Gem2")
    _play(st, "Insider Oil")  # one card left in hand
    play(st, "retrieve Oil 9")
    assert st.decision == "insider_discard"
    play(st, "discard Gem 2")
    assert st.hands[0] == [card("Oil 9")] and st.current_player == 1


def test_insider_take_first_adds_before_discarding() -> None:
    st = _insider(order="take_first", hand="Corn2 Gem2")
    _play(st, "Insider Oil")
    play(st, "retrieve Oil 9", "retrieve Oil 10")  # not limited by the hand: it grows first
    play(st, "retrieve done")
    assert st.decision == "insider_discard"
    assert legal_names(st) == ["discard Gem 2", "discard Oil 9", "discard Oil 10"]
    play(st, "discard Oil 9")
    assert st.view(2).known_in_hands[0] == (card("Oil 10"),)
    play(st, "discard Gem 2")
    assert st.hands[0] == [card("Oil 10")] and st.current_player == 1


def test_insider_may_stop_early_or_take_nothing() -> None:
    st = _insider()
    _play(st, "Insider Oil")
    play(st, "retrieve done")
    assert st.current_player == 1 and st.hands[0] == cards(["Corn 3", "Gem 2", "Gem 3", "Tech 2"])


def test_insider_with_nothing_to_retrieve_ends_the_turn() -> None:
    st = _playing("Insider Movie")
    _play(st, "Insider Movie")
    assert st.current_player == 1 and st.decision == "action"
    assert st.ev_discard == [event("Insider Movie")]


# ---------------------------------------------------------------------- stock audit


def test_audit_asks_card_or_split_when_both_possible() -> None:
    for choice, row, splits in (("card", [1, 3], 1), ("split", [1, 3, 7], 0)):
        st = _playing("Audit", "oil: 1 3 7 split")
        _play(st, "Audit")
        assert st.decision == "audit_stock"
        play(st, "audit Oil")
        assert st.decision == "audit_what" and st.view(1).event_stock == OIL
        assert legal_names(st) == ["audit card", "audit split"]
        play(st, f"audit {choice}")
        assert st.rows[OIL] == row and st.splits[OIL] == splits
        assert st.current_player == 1


def test_audit_forced_card() -> None:
    st = _playing("Audit", "oil: 1 3 7")
    _play(st, "Audit")
    play(st, "audit Oil")
    assert st.rows[OIL] == [1, 3] and st.discard[-1] == card("Oil 7")
    assert st.current_player == 1


def test_audit_forced_split() -> None:
    st = _playing("Audit", "oil: 1 split split")
    _play(st, "Audit")
    play(st, "audit Oil")
    assert st.splits[OIL] == 1
    assert st.ev_discard == [event("Audit"), event("Split Oil")]
    assert st.current_player == 1


def test_audit_at_price_one_does_nothing() -> None:
    st = _playing("Audit")
    _play(st, "Audit")
    before = (st.rows, st.splits, list(st.discard))
    play(st, "audit Tech")
    assert (st.rows, st.splits, st.discard) == before
    assert st.visible_events(1)[-2] == {
        "type": "audit",
        "seat": 0,
        "stock": TECH,
        "removed": "nothing",
    }


def test_frozen_stocks_cannot_be_audited() -> None:
    st = _playing("Audit", "gem: 1 6 freeze; oil: 1 freeze")
    _play(st, "Audit")
    assert legal_names(st) == ["audit Corn", "audit Tech", "audit Movie"]
    assert_refused(st, "audit Gem", "frozen", "cannot be audited")


# ---------------------------------------------------------------------- freeze and thaw


def test_freeze_then_the_stock_cannot_be_raised_audited_or_split() -> None:
    st = position("""
        oil: 1 3
        hands: Corn2 Corn3 / Oil5 Gem2 / ...
        saved: Freeze / Audit SplitOil / -
    """)
    _play(st, "Freeze")
    assert st.decision == "freeze_stock" and st.view(1).pending_event == C.FREEZE
    assert len(legal_names(st)) == 5
    play(st, "freeze Oil")
    assert st.frozen[OIL] and st.ev_discard == []
    assert st.current_player == 1
    assert "raise Oil 5" not in legal_names(st)
    play(st, "play Audit", "discard Gem 2")
    assert "audit Oil" not in legal_names(st)
    play(st, "audit Tech")
    assert st.current_player == 2


def test_thaw_discards_both_freeze_cards() -> None:
    st = _playing("Freeze", "oil: 1 3 freeze")
    _play(st, "Freeze")
    play(st, "thaw Oil")  # the same action as "freeze Oil"
    assert not st.frozen[OIL]
    assert st.ev_discard == [event("Freeze"), event("Freeze")]
    assert st.visible_events(2)[-2] == {"type": "freeze", "seat": 0, "stock": OIL, "frozen": False}


# ---------------------------------------------------------------------- upturn and downturn


def test_upturn_everyone_draws_from_the_active_player_on() -> None:
    st = position("""
        turn: 1
        hands: Gem2 / Corn2 Corn3 / Gem3
        saved: - / Upturn / -
        draw: Oil2 Oil3 Oil4 Oil5 ...
    """)
    _play(st, "Upturn")
    assert st.hands[1] == cards(["Corn 3", "Oil 2"])
    assert st.hands[2] == cards(["Gem 3", "Oil 3", "Oil 5"])  # its upturn card, then its turn
    assert st.hands[0] == cards(["Gem 2", "Oil 4"])
    assert st.current_player == 2


def test_upturn_can_run_the_piles_dry() -> None:
    st = _playing(
        "Upturn",
        """
        hands: Corn2 Corn3 / Gem2 / Gem3
        draw: Oil2
        discard: -
        certs: - / - / ...
        tokens: 0 / 1 / 1
        """,
    )
    _play(st, "Upturn")
    # Seat 0 takes the last card: the discard pile (just Corn 2) is reshuffled; seat 1 takes
    # that one, nothing is left, and the round ends before seat 2 draws.
    assert st.end_reason == "no_cards" and st.decision == "exercise"
    assert st.hands == [cards(["Corn 3", "Oil 2"]), cards(["Corn 2", "Gem 2"]), [card("Gem 3")]]


def test_downturn_everyone_discards_hidden_until_all_chose() -> None:
    st = position("""
        turn: 1
        hands: Gem2 Gem3 / Corn2 Corn3 Tech4 / Oil2 Oil3
        saved: - / Downturn / -
    """)
    _play(st, "Downturn")
    assert st.decision == "downturn_discard" and st.current_player == 1
    discard = list(st.discard)
    play(st, "discard Tech 4")
    assert st.current_player == 2
    assert st.view(1).own_hidden == (card("Tech 4"),)
    other = st.view(2)
    assert other.own_hidden == () and other.discard_pile == tuple(sorted(discard))
    assert other.hand_sizes == (2, 2, 2)
    assert other.hidden_counts == (0, 1, 0)
    assert other.waiting == (2, 0)
    assert st.visible_events(2)[-1] == {"type": "downturn_discard", "seat": 1, "card": None}
    play(st, "discard Oil 3", "discard Gem 2")
    assert st.discard == [*discard, *cards(["Gem 2", "Tech 4", "Oil 3"])]
    assert st.visible_events(None)[-2]["type"] == "downturn_reveal"
    assert st.current_player == 2 and st.round == 1


def test_downturn_choice_does_not_leak_to_the_others() -> None:
    st = _playing("Downturn", "hands: Corn2 Corn3 Tech4 / Gem2 Gem3 / Oil2 Oil3")
    _play(st, "Downturn")
    one, two = st.clone(), st.clone()
    play(one, "discard Corn 3")
    play(two, "discard Tech 4")
    for seat in (1, 2, None):
        assert one.view(seat).to_dict() == two.view(seat).to_dict()
        assert one.visible_events(seat) == two.visible_events(seat)
    assert one.view(0).to_dict() != two.view(0).to_dict()


def test_downturn_emptying_a_hand_ends_the_round() -> None:
    st = _playing("Downturn", "hands: Corn2 Corn3 / Gem2 Gem3 / Oil2; tokens: 0 / 0 / 0")
    _play(st, "Downturn")
    play(st, "discard Corn 3", "discard Gem 2", "discard Oil 2")
    assert st.round_end_reasons() == ["empty_hand"]


# ---------------------------------------------------------------------- options gained and lost


def test_option_gained_everyone_takes_one() -> None:
    st = _playing("Option Gained", "tokens: 4 / 0 / 2")
    _play(st, "Option Gained")
    assert st.tokens == [5, 1, 3] and st.supply == 30 - 9
    assert st.current_player == 1


@pytest.mark.parametrize(
    ("shortage", "tokens_after"),
    [("turn_order", [6, 6, 6, 6, 6]), ("nobody", [6, 6, 6, 6, 5])],
)
def test_option_gained_with_too_few_tokens(shortage: str, tokens_after: list[int]) -> None:
    st = position(
        """
        turn: 4
        hands: ... / ... / ... / ... / Corn2 Corn3
        saved: - / - / - / - / OptionGained
        tokens: 6 / 6 / 6 / 6 / 5
        """,
        5,
        option_shortage=shortage,
    )
    assert st.supply == 1
    _play(st, "Option Gained")
    assert st.tokens == tokens_after
    assert st.supply == 30 - sum(tokens_after)


def test_option_gained_shortage_hands_out_from_the_active_player() -> None:
    st = position(
        """
        turn: 3
        hands: ... / ... / ... / Corn2 Corn3 / ...
        saved: - / - / - / OptionGained / -
        tokens: 5 / 6 / 6 / 5 / 5
        """,
        5,
    )
    assert st.supply == 3
    _play(st, "Option Gained")
    assert st.tokens == [6, 6, 6, 6, 6] and st.supply == 0


def test_option_lost_players_at_zero_lose_nothing() -> None:
    st = _playing("Option Lost", "tokens: 2 / 0 / 1")
    _play(st, "Option Lost")
    assert st.tokens == [1, 0, 0] and st.supply == 30 - 1
    assert [e for e in st.visible_events(1) if e["type"] == "tokens"] == [
        {"type": "tokens", "seat": 0, "change": -1},
        {"type": "tokens", "seat": 2, "change": -1},
    ]


# ---------------------------------------------------------------------- no market change


def test_no_market_change_changes_nothing() -> None:
    st = _playing("No Change", "oil: 1 5; gem: 1 split")
    before = st.clone()
    _play(st, "No Change")
    assert st.rows == before.rows and st.splits == before.splits and st.tokens == before.tokens
    assert st.hands[0] == [card("Corn 3")]
    assert st.ev_discard == [event("No Change")]
    assert st.current_player == 1


def test_every_event_kind_is_covered_here() -> None:
    # Market Closed is covered with the market actions (test_turn_actions.py).
    played = {"Split", "Crash", "Insider", "Audit", "Freeze", "Upturn", "Downturn"}
    played |= {"Option Gained", "Option Lost", "Market Crash", "No Change", "Market Closed"}
    assert {
        name.split(" ")[0] if name.split(" ")[-1] in C.STOCKS else name for name in C.EVENT_NAMES
    } == played
