"""The double deck, the jokers held out, the market piles' first cards, the deal, the money."""

from __future__ import annotations

from collections import Counter

import pytest

from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarketState

from .craft import make_game


def _all_cards(st: CardStockMarketState) -> Counter[int]:
    places = [*st.draw, *st.discard]
    for pile in st.piles:
        places += pile
    for q in range(st.n):
        places += st.hands[q] + st.certs[q]
    return Counter(places)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deck_deal_and_money(players: int) -> None:
    st = make_game(players).new_game(11)
    counts = _all_cards(st)
    assert sum(counts.values()) == 104
    assert all(counts[k] == 2 for k in range(C.NUM_KINDS))
    assert C.JOKER not in counts and st.jokers_out == 2 and not st.reshuffled
    assert [len(h) for h in st.hands] == [8] * players
    assert len(st.draw) == 104 - 4 - 8 * players
    assert st.cash == [200] * players and st.debt == [0] * players
    assert st.bank == 1240 == 40 * (1 + 5 + 25)
    assert st.current_player == (st.dealer + 1) % players
    assert st.decision == "turn"


def test_first_number_card_of_each_suit_starts_its_pile() -> None:
    game = make_game(4)
    for seed in range(40):
        st = game.new_game(seed)
        setup = st.visible_events(None)[0]
        assert setup["type"] == "setup"
        # Walk the banker's turning: a card starts a pile exactly when it is the first
        # number card of its suit, and the turning stops once all four have started.
        started: dict[int, int] = {}
        for c in setup["turned"]:
            assert len(started) < 4, "the banker stops once every suit has a card"
            if not C.is_face(c) and C.suit_of(c) not in started:
                started[C.suit_of(c)] = c
        assert len(started) == 4
        tops = [started[s] for s in range(4)]
        assert setup["tops"] == tops
        assert st.piles == [[c] for c in tops]
        assert st.prices == [C.rank_of(c) for c in tops]
        # The other turned cards went back into the deck, which was shuffled and dealt.
        assert not st.discard


def test_ace_counts_at_setup_unless_the_option_says_otherwise() -> None:
    with_ace = make_game(2)
    without = make_game(2, ace_at_setup=False)
    ace_tops = 0
    for seed in range(150):
        tops = with_ace.new_game(seed).visible_events(None)[0]["tops"]
        ace_tops += sum(C.rank_of(c) == 1 for c in tops)
        setup = without.new_game(seed).visible_events(None)[0]
        assert all(C.rank_of(c) >= 2 for c in setup["tops"])
        started: set[int] = set()
        for c in setup["turned"]:
            if 2 <= C.rank_of(c) <= 10 and C.suit_of(c) not in started:
                started.add(C.suit_of(c))
                assert c in setup["tops"]
    assert ace_tops > 0


def test_same_seed_same_game_and_dealer_option() -> None:
    game = make_game(3)
    assert game.new_game(3).to_json() == game.new_game(3).to_json()
    assert game.new_game(3).to_json() != game.new_game(4).to_json()
    st = make_game(3, first_dealer=2).new_game(9)
    assert st.dealer == 2 and st.current_player == 0


def test_hands_are_private_in_the_log() -> None:
    st = make_game(3).new_game(1)
    deals = [e for e in st.visible_events(1) if e["type"] == "deal"]
    assert [e["cards"] for e in deals if e["seat"] != 1] == [None, None]
    assert [e["cards"] for e in deals if e["seat"] == 1] == [st.hands[1]]
    assert [e["count"] for e in deals] == [8, 8, 8]
