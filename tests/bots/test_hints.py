"""Hints: the analysis on a fixed budget, seeded by the game and the decision, from the view."""

from __future__ import annotations

import random

import pytest

import closingbell
from closingbell.bots.analysis import Analyst
from closingbell.bots.hints import HINT_WORLDS, hint, hint_seed
from tests.conformance.hidden import perturber_for


def _midgame(name: str, players: int, seed: int, steps: int) -> closingbell.State:
    state = closingbell.load_game(name, players=players).new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_seed_is_the_games_and_the_decisions_and_tells_neither() -> None:
    assert hint_seed(7, 3) == hint_seed(7, 3)
    seeds = {hint_seed(s, d) for s in range(20) for d in range(20)}
    assert len(seeds) == 400
    assert all(0 <= s < 2**63 for s in seeds)
    assert hint_seed(7, 3) not in (7, 3, 7 * 31 + 3)


@pytest.mark.parametrize(("name", "players"), [("take_stock", 3), ("card_stock_market", 2)])
def test_a_hint_is_the_analysis_of_the_view_on_its_budget(name: str, players: int) -> None:
    state = _midgame(name, players, seed=12, steps=9)
    seat = state.current_player
    assert seat is not None
    found = hint(state.game, state.view(seat), state.seed, len(state.history))
    assert found.worlds == HINT_WORLDS and found.seat == seat
    assert sorted(v.action for v in found.actions) == sorted(state.legal_actions())
    same = Analyst(state.game, worlds=HINT_WORLDS, seed=hint_seed(state.seed, 9))
    assert same.analyze(state.view(seat)) == found
    # The cards the seat cannot see never change it.
    other = perturber_for(name)(state, seat, random.Random(4))
    assert other.view(seat) == state.view(seat) and other.to_json() != state.to_json()
    assert hint(other.game, other.view(seat), state.seed, 9) == found


def test_a_view_without_a_decision_gets_no_hint() -> None:
    state = _midgame("take_stock", 2, seed=3, steps=4)
    waiting = 1 - (state.current_player or 0)
    with pytest.raises(ValueError, match="no decision"):
        hint(state.game, state.view(waiting), state.seed, 4)
