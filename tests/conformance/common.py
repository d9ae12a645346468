"""Shared pieces of the conformance kit: the cases, random play and Hypothesis strategies.

Every test of the kit runs over :data:`CASES`, each registered game at each player count
it allows, so a new game is covered as soon as it is registered (and given a perturber in
:mod:`tests.conformance.hidden`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import strategies as st

import closingbell
from closingbell import Game, State
from closingbell.core.registry import game_class
from closingbell.core.rng import SEED_BITS


def _cases() -> list[tuple[str, int]]:
    out = []
    for name in closingbell.available_games():
        info = game_class(name).info
        out += [(name, p) for p in range(info.min_players, info.max_players + 1)]
    return out


CASES: list[tuple[str, int]] = _cases()
"""Every registered game at every player count it allows."""

MAX_STEPS = 700
"""Random steps a Hypothesis position may take (games last a few hundred decisions)."""


def case_params() -> list[object]:
    """``CASES`` as pytest params with readable ids such as ``take_stock-3p``."""
    return [pytest.param(name, players, id=f"{name}-{players}p") for name, players in CASES]


@cache
def get_game(name: str, players: int) -> Game:
    """The game ``name`` at ``players`` seats with default options (cached)."""
    return closingbell.load_game(name, players=players)


def move_rng(seed: int) -> random.Random:
    """The generator that picks the random moves of the game dealt with ``seed``."""
    return random.Random(f"conformance-moves/{seed}")


def random_step(state: State, rng: random.Random) -> int:
    """Apply a uniformly random legal action and return it."""
    action = rng.choice(state.legal_actions())
    state.apply(action)
    return action


def walk(state: State, rng: random.Random, limit: int | None = None) -> Iterator[int]:
    """Play random actions on ``state`` until it ends (or after ``limit``), yielding each."""
    steps = 0
    while not state.is_terminal() and (limit is None or steps < limit):
        yield random_step(state, rng)
        steps += 1


def play_out(state: State, rng: random.Random, check: bool = True) -> int:
    """Play ``state`` to its end at random, checking invariants after every action."""
    steps = 0
    for _ in walk(state, rng):
        steps += 1
        if check:
            state.check_invariants()
    return steps


@dataclass(frozen=True)
class Position:
    """A reproducible position: a game dealt with ``seed``, then ``steps`` random actions."""

    name: str
    players: int
    seed: int
    steps: int

    @property
    def game(self) -> Game:
        """The game at this position's player count."""
        return get_game(self.name, self.players)

    def build(self) -> State:
        """Deal and play; stops early if the game ends first."""
        state = self.game.new_game(seed=self.seed)
        for _ in walk(state, move_rng(self.seed), self.steps):
            pass
        return state

    @property
    def seats(self) -> list[int | None]:
        """Every seat, then the spectator."""
        return [*range(self.players), None]


cases = st.sampled_from(CASES)
"""A registered game and a player count it allows."""
seeds = st.integers(min_value=0, max_value=2**SEED_BITS - 1)
"""Any valid game seed."""
step_counts = st.integers(min_value=0, max_value=MAX_STEPS)
"""How many random actions to play before looking."""


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position of any registered game at any allowed player count."""
    name, players = draw(cases)
    return Position(name, players, draw(seeds), draw(step_counts))


def could_tell(before: State, action: int, seat: int | None) -> bool:
    """Whether ``seat`` can tell ``action`` apart from every other legal choice at ``before``.

    It compares what the seat would see (its view, and the log entries it may read that the
    action adds) after each legal choice. If another choice looks the same, the seat cannot
    know which one was made, and nothing may tell it.
    """
    start = len(before.log)

    def seen(choice: int) -> tuple[object, object]:
        after = before.clone()
        after.apply(choice)
        return after.view(seat).to_dict(), after.visible_events(seat, start)

    mine = seen(action)
    return all(seen(other) != mine for other in before.legal_actions() if other != action)
