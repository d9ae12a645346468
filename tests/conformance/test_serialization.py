"""Determinism and JSON: the same seed and actions give the same game; states round-trip."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from closingbell import State, StateFormatError
from tests.conformance.common import (
    Position,
    case_params,
    cases,
    get_game,
    move_rng,
    play_out,
    positions,
    random_step,
    seeds,
)

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")


def seat_views(state: State) -> list[object]:
    return [state.view(seat) for seat in [*range(state.game.players), None]]


@pytest.mark.parametrize(("name", "players"), case_params())
def test_same_seed_and_actions_give_the_same_game(name: str, players: int) -> None:
    game = get_game(name, players)
    for seed in (0, 1, 2**40 + 7):
        state = game.new_game(seed=seed)
        rng = move_rng(seed)
        actions = []
        while not state.is_terminal():
            actions.append(random_step(state, rng))
        assert state.history == actions
        again = game.new_game(seed=seed)
        for action in actions:
            again.apply(action)
        assert again.to_json() == state.to_json()
        assert again.scores() == state.scores() and again.winners() == state.winners()
        for seat in [*range(players), None]:
            assert again.visible_events(seat) == state.visible_events(seat)
        # A second game object with the same options deals the same cards.
        other = type(game)(**game.options_dict()).new_game(seed=seed)
        assert other.to_json() == game.new_game(seed=seed).to_json()


@settings(max_examples=40, deadline=None)
@given(case=cases, first=seeds, second=seeds)
def test_different_seeds_deal_differently(case: tuple[str, int], first: int, second: int) -> None:
    if first == second:
        second = first ^ 1
    game = get_game(*case)
    a, b = game.new_game(seed=first), game.new_game(seed=second)
    assert seat_views(a) != seat_views(b), "two seeds dealt the same cards to every seat"


@pytest.mark.parametrize(("name", "players"), case_params())
def test_json_round_trips_at_every_step(name: str, players: int) -> None:
    # One game per count: serializing a long log at every step is the kit's dearest check.
    game = get_game(name, players)
    state = game.new_game(seed=players)
    rng = move_rng(players)
    restored = game.state_from_json(state.to_json())
    while True:
        text = state.to_json()
        # ``restored`` was read back one step ago and has since taken the same action.
        assert restored.to_json() == text, "a restored state continues identically"
        assert restored.legal_actions() == state.legal_actions()
        assert restored.current_player == state.current_player
        if len(state.history) % 10 == 0 or state.is_terminal():
            again = game.state_from_json(text)
            assert again == state
            assert again.view(None) == state.view(None)
            for seat in [*range(players), None]:
                assert again.visible_events(seat) == state.visible_events(seat)
        if state.is_terminal():
            assert restored.is_terminal() and restored.scores() == state.scores()
            break
        restored = game.state_from_json(text)
        restored.apply(random_step(state, rng))


def _junk_for(value: object) -> list[object]:
    """JSON values of another type than ``value``: none of them can stand in for it."""
    junk: list[object] = [{"junk": 1}]
    if not isinstance(value, str):
        junk.append("junk")
    if not isinstance(value, list):
        junk.append([["junk"]])
    return junk


@pytest.mark.parametrize(("name", "players"), case_params())
def test_malformed_json_is_refused(name: str, players: int) -> None:
    game = get_game(name, players)
    text = Position(name, players, 5, 60).build().to_json()
    for bad in ("", "{", "not json", text[:-1], text[: len(text) // 2], "[]", "null", "42", "{}"):
        with pytest.raises(StateFormatError):
            game.state_from_json(bad)
    other = get_game(name, players + 1 if players < game.info.max_players else players - 1)
    with pytest.raises(StateFormatError):
        other.state_from_json(text)


@pytest.mark.parametrize(("name", "players"), case_params())
def test_tampered_fields_are_refused(name: str, players: int) -> None:
    game = get_game(name, players)
    accepted = []
    for steps in (0, 45, 150):
        state = Position(name, players, 9, steps).build()
        data = json.loads(state.to_json())
        for key in data:
            missing = {k: v for k, v in data.items() if k != key}
            with pytest.raises(StateFormatError):
                game.state_from_json(json.dumps(missing))
            for junk in _junk_for(data[key]):
                try:
                    game.state_from_json(json.dumps({**data, key: junk}))
                except StateFormatError:
                    continue
                accepted.append(f"{key}={junk!r} (after {steps} steps)")
    assert not accepted, "tampered states were accepted: " + "; ".join(accepted)


@settings(max_examples=30, deadline=None)
@given(position=positions(), play=st.integers(0, 2**32))
def test_restored_state_plays_on_like_the_original(position: Position, play: int) -> None:
    state = position.build()
    restored = position.game.state_from_json(state.to_json())
    restored.check_invariants()
    play_out(state, random.Random(play), check=False)
    play_out(restored, random.Random(play))
    assert restored.to_json() == state.to_json()
