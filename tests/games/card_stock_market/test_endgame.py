"""The draw pile running out, the jokers, the final sale and the winners."""

from __future__ import annotations

from collections import Counter

from closingbell.games.card_stock_market import cards as C

from .craft import card, cards, craft, make_game, play

HAND = ["7D", "QD", "2S", "3S", "10C", "AH", "KH", "4C"]


def test_the_reshuffle_gathers_the_market_discards_and_jokers() -> None:
    st = craft(
        make_game(3),
        piles={"S": ["9S", "7S", "6S"], "H": ["2H", "JH"]},
        hands={0: HAND},
        discard=["8C", "8D"],
        draw_top=["5D", "6D"],
        draw_size=2,
    )
    spare = list(st.discard)  # the cards that did not fit in the pile were discarded
    assert st.jokers_out == 2 and not st.reshuffled
    play(st, "discard 2S", "discard 3S", "done")
    # The last two cards were drawn, so the pile is made anew at once.
    assert st.reshuffled and st.jokers_out == 0 and st.discard == []
    assert st.piles[3] == [card("6S")] and st.piles[2] == [card("JH")]
    expected = Counter([*spare, *cards(["2S", "3S", "9S", "7S", "2H"]), C.JOKER, C.JOKER])
    assert Counter(st.draw) == expected
    assert [e["type"] for e in st.visible_events(1)][-4:] == [
        "end_turn",
        "draw",
        "reshuffle",
        "turn",
    ]
    assert st.view(1).reshuffle_pile == tuple(sorted(expected.elements()))
    assert sorted(st.hands[0]) == sorted(cards([*HAND[:2], *HAND[4:], "5D", "6D"]))


def test_a_joker_ends_the_game_and_all_stock_is_sold() -> None:
    st = craft(
        make_game(3),
        piles={"S": ["4S", "JS"], "H": ["8H"], "C": ["6C", "QC"]},
        bankrupt=["C"],
        hands={0: HAND},
        certs={0: ["10H", "2H"], 1: ["JS"], 2: ["5C"]},
        reshuffled=True,
        draw_top=["5D", "Joker", "9D"],
    )
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
    st.check_invariants()


def test_ties_share_the_win() -> None:
    st = craft(
        make_game(3),
        piles={"H": ["8H"]},
        hands={0: HAND},
        certs={0: ["5H"], 1: ["5H"]},
        reshuffled=True,
        draw_top=["Joker"],
    )
    play(st, "discard 7D", "done")
    assert st.scores() == [240, 240, 200] and st.winners() == [0, 1]


def test_the_final_sale_may_levy_and_debts_count_against_the_score() -> None:
    st = craft(
        make_game(2),
        piles={"S": ["9S", "KS"], "H": ["9H", "QH"]},
        hands={0: HAND},
        certs={0: ["10S"], 1: ["10H"]},
        cash={0: 0, 1: 50},
        debts={0: 30},
        bank=1590,
        reshuffled=True,
        draw_top=["Joker"],
    )
    st.bank, st.cash[1] = 100, 1540  # the bank is nearly empty
    st.check_invariants()
    play(st, "discard 7D", "done")
    levies = [e for e in st.visible_events(None) if e["type"] == "levy"]
    assert len(levies) == 1 and levies[0]["paid"] == [0, 100] and levies[0]["owed"] == [100, 0]
    # Seat 0: $130 for its tens of spades pays its $130 of debt. Seat 1: 1540 - 100 + 120.
    assert st.scores() == [0, 1560] and st.debt == [0, 0]
    assert sum(st.cash) + st.bank == 1640


def test_the_draw_pile_cannot_run_out_twice() -> None:
    st = craft(make_game(2), hands={0: HAND}, reshuffled=True, draw_top=["5D"], draw_size=3)
    assert Counter(st.draw)[C.JOKER] == 2 and len(st.draw) == 3
    play(st, "discard 7D", "discard QD", "done")
    assert st.is_terminal()  # the pile held one card besides the jokers
