"""Speed of the rule-based Take Stock bot: the Python reference against the compiled bot.

Usage: ``python benchmarks/bench_take_stock_bot.py [ROUNDS] [--expert]`` (default 5 rounds;
``--expert`` also times the paired search). Figures only, never asserted. Each figure is
the best of ROUNDS rounds, the engines taking turns within a round on the same work:

- per decision: ``pick`` and ``evaluate`` on the views of real 3-seat games (rule-based
  self-play), both over the whole stored list (the views cold in memory) and view by view
  (each view used just before, as in a game, where it was built a moment earlier), and
  how much of the compiled cost is reading the view object;
- games per second of 3-seat rule-based self-play, the bots getting views built by the
  reference engine (``state.view(seat)``), and where the time of the compiled run goes;
- with ``--expert``: worlds per second of the paired search (``STRONG``, a fixed number of
  worlds per decision) with play-outs by either bot through views, and whether both chose
  the same (``bench_search_take_stock.py`` times the search played out in C).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import closingbell
from closingbell.bots.ismcts import STRONG, ISMCTSBot
from closingbell.bots.take_stock import TakeStockHeuristic
from closingbell.games.take_stock.game import TakeStock
from closingbell.games.take_stock.views import TakeStockView
from closingbell.native import _take_stock_bot

ENGINES = ("reference", "native")


def _game(players: int = 3) -> TakeStock:
    game = closingbell.load_game("take_stock", players=players)
    assert isinstance(game, TakeStock)
    return game


def decision_views(game: TakeStock, games: int) -> list[TakeStockView]:
    """The views of every decision with a choice in ``games`` rule-based self-play games."""
    bot = TakeStockHeuristic(game)
    views = []
    for seed in range(games):
        state = game.new_game(seed)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            assert isinstance(view, TakeStockView)
            if len(view.legal_actions) > 1:
                views.append(view)
            state.apply(bot.choose(view))
    return views


def _per_view(work: Callable[[TakeStockView], object], views: list[TakeStockView]) -> float:
    """Microseconds per view, over the whole list."""
    start = time.perf_counter()
    for view in views:
        work(view)
    return (time.perf_counter() - start) / len(views) * 1e6


def _hot(work: Callable[[TakeStockView], object], views: list[TakeStockView]) -> float:
    """Microseconds per view, each view timed on its own once it is in the cache."""
    total = 0.0
    for view in views:
        work(view)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(5):
                work(view)
            best = min(best, (time.perf_counter() - start) / 5)
        total += best
    return total / len(views) * 1e6


def per_decision(rounds: int) -> None:
    game = _game()
    views = decision_views(game, 30)
    bots = {e: TakeStockHeuristic(game, engine=e) for e in ENGINES}
    works: dict[str, Callable[[TakeStockView], object]] = {
        "reference pick": lambda v: bots["reference"].pick(v, v.legal_actions),
        "compiled pick": lambda v: bots["native"].pick(v, v.legal_actions),
        "compiled reading": _take_stock_bot.read_view,
        "reference evaluate": bots["reference"].evaluate,
        "compiled evaluate": bots["native"].evaluate,
    }
    sample = views[::10]
    cold: dict[str, float] = {}
    hot: dict[str, float] = {}
    for _ in range(rounds):
        for name, work in works.items():
            cold[name] = min(cold.get(name, float("inf")), _per_view(work, views))
            hot[name] = min(hot.get(name, float("inf")), _hot(work, sample))
    print(f"per decision, 3 seats: {len(views):,} views (view by view: {len(sample):,})")
    print(f"  {'':20s} {'whole list':>12s} {'view by view':>14s}")
    for name in works:
        print(f"  {name:20s} {cold[name]:9.2f} us {hot[name]:11.2f} us")
    for label, table in (("whole list", cold), ("view by view", hot)):
        pick = table["reference pick"] / table["compiled pick"]
        share = table["compiled reading"] / table["compiled pick"]
        print(
            f"  {label}: compiled pick {pick:.1f}x faster; reading the view is "
            f"{share:.0%} of the compiled pick"
        )


def _self_play(game: TakeStock, engine: str, seeds: range) -> tuple[float, dict[str, float]]:
    """Seconds for the games of ``seeds``, and the seconds spent in views, choices, apply."""
    parts = {"view": 0.0, "choose": 0.0, "apply": 0.0}
    clock = time.perf_counter
    start = clock()
    for seed in seeds:
        bots = [TakeStockHeuristic(game, seed * 10 + q, engine=engine) for q in range(3)]
        state = game.new_game(seed)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            t0 = clock()
            view = state.view(seat)
            t1 = clock()
            action = bots[seat].choose(view)
            t2 = clock()
            state.apply(action)
            t3 = clock()
            parts["view"] += t1 - t0
            parts["choose"] += t2 - t1
            parts["apply"] += t3 - t2
    return clock() - start, parts


def simulation(rounds: int, games: int = 20) -> None:
    game = _game()
    seeds = range(1000, 1000 + games)
    best: dict[str, tuple[float, dict[str, float]]] = {}
    for _ in range(rounds):
        for engine in ENGINES:
            seconds, parts = _self_play(game, engine, seeds)
            if engine not in best or seconds < best[engine][0]:
                best[engine] = (seconds, parts)
    print(f"3-seat rule-based self-play, {games} games a round, views by the reference engine:")
    for engine in ENGINES:
        seconds, parts = best[engine]
        split = ", ".join(f"{k} {v / seconds:.0%}" for k, v in parts.items())
        print(f"  {engine:9s}: {games / seconds:6.1f} games/s ({split})")
    speedup = best["reference"][0] / best["native"][0]
    print(f"  compiled: {speedup:.1f}x the games per second")


def expert(rounds: int, worlds: int = 12, decisions: int = 12) -> None:
    game = _game()
    views = decision_views(game, 2)[:: max(1, len(decision_views(game, 2)) // decisions)]
    settings = {**STRONG, "iterations": worlds, "settle": None}
    best: dict[str, float] = {}
    choices: dict[str, list[int]] = {}
    for _ in range(rounds):
        for engine in ENGINES:
            bot = ISMCTSBot(game, seed=3, **settings)
            # The same play-out and ranking bots (same seeds), on the engine being timed.
            bot.policies = [TakeStockHeuristic(game, 3 * 7919 + q, engine=engine) for q in range(3)]
            bot.ranker = TakeStockHeuristic(game, 3, engine=engine)
            # Every play-out decision goes to those bots through a view (the search's own
            # compiled play-out, timed by bench_search_take_stock.py, would skip them).
            bot.worlds.playout = None
            start = time.perf_counter()
            picked = [bot.choose(v) for v in views]
            seconds = time.perf_counter() - start
            best[engine] = min(best.get(engine, float("inf")), seconds)
            choices[engine] = picked
    searched = worlds * len(views)
    print(f"paired search (STRONG, {worlds} worlds a decision, {len(views)} decisions):")
    for engine in ENGINES:
        print(f"  {engine:9s}: {searched / best[engine]:6.1f} worlds/s")
    print(
        f"  compiled: {best['reference'] / best['native']:.1f}x the worlds per second; "
        f"same choices: {choices['reference'] == choices['native']}"
    )


def main(argv: list[str]) -> int:
    flags = {a for a in argv if a.startswith("--")}
    numbers = [a for a in argv if not a.startswith("--")]
    rounds = int(numbers[0]) if numbers else 5
    per_decision(rounds)
    simulation(rounds)
    if "--expert" in flags:
        expert(max(1, rounds // 2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
