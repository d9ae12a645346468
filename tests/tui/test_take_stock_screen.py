"""The Take Stock screen: every decision and every event in words, in both languages."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

import closingbell
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.state import EVENT_FIELDS
from closingbell.tui.i18n import LANGS, translations
from closingbell.tui.take_stock import TakeStockScreen
from tests.tui.positions import DECISIONS, position

NAMES = ["Ana", "Bo", "Cy"]


def _text(renderable: object) -> str:
    console = Console(width=120, color_system=None, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _screen(lang: str, players: int = 3) -> TakeStockScreen:
    game = closingbell.load_game("take_stock", players=players)
    return TakeStockScreen(game, NAMES[:players], translations(lang))


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("decision", DECISIONS)
def test_every_decision_is_drawn_asked_explained_and_listed(decision: str, lang: str) -> None:
    state = position(decision)
    seat = state.current_player
    view = state.view(seat)
    screen = _screen(lang)
    board = _text(screen.board(view))
    assert NAMES[0] in board and NAMES[2] in board
    assert screen.prompt(view)
    assert len(screen.help(view)) > 40
    words = [screen.describe_action(view, a) for a in view.legal_actions]
    assert all(words)
    assert len(set(words)) == len(words), words  # every choice reads differently


def test_actions_read_as_the_issue_asks() -> None:
    state = position("action")
    view = state.view(state.current_player)
    screen = _screen("en")
    texts = [screen.describe_action(view, a) for a in view.legal_actions]
    assert any(re.fullmatch(r"Raise (Corn|Gem|Oil|Tech|Movie) to \d+ \(\+\d\)", t) for t in texts)
    zh = _screen("zh-Hant")
    zh_texts = [zh.describe_action(view, a) for a in view.legal_actions]
    assert any(t.startswith("把") and "增加到" in t for t in zh_texts)


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_kind_of_event_is_told_in_words(lang: str) -> None:
    game = closingbell.load_game("take_stock", players=3)
    seen: set[str] = set()
    for seed in range(40):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        screen = _screen(lang)
        for seat in (None, 0):
            for event in state.visible_events(seat):
                text = screen.describe_event(event)
                seen.add(event["type"])
                if event["type"] != "reshuffle":
                    assert text, event
                summary = screen.round_summary(state.view(seat), event)
                assert (summary is None) == (event["type"] != "round_score")
                if summary is not None:
                    assert NAMES[1] in _text(summary)
        final = _text(screen.final_summary(state.view(None)))
        assert all(name in final for name in NAMES)
    assert seen >= set(EVENT_FIELDS) - {"reshuffle"}


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
    assert screen.board(state.view(0)) is not None
    for card in state.view(0).hand:
        assert re.search(rf"\b{C.card_name(card)}\b", board)
