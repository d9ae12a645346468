"""The observation encodings: shape, range, layout, and that they read the view only."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import closingbell
from closingbell.envs.encoding import encoder_for

GAMES = ["take_stock", "card_stock_market"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "observations.md"


def positions(name: str, players: int, seed: int, every: int = 7):
    """States met along a random game, one in ``every``."""
    game = closingbell.load_game(name, players=players)
    st = game.new_game(seed)
    rng = random.Random(seed)
    k = 0
    while not st.is_terminal():
        if k % every == 0:
            yield st.clone()
        st.apply(rng.choice(st.legal_actions()))
        k += 1
    yield st


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_shape_range_and_mask(name: str, players: int) -> None:
    game = closingbell.load_game(name, players=players)
    enc = encoder_for(game)
    assert sum(f.size for f in enc.fields) == enc.size
    assert enc.fields[-1].offset + enc.fields[-1].size == enc.size
    for st in positions(name, players, seed=players):
        for seat in range(players):
            view = st.view(seat)
            x = enc.encode(view)
            assert x.shape == (enc.size,) and x.dtype == np.float32
            assert x.min() >= 0.0 and x.max() <= 1.0
            mask = enc.action_mask(view)
            assert mask.shape == (game.info.num_distinct_actions,) and mask.dtype == np.int8
            assert sorted(np.flatnonzero(mask).tolist()) == list(view.legal_actions)
            # seats are rotated: whoever must act is at its offset from the observer
            to_move = x[enc.field("to_move").slice]
            if st.current_player is None:
                assert to_move[players] == 1.0
            else:
                assert to_move[(st.current_player - seat) % players] == 1.0
                assert (st.current_player == seat) == bool(mask.any())


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_hidden_information_does_not_change_the_encoding(name: str, players: int) -> None:
    """Two states that differ only in what a seat cannot see give it the same vector,
    and a seat whose own hand differs gets a different one."""
    game = closingbell.load_game(name, players=players)
    enc = encoder_for(game)
    rng = random.Random(5)
    hands_differed = 0
    for st in positions(name, players, seed=11, every=13):
        if st.is_terminal():
            continue
        for seat in range(players):
            view = st.view(seat)
            x = enc.encode(view)
            a = game.sample_state(view, rng)
            b = game.sample_state(view, rng)
            assert np.array_equal(enc.encode(a.view(seat)), x)
            assert np.array_equal(enc.encode(b.view(seat)), x)
            for other in range(players):
                if other == seat:
                    continue
                va, vb = a.view(other), b.view(other)
                if sorted(va.hand) != sorted(vb.hand):
                    hands_differed += 1
                    assert not np.array_equal(enc.encode(va), enc.encode(vb))
    assert hands_differed > 0


@pytest.mark.parametrize("name", GAMES)
def test_spectators_and_other_games_are_refused(name: str) -> None:
    game = closingbell.load_game(name, players=3)
    enc = encoder_for(game)
    st = game.new_game(1)
    with pytest.raises(ValueError):
        enc.encode(st.view(None))
    other = closingbell.load_game(name, players=4).new_game(1)
    with pytest.raises(ValueError):
        enc.encode(other.view(0))


@pytest.mark.parametrize("name", GAMES)
def test_every_field_is_documented(name: str) -> None:
    text = DOCS.read_text(encoding="utf-8")
    enc = encoder_for(closingbell.load_game(name, players=3))
    missing = [f.name for f in enc.fields if f"`{f.name}`" not in text]
    assert not missing, f"fields missing from docs/observations.md: {missing}"
