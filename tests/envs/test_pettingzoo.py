"""The PettingZoo AEC environments pass PettingZoo's own tests and observe views only."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import closingbell
from closingbell.core.errors import IllegalActionError
from closingbell.envs.encoding import encoder_for
from closingbell.envs.pettingzoo import ClosingbellAEC, env, raw_env

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

GAMES = ["take_stock", "card_stock_market"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation space (chess's too).
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(name, players=players), num_cycles=1000)
        seed_test(functools.partial(env, name, players=players), num_cycles=500)


def play_out(e, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("name", GAMES)
def test_observations_are_the_views_encoding(name: str) -> None:
    e = raw_env(name, players=3)
    e.reset(seed=3)
    enc = encoder_for(e.game)
    rng = np.random.default_rng(0)
    for _ in range(40):
        agent = e.agent_selection
        for a in e.agents:
            seat = int(a.split("_")[1])
            obs = e.observe(a)
            view = e.state.view(seat)
            assert np.array_equal(obs["observation"], enc.encode(view))
            assert obs["action_mask"].any() == (a == agent)
        mask = e.observe(agent)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_win_shares(name: str) -> None:
    totals = play_out(env(name, players=3), seed=4)
    assert sum(totals.values()) == pytest.approx(1.0)
    margins = play_out(env(name, players=3, reward="margin"), seed=4)
    assert all(-1.0 <= r <= 1.0 for r in margins.values())
    assert {a for a, r in totals.items() if r > 0} == {a for a, r in margins.items() if r >= 0}


def test_truncation_and_illegal_actions() -> None:
    e = env("card_stock_market", players=2, max_steps=10)
    e.reset(seed=1)
    steps = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and steps == 10
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    raw = ClosingbellAEC("take_stock", 2)
    raw.reset(seed=2)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)


def test_a_game_object_and_options() -> None:
    game = closingbell.load_game("take_stock", players=2, rounds=1)
    e = raw_env(game)
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.metadata["name"] == "closingbell_take_stock_v0"
    e2 = raw_env("take_stock", players=2, rounds=1)
    assert e2.game.options == game.options
    with pytest.raises(ValueError):
        raw_env(game, rounds=2)
    with pytest.raises(ValueError):
        raw_env("take_stock", players=2, reward="points")


def test_env_with_no_player_count_plays_the_documented_default() -> None:
    assert env().game.players == 3
    assert env("card_stock_market").game.players == 4
