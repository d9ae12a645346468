"""The compiled play-out plays the rule-based bot as the search's Python loop does.

Two parts of ``_take_stock_bot`` are checked here: the struct the bot reads, filled from a
compiled state for one seat, must be byte for byte the one filled from that seat's view;
and ``playout(procedure, world, max_steps, horizon_round)`` must leave ``world`` as the
Python loop of the search leaves it, played with the reference engine and the reference
bot, and count the same steps.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from closingbell.bots.ismcts import _horizon_stop
from closingbell.bots.take_stock import TakeStockHeuristic, TakeStockWeights
from closingbell.core.game import State
from closingbell.games.take_stock.game import TakeStock
from closingbell.native import _take_stock as T
from closingbell.native import _take_stock_bot as B
from closingbell.native.differential import compare_states
from tests.games.take_stock.craft import make_game
from tests.native.test_take_stock_bot import OPTION_SETS, WEIGHT_SETS
from tests.native.test_take_stock_engine import POSITIONS

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference


def games(count: int, seed: int) -> Iterator[tuple[TakeStock, T.State]]:
    """Compiled states dealt at every player count under the bot's option sets."""
    for i in range(count):
        game = make_game(2 + i % 5, **OPTION_SETS[(seed + i) % len(OPTION_SETS)])
        yield game, T.new_game(game, 1000 * seed + i)


def stages(state: T.State, rng: random.Random, every: int) -> Iterator[T.State]:
    """``state`` and every few states of a random game from it, the last one included."""
    state = state.clone()
    step = 0
    while True:
        if step % every == 0 or state.is_terminal():
            yield state.clone()
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
        step += 1


def test_the_struct_read_from_a_state_is_the_one_read_from_its_view() -> None:
    rng = random.Random(1)
    compared = 0
    for game, dealt in games(10, seed=1):
        for state in stages(dealt, rng, 1):
            worlds = [state]
            if not state.is_terminal() and rng.random() < 0.1:
                seat = rng.choice([*range(state.n), None])
                worlds.append(T.sample_state(game, state.view(seat), rng))
            for world in worlds:
                for seat in range(world.n):
                    assert B.state_record(world, seat) == B.view_record(world.view(seat))
                    compared += 1
    for text in POSITIONS:
        world = T.from_state(make_game(3).state_from_position(text))
        for seat in range(3):
            assert B.state_record(world, seat) == B.view_record(world.view(seat))
    assert compared > 5000


def compiled_bot(game: TakeStock, weights: TakeStockWeights | None = None) -> B.TakeStockBot:
    """The compiled procedure the rule-based bot with ``weights`` plays by."""
    procedure = TakeStockHeuristic(game, weights=weights, engine="native").compiled_procedure()
    assert procedure is not None
    return procedure


def python_playout(
    world: State, policies: list[TakeStockHeuristic], max_steps: int, horizon: int
) -> int:
    """The search's play-out loop (``ISMCTSBot._iterate``), on any engine's state."""
    stop = _horizon_stop(None if horizon < 0 else horizon)
    steps = 0
    while not world.is_terminal() and not stop(world) and steps < max_steps:
        mover = world.current_player
        assert mover is not None
        world.apply(policies[mover].choose(world.view(mover)))
        steps += 1
    return steps


def check_playout(world: T.State, weights: TakeStockWeights, max_steps: int, horizon: int) -> int:
    """The compiled play-out from ``world`` is the reference's; the steps played."""
    game = world.game
    policies = [
        TakeStockHeuristic(game, q, weights=weights, engine="reference") for q in range(world.n)
    ]
    procedure = compiled_bot(game, weights)
    expected = world.to_reference()
    steps = python_playout(expected, policies, max_steps, horizon)
    played = world.clone()
    assert B.playout(procedure, played, max_steps, horizon) == steps
    compare_states(expected, played, f"{max_steps} steps, horizon {horizon}")
    return steps


@pytest.mark.parametrize("players", range(2, 7))
def test_playouts_from_sampled_worlds_are_the_python_loops(players: int) -> None:
    rng = random.Random(players)
    played = 0
    for g in range(3):
        game = make_game(players, **OPTION_SETS[(players + g) % len(OPTION_SETS)])
        weights = WEIGHT_SETS[(players + g) % len(WEIGHT_SETS)]
        for state in stages(T.new_game(game, 40 * players + g), rng, 23):
            if state.is_terminal():
                continue
            world = T.sample_state(game, state.view(state.current_player), rng)
            # As the search plays them: to the end of the round, at most 30 decisions.
            played += check_playout(world, weights, 30, world.round)
    assert played > 300


def test_playouts_to_the_end_of_the_game_and_of_short_budgets_agree() -> None:
    rng = random.Random(9)
    ends = 0
    for i, (_, dealt) in enumerate(games(10, seed=3)):
        weights = WEIGHT_SETS[i % len(WEIGHT_SETS)]
        for state in stages(dealt, rng, 60):
            for max_steps, horizon in ((0, -1), (1, state.round), (7, -1), (10**6, -1)):
                check_playout(state, weights, max_steps, horizon)
            # A horizon the state is already past stops the play-out before it starts.
            assert check_playout(state, weights, 30, state.round + 1) == 0
            ends += 1
    assert ends > 30


def test_the_last_round_is_played_to_the_end_of_the_game() -> None:
    for game, dealt in games(5, seed=5):
        state = dealt.clone()
        rng = random.Random(game.options.players)
        while state.round < game.options.rounds:
            state.apply(rng.choice(state.legal_actions()))
        check_playout(state, WEIGHT_SETS[0], 10**6, state.round)
        world = state.clone()
        B.playout(compiled_bot(game), world, 10**6, world.round)
        assert world.is_terminal()


def test_playout_takes_the_compiled_bot_and_a_compiled_state() -> None:
    game = make_game(3)
    procedure = compiled_bot(game)
    world = T.new_game(game, 1)
    with pytest.raises(TypeError, match="compiled Take Stock bot"):
        B.playout(TakeStockHeuristic(game), world, 5, -1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="compiled Take Stock state"):
        B.playout(procedure, game.new_game(1), 5, -1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a seat"):
        B.state_record(world, 3)


def test_leaf_values_are_the_searchs_python_values(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search scores a compiled world's play-out end in C (_Worlds.leaf): the numbers
    # must be those of the Python evaluation of the same state, bit for bit, whatever a
    # token and a saved event are worth.
    from closingbell.bots import ismcts
    from closingbell.bots.ismcts import SAVED_EVENT_VALUE, TOKEN_VALUE, _take_stock_values

    rng = random.Random(5)
    compared = ended = 0
    for _game, dealt in games(15, seed=5):
        for state in stages(dealt, rng, 7):
            got = B.leaf_values(state, TOKEN_VALUE, SAVED_EVENT_VALUE)
            assert got == _take_stock_values(state.to_reference())
            with monkeypatch.context() as m:
                m.setattr(ismcts, "TOKEN_VALUE", 2.5)
                m.setattr(ismcts, "SAVED_EVENT_VALUE", 0.75)
                odd = _take_stock_values(state.to_reference())
            assert B.leaf_values(state, 2.5, 0.75) == odd
            compared += 1
            ended += state.is_terminal()
    assert compared > 300
    assert ended == 15
