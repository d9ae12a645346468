"""Card Stock Market games played by random bots, for the narrator's and the screen's tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from closingbell.bots import make_bot
from closingbell.core.game import State
from closingbell.core.registry import load_game
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.text.card_stock_market import CardStockMarketNarrator
from closingbell.text.i18n import LANGS

NAMES = ("Alice", "Boris", "Chen", "Dana", "Emeka", "Farid")
LANG_IDS = list(LANGS)
PLAYER_COUNTS = (2, 4)
SEEDS = (1, 7)
CASES = [
    pytest.param(lang, players, id=f"{lang}-{players}p")
    for lang in LANG_IDS
    for players in PLAYER_COUNTS
]


@dataclass
class Playthrough:
    """One game played to the end by random bots: every decision's view and the end."""

    game: CardStockMarket
    views: list[CardStockMarketView] = field(default_factory=list)
    """The deciding seat's view before each action."""
    states: list[State] = field(default_factory=list)
    """A copy of the state at each of those decisions (to look at the hidden hands)."""
    final: State | None = None


@cache
def playthrough(players: int, seed: int, **options: Any) -> Playthrough:
    """A whole game of random bots (cached: several tests read the same games)."""
    game = load_game("card_stock_market", players=players, **options)
    assert isinstance(game, CardStockMarket)
    bots = [make_bot("random", game, seed=seed * 10 + q) for q in range(players)]
    state = game.new_game(seed)
    out = Playthrough(game)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        out.views.append(view)
        out.states.append(state.clone())
        state.apply(bots[seat].choose(view))
    out.final = state
    return out


def levy_game() -> Playthrough:
    """A two-player game with a bank of no money of its own: it levies, a debt is shown at a
    decision, and it is repaid."""
    options = {"bank_money": 0, "starting_money": 100}
    for seed in range(40):
        play = playthrough(2, seed, **options)
        assert play.final is not None
        kinds = {e["type"] for e in play.final.visible_events(None)}
        # A debt that lasts until a decision, so that a screen shows it.
        if {"levy", "repay"} <= kinds and any(any(v.debts) for v in play.views):
            return play
    pytest.fail("no random game with a levy and a repayment")


def make_narrator(game: CardStockMarket, lang: str) -> CardStockMarketNarrator:
    return CardStockMarketNarrator(game, NAMES[: game.options.players], lang)


def sampled(items: list[Any], every: int) -> list[Any]:
    """Every ``every``-th item and the last (rendering every decision is not needed)."""
    return items[::every] + items[-1:]


def assert_words(text: str | None) -> None:
    assert isinstance(text, str) and text.strip(), text
    assert "{" not in text and "}" not in text, f"unfilled placeholder in {text!r}"
