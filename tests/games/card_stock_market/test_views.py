"""Views hold what a seat may know and no more; sampled states agree with them."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from closingbell import StateFormatError, View
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarketState

from .craft import make_game
from .hidden import perturb_card_stock_market


def _played(players: int, seed: int, steps: int) -> CardStockMarketState:
    st = make_game(players).new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_a_view_shows_only_the_own_hand() -> None:
    st = _played(4, 1, 10)
    view = st.view(2)
    assert view.hand == tuple(st.hands[2])
    assert view.hand_sizes == tuple(len(h) for h in st.hands)
    assert st.view(None).hand == () and st.view(None).legal_actions == ()
    data = view.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert view.draw_pile == len(st.draw) and view.jokers_held_out == 2
    # Nothing of another seat's hand or of the draw pile's order is in the view.
    assert "hands" not in data and "draw" not in data and "seed" not in data


@settings(max_examples=40, deadline=None)
@given(
    players=hs.integers(2, 6),
    seed=hs.integers(0, 10_000),
    steps=hs.integers(0, 250),
    salt=hs.integers(0, 2**32 - 1),
)
def test_what_a_seat_cannot_see_never_changes_its_view(
    players: int, seed: int, steps: int, salt: int
) -> None:
    st = _played(players, seed, steps)
    before = st.to_json()
    rng = random.Random(salt)
    spectator = st.view(None)
    for seat in [*range(players), None]:
        view = st.view(seat)
        changed = perturb_card_stock_market(st, seat, rng)
        assert st.to_json() == before
        assert changed.view(seat) == view and changed.view(None) == spectator
        for _ in range(10):  # the changed world plays on
            if changed.is_terminal():
                break
            changed.apply(rng.choice(changed.legal_actions()))
            changed.check_invariants()


def test_perturbations_are_noticed_by_the_seats_that_can_see_them() -> None:
    rng = random.Random(0)
    probes = noticed = 0
    for players in (2, 4, 6):
        for seed in range(2):
            st = make_game(players).new_game(seed)
            moves = random.Random(seed)
            while not st.is_terminal():
                if len(st.history) % 9 == 0:
                    for seat in [*range(players), None]:
                        changed = perturb_card_stock_market(st, seat, rng)
                        probes += 1
                        noticed += any(
                            changed.view(q) != st.view(q) for q in range(players) if q != seat
                        )
                st.apply(moves.choice(st.legal_actions()))
    assert noticed * 10 >= probes * 9


def test_sampling_after_the_reshuffle_keeps_to_what_is_known() -> None:
    game = make_game(4)
    rng = random.Random(0)
    checked = 0
    for seed in range(6):
        st = game.new_game(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
            # A finished game has drawn one joker; only the draw pile of a game going on
            # holds both.
            if st.is_terminal() or not st.reshuffled or rng.random() > 0.2:
                continue
            for seat in (0, None):
                view = st.view(seat)
                for _ in range(3):
                    s = game.sample_state(view, rng)
                    assert s.view(seat) == view
                    # The draw pile holds only cards of the reshuffle, both jokers among them.
                    assert not Counter(s.draw) - Counter(view.reshuffle_pile)
                    assert s.draw.count(C.JOKER) == 2
                    assert all(C.JOKER not in h for h in s.hands)
                    checked += 1
    assert checked > 20


def test_sampling_varies_the_hidden_cards() -> None:
    st = _played(3, 2, 30)
    view = st.view(0)
    game = st.game
    hands = {tuple(game.sample_state(view, random.Random(i)).hands[1]) for i in range(10)}
    assert len(hands) > 5
    s = game.sample_state(view, random.Random(1))
    assert s.hands[0] == st.hands[0] and s.history == [] and s.log == []


def test_sampling_refuses_a_foreign_view() -> None:
    st = _played(3, 2, 5)
    with pytest.raises(StateFormatError):
        make_game(4).sample_state(st.view(0), random.Random(0))
    with pytest.raises(TypeError):
        make_game(3).sample_state(View(game="take_stock", seat=0), random.Random(0))
