"""The Take Stock screen: the table, the round and the final scores laid out, both languages."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

import closingbell
from closingbell.games.take_stock import cards as C
from closingbell.text.i18n import LANGS
from closingbell.text.take_stock import TakeStockNarrator
from closingbell.tui.take_stock import TakeStockScreen
from tests.text.positions import DECISIONS, position

NAMES = ["Ana", "Bo", "Cy"]


def _text(renderable: object) -> str:
    console = Console(width=120, color_system=None, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _screen(lang: str, players: int = 3) -> TakeStockScreen:
    game = closingbell.load_game("take_stock", players=players)
    return TakeStockScreen(TakeStockNarrator(game, NAMES[:players], lang))


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("decision", DECISIONS)
def test_every_decision_is_drawn(decision: str, lang: str) -> None:
    state = position(decision)
    view = state.view(state.current_player)
    screen = _screen(lang)
    board = _text(screen.board(view))
    assert NAMES[0] in board and NAMES[2] in board
    for line in screen.narrator.situation(view):
        assert line in board.replace("\n", " ") or line[:20] in board


@pytest.mark.parametrize("lang", list(LANGS))
def test_round_and_final_summaries_name_every_player(lang: str) -> None:
    game = closingbell.load_game("take_stock", players=3)
    state = game.new_game(4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    screen = _screen(lang)
    for event in state.visible_events(None):
        screen.narrator.describe_event(event)
        summary = screen.round_summary(state.view(None), event)
        assert (summary is None) == (event["type"] != "round_score")
        if summary is not None:
            assert all(name in _text(summary) for name in NAMES)
    final = _text(screen.final_summary(state.view(None)))
    assert all(name in final for name in NAMES)
    heading = "各股票的得分" if lang == "zh-Hant" else "Points from each stock"
    assert heading in final


def test_the_round_summary_breaks_points_down_by_stock() -> None:
    game = closingbell.load_game("take_stock", players=3)
    state = game.new_game(3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    screen = _screen("en")
    event = next(e for e in state.visible_events(None) if e["type"] == "round_score")
    text = _text(screen.round_summary(state.view(None), event))
    for q in range(3):
        parts = [event["shares"][q][s] * event["prices"][s] for s in range(C.NUM_STOCKS)]
        assert sum(parts) == event["scores"][q]
        for s, pts in enumerate(parts):
            if pts:
                assert f"{event['shares'][q][s]}×{event['prices'][s]}={pts}" in text


def test_a_seat_sees_none_of_the_other_hands_on_its_board() -> None:
    game = closingbell.load_game("take_stock", players=3)
    state = game.new_game(12)
    rng = random.Random(12)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    screen = _screen("en")
    board = _text(screen.board(state.view(0)))
    for q in (1, 2):
        view = state.view(q)
        hidden = set(view.hand) - set(state.view(0).known_in_hands[q])
        for card in hidden:
            assert not re.search(rf"\b{C.card_name(card)}\b", board), card
    for card in state.view(0).hand:
        assert re.search(rf"\b{C.card_name(card)}\b", board)


def test_chinese_board_calls_the_price_as_both_games_do() -> None:
    state = position("action")
    board = _text(_screen("zh-Hant").board(state.view(state.current_player)))
    assert "股價" in board and "價值" not in board
