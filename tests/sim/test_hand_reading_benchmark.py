"""``benchmarks/hand_reading.py``: an opponent's plays weigh the worlds by its true hand."""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType
from typing import Any

import pytest

import closingbell
from closingbell import native
from closingbell.bots import HeuristicBot, make_bot
from closingbell.games.card_stock_market.actions import (
    BANKRUPT,
    BUY,
    DISCARD,
    DONE,
    MARKET,
    SELL,
    bankrupt_action,
    hand_card,
)
from tests import benchmarks


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return benchmarks.load("hand_reading")


def test_hand_card_names_the_card_each_action_takes_from_the_hand() -> None:
    assert [hand_card(BUY + 7), hand_card(MARKET + 7), hand_card(DISCARD + 7)] == [7, 7, 7]
    assert hand_card(bankrupt_action(12)) == 12  # the king of the first suit
    assert hand_card(SELL + 7) is None and hand_card(DONE) is None
    assert all(hand_card(a) is not None for a in range(BANKRUPT, DISCARD))


def _turns(players: int, seed: int) -> list[tuple[Any, int, list[int], Any]]:
    """Every whole turn of a game of ``hard`` bots: the state as it began, the seat, its
    plays, and the state after them."""
    game = closingbell.load_game("card_stock_market", players=players)
    bots = [make_bot("hard", game, seed=q) for q in range(players)]
    state = native.new_game(game, seed, "reference")
    turns: list[tuple[Any, int, list[int], Any]] = []
    while not state.is_terminal():
        seat = state.current_player
        start, plays = state.clone(), []
        while not state.is_terminal() and state.current_player == seat:
            plays.append(bots[seat].choose(state.view(seat)))
            state.apply(plays[-1])
        turns.append((start, seat, plays, state.clone()))
    return turns


def test_the_true_hand_is_the_likeliest_and_a_hand_without_a_played_card_is_ruled_out(
    bench: ModuleType,
) -> None:
    game = closingbell.load_game("card_stock_market", players=4)
    model = make_bot("hard", game, seed=0, engine="reference")
    assert isinstance(model, HeuristicBot)
    epsilon = 0.1
    checked = 0
    for start, seat, plays, _ in _turns(4, 11)[4:40]:
        if start.phase != 0 or start.reshuffled:
            continue
        # The model is how the seat plays: each of its plays counts 1 - epsilon.
        chance = bench.likelihood(start, seat, plays, model, epsilon)
        assert chance >= (1 - epsilon) ** len(plays) * 0.999
        played = [c for a in plays if (c := hand_card(a)) is not None]
        if not played:
            continue
        # Swap every copy of a played card out of the hand: the turn could not be played.
        hand = Counter(start.hands[seat])
        copies = hand.pop(played[0])
        others = [c for q in range(4) if q != seat for c in start.hands[q] if c not in hand]
        others = [c for c in dict.fromkeys(others) if c != played[0]][:copies]
        if len(others) < copies:
            continue
        hand.update(others)
        changed = bench.with_hand(start, seat, +hand, seat)
        assert changed is not None and Counter(changed.hands[seat]) == +hand
        hidden = [*changed.draw, *(c for h in changed.hands for c in h)]
        assert sorted(hidden) == sorted([*start.draw, *(c for h in start.hands for c in h)])
        assert bench.likelihood(changed, seat, plays, model, epsilon) == 0.0
        checked += 1
    assert checked >= 5


def test_the_hand_at_a_turns_start_is_rebuilt_from_the_plays_and_the_hand_now(
    bench: ModuleType,
) -> None:
    checked = 0
    for start, seat, plays, after in _turns(3, 12)[3:30]:
        played = [c for a in plays if (c := hand_card(a)) is not None]
        if start.reshuffled or after.reshuffled or len(after.hands[seat]) < len(played):
            continue
        drawn = Counter(after.hands[seat]) - (Counter(start.hands[seat]) - Counter(played))
        if sum(drawn.values()) != len(played):
            continue  # the turn drew more or fewer cards than it played
        rebuilt = bench.start_hands(after, seat, played, random.Random(0))
        assert sum(rebuilt.values()) == len(start.hands[seat])
        assert Counter(played) <= rebuilt  # the cards played were in the hand
        checked += 1
    assert checked >= 5
