"""Single-agent Gymnasium environments: one learner, closingbell bots in the other seats.

Importing this module registers ``closingbell/TakeStock-v0`` and
``closingbell/CardStockMarket-v0``:

>>> import gymnasium as gym
>>> import closingbell.envs.gymnasium
>>> env = gym.make("closingbell/TakeStock-v0", players=3, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> obs.shape == env.observation_space.shape and bool(info["action_mask"].any())
True

The observation is the learner's encoded view (``docs/observations.md``); the legal
actions are ``info["action_mask"]`` (also :meth:`ClosingbellEnv.action_masks`, the name
sb3-contrib's ``MaskablePPO`` looks for). The reward comes once, when the game ends
(``docs/rl.md``). A masked (illegal) action ends the episode with ``illegal_reward`` and
``info["illegal_action"] = True``, the convention of PettingZoo's ``TerminateIllegalWrapper``;
``illegal_action="raise"`` raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from closingbell.bots import make_bot
from closingbell.bots.base import Bot
from closingbell.core.game import Game, State
from closingbell.core.rng import fresh_seed
from closingbell.envs.encoding import encoder_for
from closingbell.envs.rewards import check_reward_kind, final_rewards
from closingbell.envs.settings import check_max_steps, game_of

ENV_IDS: dict[str, str] = {
    "take_stock": "closingbell/TakeStock-v0",
    "card_stock_market": "closingbell/CardStockMarket-v0",
}
"""The Gymnasium id of each game."""


EPISODES = 2**63
"""An episode is drawn from a number below this, itself drawn from the env's generator."""


def draw_episode(
    episode: int, players: int, seat: int | None, named: Sequence[bool]
) -> tuple[int, list[int | None], int]:
    """The numbers an episode starts from: the learner's seat, bots' seeds, the game's seed.

    One seed per other seat's bot (``None`` where ``named`` is false: a bot object, used
    as it is). All come from ``random.Random(episode)``, drawn in that order (the seat
    only when ``seat`` is ``None``).
    """
    rng = random.Random(episode)
    learner = seat if seat is not None else rng.randrange(players)
    seeds = [fresh_seed(rng) if is_named else None for is_named in named]
    return learner, seeds, fresh_seed(rng)


class ClosingbellEnv(gym.Env[np.ndarray, np.int64]):
    """One seat of a closingbell game; bots play the others between the learner's moves.

    ``opponents`` is a bot name for every other seat (``random``, ``heuristic``, ``ismcts``,
    ``easy``, ``medium``, ``hard``, ``expert``), or a sequence of names or :class:`Bot`
    objects, one per other seat in seat order. Named bots are rebuilt at each reset with
    seeds drawn from the environment's generator, so a seeded reset replays exactly (but
    ``expert`` thinks for a time, not a number of iterations); bot objects are used as
    they are. ``seat`` is the learner's seat, or ``None`` to draw it at each reset.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str | Game = "take_stock",
        players: int | None = None,
        *,
        opponents: str | Sequence[str | Bot] = "random",
        seat: int | None = 0,
        reward: str = "win",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game: Game = game_of(game, players, options)
        n = self.game.players
        if isinstance(opponents, str):
            opponents = [opponents] * (n - 1)
        if len(opponents) != n - 1:
            raise ValueError(f"opponents: {n - 1} bots are needed for {n} seats")
        self.opponents: list[str | Bot] = list(opponents)
        """The bots of the other seats, in seat order."""
        for bot in self.opponents:
            if isinstance(bot, str):
                make_bot(bot, self.game)  # check the name now rather than at reset
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be from 0 to {n - 1}, or None to draw it")
        self.fixed_seat = seat
        """The learner's seat, or None when drawn at each reset."""
        self.seat = 0 if seat is None else seat
        """The learner's seat in the current game."""
        self.reward_kind = check_reward_kind(reward)
        """The reward scheme (``win`` or ``margin``)."""
        if illegal_action not in ("lose", "raise"):
            raise ValueError("illegal_action must be 'lose' or 'raise'")
        self.illegal_action = illegal_action
        """What an illegal action does: ``lose`` (end the episode) or ``raise``."""
        self.illegal_reward = float(illegal_reward)
        """The reward of an illegal action under ``lose``."""
        self.max_steps = check_max_steps(max_steps)
        """Game actions (all seats) after which the episode is truncated; None: never."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        """The observation encoder."""
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.encoder.num_actions)
        self.state: State | None = None
        """The current game (None before the first reset)."""
        self._bots: dict[int, Bot] = {}
        self._steps = 0
        self._over = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first decision."""
        super().reset(seed=seed)
        n = self.game.players
        named = [isinstance(bot, str) for bot in self.opponents]
        episode = int(self.np_random.integers(EPISODES))
        self.seat, seeds, game_seed = draw_episode(episode, n, self.fixed_seat, named)
        others = [q for q in range(n) if q != self.seat]
        self._bots = {}
        for q, bot, bot_seed in zip(others, self.opponents, seeds, strict=True):
            if isinstance(bot, str):
                assert bot_seed is not None
                bot = make_bot(bot, self.game, seed=bot_seed)
            self._bots[q] = bot
        self.state = self.game.new_game(game_seed)
        self._steps = 0
        self._over = False
        self._play_bots()
        return self._observe(), self._info()

    def _play_bots(self) -> None:
        st = self.state
        assert st is not None
        while not st.is_terminal() and st.current_player != self.seat:
            if self.max_steps is not None and self._steps >= self.max_steps:
                return
            cur = st.current_player
            assert cur is not None
            st.apply(self._bots[cur].choose(st.view(cur)))
            self._steps += 1

    def _observe(self) -> np.ndarray:
        assert self.state is not None
        return self.encoder.encode(self.state.view(self.seat))

    def _info(self, **extra: Any) -> dict[str, Any]:
        assert self.state is not None
        return {"action_mask": self.action_masks(), "seat": self.seat, **extra}

    def action_masks(self) -> np.ndarray:
        """1 for each legal action of the learner now (all 0 once the game is over)."""
        assert self.state is not None, "reset() first"
        return self.encoder.action_mask(self.state.view(self.seat))

    def step(
        self, action: np.int64 | int
    ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner must decide again."""
        st = self.state
        assert st is not None, "reset() first"
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if action not in st.legal_actions():
            if self.illegal_action == "raise":
                st.apply(action)  # raises IllegalActionError, naming the reason
            self._over = True
            return (
                self._observe(),
                self.illegal_reward,
                True,
                False,
                self._info(illegal_action=True),
            )
        st.apply(action)
        self._steps += 1
        self._play_bots()
        if st.is_terminal():
            self._over = True
            reward = final_rewards(st, self.reward_kind)[self.seat]
            return self._observe(), reward, True, False, self._info(scores=st.scores())
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        self._over = truncated
        return self._observe(), 0.0, False, truncated, self._info()

    def render(self) -> str | None:
        """A one-line summary of the game (``ansi``)."""
        if self.render_mode is None or self.state is None:
            return None
        st = self.state
        who = "game over" if st.current_player is None else f"seat {st.current_player} to act"
        return f"{self.game.info.title}, learner at seat {self.seat}: {who}, scores {st.scores()}"


def _register() -> None:
    for name, env_id in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="closingbell.envs.gymnasium:ClosingbellEnv",
                vector_entry_point="closingbell.envs.vector:ClosingbellVectorEnv",
                kwargs={"game": name},
                disable_env_checker=False,
            )


_register()
