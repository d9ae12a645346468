"""No-leak properties: a view depends only on what its seat may know.

(1) Changing only what a seat cannot see (with the game's perturber from
:mod:`tests.conformance.hidden`) leaves that seat's view, and the spectator's, unchanged.
(2) A full state sampled from a view gives back the same view, is consistent, and plays on.
(3) A game names its secret decisions: every other choice can be told apart, by every
other seat and spectator, from what they see once it is made.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import closingbell
from tests.conformance.common import (
    Position,
    case_params,
    could_tell,
    get_game,
    move_rng,
    play_out,
    positions,
    random_step,
)
from tests.conformance.hidden import PERTURBERS, perturber_for

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

salts = st.integers(min_value=0, max_value=2**32 - 1)


def test_every_registered_game_has_a_perturber() -> None:
    missing = set(closingbell.available_games()) - set(PERTURBERS)
    assert not missing, f"add a perturber to tests/conformance/hidden.py for {sorted(missing)}"


@settings(max_examples=100, deadline=None)
@given(position=positions(), salt=salts)
def test_a_view_ignores_what_its_seat_cannot_see(position: Position, salt: int) -> None:
    state = position.build()
    original = state.to_json()
    perturb = perturber_for(position.name)
    rng = random.Random(salt)
    spectator = state.view(None)
    for seat in position.seats:
        view = state.view(seat)
        for _ in range(3):
            changed = perturb(state, seat, rng)
            assert state.to_json() == original, "a perturber must work on a clone"
            assert changed.view(seat) == view, f"seat {seat} saw a change hidden from it"
            # A seat sees everything a spectator sees, so this change is hidden from
            # spectators too.
            assert changed.view(None) == spectator, "the spectator saw a hidden change"
    # The perturbed world is a real game that goes on.
    changed = perturb(state, rng.choice(position.seats), rng)
    for _ in range(20):
        if changed.is_terminal():
            break
        random_step(changed, rng)
        changed.check_invariants()


@pytest.mark.parametrize(("name", "players"), case_params())
def test_perturbations_change_what_other_seats_see(name: str, players: int) -> None:
    # The property above is only worth something if the perturber really moves cards
    # that other seats (those who can see them) notice.
    game = get_game(name, players)
    perturb = perturber_for(name)
    rng = random.Random(f"{name}/{players}")
    probes = noticed = 0
    for seed in range(3):
        state = game.new_game(seed=seed)
        moves = move_rng(seed)
        while not state.is_terminal():
            if len(state.history) % 11 == 0:
                for seat in [*range(players), None]:
                    changed = perturb(state, seat, rng)
                    others = [q for q in range(players) if q != seat]
                    probes += 1
                    noticed += any(changed.view(q) != state.view(q) for q in others)
            random_step(state, moves)
    assert probes > 0
    assert noticed * 10 >= probes * 9, f"only {noticed} of {probes} perturbations were noticed"


@settings(max_examples=50, deadline=None)
@given(position=positions(), salt=salts)
def test_a_sampled_state_gives_the_same_view(position: Position, salt: int) -> None:
    state = position.build()
    game = position.game
    rng = random.Random(salt)
    for seat in position.seats:
        view = state.view(seat)
        sampled = game.sample_state(view, rng)
        sampled.check_invariants()
        assert sampled.view(seat) == view
        assert sampled.legal_actions() == state.legal_actions() or seat != state.current_player
        play_out(sampled, rng)
        assert sampled.is_terminal()


@pytest.mark.parametrize(("name", "players"), case_params())
def test_every_choice_others_cannot_see_is_declared_secret(name: str, players: int) -> None:
    # Front ends tell every seat what the others chose (the web server's last_action),
    # except in the decisions a game declares secret: so every decision in which some
    # seat cannot tell one choice from another must be declared, or a front end leaks it.
    game = get_game(name, players)
    secret_seen = told = 0
    for seed in range(2):
        state = game.new_game(seed=seed)
        moves = move_rng(seed)
        while not state.is_terminal():
            before = state.clone()
            action = random_step(state, moves)
            actor = before.current_player
            if before.choice_is_secret():
                secret_seen += 1
                assert before.decision in type(before).SECRET_DECISIONS
                continue
            if len(before.history) % 2:
                continue  # every other step: enough to meet every decision, half the cost
            for seat in [*range(players), None]:
                if seat != actor:
                    assert could_tell(before, action, seat), (
                        f"seat {seat} cannot tell {before.action_to_string(action)!r} from "
                        f"another choice in {before.decision!r}, which is not declared secret"
                    )
                    told += 1
    assert told > 100
    if name == "take_stock":
        assert secret_seen > 0
