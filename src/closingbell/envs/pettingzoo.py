"""PettingZoo AEC environments for every closingbell game and player count.

>>> from closingbell.envs.pettingzoo import env
>>> e = env("take_stock", players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers). An observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` encoded from the agent's
own view only (``docs/observations.md``); the mask is all zeros when the agent has no
decision. Rewards are given once, when the game ends (``docs/rl.md``). An illegal action
raises :class:`~closingbell.core.errors.IllegalActionError` (a ``ValueError``) and changes
nothing.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from closingbell.core.game import Game, State
from closingbell.core.rng import fresh_seed
from closingbell.envs.encoding import Encoder, encoder_for
from closingbell.envs.rewards import check_reward_kind, final_rewards
from closingbell.envs.settings import check_max_steps, game_of


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat."""
    return f"player_{seat}"


def _observation_space(enc: Encoder) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=(enc.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(enc.num_actions,), dtype=np.int8),
        }
    )


class ClosingbellAEC(AECEnv):  # type: ignore[misc]
    """One closingbell game as a PettingZoo AEC environment (use :func:`env` to make one)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "closingbell_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game = "take_stock",
        players: int | None = None,
        *,
        reward: str = "win",
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game = game_of(game, players, options)
        self.metadata = {**self.metadata, "name": f"closingbell_{self.game.info.name}_v0"}
        self.reward_kind = check_reward_kind(reward)
        """The reward scheme (``win`` or ``margin``)."""
        self.max_steps = check_max_steps(max_steps)
        """Actions after which the game is cut short (every agent truncated); None: never."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        """The observation encoder."""
        self.possible_agents = [agent_name(q) for q in range(self.game.players)]
        self._seat = {a: q for q, a in enumerate(self.possible_agents)}
        obs_space = _observation_space(self.encoder)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {
            a: spaces.Discrete(self.encoder.num_actions) for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: State | None = None
        """The current game (None before the first reset)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: every action id of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` fixes it and the games after it."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_game(fresh_seed(self._rng))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        cur = self.state.current_player
        assert cur is not None
        self.agent_selection = agent_name(cur)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent``, from its own view."""
        assert self.state is not None, "reset() first"
        view = self.state.view(self._seat[agent])
        return {
            "observation": self.encoder.encode(view),
            "action_mask": self.encoder.action_mask(view),
        }

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        st.apply(int(action))
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if st.is_terminal():
            for q, r in enumerate(final_rewards(st, self.reward_kind)):
                self.rewards[agent_name(q)] = r
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        if not st.is_terminal() and not self.truncations[agent]:
            cur = st.current_player
            assert cur is not None
            self.agent_selection = agent_name(cur)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """A one-line summary (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None or self.state is None:
            return None
        st = self.state
        who = "game over" if st.current_player is None else f"{self.agent_selection} to act"
        text = f"{self.game.info.title}: {who}, scores {st.scores()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    game: str | Game = "take_stock", players: int | None = None, **kwargs: Any
) -> ClosingbellAEC:
    """The environment without PettingZoo's checking wrappers."""
    return ClosingbellAEC(game, players, **kwargs)


def env(game: str | Game = "take_stock", players: int | None = None, **kwargs: Any) -> AECEnv:
    """A PettingZoo AEC environment of ``game`` with ``players`` seats.

    Keywords: ``reward`` (``"win"`` or ``"margin"``), ``max_steps`` (cut the game short
    after that many actions), ``render_mode`` (``"ansi"`` or ``"human"``), and any rules
    option of the game.
    """
    wrapped: AECEnv = raw_env(game, players, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
