"""The replay behind reading a dealt state, and the engines that can take its place."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from types import SimpleNamespace

import pytest

from closingbell import Game, State, StateFormatError
from closingbell.core import replay
from tests.conformance.common import Position, case_params, get_game


@pytest.fixture(autouse=True)
def _replays_kept() -> Iterator[None]:
    """Each test finds the replays registered at import (closingbell.native's) and leaves them."""
    kept = {name: replay.registered(name) for name in ("take_stock", "card_stock_market")}
    yield
    for name, hook in kept.items():
        if hook is None:
            replay.unregister(name)
        else:
            replay.register(name, hook)


@pytest.fixture
def engine() -> Iterator[list[tuple[str, int, int]]]:
    """Registers, for Take Stock, a replay that notes each call and asks the reference."""
    calls: list[tuple[str, int, int]] = []

    def noted(game: Game, seed: int, history: Sequence[int]) -> State:
        calls.append((game.info.name, seed, len(history)))
        return replay.reference_replay(game, seed, history)

    replay.register("take_stock", noted)
    yield calls
    replay.unregister("take_stock")


def dealt(name: str = "take_stock", players: int = 3, steps: int = 40) -> State:
    return Position(name, players, 7, steps).build()


def test_a_registered_replay_checks_dealt_states(engine: list[tuple[str, int, int]]) -> None:
    state = dealt()
    assert replay.registered("take_stock") is not None
    read = state.game.state_from_json(state.to_json())
    assert engine == [("take_stock", 7, 40)]
    assert read.to_json() == state.to_json()
    assert type(read) is type(state)
    # A position is not replayed, and another game keeps the reference.
    data = json.loads(state.to_json())
    data["from_deal"] = False
    state.game.state_from_json(json.dumps(data))
    other = dealt("card_stock_market")
    other.game.state_from_json(other.to_json())
    assert len(engine) == 1


def test_a_replay_on_states_dealt_otherwise() -> None:
    dealt_here: list[int] = []

    def deal(game: Game, seed: int) -> State:
        dealt_here.append(seed)
        return game.new_game(seed)

    state = dealt()
    replay.register("take_stock", replay.dealt_by(deal))
    try:
        assert state.game.state_from_json(state.to_json()).to_json() == state.to_json()
        assert dealt_here == [7]
        data = json.loads(state.to_json())
        data["history"].append(data["history"][0])
        with pytest.raises(StateFormatError, match="'history' entry 40 cannot be replayed"):
            state.game.state_from_json(json.dumps(data))
    finally:
        replay.unregister("take_stock")


def test_unregistering_goes_back_to_the_reference(engine: list[tuple[str, int, int]]) -> None:
    replay.unregister("take_stock")
    assert replay.registered("take_stock") is None
    state = dealt()
    state.game.state_from_json(state.to_json())
    assert engine == []


def register_for(state: State, answer: object) -> None:
    replay.register(state.game.info.name, lambda game, seed, history: answer)


@pytest.mark.parametrize(("name", "players"), case_params())
def test_a_replay_that_gives_another_state_is_a_refusal(name: str, players: int) -> None:
    state = dealt(name, players)
    fields = replay.reference_replay(state.game, state.seed, state.history)
    later = replay.reference_replay(state.game, state.seed, state.history)
    later.apply(later.legal_actions()[0])
    try:
        # Only the history differs: the first field of SHAPES that differs is named.
        register_for(state, later)
        with pytest.raises(StateFormatError) as info:
            state.game.state_from_json(state.to_json())
        first = next(
            name
            for name in type(state).SHAPES
            if json.dumps(getattr(later, name)) != json.dumps(getattr(state, name))
        )
        assert str(info.value) == (
            f"inconsistent {state.game.info.title} state: {first!r} is not what the 'seed' "
            "and the 'history' make of the deal"
        )
        # Any object with the fields will do, and the state read is the reference's.
        copy = SimpleNamespace(**{name: getattr(fields, name) for name in type(state).SHAPES})
        register_for(state, copy)
        read = state.game.state_from_json(state.to_json())
        assert type(read) is type(state) and read.to_json() == state.to_json()
    finally:
        replay.unregister(name)


def test_a_list_where_the_replay_has_a_tuple_is_no_difference() -> None:
    state = dealt()
    fields = {name: getattr(state, name) for name in type(state).SHAPES}
    fields["log"] = [(o, list(full), r) for o, full, r in state.log]
    register_for(state, SimpleNamespace(**fields))
    try:
        assert state.game.state_from_json(state.to_json()).to_json() == state.to_json()
        fields["log"][-1] = (None, ("junk",), None)
        with pytest.raises(StateFormatError, match="'log' is not what the 'seed'"):
            state.game.state_from_json(state.to_json())
    finally:
        replay.unregister("take_stock")


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (
            replay.ReplayError(3, "it is not your turn"),
            "'history' entry 3 cannot be replayed from the seed: it is not your turn",
        ),
        (replay.ReplayError(12, None), "'history' goes on after the game is over (entry 12)"),
    ],
)
def test_a_replay_error_is_a_refusal(error: replay.ReplayError, message: str) -> None:
    state = dealt()

    def failing(game: Game, seed: int, history: Sequence[int]) -> State:
        raise error

    replay.register("take_stock", failing)
    try:
        with pytest.raises(StateFormatError) as info:
            state.game.state_from_json(state.to_json())
        assert str(info.value) == f"inconsistent Take Stock state: {message}"
    finally:
        replay.unregister("take_stock")


def test_the_reference_replay_says_where_a_history_stops() -> None:
    game = get_game("take_stock", 2)
    state = game.new_game(5)
    legal = state.legal_actions()
    illegal = next(a for a in range(game.info.num_distinct_actions) if a not in legal)
    with pytest.raises(replay.ReplayError) as info:
        replay.reference_replay(game, 5, [legal[0], illegal])
    assert info.value.entry == 1
    assert info.value.reason is not None and info.value.reason.startswith("illegal action")
    finished = Position("take_stock", 2, 5, 10_000).build()
    with pytest.raises(replay.ReplayError) as info:
        replay.reference_replay(game, 5, [*finished.history, 0])
    assert (info.value.entry, info.value.reason) == (len(finished.history), None)
    again = replay.reference_replay(game, 5, finished.history)
    assert again.to_json() == finished.to_json()
