"""The draw pile running out, the jokers, the final sale and the winners."""

from __future__ import annotations

from collections import Counter

from closingbell.games.card_stock_market import cards as C

from .craft import card, cards, play, position

HAND = "7D QD 2S 3S 10C AH KH 4C"


def test_the_reshuffle_gathers_the_market_discards_and_jokers() -> None:
    # The draw pile holds two cards; the cards no field names go under the discard pile.
    st = position(
        f"market: 2H JH 9S 7S 6S; hands: {HAND} / ... / ...; draw: 5D 6D; discard: 8D 8C ..."
    )
    discarded = list(st.discard)
    assert discarded[-2:] == cards(["8C", "8D"])  # the named cards on top
    assert st.jokers_out == 2 and not st.reshuffled
    play(st, "discard 2S", "discard 3S", "done")
    # The last two cards were drawn, so the pile is made anew at once.
    assert st.reshuffled and st.jokers_out == 0 and st.discard == []
    assert st.piles[3] == [card("6S")] and st.piles[2] == [card("JH")]
    expected = Counter([*discarded, *cards(["2S", "3S", "9S", "7S", "2H"]), C.JOKER, C.JOKER])
    assert Counter(st.draw) == expected
    assert [e["type"] for e in st.visible_events(1)][-4:] == [
        "end_turn",
        "draw",
        "reshuffle",
        "turn",
    ]
    assert st.view(1).reshuffle_pile == tuple(sorted(expected.elements()))
    assert sorted(st.hands[0]) == sorted(cards([*HAND.split()[:2], *HAND.split()[4:], "5D", "6D"]))


def test_a_joker_ends_the_game_and_all_stock_is_sold() -> None:
    st = position(
        f"market: 6C QC 8H 4S JS; bankrupt: C; hands: {HAND} / ... / ...; "
        "certs: 10H 2H / JS / 5C; draw: 5D Joker 9D ..."
    )
    assert st.reshuffled and st.draw.count(C.JOKER) == 2 and st.draw[0] == C.JOKER
    play(st, "discard 7D", "discard QD", "done")
    assert st.is_terminal() and st.current_player is None and st.decision == "game_over"
    assert st.legal_actions() == []
    assert len(st.hands[0]) == 7  # the joker stops the draw at once
    assert st.joker_by == 0 and st.draw.count(C.JOKER) == 1
    # Hearts at $8, spades raised to $11, clubs bankrupt at $0.
    assert st.scores() == [200 + 12 * 8, 200 + 5 * 11, 200]
    assert st.winners() == [0]
    assert all(not c for c in st.certs) and all(not any(h) for h in st.held)
    events = st.visible_events(2)
    assert {"type": "joker", "seat": 0} in events
    sales = [(e["seat"], e["paid"]) for e in events if e["type"] == "final_sale"]
    assert sales == [(0, 16), (0, 80), (1, 55), (2, 0)]
    assert events[-1] == {"type": "game_over", "scores": [296, 255, 200], "winners": [0]}
    text = st.to_position()
    assert "turn: 0; decide: game_over;" in text and text.endswith("jokers: drawn")
    assert st.game.state_from_position(text).to_position() == text


def test_ties_share_the_win() -> None:
    st = position(f"market: 8H; hands: {HAND} / ... / ...; certs: 5H / 5H / -; draw: Joker ...")
    play(st, "discard 7D", "done")
    assert st.scores() == [240, 240, 200] and st.winners() == [0, 1]


def test_the_final_sale_may_levy_and_debts_count_against_the_score() -> None:
    st = position(
        f"market: 9S KS 9H QH; hands: {HAND} / ...; certs: 10S / 10H; "
        "cash: 0 / 1540; debts: 30 / 0; bank: 100; draw: Joker ...",
        players=2,
    )
    play(st, "discard 7D", "done")
    levies = [e for e in st.visible_events(None) if e["type"] == "levy"]
    assert len(levies) == 1 and levies[0]["paid"] == [0, 100] and levies[0]["owed"] == [100, 0]
    # Seat 0: $130 for its tens of spades pays its $130 of debt. Seat 1: 1540 - 100 + 120.
    assert st.scores() == [0, 1560] and st.debt == [0, 0]
    assert sum(st.cash) + st.bank == 1640


def test_the_draw_pile_cannot_run_out_twice() -> None:
    st = position(f"hands: {HAND} / ...; draw: 5D Joker Joker", players=2)
    assert Counter(st.draw)[C.JOKER] == 2 and len(st.draw) == 3
    play(st, "discard 7D", "discard QD", "done")
    assert st.is_terminal()  # the pile held one card besides the jokers
