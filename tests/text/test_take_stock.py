"""Take Stock in words: every decision and every event, the results, in both languages."""

from __future__ import annotations

import random
import re

import pytest

import closingbell
from closingbell.core.game import State
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.state import EVENT_FIELDS
from closingbell.text.i18n import LANGS
from closingbell.text.take_stock import TakeStockNarrator
from tests.text.positions import DECISIONS, position

NAMES = ["Ana", "Bo", "Cy"]


def narrator(lang: str, players: int = 3) -> TakeStockNarrator:
    game = closingbell.load_game("take_stock", players=players)
    return TakeStockNarrator(game, NAMES[:players], lang)


def random_game(seed: int, players: int = 3) -> State:
    game = closingbell.load_game("take_stock", players=players)
    state = game.new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("decision", DECISIONS)
def test_every_decision_is_asked_explained_and_listed(decision: str, lang: str) -> None:
    state = position(decision)
    view = state.view(state.current_player)
    words = narrator(lang)
    assert words.prompt(view)
    assert len(words.help(view)) > 40
    texts = [words.describe_action(view, a) for a in view.legal_actions]
    assert all(texts)
    assert not any("{" in t for t in texts), texts
    assert len(set(texts)) == len(texts), texts  # every choice reads differently


def test_actions_read_as_the_issue_asks() -> None:
    state = position("action")
    view = state.view(state.current_player)
    texts = [narrator("en").describe_action(view, a) for a in view.legal_actions]
    assert any(re.fullmatch(r"Raise (Corn|Gem|Oil|Tech|Movie) to \d+ \(\+\d\)", t) for t in texts)
    zh_texts = [narrator("zh-Hant").describe_action(view, a) for a in view.legal_actions]
    assert any(t.startswith("把") and "增加到" in t for t in zh_texts)


def test_a_raise_that_ends_the_round_says_so_without_a_stray_space_in_chinese() -> None:
    game = closingbell.load_game("take_stock", players=3)
    for seed in range(200):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            view = state.view(state.current_player)
            if state.decision == "action":
                closing = [
                    a
                    for a in view.legal_actions
                    if A.RAISE <= a < A.SAVE and C.card_value(a) in C.CLOSING_VALUES
                ]
                if closing:
                    en = narrator("en").describe_action(view, closing[0])
                    zh = narrator("zh-Hant").describe_action(view, closing[0])
                    assert en.endswith(") and end the round"), en
                    assert zh.endswith("）並結束本回合"), zh
                    return
            state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no raise to 11 or 12 in 200 random games")


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_kind_of_event_is_told_in_words(lang: str) -> None:
    seen: set[str] = set()
    for seed in range(40):
        state = random_game(seed)
        words = narrator(lang)
        for seat in (None, 0):
            for event in state.visible_events(seat):
                text = words.describe_event(event)
                seen.add(event["type"])
                if event["type"] != "reshuffle":
                    assert text, event
                    assert "{" not in text, text
    assert seen >= set(EVENT_FIELDS) - {"reshuffle"}


def test_drawn_event_cards_are_named_to_their_owner_and_counted_to_others() -> None:
    words = narrator("en")
    kinds = [C.EVENT_NAMES.index("Audit"), C.EVENT_NAMES.index("No Change")]
    own = {"type": "drew_events", "seat": 1, "count": 2, "events": kinds}
    assert words.describe_event(own) == "Bo draws Stock Audit, No Market Change."
    others = {"type": "drew_events", "seat": 1, "count": 2, "events": None}
    assert words.describe_event(others) == "Bo draws 2 event cards."
    assert words.describe_event({**others, "count": 1}) == "Bo draws 1 event card."
    for seed in range(10):
        for event in random_game(seed).visible_events(2):
            if event["type"] == "drew_events" and event["seat"] != 2:
                assert words.describe_event(event) == (
                    f"{NAMES[event['seat']]} draws {event['count']} event card"
                    + ("s." if event["count"] == 2 else ".")
                )


def test_the_round_result_breaks_points_down_by_stock() -> None:
    state = random_game(3)
    words = narrator("en")
    view = state.view(None)
    events = [e for e in state.visible_events(None) if e["type"] == "round_score"]
    totals = [0, 0, 0]
    for event in events:
        result = words.round_result(view, event)
        assert result is not None
        assert result.shares is not None and result.prices is not None
        assert result.round == event["round"]
        assert result.reason in words.reasons.values()
        for q in range(3):
            parts = [result.shares[q][s] * result.prices[s] for s in range(C.NUM_STOCKS)]
            assert sum(parts) == result.points[q] == event["scores"][q]
            totals[q] += result.points[q]
        assert list(result.totals) == totals
    assert words.round_result(view, {"type": "draw"}) is None


@pytest.mark.parametrize("lang", list(LANGS))
def test_the_final_result_adds_up_by_round_and_by_stock(lang: str) -> None:
    state = random_game(5)
    words = narrator(lang)
    view = state.view(None)
    partial = words.final_result(view)
    assert partial.by_stock is None  # no round's scoring was read yet
    for event in state.visible_events(None):
        words.describe_event(event)
    result = words.final_result(view)
    assert list(result.scores) == state.scores()
    assert list(result.winners) == state.winners()
    assert [sum(rs[q] for rs in result.by_round) for q in range(3)] == state.scores()
    assert result.by_stock is not None
    assert [sum(points) for points in result.by_stock] == state.scores()
    assert all(NAMES[q] in result.verdict for q in result.winners)


def test_the_vocabulary_names_every_card_stock_and_event() -> None:
    en = narrator("en").vocabulary()
    zh = narrator("zh-Hant").vocabulary()
    assert en["stocks"] == ["Corn", "Gem", "Oil", "Tech", "Movie"]
    assert zh["stocks"] == ["玉米", "寶石", "油", "科技", "電影"]
    assert len(en["cards"]) == C.NUM_SHARE_CARDS and len(en["events"]) == C.NUM_EVENT_KINDS
    assert en["cards"][0] == f"Corn {C.card_value(0)}"


def test_a_narrator_refuses_another_games_view() -> None:
    other = closingbell.load_game("card_stock_market", players=3).new_game(1)
    with pytest.raises(TypeError):
        narrator("en").prompt(other.view(0))
