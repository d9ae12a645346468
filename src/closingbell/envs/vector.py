"""Vectorised environments: many games stepped as one, on the compiled engines where built.

Two interfaces, each over ``num_envs`` games of one game and options:

- :class:`ClosingbellVectorEnv`, a Gymnasium ``VectorEnv``: in every game one learner seat
  and bots in the others, exactly as :class:`~closingbell.envs.gymnasium.ClosingbellEnv`
  (same keywords, defaults, rewards and illegal-action rules), with Gymnasium's autoreset
  conventions. Importing :mod:`closingbell.envs.gymnasium` registers it as the vector
  entry point of the ids:

  >>> import gymnasium as gym
  >>> import closingbell.envs.gymnasium
  >>> envs = gym.make_vec("closingbell/TakeStock-v0", num_envs=4,
  ...                     vectorization_mode="vector_entry_point")
  >>> obs, infos = envs.reset(seed=1)
  >>> obs.shape == (4, envs.single_observation_space.shape[0])
  True
  >>> bool(infos["action_mask"].any(axis=1).all())
  True

- :class:`SelfPlayVectorEnv`, a batched PettingZoo-style interface in which every seat is
  a learner: each step takes one action per game from the seat to move there, and gives
  every seat's reward and the next seat to move, its observation and its mask.

On the compiled engines (``closingbell.native``) a step writes observations and masks
straight from each state's C fields into preallocated arrays, and ``random`` bots play
in C; where they are not built, the same environments run on the reference rules through
views and :mod:`closingbell.envs.encoding`, with the same results, more slowly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from closingbell import native
from closingbell.bots import make_bot
from closingbell.bots.base import Bot, HeuristicBot, seed_text
from closingbell.core.errors import IllegalActionError
from closingbell.core.game import Game, State
from closingbell.core.rng import fresh_seed
from closingbell.envs.encoding import Encoder, encoder_for
from closingbell.envs.gymnasium import EPISODES, ClosingbellEnv, draw_episode
from closingbell.envs.rewards import check_reward_kind, final_rewards
from closingbell.envs.settings import check_max_steps, game_of

IntArray = npt.NDArray[np.int64]
"""An int64 vector."""

RUNNING, OVER, CUT, ILLEGAL = 0, 1, 2, 3
"""What a step did to a game: it goes on, it ended, it was cut short, its action was illegal."""
SEAT_RANDOM, SEAT_HEURISTIC, SEAT_PYTHON = 1, 2, 3
"""Who plays a seat of a compiled batch: a random bot, a compiled procedure, a bot object."""
EPISODE_BLOCK = 64
"""Episode numbers drawn at once from a game's generator."""


def vector_module(game: Game, engine: str = "auto") -> Any | None:
    """The compiled batch module to step ``game`` on under ``engine``, or ``None``.

    ``auto`` takes it where the game's engine and the batch are built, ``reference``
    never does, and ``native`` raises ``RuntimeError`` when either is missing.
    """
    if native.engine_for(game, engine) is None:
        return None
    module = native.module("_vector")
    if module is None and engine == "native":
        raise RuntimeError(
            "the compiled vector environments (closingbell.native._vector) are not built"
        )
    return module


def _layout(encoder: Encoder) -> tuple[dict[str, int], float]:
    """The field offsets and money scale the compiled encoders read."""
    offsets = {f.name: f.offset for f in encoder.fields}
    return offsets, float(getattr(encoder, "money", 0))


def compiled_encoding(state: State, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """``seat``'s observation and mask of a compiled ``state``, by the compiled encoder.

    Equal to ``encoder.encode(state.view(seat))`` and ``encoder.action_mask(...)``; for
    tests and tools (raises ``RuntimeError`` when the batch module is not built).
    """
    module = vector_module(state.game, "native")
    assert module is not None
    encoder = encoder_for(state.game)
    offsets, money = _layout(encoder)
    obs = np.zeros(encoder.size, dtype=np.float32)
    mask = np.zeros(encoder.num_actions, dtype=np.int8)
    module.encode(state, seat, offsets, encoder.size, money, obs, mask)
    return obs, mask


def _actions(actions: Any, num_envs: int, num_actions: int) -> tuple[np.ndarray, IntArray]:
    """``actions`` as given (checked: one integer per game) and as int64, -1 where out of range."""
    given = np.asarray(actions)
    if given.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), not {given.shape}")
    if given.dtype == np.bool_ or not np.issubdtype(given.dtype, np.integer):
        raise TypeError(f"actions must be integers, not {given.dtype}")
    out = given.astype(np.int64, casting="unsafe")
    out[(given < 0) | (given >= num_actions)] = -1
    return given, out


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> IntArray:
    """A uniformly random legal action for each row of ``mask`` (0 in a row with none)."""
    weights = rng.random(mask.shape, dtype=np.float32)
    # 1 - u lies in (0, 1], so no legal action weighs 0 as the illegal ones do
    np.subtract(1.0, weights, out=weights)
    weights *= mask
    actions: IntArray = weights.argmax(axis=1)
    return actions


def check_num_envs(num_envs: int) -> int:
    """Return ``num_envs`` if it is a positive number of games, else raise ``ValueError``."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError("num_envs must be a positive number of games")
    return num_envs


@dataclass
class _Rows:
    """The arrays a step writes into, one row or entry per game."""

    obs: np.ndarray
    """Observations, float32."""
    mask: np.ndarray
    """Action masks, int8."""
    seats: IntArray
    """The observing seat of each game."""
    status: np.ndarray
    """What the last step did to each game (RUNNING, OVER, CUT or ILLEGAL), uint8."""

    @classmethod
    def make(cls, num_envs: int, encoder: Encoder) -> _Rows:
        """Zeroed arrays for ``num_envs`` games observed by ``encoder``."""
        return cls(
            np.zeros((num_envs, encoder.size), dtype=np.float32),
            np.zeros((num_envs, encoder.num_actions), dtype=np.int8),
            np.zeros(num_envs, dtype=np.int64),
            np.zeros(num_envs, dtype=np.uint8),
        )


def _refuse(state: State, game_index: int, action: Any) -> None:
    """Raise the engine's ``IllegalActionError`` for ``action``, naming the game."""
    try:
        state.apply(int(action))
    except IllegalActionError as error:
        raise IllegalActionError(f"game {game_index}: {error}") from error
    raise AssertionError("an illegal action was applied")  # pragma: no cover


def _in_c(bot: Bot) -> Any:
    """What the compiled batch plays for ``bot``: its compiled procedure, or ``bot`` itself.

    The procedure stands for a rule-based bot that makes every choice by it (no random moves).
    """
    if isinstance(bot, HeuristicBot) and not bot.epsilon:
        procedure = bot.compiled_procedure()
        if procedure is not None:
            return procedure
    return bot


class _CompiledLearners:
    """The games of a :class:`ClosingbellVectorEnv` on the compiled batch."""

    def __init__(self, module: Any, env: ClosingbellEnv, rows: _Rows) -> None:
        num_envs = len(rows.seats)
        self.rows = rows
        offsets, money = _layout(env.encoder)
        max_steps = -1 if env.max_steps is None else env.max_steps
        engine = native.engine_for(env.game, "native")
        assert engine is not None
        self.new_game = engine.new_game
        self.batch = module.Batch(
            env.game, num_envs, offsets, env.encoder.size, money, max_steps, engine.new_game
        )
        self.env = env
        # Episode numbers, drawn from each game's generator a block at a time (the same
        # numbers as one at a time).
        self._episodes: list[tuple[np.random.Generator, list[int]] | None] = [None] * num_envs
        self._in_c = self._deal_in_c()

    def _deal_in_c(self) -> bool:
        """Let the batch deal episodes itself where it can; whether it does.

        It can when every other seat is a random bot, a rule-based one it plays in C, or
        a bot object.
        """
        kinds: list[int] = []
        entries: list[Any] = []
        for bot in self.env.opponents:
            if bot == "random":
                kinds.append(SEAT_RANDOM)
                entries.append(None)
            elif isinstance(bot, str):
                # a compiled procedure does not depend on the bot's seed
                procedure = _in_c(make_bot(bot, self.env.game, seed=0))
                if isinstance(procedure, Bot):
                    return False
                kinds.append(SEAT_HEURISTIC)
                entries.append(procedure)
            else:
                kinds.append(SEAT_PYTHON)
                entries.append(bot)
        seat = -1 if self.env.fixed_seat is None else self.env.fixed_seat
        # the seed text of a random bot is this prefix and its seed's digits
        prefix = seed_text("random", 123456789).removesuffix("123456789")
        self.batch.learners(seat, kinds, entries, prefix.encode())
        return True

    def _episode(self, i: int, rng: np.random.Generator) -> int:
        """The number game ``i``'s next episode is drawn from, from ``rng``."""
        block = self._episodes[i]
        if block is None or block[0] is not rng or not block[1]:
            block = (rng, rng.integers(EPISODES, size=EPISODE_BLOCK).tolist()[::-1])
            self._episodes[i] = block
        return block[1].pop()

    def state(self, i: int) -> State:
        state: State = self.batch.state(i)
        return state

    def start(self, i: int, rng: np.random.Generator) -> None:
        """Deal game ``i``'s next episode from ``rng`` and observe its learner."""
        episode = self._episode(i, rng)
        if self._in_c:
            self.rows.seats[i] = self.batch.start(i, episode, self.rows.obs, self.rows.mask)
            return
        env = self.env
        game = env.game
        n = game.players
        named = [isinstance(bot, str) for bot in env.opponents]
        seat, seeds, game_seed = draw_episode(episode, n, env.fixed_seat, named)
        entries: list[Any] = [None] * n
        others = [q for q in range(n) if q != seat]
        for q, bot, bot_seed in zip(others, env.opponents, seeds, strict=True):
            if bot == "random":
                # played in C, from the generator RandomBot(seed=bot_seed) would have
                entries[q] = seed_text("random", bot_seed or 0).encode()
            elif isinstance(bot, str):
                entries[q] = _in_c(make_bot(bot, game, seed=bot_seed or 0))
            else:
                entries[q] = bot
        self.batch.set_game(i, self.new_game(game, game_seed), seat, entries)
        self.batch.play_bots(i)
        self.batch.encode(i, seat, self.rows.obs, self.rows.mask)
        self.rows.seats[i] = seat

    def first_illegal(self, actions: IntArray, skip: np.ndarray) -> int:
        """The first game (not skipped) whose action is illegal, or -1."""
        first: int = self.batch.first_illegal(actions, skip.view(np.uint8))
        return first

    def step(self, actions: IntArray, skip: np.ndarray) -> None:
        """Step every game not skipped; the rows' status says what became of each."""
        rows = self.rows
        self.batch.step_learner(actions, skip.view(np.uint8), rows.obs, rows.mask, rows.status)


class _ReferenceLearners:
    """One :class:`ClosingbellEnv` per game, stepped in turn: the fallback, and the reference."""

    def __init__(self, env: ClosingbellEnv, rows: _Rows) -> None:
        self.rows = rows
        self.envs = [
            ClosingbellEnv(
                env.game,
                opponents=env.opponents,
                seat=env.fixed_seat,
                reward=env.reward_kind,
                illegal_action=env.illegal_action,
                illegal_reward=env.illegal_reward,
                max_steps=env.max_steps,
            )
            for _ in range(len(rows.seats))
        ]

    def state(self, i: int) -> State:
        state = self.envs[i].state
        assert state is not None
        return state

    def start(self, i: int, rng: np.random.Generator) -> None:
        env = self.envs[i]
        env.np_random = rng
        self.rows.obs[i], info = env.reset()
        self.rows.mask[i] = info["action_mask"]
        self.rows.seats[i] = env.seat

    def first_illegal(self, actions: IntArray, skip: np.ndarray) -> int:
        for i in range(len(self.envs)):
            if not skip[i] and int(actions[i]) not in self.state(i).legal_actions():
                return i
        return -1

    def step(self, actions: IntArray, skip: np.ndarray) -> None:
        rows = self.rows
        for i, env in enumerate(self.envs):
            if skip[i]:
                continue
            rows.obs[i], _, terminated, truncated, info = env.step(int(actions[i]))
            rows.mask[i] = info["action_mask"]
            if info.get("illegal_action"):
                rows.status[i] = ILLEGAL
            else:
                rows.status[i] = OVER if terminated else CUT if truncated else RUNNING


class ClosingbellVectorEnv(VectorEnv):
    """``num_envs`` games, each with one learner seat and bots in the others.

    Every keyword of :class:`~closingbell.envs.gymnasium.ClosingbellEnv` means the same
    here and has the same default (``opponents="random"``, ``seat=0``, ``reward="win"``,
    ``illegal_action="lose"``, the game's default player count and rules options), and
    sub-environment ``i`` reset with seed ``s + i`` plays the very games that a
    ``ClosingbellEnv`` reset with that seed plays, as Gymnasium's ``SyncVectorEnv`` of
    them would. ``autoreset_mode`` is Gymnasium's (``NEXT_STEP`` by default,
    ``SAME_STEP`` or ``DISABLED``); ``engine`` is ``auto`` (compiled where built),
    ``native`` or ``reference``; with ``copy=False`` the arrays returned are the
    environment's own, overwritten by the next step.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        game: str | Game = "take_stock",
        players: int | None = None,
        *,
        num_envs: int = 8,
        opponents: str | Sequence[str | Bot] = "random",
        seat: int | None = 0,
        reward: str = "win",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        engine: str = "auto",
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None:
            raise ValueError("the vector environments do not render")
        self.single = ClosingbellEnv(
            game,
            players,
            opponents=opponents,
            seat=seat,
            reward=reward,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            max_steps=max_steps,
            **options,
        )
        """A single environment with the same settings (its spaces, encoder and game)."""
        self.game = self.single.game
        """The game (its options fix the layout)."""
        self.num_envs = check_num_envs(num_envs)
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        """When a finished game is dealt anew (Gymnasium's modes)."""
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.copy = copy
        """Whether the arrays returned are copies."""
        self.single_observation_space = self.single.observation_space
        self.single_action_space = self.single.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        module = vector_module(self.game, engine)
        self.compiled = module is not None
        """Whether the games run on the compiled engines."""
        self._rows = rows = _Rows.make(num_envs, self.single.encoder)
        self._backend: _CompiledLearners | _ReferenceLearners = (
            _CompiledLearners(module, self.single, rows)
            if module is not None
            else _ReferenceLearners(self.single, rows)
        )
        self._done = np.ones(num_envs, dtype=np.bool_)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs

    def state(self, i: int) -> State:
        """The state of game ``i`` now (the environment's own: do not change it)."""
        return self._backend.state(i)

    def action_masks(self) -> np.ndarray:
        """1 for each legal action of each game's learner now, one row per game."""
        return self._rows.mask.copy()

    def _start(self, i: int) -> None:
        rng = self._rngs[i]
        if rng is None:
            rng, _ = seeding.np_random()
            self._rngs[i] = rng
        self._backend.start(i, rng)
        self._done[i] = False

    def _info(self, i: int) -> dict[str, Any]:
        return {"action_mask": self._rows.mask[i].copy(), "seat": int(self._rows.seats[i])}

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal new games: all of them, or those of ``options["reset_mask"]``.

        ``seed`` is ``None`` (go on with each game's generator), an int ``s`` (game ``i``
        seeded with ``s + i``) or one seed or ``None`` per game.
        """
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int | np.integer):
            seeds = [int(seed) + i for i in range(n)]
            self._np_random, self._np_random_seed = seeding.np_random(int(seed))
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"one seed per game is needed: {n}, not {len(seeds)}")
        chosen = np.ones(n, dtype=np.bool_)
        if options is not None and "reset_mask" in options:
            chosen = np.asarray(options["reset_mask"])
            if chosen.shape != (n,) or chosen.dtype != np.bool_ or not chosen.any():
                raise ValueError(f"options['reset_mask'] must be {n} booleans, one True at least")
        infos: dict[str, Any] = {}
        for i in np.flatnonzero(chosen).tolist():
            if seeds[i] is not None:
                self._rngs[i], _ = seeding.np_random(seeds[i])
            self._start(i)
            infos = self._add_info(infos, self._info(i), i)
        return self._out(self._rows.obs), infos

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play each game's learner action (one integer per game), then its bots' moves."""
        n = self.num_envs
        given, acts = _actions(actions, n, self.single.encoder.num_actions)
        mode = self.autoreset_mode
        if mode == AutoresetMode.NEXT_STEP:
            restart = self._done.copy()
        else:
            restart = np.zeros(n, dtype=np.bool_)
            if self._done.any():
                raise RuntimeError("a game is over: reset it (reset(options={'reset_mask': ...}))")
        if self.single.illegal_action == "raise":
            bad = self._backend.first_illegal(acts, restart)
            if bad >= 0:
                _refuse(self._backend.state(bad), bad, given[bad])
        rows = self._rows
        status = rows.status
        status[:] = RUNNING
        self._backend.step(acts, restart)
        rewards = np.zeros(n, dtype=np.float64)
        terminated = (status == OVER) | (status == ILLEGAL)
        truncated = status == CUT
        infos: dict[str, Any] = {
            "action_mask": rows.mask.copy(),
            "_action_mask": np.ones(n, dtype=np.bool_),
            "seat": rows.seats.copy(),
            "_seat": np.ones(n, dtype=np.bool_),
        }
        for i in np.flatnonzero(status).tolist():
            extra: dict[str, Any] = {}
            if status[i] == OVER:
                state = self._backend.state(i)
                rewards[i] = final_rewards(state, self.single.reward_kind)[int(rows.seats[i])]
                extra["scores"] = state.scores()
            elif status[i] == ILLEGAL:
                rewards[i] = self.single.illegal_reward
                extra["illegal_action"] = True
            if mode == AutoresetMode.SAME_STEP:
                # Gymnasium's convention: what the step ended with, apart; the infos of the
                # new game's start at the top.
                final = {"final_obs": rows.obs[i].copy(), "final_info": {**self._info(i), **extra}}
                infos = self._add_info(infos, final, i)
            else:
                infos = self._add_info(infos, extra, i)
        self._done = terminated | truncated
        for i in np.flatnonzero(restart).tolist():
            self._start(i)
        if mode == AutoresetMode.SAME_STEP:
            for i in np.flatnonzero(self._done).tolist():
                self._start(i)
        if restart.any() or mode == AutoresetMode.SAME_STEP:
            infos["action_mask"][:] = rows.mask
            infos["seat"][:] = rows.seats
        return self._out(rows.obs), rewards, terminated, truncated, infos


class _ReferenceSelfPlay:
    """The games of a :class:`SelfPlayVectorEnv` on the reference rules, through views."""

    def __init__(self, game: Game, encoder: Encoder, rows: _Rows, max_steps: int | None) -> None:
        num_envs = len(rows.seats)
        self.game = game
        self.encoder = encoder
        self.rows = rows
        self.max_steps = max_steps
        self.states: list[State | None] = [None] * num_envs
        self.finished: list[State | None] = [None] * num_envs
        self.steps = [0] * num_envs
        self.rngs = [random.Random() for _ in range(num_envs)]

    def seed(self, i: int, rng: random.Random) -> None:
        """Game ``i``'s next games take their seeds from ``rng`` (``fresh_seed``)."""
        self.rngs[i] = rng

    def state(self, i: int) -> State:
        """Game ``i``'s state."""
        state = self.states[i]
        assert state is not None
        return state

    def finished_game(self, i: int) -> State | None:
        """The game the last step ended in game ``i``'s place, if it ended one."""
        return self.finished[i]

    def restart(self, i: int) -> None:
        """Deal game ``i``'s next game and observe its seat to move."""
        self.states[i] = self.game.new_game(fresh_seed(self.rngs[i]))
        self.steps[i] = 0
        self._observe(i)

    def _observe(self, i: int) -> None:
        """Write the observation and mask of game ``i``'s seat to move, and that seat."""
        state = self.state(i)
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        self.rows.obs[i] = self.encoder.encode(view)
        self.rows.mask[i] = self.encoder.action_mask(view)
        self.rows.seats[i] = seat

    def first_illegal(self, actions: IntArray) -> int:
        """The first game whose action is illegal, or -1."""
        for i in range(len(self.states)):
            if int(actions[i]) not in self.state(i).legal_actions():
                return i
        return -1

    def step(self, actions: IntArray) -> None:
        """Apply one (legal) action per game, deal the games that end anew, observe."""
        status = self.rows.status
        for i in range(len(self.states)):
            state = self.state(i)
            state.apply(int(actions[i]))
            self.steps[i] += 1
            if state.current_player is None:
                status[i] = OVER
            elif self.max_steps is not None and self.steps[i] >= self.max_steps:
                status[i] = CUT
            else:
                status[i] = RUNNING
            self.finished[i] = state if status[i] else None
            if status[i]:
                self.restart(i)
            else:
                self._observe(i)


class _CompiledSelfPlay:
    """The games of a :class:`SelfPlayVectorEnv` on the compiled batch, which deals them."""

    def __init__(
        self, module: Any, game: Game, encoder: Encoder, rows: _Rows, max_steps: int | None
    ) -> None:
        offsets, money = _layout(encoder)
        limit = -1 if max_steps is None else max_steps
        engine = native.engine_for(game, "native")
        assert engine is not None
        self.rows = rows
        self.batch = module.Batch(
            game, len(rows.seats), offsets, encoder.size, money, limit, engine.new_game
        )
        for i in range(len(rows.seats)):
            self.seed(i, random.Random())

    def seed(self, i: int, rng: random.Random) -> None:
        """Game ``i``'s next games take their seeds from ``rng`` as it is now (in C)."""
        self.batch.seed_games(i, rng.getstate()[1])

    def state(self, i: int) -> State:
        """Game ``i``'s state."""
        state: State = self.batch.state(i)
        return state

    def finished_game(self, i: int) -> State | None:
        """The game the last step ended in game ``i``'s place, if it ended one."""
        state: State | None = self.batch.finished_game(i)
        return state

    def restart(self, i: int) -> None:
        """Deal game ``i``'s next game and observe its seat to move."""
        self.rows.seats[i] = self.batch.restart(i, self.rows.obs, self.rows.mask)

    def first_illegal(self, actions: IntArray) -> int:
        """The first game whose action is illegal, or -1."""
        first: int = self.batch.first_illegal(actions, np.zeros(len(self.rows.seats), np.uint8))
        return first

    def step(self, actions: IntArray) -> None:
        """Apply one (legal) action per game, deal the games that end anew, observe."""
        rows = self.rows
        self.batch.step_selfplay(actions, rows.obs, rows.mask, rows.seats, rows.status)


class SelfPlayVectorEnv:
    """``num_envs`` games in which every seat is a learner: a batched PettingZoo-style env.

    Each game is the one a PettingZoo :func:`~closingbell.envs.pettingzoo.env` of the same
    game and keywords plays: game ``i`` reset with seed ``s + i`` deals what that env deals
    after ``reset(seed=s + i)``, and each later game of it what its next ``reset()`` would.
    A step takes one action per game, from the seat to move there (``seats``); the
    observation and mask returned are those of the seat to move next. A game that ends
    (or is cut short by ``max_steps``) gives every seat its reward on that step and is
    dealt anew at once: the observation returned for it is the new game's first.
    """

    def __init__(
        self,
        game: str | Game = "take_stock",
        players: int | None = None,
        *,
        num_envs: int = 8,
        reward: str = "win",
        max_steps: int | None = None,
        engine: str = "auto",
        copy: bool = True,
        **options: Any,
    ) -> None:
        self.game: Game = game_of(game, players, options)
        self.num_envs = check_num_envs(num_envs)
        """Games stepped together."""
        self.reward_kind = check_reward_kind(reward)
        """The reward scheme (``win`` or ``margin``)."""
        self.max_steps = check_max_steps(max_steps)
        """Actions after which a game is cut short (every seat truncated); None: never."""
        self.copy = copy
        """Whether the arrays returned are copies."""
        self.encoder = encoder_for(self.game)
        """The observation encoder."""
        n = self.game.players
        self.possible_agents = [f"player_{q}" for q in range(n)]
        """The agents, one per seat (PettingZoo's names)."""
        self.num_agents = n
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.encoder.num_actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(self.encoder.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        module = vector_module(self.game, engine)
        self.compiled = module is not None
        """Whether the games run on the compiled engines."""
        self._rows = rows = _Rows.make(num_envs, self.encoder)
        self._backend: _CompiledSelfPlay | _ReferenceSelfPlay = (
            _CompiledSelfPlay(module, self.game, self.encoder, rows, self.max_steps)
            if module is not None
            else _ReferenceSelfPlay(self.game, self.encoder, rows, self.max_steps)
        )
        self.seats = rows.seats
        """The seat to move in each game (the environment's own array)."""
        self._ready = False

    def state(self, i: int) -> State:
        """The state of game ``i`` now (the environment's own: do not change it)."""
        return self._backend.state(i)

    def _observations(self) -> dict[str, np.ndarray]:
        rows = self._rows
        if self.copy:
            return {"observation": rows.obs.copy(), "action_mask": rows.mask.copy()}
        return {"observation": rows.obs, "action_mask": rows.mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every game anew; ``seed`` ``s`` seeds game ``i`` with ``s + i``."""
        for i in range(self.num_envs):
            if seed is not None:
                self._backend.seed(i, random.Random(seed + i))
            self._backend.restart(i)
        self._ready = True
        return self._observations(), {"seat": self.seats.copy()}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action per game (that of the seat to move); see the class for what comes back.

        An illegal action raises ``IllegalActionError`` naming the game, and no game moves.
        """
        if not self._ready:
            raise RuntimeError("reset() first")
        n = self.num_envs
        given, acts = _actions(actions, n, self.encoder.num_actions)
        bad = self._backend.first_illegal(acts)
        if bad >= 0:
            _refuse(self._backend.state(bad), bad, given[bad])
        status = self._rows.status
        self._backend.step(acts)
        rewards = np.zeros((n, self.num_agents), dtype=np.float64)
        infos: dict[str, Any] = {}
        ended = np.flatnonzero(status).tolist()
        if ended:
            scores = np.full(n, None, dtype=object)
            for i in ended:
                state = self._backend.finished_game(i)
                assert state is not None
                if status[i] == OVER:
                    rewards[i] = final_rewards(state, self.reward_kind)
                scores[i] = state.scores()
            infos["scores"] = scores
            infos["_scores"] = status != RUNNING
        infos["seat"] = self.seats.copy()
        return self._observations(), rewards, status == OVER, status == CUT, infos

    def close(self) -> None:
        """Nothing to release."""
