"""Game titles, bot levels and seat names, as both front ends say them."""

from __future__ import annotations

import pytest

import closingbell
from closingbell.core.registry import available_games
from closingbell.text.i18n import LANGS
from closingbell.text.names import (
    bot_label,
    bot_labels,
    bot_name,
    game_title,
    player_names,
    seat_name,
)


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_bot_and_game_has_a_name(lang: str) -> None:
    labels = bot_labels(lang)
    assert set(labels) == set(closingbell.available_bots())
    assert len(set(labels.values())) == len(labels)
    for game in available_games():
        assert game_title(game, lang) != game


def test_bots_are_named_by_level_and_seat_from_one() -> None:
    assert bot_label("medium", "en") == "Medium"
    assert bot_label("medium", "zh-Hant") == "普通電腦"
    assert bot_name("medium", 1, "en") == "Medium 2"
    assert bot_name("medium", 1, "zh-Hant") == "普通電腦 2"
    assert bot_label("grandmaster", "en") == "grandmaster"


def test_seat_names_for_the_server() -> None:
    assert seat_name(0, "zh-Hant", name="Ana") == "Ana"
    assert seat_name(2, "zh-Hant", bot="expert") == "專家電腦 3"
    assert seat_name(2, "en") == "Seat 3"
    assert seat_name(2, "zh-Hant") == "座位 3"


def test_the_terminals_player_names() -> None:
    assert player_names(["you", "medium", "hard"], "en") == ["Player 1 (you)", "Medium 2", "Hard 3"]
    assert player_names(["you", "you"], "en") == ["Player 1", "Player 2"]
    assert player_names(["you", "easy"], "zh-Hant") == ["玩家 1（你）", "簡單電腦 2"]
