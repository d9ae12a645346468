"""Random playouts at every player count: invariants, legal and illegal actions, notation."""

from __future__ import annotations

import json
import random

import pytest

from closingbell import IllegalActionError, NotationError, State
from tests.conformance.common import (
    case_params,
    get_game,
    move_rng,
    play_out,
    random_step,
    walk,
)

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

GAMES_PER_CASE = 12
"""Random games played to the end per game and player count."""
PROBE_EVERY = 17
"""Every this many steps, every legal and a sample of illegal actions are tried."""


def check_basic_contract(state: State) -> None:
    """What must hold of any state: who decides, what is legal, and scores."""
    game = state.game
    players = game.players
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions are sorted and unique"
    assert all(isinstance(a, int) and not isinstance(a, bool) for a in legal)
    assert all(0 <= a < game.info.num_distinct_actions for a in legal)
    assert len(state.scores()) == players
    if state.is_terminal():
        assert state.current_player is None
        assert legal == []
        winners = state.winners()
        assert winners and set(winners) <= set(range(players))
        best = max(state.scores())
        assert all(state.scores()[w] == best for w in winners)
    else:
        assert state.current_player in range(players)
        assert legal, "a live state always offers a decision"


def probe_legal(state: State) -> None:
    """Every legal action applies on a clone, which stays consistent."""
    for action in state.legal_actions():
        copy = state.clone()
        copy.apply(action)
        copy.check_invariants()
        assert copy.history == [*state.history, action]


def illegal_inputs(state: State, rng: random.Random, sample: int | None) -> list[object]:
    """Out-of-phase ids (all, or ``sample`` of them), out-of-range ints and non-ints."""
    count = state.game.info.num_distinct_actions
    legal = set(state.legal_actions())
    out_of_phase = [a for a in range(count) if a not in legal]
    if sample is not None and len(out_of_phase) > sample:
        out_of_phase = rng.sample(out_of_phase, sample)
    return [*out_of_phase, -1, count, count + 1, 10**9, -(10**9), "x", "0", None, True, False, []]


def assert_all_refused(state: State, inputs: list[object]) -> None:
    """Each input raises IllegalActionError and leaves the state exactly as it was."""
    before = state.to_json()
    legal = state.legal_actions()
    history = list(state.history)
    for action in inputs:
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)  # type: ignore[arg-type]
        assert str(info.value), "a refusal says why"
        assert state.legal_actions() == legal, f"refusing {action!r} changed the legal actions"
        assert state.history == history, f"refusing {action!r} changed the history"
    # One full comparison per batch: serializing after every refusal would be slow.
    assert state.to_json() == before, f"refusing one of {inputs!r} changed the state"


def assert_notation_round_trips(state: State, action: int) -> None:
    text = state.action_to_string(action)
    assert isinstance(text, str) and text
    assert state.string_to_action(text) == action
    assert state.game.string_to_action(text) == action


@pytest.mark.parametrize(("name", "players"), case_params())
def test_random_games_keep_invariants(name: str, players: int) -> None:
    game = get_game(name, players)
    lengths = []
    for seed in range(GAMES_PER_CASE):
        state = game.new_game(seed=seed)
        state.check_invariants()
        check_basic_contract(state)
        lengths.append(play_out(state, move_rng(seed)))
        assert state.is_terminal()
        check_basic_contract(state)
        assert len(state.history) == lengths[-1]
    assert min(lengths) > 0


@pytest.mark.parametrize(("name", "players"), case_params())
def test_legal_and_illegal_actions_along_random_games(name: str, players: int) -> None:
    game = get_game(name, players)
    seen: set[int] = set()
    for seed in range(3):
        state = game.new_game(seed=seed)
        rng = move_rng(seed)
        probe_rng = random.Random(seed)
        step = 0
        while True:
            check_basic_contract(state)
            seen.update(state.legal_actions())
            if step % PROBE_EVERY == 0 or state.is_terminal():
                probe_legal(state)
                full = step == 0 or state.is_terminal()
                assert_all_refused(state, illegal_inputs(state, probe_rng, None if full else 12))
            if state.is_terminal():
                break
            random_step(state, rng)
            state.check_invariants()
            step += 1
    for action in sorted(seen):
        assert_notation_round_trips(state, action)


@pytest.mark.parametrize(("name", "players"), case_params())
def test_float_action_ids_are_refused(name: str, players: int) -> None:
    # A float equal to a legal id is still not an action id: it must be refused without
    # touching the state (a JSON record read carelessly could hand one over).
    game = get_game(name, players)
    state = game.new_game(seed=11)
    for _ in walk(state, move_rng(11), 30):
        assert_all_refused(state, [float(a) for a in state.legal_actions()[:3]])


@pytest.mark.parametrize(("name", "players"), case_params())
def test_notation_covers_every_action_id(name: str, players: int) -> None:
    game = get_game(name, players)
    count = game.info.num_distinct_actions
    texts = [game.action_to_string(a) for a in range(count)]
    assert len(set(texts)) == count, "each id has its own text"
    assert [game.string_to_action(t) for t in texts] == list(range(count))
    for bad in (-1, count, True, "1", None, 1.0):
        with pytest.raises(NotationError):
            game.action_to_string(bad)  # type: ignore[arg-type]
    for bad in ("", "no such action", "x" * 200, 3, None):
        with pytest.raises(NotationError):
            game.string_to_action(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "players"), case_params())
def test_clone_is_independent(name: str, players: int) -> None:
    game = get_game(name, players)
    for seed in range(3):
        state = game.new_game(seed=seed)
        for _ in walk(state, move_rng(seed), 40 * (seed + 1)):
            pass
        before = state.to_json()
        copy = state.clone()
        assert copy == state and copy is not state
        assert copy.to_json() == before
        play_out(copy, random.Random(seed + 100))
        assert state.to_json() == before, "playing the clone changed the original"
        # The other way round: the original moves on, a fresh clone stays put.
        copy = state.clone()
        frozen = copy.to_json()
        play_out(state, random.Random(seed + 200))
        assert copy.to_json() == frozen, "playing the original changed the clone"
        copy.check_invariants()
        play_out(copy, random.Random(seed + 300))


@pytest.mark.parametrize(("name", "players"), case_params())
def test_views_are_json_and_refuse_bad_seats(name: str, players: int) -> None:
    game = get_game(name, players)
    state = game.new_game(seed=3)
    rng = move_rng(3)
    for step in range(400):
        if step % 25 == 0 or state.is_terminal():
            for seat in [*range(players), None]:
                view = state.view(seat)
                assert view.seat == seat and view.game == name
                assert view == state.view(seat), "a view is a pure function of the state"
                data = view.to_dict()
                assert json.loads(json.dumps(data)) == data, "a view is plain JSON data"
            for bad in (-1, players, True, "0"):
                with pytest.raises(ValueError):
                    state.view(bad)  # type: ignore[arg-type]
        if state.is_terminal():
            break
        random_step(state, rng)
