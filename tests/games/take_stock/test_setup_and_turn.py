"""Setting up a game, and the draw that starts every turn."""

from __future__ import annotations

from collections import Counter

import pytest

from closingbell.games.take_stock import cards as C

from .craft import card, cards, make_game, play, position


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 6), (4, 5), (5, 4), (6, 4)])
def test_setup_deals_by_player_count(players: int, size: int) -> None:
    st = make_game(players).new_game(seed=11)
    first = (st.dealer + 1) % players
    assert st.current_player == first and st.decision == "action"
    # Everyone holds the dealt hand; the player left of the dealer has drawn one more.
    assert [len(h) for h in st.hands] == [size + (q == first) for q in range(players)]
    assert len(st.draw) == 55 - players * size - 1
    assert st.discard == [] and st.certs == [[]] * players
    assert st.tokens == [4] * players and st.supply == 30 - 4 * players
    assert st.rows == [[1]] * 5 and st.prices() == [1] * 5
    assert st.splits == [0] * 5 and st.frozen == [False] * 5
    assert st.round == 1
    st.check_invariants()


@pytest.mark.parametrize("players", [2, 3, 6])
def test_setup_puts_market_closed_eleventh_from_the_bottom(players: int) -> None:
    st = make_game(players).new_game(seed=5)
    # Market Closed lies between the pile above and the cards below; it is not in either.
    assert len(st.ev_below) == 10
    assert len(st.ev_above) == 29
    assert C.MARKET_CLOSED not in st.ev_above + st.ev_below
    expected = Counter(k for k in C.EVENT_CARDS if k != C.MARKET_CLOSED)
    assert Counter(st.ev_above + st.ev_below) == expected
    assert st.ev_below_mask == [0] * 10
    view = st.view(0)
    assert (view.event_pile, view.event_below, view.event_discard) == (29, 10, 0)


def test_setup_first_dealer_option_and_first_draw_logged() -> None:
    st = make_game(4, first_dealer=2).new_game(seed=3)
    assert st.dealer == 2 and st.current_player == 3
    events = st.visible_events(None)
    assert events[0] == {"type": "round_start", "round": 1, "dealer": 2}
    assert events[1] == {"type": "draw", "seat": 3, "card": None}
    own = st.visible_events(3)[1]
    assert own["seat"] == 3 and own["card"] in st.hands[3]


def test_setup_depends_only_on_the_seed() -> None:
    game = make_game(3)
    assert game.new_game(seed=9).to_json() == game.new_game(seed=9).to_json()
    assert game.new_game(seed=9).to_json() != game.new_game(seed=10).to_json()


def test_turn_starts_with_a_draw() -> None:
    st = position("""
        oil: 1 3
        hands: Oil5 Gem9 / Tech2 Tech3 / ...
        draw: Movie7 Movie8 ...
    """)
    pile = len(st.draw)
    play(st, "raise Oil 5")
    assert st.current_player == 1
    assert st.hands[1] == cards(["Tech 2", "Tech 3", "Movie 7"])
    assert len(st.draw) == pile - 1
    assert st.view(2).hand_sizes == (1, 3, 6)


def test_last_card_drawn_reshuffles_at_once() -> None:
    st = position("""
        oil: 1 3
        hands: Oil5 Gem9 / Tech2 / ...
        draw: Movie7
    """)
    discard = sorted(st.discard)
    assert len(discard) == 55 - 2 - 1 - 6 - 1 - 1
    play(st, "raise Oil 5")
    assert st.hands[1] == cards(["Tech 2", "Movie 7"])
    assert sorted(st.draw) == discard and st.discard == []
    assert st.visible_events(None)[-1] == {"type": "reshuffle", "cards": len(discard)}
    # The reshuffled cards form a new pool of hidden cards, which everyone saw go by.
    view = st.view(2)
    assert len(view.pools) == 2 and sorted(view.pools[1]) == discard


def test_next_draw_option_reshuffles_when_a_card_is_needed() -> None:
    st = position(
        """
        oil: 1 3
        hands: Oil5 Gem9 / Tech2 Tech3 / ...
        draw: Movie7
        """,
        empty_draw="next_draw",
    )
    discard = sorted(st.discard)
    play(st, "raise Oil 5")
    assert st.draw == [] and sorted(st.discard) == discard
    play(st, "raise Tech 3")  # seat 2 must draw: now the pile is reshuffled
    assert st.current_player == 2
    assert len(st.draw) == len(discard) - 1 and st.discard == []
    assert len(st.hands[2]) == 7


def test_round_ends_when_the_last_card_is_drawn_and_no_discard() -> None:
    st = position("""
        oil: 1 3
        hands: Oil5 Gem9 / Tech2 / Tech3
        draw: Movie7
        discard: -
        certs: - / - / ...
        tokens: 0 / 0 / 0
    """)
    assert st.discard == []
    play(st, "raise Oil 5")
    assert st.round_end_reasons() == ["no_cards"]
    assert st.round == 2


def test_round_ends_when_no_card_can_be_drawn_under_next_draw() -> None:
    st = position(
        """
        oil: 1 3
        hands: Oil5 Gem9 / Tech2 / Tech3
        draw: -
        discard: -
        certs: - / - / ...
        """,
        empty_draw="next_draw",
    )
    play(st, "raise Oil 5")
    # Seat 1 cannot draw: the round is over, and options may be exercised.
    assert st.end_reason == "no_cards" and st.decision == "exercise"
    assert st.hands[1] == [card("Tech 2")]
    assert st.current_player == 1
