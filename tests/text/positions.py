"""Take Stock positions for the terminal tests: one for every kind of decision."""

from __future__ import annotations

import random
from functools import cache

import closingbell
from closingbell.core.game import State
from closingbell.games.take_stock.state import PHASE_NAMES

DECISIONS = tuple(d for d in PHASE_NAMES if d != "game_over")
"""Every decision a person can be asked in Take Stock."""


@cache
def decision_positions(players: int = 3) -> dict[str, tuple[int, tuple[int, ...]]]:
    """For each decision kind: a seed and the actions (random play) that reach it."""
    found: dict[str, tuple[int, tuple[int, ...]]] = {}
    game = closingbell.load_game("take_stock", players=players)
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_game(seed)
        while not state.is_terminal():
            if state.decision not in found:
                found[state.decision] = (seed, tuple(state.history))
            state.apply(rng.choice(state.legal_actions()))
        if len(found) == len(DECISIONS):
            return found
    raise AssertionError(f"no position found for {set(DECISIONS) - set(found)}")


def position(decision: str, players: int = 3) -> State:
    """A live state whose pending decision is ``decision``."""
    seed, actions = decision_positions(players)[decision]
    state = closingbell.load_game("take_stock", players=players).new_game(seed)
    for a in actions:
        state.apply(a)
    assert state.decision == decision
    return state
