"""The single-agent Gymnasium environments pass Gymnasium's check_env."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import closingbell
from closingbell.bots import make_bot
from closingbell.core.errors import IllegalActionError
from closingbell.envs.gymnasium import ENV_IDS, ClosingbellEnv

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

IDS = list(ENV_IDS.values())


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("players", [2, 4])
def test_check_env(env_id: str, players: int) -> None:
    env = gym.make(env_id, players=players, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings count as failures
        check_env(env.unwrapped)
    env.close()


def run_episode(env: ClosingbellEnv, seed: int) -> tuple[float, int, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        assert info["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            return float(reward), steps, info


@pytest.mark.parametrize("game", ["take_stock", "card_stock_market"])
def test_episodes_against_bots(game: str) -> None:
    env = ClosingbellEnv(game, players=3, opponents=["heuristic", "easy"], seat=None)
    seats = set()
    for seed in range(4):
        reward, _, info = run_episode(env, seed)
        assert reward in (0.0, 0.5, 1.0 / 3, 1.0)
        assert "scores" in info
        seats.add(info["seat"])
        assert env.state is not None and env.state.is_terminal()
    assert len(seats) > 1
    # a seeded reset replays the same game, bots included
    first = run_episode(env, 7)
    again = run_episode(env, 7)
    assert first[0] == again[0] and first[1] == again[1]


def test_illegal_actions() -> None:
    env = ClosingbellEnv("take_stock", players=2)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and not truncated and info["illegal_action"]
    with pytest.raises(RuntimeError):
        env.step(illegal)
    strict = ClosingbellEnv("take_stock", players=2, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_options_and_bots() -> None:
    env = gym.make("closingbell/CardStockMarket-v0", players=2, bank_money=None, max_steps=5)
    _, info = env.reset(seed=0)
    _, _, terminated, _truncated, _ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not terminated
    base = env.unwrapped
    assert isinstance(base, ClosingbellEnv) and base.game.options.bank_money is None
    assert base.action_masks().shape == (base.game.info.num_distinct_actions,)
    bot_env = ClosingbellEnv("take_stock", players=2, opponents=[make_bot("random", base.game)])
    with pytest.raises(ValueError):
        ClosingbellEnv("take_stock", players=3, opponents=["random"])
    with pytest.raises(ValueError):
        ClosingbellEnv("take_stock", players=3, opponents="nobody")
    assert bot_env.opponents[0].name == "random"


@pytest.mark.parametrize(
    ("env_id", "players"), [(ENV_IDS["take_stock"], 3), (ENV_IDS["card_stock_market"], 4)]
)
def test_make_with_no_arguments_plays_the_documented_defaults(env_id: str, players: int) -> None:
    env = gym.make(env_id)
    obs, info = env.reset(seed=3)
    assert env.unwrapped.game.players == players
    assert (
        env.unwrapped.game.options
        == closingbell.load_game(env.unwrapped.game.info.name, players=players).options
    )
    assert obs.shape == env.observation_space.shape
    assert info["action_mask"].any()
    env.close()
