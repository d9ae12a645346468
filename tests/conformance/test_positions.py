"""Positions: every game's notation round-trips at every step of random play.

A state read back from ``to_position()`` writes the same text, asks the same seat the same
decision with the same legal actions, and, given the same further actions, stays the same
position: the seed and counters that drive later shuffles are part of the text.
"""

from __future__ import annotations

import pytest

from closingbell import PositionError, State
from tests.conformance.common import case_params, get_game, move_rng, random_step

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")


def _same_position(a: State, b: State, where: str) -> None:
    assert a.to_position() == b.to_position(), where
    assert a.current_player == b.current_player, where
    assert a.decision == b.decision, where
    assert a.legal_actions() == b.legal_actions(), where
    assert a.scores() == b.scores(), where


@pytest.mark.parametrize(("name", "players"), case_params())
def test_positions_round_trip_through_random_play(name: str, players: int) -> None:
    game = get_game(name, players)
    state = game.new_game(seed=players)
    rng = move_rng(players)
    step = 0
    while True:
        text = state.to_position()
        again = game.state_from_position(text)
        again.check_invariants()
        _same_position(state, again, f"step {step}: {text}")
        assert again.history == [] and not again.from_deal
        if step % 25 == 0:
            # Played on with the same actions, the two stay one position.
            original, copy = state.clone(), again
            for k in range(30):
                if original.is_terminal():
                    break
                action = rng.choice(original.legal_actions())
                original.apply(action)
                copy.apply(action)
                _same_position(original, copy, f"step {step}+{k + 1}")
        if state.is_terminal():
            break
        random_step(state, rng)
        step += 1


@pytest.mark.parametrize(("name", "players"), case_params())
def test_a_position_for_another_player_count_is_refused(name: str, players: int) -> None:
    text = get_game(name, players).new_game(seed=1).to_position()
    other = players + 1 if players < 6 else players - 1
    with pytest.raises(PositionError) as caught:
        get_game(name, other).state_from_position(text)
    assert caught.value.field is not None
    assert caught.value.reason
