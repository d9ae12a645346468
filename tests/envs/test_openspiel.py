"""The OpenSpiel games pass random_sim_test, resample from views, and host ISMCTS."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from closingbell.envs import openspiel as cbo
from closingbell.envs.encoding import encoder_for

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

NAMES = ["closingbell_take_stock", "closingbell_card_stock_market"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_random_sim_test_with_serialization(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def dealt(name: str, players: int, deal: int, options: str = "{}"):
    game = pyspiel.load_game(name, {"players": players, "options": options})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == cbo.NUM_DEALS
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(deal)
    return game, state


@pytest.mark.parametrize("name", NAMES)
def test_information_comes_from_the_view(name: str) -> None:
    _game, state = dealt(name, 3, deal=12)
    rng = np.random.default_rng(0)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    cb_state = state.cb_state
    enc = encoder_for(cb_state.game)
    for seat in range(3):
        view = cb_state.view(seat)
        assert json.loads(state.information_state_string(seat)) == view.to_dict()
        assert state.observation_string(seat) == state.information_state_string(seat)
        assert np.array_equal(
            np.asarray(state.information_state_tensor(seat), np.float32), enc.encode(view)
        )
        assert np.array_equal(
            np.asarray(state.observation_tensor(seat), np.float32), enc.encode(view)
        )
    # the deal is the game of that seed, and nobody sees the chance outcome
    assert cb_state.seed == 12
    assert "seed" not in json.loads(state.information_state_string(0))


@pytest.mark.parametrize("name", NAMES)
def test_resample_from_infostate_keeps_the_view(name: str) -> None:
    _, state = dealt(name, 3, deal=99)
    rng = np.random.default_rng(1)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen_other_hands = set()
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.current_player() == player
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        other = (player + 1) % 3
        seen_other_hands.add(tuple(sorted(sample.cb_state.view(other).hand)))
        clone = sample.clone()
        clone.apply_action(clone.legal_actions()[0])
        assert sample.information_state_string(player) == state.information_state_string(player)
    assert len(seen_other_hands) > 1


def test_options_and_length_cap() -> None:
    _game, state = dealt("closingbell_take_stock", 2, deal=3, options='{"rounds": 1}')
    assert state.cb_state.game.options.rounds == 1
    capped = pyspiel.load_game(
        "closingbell_card_stock_market", {"players": 2, "max_game_length": 5}
    )
    st = capped.new_initial_state()
    st.apply_action(0)
    for _ in range(5):
        st.apply_action(st.legal_actions()[0])
    assert st.is_terminal() and st.returns() == [0.5, 0.5]
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game("closingbell_take_stock", {"players": 2, "options": '{"players": 3}'})


@pytest.mark.parametrize(
    ("name", "options", "opponent"),
    [
        ("closingbell_take_stock", '{"rounds": 1}', "random"),
        ("closingbell_take_stock", '{"rounds": 1}', "heuristic"),
        ("closingbell_card_stock_market", "{}", "random"),
        ("closingbell_card_stock_market", "{}", "heuristic"),
    ],
)
def test_openspiel_ismcts_plays_closingbell_bots(name: str, options: str, opponent: str) -> None:
    game = pyspiel.load_game(name, {"players": 2, "options": options})
    for seed in range(2):
        rs = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
        bots = [search, cbo.ClosingbellBot(opponent, game, player=1, seed=seed)]
        if seed:
            bots.reverse()
            bots[0].player = 0
        state = game.new_initial_state()
        state.apply_action(int(rs.randint(cbo.NUM_DEALS)))
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert state.cb_state.is_terminal()
        assert sum(state.returns()) == pytest.approx(1.0)
