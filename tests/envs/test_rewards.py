"""Final rewards: win shares and the margin alternative."""

from __future__ import annotations

import random

import pytest

import closingbell
from closingbell.envs.rewards import check_reward_kind, final_rewards


@pytest.mark.parametrize("name", ["take_stock", "card_stock_market"])
def test_rewards_of_finished_games(name: str) -> None:
    game = closingbell.load_game(name, players=3)
    for seed in range(5):
        st = game.new_game(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        win = final_rewards(st, "win")
        assert sum(win) == pytest.approx(1.0)
        assert [q for q, r in enumerate(win) if r > 0] == st.winners()
        margin = final_rewards(st, "margin")
        assert all(-1.0 <= r <= 1.0 for r in margin)
        for q in range(3):
            assert (margin[q] >= 0) == (q in st.winners())


def test_unknown_reward_kind() -> None:
    with pytest.raises(ValueError, match="reward must be"):
        check_reward_kind("points")
