"""The search makes the same choices, with the same numbers, on every engine."""

from __future__ import annotations

import pickle
import random

import pytest

import closingbell
from closingbell import native
from closingbell.bots.ismcts import STRONG, ISMCTSBot
from closingbell.core.view import View
from closingbell.games.take_stock.game import TakeStock

SETTINGS = [
    pytest.param({**STRONG, "iterations": 6}, id="strong"),
    pytest.param(
        {"iterations": 25, "playout": "heuristic", "playout_epsilon": 0.0, "max_playout": 12},
        id="tree-heuristic-playouts",
    ),
    pytest.param({"iterations": 25, "max_playout": 40}, id="random-playouts"),
    pytest.param({**STRONG, "iterations": 5, "playout_epsilon": 0.2}, id="strong-epsilon"),
]


def _views(
    name: str, players: int, count: int, seed: int, options: dict[str, object] | None = None
) -> list[View]:
    """Views of the deciding seat at states spread over random games, several choices each."""
    game = closingbell.load_game(name, players=players, **(options or {}))
    rng = random.Random(f"engines/{name}/{players}/{seed}")
    views: list[View] = []
    deal = 0
    while len(views) < count:
        state = game.new_game(seed * 100 + deal)
        deal += 1
        while not state.is_terminal() and len(views) < count:
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.04:
                views.append(state.view(state.current_player))
            state.apply(rng.choice(legal))
    return views


def _search(
    engine: str,
    name: str,
    players: int,
    settings: dict[str, object],
    view: View,
    *,
    seed: int = 17,
    options: dict[str, object] | None = None,
):
    game = closingbell.load_game(name, players=players, **(options or {}))
    bot = ISMCTSBot(game, seed, engine=engine, **settings)  # type: ignore[arg-type]
    action = bot.choose(view)
    paired = bot.paired.results if bot.paired is not None else None
    return action, bot.last_iterations, bot.last_stats, paired


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize(
    ("name", "players"), [("take_stock", 2), ("take_stock", 4), ("card_stock_market", 3)]
)
def test_every_engine_searches_alike(name: str, players: int, settings: dict[str, object]) -> None:
    for view in _views(name, players, 4, seed=players):
        reference = _search("reference", name, players, settings, view)
        assert _search("auto", name, players, settings, view) == reference
        if native.available(name):
            assert _search("native", name, players, settings, view) == reference


TAKE_STOCK_SETTINGS = [
    {**STRONG, "iterations": 12},
    {**STRONG, "iterations": 40, "settle": None},
    {**STRONG, "iterations": 9, "depth": 2, "max_playout": 8},
    {"iterations": 30, "playout": "heuristic", "playout_epsilon": 0.0, "widening": 0.5},
    # Play-outs long enough to reach the end of the round every time.
    {
        "iterations": 15,
        "playout": "heuristic",
        "playout_epsilon": 0.0,
        "candidates": 2,
        "max_playout": 500,
    },
]
"""Settings with heuristic play-outs and no random moves: the compiled play-out plays them."""

TAKE_STOCK_OPTIONS: list[dict[str, object]] = [
    {},
    {"frozen_scoring": "zero", "insider_order": "take_first", "rounds": 2},
    {"limit_counts_freeze": True, "shares_table": (1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2)},
]


def _refused(game: TakeStock, view: View, rng: random.Random) -> None:
    raise AssertionError("a world of the compiled search was dealt by the reference")


@pytest.mark.skipif(not native.available("take_stock"), reason="the compiled engine is not built")
@pytest.mark.parametrize("players", range(2, 7))
def test_the_compiled_take_stock_search_makes_the_references_choices(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = 0
    for i, settings in enumerate(TAKE_STOCK_SETTINGS):
        options = TAKE_STOCK_OPTIONS[(players + i) % len(TAKE_STOCK_OPTIONS)]
        game = closingbell.load_game("take_stock", players=players, **options)
        bot = ISMCTSBot(game, 1, engine="native", **settings)  # type: ignore[arg-type]
        assert bot.worlds.playout is not None and bot.worlds.sampler is not None
        for seed, view in enumerate(_views("take_stock", players, 4, 10 * players + i, options)):
            args = ("take_stock", players, settings, view)
            expected = _search("reference", *args, seed=seed, options=options)
            with monkeypatch.context() as patch:
                # Every world of the compiled search is dealt in C, none by the reference.
                patch.setattr(TakeStock, "sample_state", _refused)
                assert _search("native", *args, seed=seed, options=options) == expected
            compared += 1
    assert compared == 4 * len(TAKE_STOCK_SETTINGS)


def test_the_engine_is_checked_and_described() -> None:
    game = closingbell.load_game("take_stock", players=3)
    with pytest.raises(ValueError, match="engine must be one of auto, native, reference"):
        ISMCTSBot(game, 1, engine="fast")
    assert ISMCTSBot(game, 1, engine="reference").describe()["engine"] == "reference"


@pytest.mark.parametrize("name", ["take_stock", "card_stock_market"])
def test_a_pickled_search_finds_its_engine_again(name: str) -> None:
    game = closingbell.load_game(name, players=3)
    view = _views(name, 3, 1, seed=5)[0]
    bot = ISMCTSBot(game, 4, **{**STRONG, "iterations": 4})
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.worlds.compiled is bot.worlds.compiled
    assert (copy.worlds.playout is None) == (bot.worlds.playout is None)
    assert copy.choose(view) == bot.choose(view)
    assert copy.last_stats == bot.last_stats


CARD_STOCK_MARKET_SETTINGS = [
    pytest.param({**STRONG, "iterations": 4}, id="strong-4"),
    pytest.param({**STRONG, "iterations": 11}, id="strong-11-settles"),
    pytest.param({**STRONG, "iterations": 5, "candidates": 2, "depth": 2}, id="paired-deeper"),
    pytest.param(
        {"iterations": 9, "playout": "heuristic", "playout_epsilon": 0.0, "max_playout": 60},
        id="tree-heuristic-playouts",
    ),
]


@pytest.mark.parametrize("settings", CARD_STOCK_MARKET_SETTINGS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_card_stock_market_searches_alike_on_compiled_worlds_and_play_outs(
    players: int, settings: dict[str, object]
) -> None:
    # The compiled engine deals the worlds and plays them out without views; every
    # number of the search must still be the reference's.
    name = "card_stock_market"
    game = closingbell.load_game(name, players=players)
    worlds = ISMCTSBot(game, 1, engine="native", **settings).worlds  # type: ignore[arg-type]
    assert worlds.sampler is not None and worlds.playout is not None
    for seed in (players, 10 + players):
        for view in _views(name, players, 2, seed=seed):
            reference = _search("reference", name, players, settings, view)
            assert _search("native", name, players, settings, view) == reference


def test_a_pickled_search_deals_and_plays_out_in_compiled_code_as_before() -> None:
    # The web server sends searching bots to helper processes.
    game = closingbell.load_game("card_stock_market", players=4)
    view = _views("card_stock_market", 4, 1, seed=3)[0]
    bot = ISMCTSBot(game, 5, engine="native", **{**STRONG, "iterations": 6})
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.worlds.sampler is not None and copy.worlds.playout is not None
    assert copy.choose(view) == bot.choose(view)
    assert copy.last_stats == bot.last_stats and copy.last_iterations == bot.last_iterations


@pytest.mark.parametrize("name", ["take_stock", "card_stock_market"])
def test_a_search_travels_back_from_a_helper_after_it_chose(name: str) -> None:
    # The server's helper process returns the bot with its last search, compiled statistics
    # included, and the bot's next choice is the one it would have made without the trip.
    game = closingbell.load_game(name, players=3)
    first, second = _views(name, 3, 2, seed=8)
    bot = ISMCTSBot(game, 6, engine="native", **{**STRONG, "iterations": 8})
    bot.choose(first)
    assert bot.paired is not None and bot.paired.stats is not None
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.paired.stats.rewards_of_worlds() == bot.paired.stats.rewards_of_worlds()
    assert copy.choose(second) == bot.choose(second)
    assert copy.last_stats == bot.last_stats
