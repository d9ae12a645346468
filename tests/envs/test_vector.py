"""The vectorised environments: compiled observations, Gymnasium's conventions, self-play."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_space_limit, data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import closingbell
import closingbell.envs.gymnasium
from closingbell import native
from closingbell.core.errors import IllegalActionError
from closingbell.core.registry import default_players
from closingbell.envs import vector
from closingbell.envs.encoding import encoder_for
from closingbell.envs.gymnasium import ENV_IDS, ClosingbellEnv
from closingbell.envs.pettingzoo import raw_env
from closingbell.envs.vector import ClosingbellVectorEnv, SelfPlayVectorEnv, compiled_encoding
from closingbell.native.differential import OPTION_SETS

GAMES = ["take_stock", "card_stock_market"]


def random_game(game: closingbell.Game, seed: int) -> Any:
    """The compiled states of one random game, every one of them."""
    state = native.new_game(game, seed, "native")
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    """Every game at every player count, and under each option set the engines are tested with."""
    out = [(name, players, {}) for name in GAMES for players in range(2, 7)]
    for name in GAMES:
        players = default_players(name)
        out += [(name, players, options) for options in OPTION_SETS[name] if options]
    return out


@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_compiled_encoding_equals_the_view_encoding(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """On every step of a random game, for every seat, the compiled observation and mask
    are those the documented encoder makes of the seat's view."""
    game = closingbell.load_game(name, players=players, **options)
    enc = encoder_for(game)
    decided = 0
    for state in random_game(game, seed=players + len(options)):
        for seat in range(players):
            view = state.view(seat)
            obs, mask = compiled_encoding(state, seat)
            np.testing.assert_array_equal(obs, enc.encode(view))
            np.testing.assert_array_equal(mask, enc.action_mask(view))
            decided += int(mask.any())
    assert decided > 10


@pytest.mark.parametrize("name", GAMES)
def test_compiled_encoding_reads_only_the_seat_view(name: str) -> None:
    """States that differ only in what a seat cannot see give that seat the same compiled
    observation (the hidden cards dealt anew by ``sample_state``)."""
    game = closingbell.load_game(name, players=3)
    rng = random.Random(3)
    compared = 0
    for k, state in enumerate(random_game(game, seed=4)):
        if k % 11 or state.is_terminal():
            continue
        for seat in range(3):
            obs, mask = compiled_encoding(state, seat)
            for _ in range(2):
                other = native.from_state(game.sample_state(state.view(seat), rng), "native")
                other_obs, other_mask = compiled_encoding(other, seat)
                np.testing.assert_array_equal(other_obs, obs)
                np.testing.assert_array_equal(other_mask, mask)
                compared += 1
    assert compared > 20


def test_compiled_encoding_refuses_bad_seats_and_states() -> None:
    game = closingbell.load_game("take_stock", players=3)
    state = native.new_game(game, 1, "native")
    with pytest.raises(ValueError):
        compiled_encoding(state, 3)
    with pytest.raises(TypeError):
        compiled_encoding(game.new_game(1, engine="reference"), 0)


def masked_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action per row of ``mask`` (0 for a row with none)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


def play_alongside(envs: list[Any], steps: int, seed: int, illegal_every: int = 0) -> int:
    """Step ``envs`` with the same actions, checking each step gives the same results;
    returns how many episodes ended."""
    outs = [env.reset(seed=seed) for env in envs]
    for out in outs[1:]:
        assert data_equivalence(out, outs[0])
    rng = np.random.default_rng(seed)
    mask = outs[0][1]["action_mask"]
    ended = 0
    for t in range(steps):
        actions = masked_actions(mask, rng)
        if illegal_every and t % illegal_every == illegal_every - 1:
            actions[t % len(actions)] = envs[0].single_action_space.n - 1
        outs = [env.step(actions) for env in envs]
        for out in outs[1:]:
            assert data_equivalence(out, outs[0]), f"step {t}"
        ended += int(outs[0][2].sum() + outs[0][3].sum())
        mask = outs[0][4]["action_mask"]
    return ended


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_same_games_as_single_environments(name: str, mode: AutoresetMode) -> None:
    """Compiled, fallback and Gymnasium's SyncVectorEnv of ClosingbellEnv play the very
    same games (seats drawn, random and rule-based bots, illegal actions, autoreset)."""
    settings: dict[str, Any] = {"players": 3, "opponents": ["random", "heuristic"], "seat": None}
    envs: list[Any] = [
        ClosingbellVectorEnv(name, num_envs=3, autoreset_mode=mode, engine=engine, **settings)
        for engine in ("auto", "reference")
    ]
    envs.append(
        SyncVectorEnv(
            [lambda: ClosingbellEnv(name, **settings) for _ in range(3)], autoreset_mode=mode
        )
    )
    assert envs[0].compiled and not envs[1].compiled
    ended = play_alongside(envs, steps=250, seed=5, illegal_every=60)
    assert ended >= 3


HEURISTIC_CASES = [
    ("take_stock", 2, {}),
    ("take_stock", 5, {"insider_order": "take_first", "frozen_scoring": "zero"}),
    ("take_stock", 3, OPTION_SETS["take_stock"][-2]),
    ("card_stock_market", 2, {}),
    ("card_stock_market", 5, {"bank_money": 10, "starting_money": 60, "levy": 30}),
    ("card_stock_market", 3, OPTION_SETS["card_stock_market"][-3]),
]


@pytest.mark.parametrize(("name", "players", "options"), HEURISTIC_CASES)
def test_rule_based_opponents_as_in_single_environments(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Rule-based bots in every other seat (compiled, they decide from the state's fields)
    make the moves the Python bot makes from the views."""
    settings: dict[str, Any] = {"players": players, "opponents": "heuristic", **options}
    envs: list[Any] = [ClosingbellVectorEnv(name, num_envs=2, **settings)]
    envs.append(SyncVectorEnv([lambda: ClosingbellEnv(name, **settings) for _ in range(2)]))
    assert play_alongside(envs, steps=150, seed=players) >= 1


@pytest.mark.parametrize("name", GAMES)
def test_truncation_and_margin_rewards(name: str) -> None:
    settings: dict[str, Any] = {"players": 2, "max_steps": 40, "reward": "margin"}
    envs: list[Any] = [
        ClosingbellVectorEnv(name, num_envs=2, engine=engine, **settings)
        for engine in ("auto", "reference")
    ]
    envs.append(SyncVectorEnv([lambda: ClosingbellEnv(name, **settings) for _ in range(2)]))
    ended = play_alongside(envs, steps=60, seed=2)
    assert ended >= 2


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_seeded_resets_replay(name: str, engine: str) -> None:
    env = ClosingbellVectorEnv(name, num_envs=4, engine=engine, seat=None)

    def run() -> list[Any]:
        trace: list[Any] = [env.reset(seed=9)]
        rng = np.random.default_rng(0)
        for _ in range(80):
            trace.append(env.step(masked_actions(trace[-1][-1]["action_mask"], rng)))
        return trace

    first, again = run(), run()
    assert data_equivalence(first, again)
    other = env.reset(seed=10)
    assert not data_equivalence(other[0], first[0][0])


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_checks(name: str) -> None:
    """What Gymnasium checks of an environment, applied to the vector one."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make_vec(ENV_IDS[name], num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(env.unwrapped, ClosingbellVectorEnv)
    assert isinstance(env.metadata["autoreset_mode"], AutoresetMode)
    check_space_limit(env.single_observation_space, "observation")
    assert env.observation_space.shape == (3, *env.single_observation_space.shape)
    assert env.action_space.shape == (3,)
    obs, infos = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert infos["action_mask"].shape == (3, env.single_action_space.n)
    assert infos["_action_mask"].all() and infos["_seat"].all()
    # returned arrays are the caller's: changing them changes nothing in the env
    obs[:] = 0
    infos["action_mask"][:] = 0
    assert env.unwrapped.action_masks().any(axis=1).all()
    rng = np.random.default_rng(1)
    actions = masked_actions(env.unwrapped.action_masks(), rng)
    obs, rewards, terminated, truncated, infos = env.step(actions)
    assert env.observation_space.contains(obs)
    assert rewards.dtype == np.float64 and terminated.dtype == np.bool_
    assert truncated.dtype == np.bool_ and rewards.shape == (3,)
    env.close()


def test_make_vec_defaults_to_the_vector_entry_point() -> None:
    env = gym.make_vec("closingbell/CardStockMarket-v0", num_envs=2)
    assert isinstance(env.unwrapped, ClosingbellVectorEnv)
    assert env.unwrapped.game.players == default_players("card_stock_market")
    obs, _ = env.reset(seed=1)
    assert obs.shape[0] == 2


@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_disabled_autoreset_and_reset_mask(engine: str) -> None:
    env = ClosingbellVectorEnv(
        "take_stock", num_envs=2, max_steps=6, autoreset_mode="Disabled", engine=engine
    )
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(0)
    done = np.zeros(2, dtype=np.bool_)
    for _ in range(10):
        obs, _, terminated, truncated, infos = env.step(masked_actions(infos["action_mask"], rng))
        done = terminated | truncated
        if done.any():
            break
    assert done.any()
    with pytest.raises(RuntimeError):
        env.step(np.zeros(2, dtype=np.int64))
    kept = [list(env.state(i).history) for i in range(2)]
    again, infos = env.reset(options={"reset_mask": done})
    assert infos["_seat"].tolist() == done.tolist()
    for i in range(2):
        if done[i]:
            assert len(env.state(i).history) < 6
        else:
            assert list(env.state(i).history) == kept[i]
            np.testing.assert_array_equal(again[i], obs[i])


@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_bad_actions_are_refused_and_change_nothing(engine: str) -> None:
    env = ClosingbellVectorEnv("take_stock", num_envs=3, engine=engine, illegal_action="raise")
    _, infos = env.reset(seed=4)
    legal = masked_actions(infos["action_mask"], np.random.default_rng(0))
    before = [list(env.state(i).history) for i in range(3)]
    with pytest.raises(ValueError, match="shape"):
        env.step(legal[:2])
    with pytest.raises(TypeError, match="integers"):
        env.step(legal.astype(np.float64))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.ones(3, dtype=np.bool_))
    illegal = legal.copy()
    illegal[2] = int(np.flatnonzero(infos["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="game 1"):
        env.step(np.array([legal[0], 10**6, legal[2]], dtype=np.uint64))
    assert [list(env.state(i).history) for i in range(3)] == before
    env.step(legal)
    assert all(len(env.state(i).history) > len(before[i]) for i in range(3))


@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_illegal_actions_lose(engine: str) -> None:
    env = ClosingbellVectorEnv("card_stock_market", num_envs=2, engine=engine, illegal_reward=-2)
    _, infos = env.reset(seed=1)
    legal = masked_actions(infos["action_mask"], np.random.default_rng(0))
    before = list(env.state(1).history)
    _, rewards, terminated, truncated, infos = env.step(np.array([legal[0], -5]))
    assert rewards.tolist() == [0.0, -2.0] and terminated.tolist() == [False, True]
    assert not truncated.any()
    assert infos["illegal_action"].tolist() == [False, True]
    assert infos["_illegal_action"].tolist() == [False, True]
    assert list(env.state(1).history) == before
    # the next step deals game 1 anew (next-step autoreset), whatever its action
    finished = env.state(1)
    mask = infos["action_mask"]
    _, rewards, terminated, _, infos = env.step(np.array([np.flatnonzero(mask[0])[0], 10**6]))
    assert env.state(1) is not finished and rewards[1] == 0.0 and not terminated[1]
    assert infos["action_mask"][1].any()


def test_fallback_when_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled batch, ``auto`` runs on the reference, ``native`` refuses."""
    real = native.module
    monkeypatch.setattr(native, "module", lambda name: None if name == "_vector" else real(name))
    env = ClosingbellVectorEnv("take_stock", num_envs=2)
    assert not env.compiled
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, env.single_observation_space.shape[0])
    assert not SelfPlayVectorEnv("card_stock_market", num_envs=2).compiled
    with pytest.raises(RuntimeError, match="not built"):
        ClosingbellVectorEnv("take_stock", num_envs=2, engine="native")


@pytest.mark.parametrize("name", GAMES)
def test_self_play_plays_the_pettingzoo_games(name: str) -> None:
    """Each game of the batch is the PettingZoo AEC env's game of the same seed, step by
    step: seat to move, observation, mask, every seat's rewards, truncation, next game."""
    n = 3
    batches = [
        SelfPlayVectorEnv(name, n, num_envs=3, max_steps=120, engine=engine)
        for engine in ("auto", "reference")
    ]
    aecs = [raw_env(name, n, max_steps=120) for _ in range(3)]
    outs = [batch.reset(seed=20) for batch in batches]
    for i, aec in enumerate(aecs):
        aec.reset(seed=20 + i)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(400):
        obs, infos = outs[0][0], outs[0][-1]
        assert data_equivalence(outs[1], outs[0])
        for i, aec in enumerate(aecs):
            agent = aec.agent_selection
            assert agent == f"player_{infos['seat'][i]}"
            seen = aec.observe(agent)
            np.testing.assert_array_equal(seen["observation"], obs["observation"][i])
            np.testing.assert_array_equal(seen["action_mask"], obs["action_mask"][i])
        actions = masked_actions(obs["action_mask"], rng)
        outs = [batch.step(actions) for batch in batches]
        _, rewards, terminated, truncated, infos = outs[0]
        for i, aec in enumerate(aecs):
            aec.step(int(actions[i]))
            if terminated[i] or truncated[i]:
                ended += 1
                assert all(aec.terminations.values()) == bool(terminated[i])
                assert all(aec.truncations.values()) == bool(truncated[i])
                assert rewards[i].tolist() == [aec.rewards[a] for a in aec.possible_agents]
                assert infos["_scores"][i] and infos["scores"][i] == aec.state.scores()
                aec.reset()
            else:
                assert not rewards[i].any()
    assert ended >= 3


@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_self_play_refuses_bad_actions(engine: str) -> None:
    batch = SelfPlayVectorEnv("take_stock", num_envs=2, engine=engine)
    with pytest.raises(RuntimeError):
        batch.step(np.zeros(2, dtype=np.int64))
    obs, _ = batch.reset(seed=1)
    legal = masked_actions(obs["action_mask"], np.random.default_rng(0))
    before = [list(batch.state(i).history) for i in range(2)]
    with pytest.raises(ValueError):
        batch.step(legal.reshape(1, 2))
    with pytest.raises(IllegalActionError, match="game 0"):
        batch.step(np.array([-1, legal[1]]))
    assert [list(batch.state(i).history) for i in range(2)] == before
    assert batch.observation_space.contains(obs)


def test_keywords_are_checked() -> None:
    with pytest.raises(ValueError):
        ClosingbellVectorEnv("take_stock", num_envs=0)
    with pytest.raises(ValueError):
        ClosingbellVectorEnv("take_stock", opponents=["random"], players=4)
    with pytest.raises(ValueError):
        ClosingbellVectorEnv("take_stock", autoreset_mode="sometimes")
    with pytest.raises(ValueError):
        SelfPlayVectorEnv("take_stock", max_steps=0)
    with pytest.raises(ValueError):
        vector.vector_module(closingbell.load_game("take_stock"), "fastest")


def test_random_actions_are_legal_and_spread() -> None:
    rng = np.random.default_rng(0)
    mask = np.zeros((3, 10), dtype=np.int8)
    mask[0, [2, 5, 7]] = 1
    mask[1, 9] = 1
    drawn = np.array([vector.random_actions(mask, rng) for _ in range(600)])
    assert set(drawn[:, 0].tolist()) == {2, 5, 7}
    assert min(np.bincount(drawn[:, 0])[[2, 5, 7]]) > 150
    assert set(drawn[:, 1].tolist()) == {9}
    assert set(drawn[:, 2].tolist()) == {0}


def test_numpy_seeds_and_no_rendering() -> None:
    env = ClosingbellVectorEnv("take_stock", num_envs=2)
    assert data_equivalence(env.reset(seed=np.int64(4)), env.reset(seed=4))
    with pytest.raises(ValueError, match="render"):
        ClosingbellVectorEnv("take_stock", num_envs=2, render_mode="human")


def test_gymnasium_vector_wrappers_work_on_top() -> None:
    """Gymnasium's own vector wrappers read the episodes as they read SyncVectorEnv's."""
    env = gym.wrappers.vector.RecordEpisodeStatistics(
        ClosingbellVectorEnv("card_stock_market", players=2, num_envs=4)
    )
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    lengths: list[int] = []
    for _ in range(300):
        _, _, terminated, truncated, infos = env.step(masked_actions(infos["action_mask"], rng))
        if "episode" in infos:
            done = infos["_episode"]
            assert (done == (terminated | truncated)).all()
            lengths += infos["episode"]["l"][done].tolist()
    assert len(lengths) >= 4 and min(lengths) > 1


def test_bots_played_through_views_as_in_single_environments() -> None:
    """A bot the batch cannot play in C (here a searching one) is called with its view."""
    settings: dict[str, Any] = {"players": 3, "opponents": ["easy", "random"], "seat": None}
    envs: list[Any] = [ClosingbellVectorEnv("card_stock_market", num_envs=2, **settings)]
    envs.append(
        SyncVectorEnv([lambda: ClosingbellEnv("card_stock_market", **settings) for _ in range(2)])
    )
    play_alongside(envs, steps=15, seed=8)


@pytest.mark.parametrize("name", GAMES)
def test_self_play_unseeded_resets_go_on_with_each_game_generator(name: str) -> None:
    batches = [
        SelfPlayVectorEnv(name, players=2, num_envs=2, max_steps=30, engine=engine)
        for engine in ("auto", "reference")
    ]
    rng = np.random.default_rng(3)
    outs = [batch.reset(seed=3) for batch in batches]
    for round_ in range(2):
        for _ in range(70):
            assert data_equivalence(outs[1], outs[0])
            actions = masked_actions(outs[0][0]["action_mask"], rng)
            outs = [batch.step(actions) for batch in batches]
        if round_ == 0:
            outs = [batch.reset() for batch in batches]
    assert data_equivalence(outs[1], outs[0])
