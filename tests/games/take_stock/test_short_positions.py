"""Short positions: the fields left out take the defaults docs/positions.md promises."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.game import TakeStockState

from .craft import card, cards, craft, craft_text, event, make_game, position


def test_an_empty_position_is_a_fresh_deal_with_seat_0_to_act() -> None:
    st = position("")
    assert (st.seed, st.round, st.dealer, st.turn) == (0, 1, 2, 0)
    assert (st.current_player, st.decision) == (0, "action")
    assert [len(h) for h in st.hands] == [7, 6, 6]  # seat 0 has drawn
    assert len(st.draw) == 55 - 19 and st.discard == []
    assert st.rows == [[1]] * 5 and st.splits == [0] * 5 and st.frozen == [False] * 5
    assert st.tokens == [4, 4, 4] and st.supply == 18
    assert st.certs == st.saved == [[], [], []]
    assert (len(st.ev_above), len(st.ev_below), st.ev_discard) == (29, 10, [])
    assert st.scores() == [0, 0, 0] and st.round_results() == []
    assert st.from_deal is False and st.history == [] and st.log == []


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_hands_left_out_are_dealt_to_their_usual_size(players: int) -> None:
    size = C.HAND_SIZES[players]
    st = position("turn: 1", players)
    assert [len(h) for h in st.hands] == [size + (q == 1) for q in range(players)]
    assert st.dealer == 0


def test_named_hands_are_exact_and_the_others_filled() -> None:
    st = position("hands: Gem2 Gem3 / Oil5 ? ? / ...")
    assert st.hands[0] == cards(["Gem 2", "Gem 3"])
    assert card("Oil 5") in st.hands[1] and len(st.hands[1]) == 3
    assert len(st.hands[2]) == 6
    both = position("hands: Gem2 ... / Oil5 ? ? / ...")
    assert card("Gem 2") in both.hands[0] and len(both.hands[0]) == 7


def test_cards_are_read_in_any_case() -> None:
    assert position("hands: gem2 GEM3 / ... / ...").hands[0] == cards(["Gem 2", "Gem 3"])
    assert position("saved: splitoil / - / -").saved[0] == [event("Split Oil")]


def test_piles_are_written_top_first() -> None:
    st = position("draw: Oil5 Oil6 ...; discard: Tech2 Tech3")
    assert st.draw[-2:] == cards(["Oil 6", "Oil 5"])  # the engine draws from the end
    assert st.discard == cards(["Tech 3", "Tech 2"])
    st.apply_string("market B")
    st.apply_string(f"discard {C.card_name(st.hands[0][0])}")
    assert card("Oil 5") in st.hands[1]  # the next player drew the top card


def test_a_draw_pile_named_in_full_leaves_the_rest_to_the_discard_pile() -> None:
    st = position("draw: Oil5 ? ?")
    assert len(st.draw) == 3 and st.draw[-1] == card("Oil 5")
    assert len(st.discard) == 55 - 19 - 3


def test_market_rows_are_written_bottom_first_the_1_may_be_left_out() -> None:
    st = position("oil: 3 7 split split; gem: 1 4 freeze")
    assert st.rows[2] == [1, 3, 7] and st.splits[2] == 2 and st.prices()[2] == 21
    assert st.rows[1] == [1, 4] and st.frozen[1]
    written = position("oil: 1 3 7 split split; gem: 1 4 freeze")
    assert written.to_position() == st.to_position()
    assert "oil: 1 3 7 split split; " in st.to_position()


def test_market_closed_lies_on_ten_cards_unless_placed() -> None:
    st = position("events: Audit Freeze ...")
    assert st.ev_above[-2:] == [event("Freeze"), event("Audit")]  # drawn from the end
    assert len(st.ev_below) == 10
    placed = position("events: Audit MarketClosed ...")
    assert placed.ev_above == [event("Audit")] and len(placed.ev_below) == 38
    on_top = position("events: MarketClosed ...")
    assert on_top.ev_above == []


def test_the_event_cards_named_elsewhere_leave_the_pile() -> None:
    st = position("oil: 1 split; saved: Audit / - / Upturn; events_discard: NoChange")
    pile = Counter(st.ev_above + st.ev_below)
    assert pile[event("Split Oil")] == 2 and pile[event("Audit")] == 3
    assert pile[event("Upturn")] == 0 and pile[event("No Change")] == 1
    assert sum(pile.values()) == 39 - 4


def test_scores_give_the_round_and_the_totals() -> None:
    st = position("scores: 50 10 / 20 0 / 30 5")
    assert st.round == 3 and st.scores() == [60, 20, 35]
    assert st.round_results() == [[50, 20, 30], [10, 0, 5]]
    assert st.round_end_reasons() == ["market_closed", "market_closed"]
    later = position("round: 3")
    assert later.round_results() == [[0, 0, 0], [0, 0, 0]]


def test_ended_names_why_each_round_ended() -> None:
    st = position("scores: 5 / 6 / 7; ended: high_card")
    assert st.round_end_reasons() == ["high_card"] and st.end_reason is None


def test_exercise_defaults_to_the_seats_that_can_from_the_turn_on() -> None:
    st = position("decide: 1 exercise; ended: high_card; tech: 1 7 11; tokens: 2 / 1 / 0")
    assert (st.turn, st.dealer) == (1, 0)
    assert st.queue == [1, 0] and st.end_reason == "high_card"
    guessed = position("decide: 1 exercise; tech: 1 7 11; tokens: 2 / 1 / 0")
    assert guessed.end_reason == "high_card"
    closed = position("decide: 1 exercise")
    assert closed.end_reason == "market_closed" and closed.ev_discard == [C.MARKET_CLOSED]


def test_a_downturn_half_answered() -> None:
    st = position(
        "decide: 1 downturn_discard; turn: 0; hands: Corn2 / Gem2 Gem3 / Oil2; aside: Tech4 / - / -"
    )
    assert st.queue == [1, 2] and st.current_player == 1
    assert st.hidden == [[card("Tech 4")], [], []]
    assert st.view(2).hidden_counts == (1, 0, 0)
    st.apply_string("discard Gem 3")
    st.apply_string("discard Oil 2")
    assert st.end_reason == "empty_hand" and st.decision == "exercise"


def test_the_details_of_each_decision() -> None:
    st = position("decide: 0 discard for play SplitOil; oil: 1 4")
    assert st.ev_active == event("Split Oil") and st.view(1).pending_discard_for == "play"
    st.apply_string(f"discard {C.card_name(st.hands[0][0])}")
    assert st.splits[2] == 1 and st.rows[2] == [1]
    drew = position("decide: 0 choose_event drew Audit Upturn")
    assert drew.pair == [event("Audit"), event("Upturn")]
    assert drew.view(0).drawn_events == (event("Audit"), event("Upturn"))
    took = position("decide: 0 insider_discard Oil took Oil9 owe 1; discard: Oil6")
    assert took.retrieved == [card("Oil 9")] and took.owed == 1
    audit = position("decide: 2 audit_what Gem; gem: 1 5 split")
    assert audit.ev_stock == 1 and audit.current_player == 2 and audit.dealer == 1
    assert position("decide: freeze_stock").ev_active == C.FREEZE


def test_a_game_over() -> None:
    st = position(
        "decide: game_over; scores: 10 / 30 / 30; tokens: 0 / 1 / 3",
        final_tie="most_tokens",
        rounds=1,
    )
    assert st.is_terminal() and st.winners() == [2] and st.hands == [[], [], []]
    assert st.round_end_reasons() == ["market_closed"] and st.end_reason == "market_closed"


# ---------------------------------------------------------------------- what the table knows


def test_the_table_knows_what_a_fresh_deal_shows() -> None:
    st = position("hands: Oil5 Oil6 / ... / ...; shown: Oil5 / - / -; events_discard: Audit")
    view = st.view(1)
    assert view.known_in_hands == ((card("Oil 5"),), (), ())
    assert len(view.pools) == 1 and view.hand_pools == ((1,), (6,), (6,))
    assert view.event_discard_known == (event("Audit"),)  # the discards are known to all
    assert view.event_below_known == ()  # the cards under Market Closed to nobody


def test_reshuffles_so_far_keep_the_later_shuffles_and_make_empty_groups() -> None:
    st = position("reshuffles: 2")
    assert st.reshuffles == 2
    assert [len(p) for p in st.view(0).pools] == [0, 0, 55]  # every card is hidden


def test_the_seed_orders_only_the_unnamed_cards() -> None:
    text = "hands: Gem2 Gem3 / ... / ...; oil: 1 4; events: Audit ..."
    one, two = position("seed: 1\n" + text), position("seed: 2\n" + text)
    assert one.hands[0] == two.hands[0] and one.rows == two.rows
    assert one.ev_above[-1] == two.ev_above[-1] == event("Audit")
    assert one.hands[1] != two.hands[1]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_engine_plays_on_from_a_short_position(players: int) -> None:
    others = " / ".join(["..."] * (players - 1))
    saved = ["-"] * players
    saved[0], saved[-1] = "Audit Freeze", "InsiderOil"
    st = position(
        f"""
        turn: {players - 1}
        oil: 1 3 7 split split
        gem: 1 4
        movie: 1 split
        tech: 1 freeze
        saved: {" / ".join(saved)}
        discard: Oil9 Oil10 ...
        draw: ? ? ?
        events: Downturn Upturn ...
        hands: {others} / ...
        """,
        players,
    )
    rng = random.Random(players)
    rounds_seen = 0
    for _ in range(3000):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
        st.check_invariants()
        rounds_seen = len(st.round_results())
    assert rounds_seen >= 1
    again = st.game.state_from_json(st.to_json())
    assert again.to_json() == st.to_json()


# ---------------------------------------------------------------------- the craft helper


@pytest.mark.reference  # crafts a state by changing its fields
def test_craft_writes_its_keywords_as_a_short_position() -> None:
    game = make_game(3)
    text = craft_text(
        game,
        current=1,
        rows={"Oil": [1, 3, 7]},
        splits={"Oil": 2},
        frozen={"Gem"},
        hands={1: ["Oil 5", "Corn 9"]},
        saved={0: ["Audit"]},
        event_top=["Freeze"],
        tokens={0: 2},
    )
    assert "oil: 1 3 7 split split" in text and "gem: freeze" in text
    assert "hands: ... / Oil5 Corn9 / ..." in text and "events: Freeze ..." in text
    st = craft(
        game,
        current=1,
        rows={"Oil": [1, 3, 7]},
        splits={"Oil": 2},
        frozen={"Gem"},
        hands={1: ["Oil 5", "Corn 9"]},
        saved={0: ["Audit"]},
        event_top=["Freeze"],
        tokens={0: 2},
    )
    assert isinstance(st, TakeStockState)
    assert st.to_position() == game.state_from_position(text).to_position()
    assert (st.current_player, st.dealer, st.tokens) == (1, 0, [2, 4, 4])
