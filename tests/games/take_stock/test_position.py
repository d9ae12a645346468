"""The position notation round-trips every state random play reaches, and plays on alike."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import closingbell
from closingbell.games.take_stock.game import TakeStock
from closingbell.games.take_stock.position import FIELDS
from closingbell.games.take_stock.state import TakeStockState

COVERED = (
    "seed",
    "round",
    "dealer",
    "turn",
    "cur",
    "phase",
    "rows",
    "splits",
    "frozen",
    "hands",
    "certs",
    "tokens",
    "supply",
    "draw",
    "discard",
    "ev_above",
    "ev_below",
    "ev_discard",
    "ev_active",
    "saved",
    "totals",
    "round_scores",
    "round_reasons",
    "end_reason",
    "known",
    "follow",
    "pair",
    "ev_stock",
    "retrieved",
    "owed",
    "queue",
    "hidden",
    "reshuffles",
)
"""The state fields the notation covers; the rest is bookkeeping derived from them."""

VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "variants": {
        "rounds": 2,
        "insider_order": "take_first",
        "empty_draw": "next_draw",
        "keep_saved_events": False,
        "limit_counts_freeze": True,
        "frozen_scoring": "zero",
        "option_shortage": "nobody",
        "dealer_tie": "random",
        "final_tie": "most_tokens",
        "shares_table": (1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3),
    },
}


def _game(players: int, variant: str) -> TakeStock:
    game = closingbell.load_game("take_stock", players=players, **VARIANTS[variant])
    assert isinstance(game, TakeStock)
    return game


def assert_same_position(s: TakeStockState, t: TakeStockState) -> None:
    """``t`` equals ``s`` in every field the notation covers, and plays the same."""
    for name in COVERED:
        assert getattr(t, name) == getattr(s, name), f"field {name!r} differs"
    assert t.legal_actions() == s.legal_actions()
    assert t.current_player == s.current_player
    assert t.decision == s.decision
    assert t.scores() == s.scores()
    assert t.from_deal is False and t.history == [] and t.log == []


def _round_trip(game: TakeStock, s: TakeStockState) -> TakeStockState:
    text = s.to_position()
    assert "\n" not in text
    t = game.state_from_position(text)
    assert t.to_position() == text
    assert_same_position(s, t)
    t.check_invariants()
    return t


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_state_of_random_games_round_trips(players: int, variant: str) -> None:
    game = _game(players, variant)
    decisions: set[str] = set()
    for seed in range(2):
        s = game.new_game(seed)
        rng = random.Random(f"position/{players}/{variant}/{seed}")
        while True:
            _round_trip(game, s)
            decisions.add(s.decision)
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
    assert {"action", "discard", "choose_event", "exercise", "game_over"} <= decisions


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_game_from_a_position_plays_on_like_the_original(players: int, variant: str) -> None:
    game = _game(players, variant)
    rng = random.Random(f"plays-on/{players}/{variant}")
    rounds_crossed = reshuffles_crossed = 0
    for seed in range(6):
        s = game.new_game(seed)
        while not s.is_terminal():
            if rng.random() < 0.04:
                original, copy = s.clone(), _round_trip(game, s)
                start = (original.round, original.reshuffles)
                for _ in range(60):
                    if original.is_terminal():
                        break
                    action = rng.choice(original.legal_actions())
                    original.apply(action)
                    copy.apply(action)
                    assert copy.to_position() == original.to_position()
                    assert copy.legal_actions() == original.legal_actions()
                copy.check_invariants()
                rounds_crossed += original.round != start[0]
                reshuffles_crossed += original.round == start[0] and original.reshuffles > start[1]
            s.apply(rng.choice(s.legal_actions()))
    assert rounds_crossed > 0
    assert reshuffles_crossed > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=hs.integers(2, 6),
    variant=hs.sampled_from(sorted(VARIANTS)),
    seed=hs.integers(0, 2**63 - 1),
    steps=hs.integers(0, 600),
)
def test_round_trip_at_any_point(players: int, variant: str, seed: int, steps: int) -> None:
    game = _game(players, variant)
    s = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    _round_trip(game, s)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_sampled_state_round_trips(players: int) -> None:
    game = _game(players, "default")
    s = game.new_game(players)
    rng = random.Random(players)
    for _ in range(80):
        s.apply(rng.choice(s.legal_actions()))
    sampled = game.sample_state(s.view(0), rng)
    assert isinstance(sampled, TakeStockState)
    _round_trip(game, sampled)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 7, 2**63 - 1])
def test_a_position_that_names_only_the_seed_is_the_deal(players: int, seed: int) -> None:
    game = _game(players, "default")
    dealt = game.new_game(seed)
    made = game.state_from_position(f"seed: {seed}")
    assert made.to_position() == dealt.to_position()
    assert_same_position(dealt, made)


def test_the_canonical_text_lists_every_field_in_order() -> None:
    text = _game(3, "default").new_game(1).to_position()
    names = [part.split(":")[0] for part in text.split("; ")]
    assert names == list(FIELDS)


def test_reading_accepts_any_order_lines_and_comments() -> None:
    game = _game(3, "default")
    text = game.new_game(4).to_position()
    parts = text.split("; ")
    shuffled = "# a position\n" + "\n".join(reversed(parts)) + "\n"
    assert game.state_from_position(shuffled).to_position() == text
