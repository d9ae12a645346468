"""Type stub of the compiled ``closingbell.native._vector`` (see ``_vector.pyx``)."""

from typing import Any

import numpy as np
import numpy.typing as npt

from closingbell.core.game import Game, State

class Batch:
    """N compiled games of one game and options, observed for one seat each, stepped as one."""

    num_envs: int
    players: int
    size: int
    num_actions: int

    def __init__(
        self,
        game: Game,
        num_envs: int,
        offsets: dict[str, int],
        size: int,
        money: float,
        max_steps: int,
        deal: Any,
    ) -> None: ...
    def set_game(self, i: int, state: State, seat: int, bots: list[Any]) -> None:
        """Game ``i`` is now ``state``, observed by ``seat``; one bot entry per seat."""

    def learners(
        self,
        seat: int,
        kinds: list[int],
        entries: list[Any],
        random_prefix: bytes,
    ) -> None:
        """Let :meth:`start` deal episodes: how to make a state and who plays each seat."""

    def start(
        self,
        i: int,
        episode: int,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
    ) -> int:
        """Deal game ``i``'s episode number ``episode``, observe the learner, give its seat."""

    def seed_games(self, i: int, words: tuple[int, ...]) -> None:
        """Game ``i``'s next games take their seeds from the generator of state ``words``."""

    def restart(self, i: int, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        """Deal game ``i``'s next game, observe the seat to move and return it."""

    def finished_game(self, i: int) -> State | None:
        """The game the last self-play step ended in game ``i``'s place (or ``None``)."""

    def state(self, i: int) -> State:
        """Game ``i``'s state (the batch's own: do not change it)."""

    def play_bots(self, i: int) -> None:
        """Let game ``i``'s bots play up to its learner's decision, as a reset does."""

    def encode(
        self,
        i: int,
        seat: int,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
    ) -> None:
        """Write ``seat``'s observation and mask of game ``i`` into row ``i`` of the arrays."""

    def first_illegal(self, actions: npt.NDArray[np.int64], skip: npt.NDArray[np.uint8]) -> int:
        """The first game (not skipped) whose action is not legal now, or -1."""

    def step_learner(
        self,
        actions: npt.NDArray[np.int64],
        skip: npt.NDArray[np.uint8],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
        status: npt.NDArray[np.uint8],
    ) -> None:
        """Play each game's learner action and its bots' moves, and observe the learner."""

    def step_selfplay(
        self,
        actions: npt.NDArray[np.int64],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
        seats: npt.NDArray[np.int64],
        status: npt.NDArray[np.uint8],
    ) -> None:
        """Play one action in each game and observe the seat to move next."""

def encode(
    state: State,
    seat: int,
    offsets: dict[str, int],
    size: int,
    money: float,
    obs: npt.NDArray[np.float32],
    mask: npt.NDArray[np.int8],
) -> None:
    """Write ``seat``'s observation and mask of a compiled ``state`` into ``obs`` and ``mask``."""
