"""Print what the compiled Card Stock Market rule-based bot saves, engine against engine.

Usage: ``python benchmarks/bench_card_stock_market_bot.py [ROUNDS]`` (default 5). On the
same views, taken from 3-seat rule-based games: the cost of ``pick`` with the Python
reference and with the compiled planner (and of the compiled planner's reading of the
view alone), then whole 3-seat games of rule-based self-play per second, then the
expert's paired search (``ismcts.STRONG``, a fixed number of worlds) per second. The two
engines run alternately in one process and the best round of each is kept, since the
machine may be shared. Figures only, never asserted; the choices are checked to agree.
"""

from __future__ import annotations

import platform
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import closingbell
from closingbell import native
from closingbell.bots import make_bot
from closingbell.bots.card_stock_market import CardStockMarketHeuristic
from closingbell.bots.ismcts import STRONG, ISMCTSBot
from closingbell.core.view import View
from closingbell.games.card_stock_market.game import CardStockMarket

ENGINES = ("reference", "native")
PLAYERS = 3
VIEW_GAMES = 20
"""Rule-based games whose decisions are the views timed."""
SELF_PLAY_GAMES = {"reference": 4, "native": 40}
"""Games per timed round of self-play (the compiled bot's rounds play more)."""
EXPERT_VIEWS = 12
EXPERT_WORLDS = 24
"""Decisions searched by the expert, and the worlds it deals for each."""


def _best(rounds: int, runs: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Each run's least figure over ``rounds`` rounds, the runs alternating."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = min(best[name], run())
    return best


def _views(game: CardStockMarket) -> tuple[list[View], float]:
    """The views of every decision with a choice in rule-based games, and their cost in us."""
    bots = [make_bot("heuristic", game, seed=q) for q in range(PLAYERS)]
    views: list[View] = []
    spent = 0.0
    for seed in range(VIEW_GAMES):
        state = game.new_game(seed)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            start = time.perf_counter()
            view = state.view(seat)
            spent += time.perf_counter() - start
            if len(view.legal_actions) > 1:
                views.append(view)
            state.apply(bots[seat].choose(view))
    return views, spent / len(views) * 1e6


def _per_call_us(call: Callable[[View], object], views: Sequence[View]) -> Callable[[], float]:
    def run() -> float:
        start = time.perf_counter()
        for view in views:
            call(view)
        return (time.perf_counter() - start) / len(views) * 1e6

    return run


def _self_play(
    game: CardStockMarket, engine: str, outcomes: dict[str, list[object]]
) -> Callable[[], float]:
    """Seconds per game of rule-based self-play, each bot given ``state.view(seat)``.

    The games' action lists go to ``outcomes[engine]``.
    """
    games = SELF_PLAY_GAMES[engine]

    def run() -> float:
        outcomes[engine] = []
        start = time.perf_counter()
        for seed in range(games):
            bots = [make_bot("heuristic", game, seed=q, engine=engine) for q in range(PLAYERS)]
            state = game.new_game(1000 + seed)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                state.apply(bots[seat].choose(state.view(seat)))
            outcomes[engine].append(state.history)
        return (time.perf_counter() - start) / games

    return run


@contextmanager
def _bots_built_with(engine: str) -> Iterator[None]:
    """Rule-based bots built meanwhile (the expert's play-out players) use ``engine``."""
    saved = dict(native.BOT_MODULES)
    if engine == "reference":
        native.BOT_MODULES.clear()
    try:
        yield
    finally:
        native.BOT_MODULES.update(saved)


def _expert(
    game: CardStockMarket,
    views: Sequence[View],
    engine: str,
    outcomes: dict[str, list[object]],
) -> Callable[[], float]:
    """Seconds per world of the paired search with a fixed budget of worlds.

    Its choices go to ``outcomes[engine]``.
    """
    picked = views[:: max(1, len(views) // EXPERT_VIEWS)][:EXPERT_VIEWS]
    settings = {**STRONG, "settle": None, "iterations": EXPERT_WORLDS}

    def run() -> float:
        with _bots_built_with(engine):
            bot = ISMCTSBot(game, 5, **settings)
        worlds = 0
        outcomes[engine] = []
        start = time.perf_counter()
        for view in picked:
            outcomes[engine].append(bot.choose(view))
            worlds += bot.last_iterations
        return (time.perf_counter() - start) / worlds

    return run


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 5
    print(
        f"closingbell {closingbell.__version__}, {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, one core, best of {rounds}"
    )
    game = closingbell.load_game("card_stock_market", players=PLAYERS)
    assert isinstance(game, CardStockMarket)
    views, view_us = _views(game)
    reference = CardStockMarketHeuristic(game, engine="reference")
    compiled = CardStockMarketHeuristic(game, engine="native")
    planner = compiled._compiled_planner()
    agree = all(
        reference.pick(v, v.legal_actions) == compiled.pick(v, v.legal_actions) for v in views
    )
    print(f"{len(views)} views of {VIEW_GAMES} games; the engines choose alike on all: {agree}")
    print(f"  building a view (state.view(seat)): {view_us:6.1f} us")
    cost = _best(
        rounds,
        {
            "reference": _per_call_us(lambda v: reference.pick(v, v.legal_actions), views),
            "native": _per_call_us(lambda v: compiled.pick(v, v.legal_actions), views),
            "read": _per_call_us(planner.read, views),
        },
    )
    print(f"  pick, reference:                    {cost['reference']:6.1f} us")
    print(
        f"  pick, compiled:                     {cost['native']:6.2f} us "
        f"({cost['reference'] / cost['native']:.0f}x), of which reading the view "
        f"{cost['read']:.2f} us"
    )
    games: dict[str, list[object]] = {}
    per_game = _best(max(2, rounds // 2), {e: _self_play(game, e, games) for e in ENGINES})
    alike = games["native"][: len(games["reference"])] == games["reference"]
    print(
        f"{PLAYERS}-seat rule-based self-play (views built by the reference engine), "
        f"the same games with either engine: {alike}"
    )
    for engine in ENGINES:
        print(f"  {engine:9}  {1 / per_game[engine]:7.1f} games/s")
    print(f"  speed-up   {per_game['reference'] / per_game['native']:7.1f}x")
    choices: dict[str, list[object]] = {}
    per_world = _best(2, {e: _expert(game, views, e, choices) for e in ENGINES})
    print(
        f"expert paired search ({EXPERT_WORLDS} worlds a decision, {EXPERT_VIEWS} decisions), "
        f"the same choices with either engine: {choices['native'] == choices['reference']}"
    )
    for engine in ENGINES:
        print(f"  {engine:9}  {1 / per_world[engine]:7.1f} worlds/s")
    print(f"  speed-up   {per_world['reference'] / per_world['native']:7.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
