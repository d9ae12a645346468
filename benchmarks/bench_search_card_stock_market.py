"""Print how fast the expert's paired search runs on Card Stock Market, engine by engine.

Usage: ``python benchmarks/bench_search_card_stock_market.py [ROUNDS]`` (default 3).
Figures only, never asserted. Each figure is the best of ROUNDS rounds, the engines taking
turns within a round on the same work:

- worlds per second of the paired search (``ismcts.STRONG`` with a budget of
  ``ITERATIONS`` worlds) at 2, 3 and 4 seats, from the deciding seat's views of states
  taken by ``closingbell.sim.bench.sample_positions``, with three engines: ``reference``
  (the Python rules and bot, the search as it was first written), ``views`` (the compiled
  engine and bot, each play-out decision through a view and the worlds dealt by the
  reference sampler: the search before the compiled worlds) and ``native`` (worlds dealt
  and played out in compiled code); and whether all three searched alike;
- the cost of one play-out decision and of dealing one world, engine by engine;
- where the time of a ``native`` search goes: dealing, playing out, and the rest (the
  tree, scoring the ends, the paired statistics).
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench_card_stock_market_bot import _best  # the benchmarks' folder is on the path

import closingbell
from closingbell.bots.card_stock_market import CardStockMarketHeuristic
from closingbell.bots.ismcts import STRONG, ISMCTSBot
from closingbell.core.game import State
from closingbell.core.view import View
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.native import _card_stock_market, _card_stock_market_bot
from closingbell.sim.bench import sample_positions

PLAYERS = (2, 3, 4)
POSITIONS = 10
"""States taken per player count; those with a choice to make are searched."""
ITERATIONS = 16
"""The search's budget of worlds per decision (it may settle sooner, alike on every engine)."""
SEARCHES = ("reference", "views", "native")
PLAYOUT_WORLDS = 60
"""Worlds played out to time a decision (a tenth of them with the reference)."""
MAX_PLAYOUT = STRONG["max_playout"]


def _game(players: int) -> CardStockMarket:
    game = closingbell.load_game("card_stock_market", players=players)
    assert isinstance(game, CardStockMarket)
    return game


def _views(game: CardStockMarket) -> list[View]:
    views = []
    for state in sample_positions(game, POSITIONS, seed=1):
        seat = state.current_player
        if seat is not None and len(state.legal_actions()) > 1:
            views.append(state.view(seat))
    return views


def _searcher(game: CardStockMarket, kind: str) -> ISMCTSBot:
    bot = ISMCTSBot(
        game,
        5,
        engine="reference" if kind == "reference" else "native",
        **{**STRONG, "iterations": ITERATIONS},
    )
    if kind == "views":
        bot.worlds.sampler = None
        bot.worlds.playout = None
    return bot


def _search(
    game: CardStockMarket, views: Sequence[View], kind: str, results: dict[str, list[Any]]
) -> Callable[[], float]:
    """Seconds per world of searching every view; the search's numbers go to ``results``."""

    def run() -> float:
        bot = _searcher(game, kind)
        found = []
        worlds = 0
        start = time.perf_counter()
        for view in views:
            action = bot.choose(view)
            assert bot.paired is not None
            found.append((action, bot.last_iterations, bot.last_stats, bot.paired.results))
            worlds += bot.last_iterations
        spent = time.perf_counter() - start
        results[kind] = found
        return spent / worlds

    return run


def _worlds(game: CardStockMarket, views: Sequence[View]) -> list[State]:
    rng = random.Random(2)
    count = PLAYOUT_WORLDS
    return [_card_stock_market.sample_state(game, views[i % len(views)], rng) for i in range(count)]


def _per_decision(game: CardStockMarket, worlds: Sequence[State], kind: str) -> Callable[[], float]:
    """Microseconds per play-out decision over copies of ``worlds``."""
    n = game.options.players
    bots = [
        CardStockMarketHeuristic(game, q, engine="reference" if kind == "reference" else "native")
        for q in range(n)
    ]
    procedure = bots[0].compiled_procedure()
    if kind == "reference":
        worlds = [w.to_reference() for w in worlds[: max(1, len(worlds) // 10)]]

    def run() -> float:
        copies = [w.clone() for w in worlds]
        steps = 0
        start = time.perf_counter()
        for world in copies:
            if kind == "native":
                steps += _card_stock_market_bot.playout(procedure, world, MAX_PLAYOUT, -1)
                continue
            done = 0
            while not world.is_terminal() and done < MAX_PLAYOUT:
                mover = world.current_player
                assert mover is not None
                world.apply(bots[mover].choose(world.view(mover)))
                done += 1
            steps += done
        return (time.perf_counter() - start) / steps * 1e6

    return run


def _per_world(game: CardStockMarket, views: Sequence[View], kind: str) -> Callable[[], float]:
    """Microseconds per world dealt from ``views``."""
    repeat = 20 if kind == "native" else 2

    def run() -> float:
        rng = random.Random(3)
        start = time.perf_counter()
        for _ in range(repeat):
            for view in views:
                if kind == "native":
                    _card_stock_market.sample_state(game, view, rng)
                else:
                    game.sample_state(view, rng)
        return (time.perf_counter() - start) / (repeat * len(views)) * 1e6

    return run


def _shares(game: CardStockMarket, views: Sequence[View]) -> dict[str, float]:
    """Where a native search's time goes: shares of dealing, playing out and the rest."""
    bot = _searcher(game, "native")
    worlds = bot.worlds
    spent = {"dealing": 0.0, "playing out": 0.0}
    sample, playout = worlds.sample, worlds.playout
    assert playout is not None
    clock = time.perf_counter

    def timed_sample(view: View, rng: Any) -> State:
        start = clock()
        world = sample(view, rng)
        spent["dealing"] += clock() - start
        return world

    def timed_playout(world: State, max_steps: int, horizon: int) -> int:
        start = clock()
        steps = playout(world, max_steps, horizon)
        spent["playing out"] += clock() - start
        return steps

    worlds.sample = timed_sample  # type: ignore[method-assign]
    worlds.playout = timed_playout
    start = clock()
    for view in views:
        bot.choose(view)
    total = clock() - start
    shares = {name: value / total for name, value in spent.items()}
    shares["the rest"] = 1.0 - sum(shares.values())
    return shares


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 3
    print(
        f"closingbell {closingbell.__version__}, {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, one core, best of {rounds}"
    )
    print(
        f"paired search (STRONG, {ITERATIONS} worlds a decision at most), worlds/s; "
        f"per play-out decision (up to {MAX_PLAYOUT} a world) and per world dealt, us"
    )
    for players in PLAYERS:
        game = _game(players)
        views = _views(game)
        results: dict[str, list[Any]] = {}
        per_world = _best(rounds, {k: _search(game, views, k, results) for k in SEARCHES})
        alike = results["views"] == results["reference"] == results["native"]
        worlds = _worlds(game, views)
        decision = _best(rounds, {k: _per_decision(game, worlds, k) for k in SEARCHES})
        dealing = _best(rounds, {k: _per_world(game, views, k) for k in ("reference", "native")})
        shares = _shares(game, views)
        print(f"{players} seats, {len(views)} decisions searched, all engines alike: {alike}")
        for kind in SEARCHES:
            print(
                f"  {kind:9}  {1 / per_world[kind]:8.1f} worlds/s "
                f"({per_world['reference'] / per_world[kind]:5.1f}x)  "
                f"play-out decision {decision[kind]:7.2f} us"
            )
        print(
            f"  dealing a world: reference {dealing['reference']:.1f} us, "
            f"compiled {dealing['native']:.2f} us"
        )
        print(
            "  a native search's time: "
            + ", ".join(f"{name} {share:.0%}" for name, share in shares.items())
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
