"""Speed of the expert's paired search on Take Stock: Python, compiled through views, all in C.

Usage: ``python benchmarks/bench_search_take_stock.py [ROUNDS] [WORLDS]`` (default 5 rounds
of 12 views, 16 worlds a decision). Figures only, never asserted.

Three ways of running the same search (``ISMCTSBot`` with ``STRONG``, the same seed, an
iteration budget, on the deciding seat's view of positions from
``closingbell.sim.bench.sample_positions``), which make the same choices:

- ``reference``: the Python rules and the Python rule-based bot (``engine="reference"``);
- ``views``: the compiled engine and bot, but worlds dealt by the Python sampler and each
  play-out decision made through a view object (the compiled sampler and play-out set
  aside: the search as it was before them);
- ``compiled``: worlds dealt and played out in C (``engine="native"``).

Each figure is the best of ROUNDS rounds, the three taking turns within a round. Then, for
the compiled search: the cost of one play-out decision (the compiled play-out against the
Python loop over views), and where a world's time goes.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

import closingbell
from closingbell.bots.ismcts import STRONG, ISMCTSBot, _horizon_stop
from closingbell.bots.take_stock import TakeStockHeuristic
from closingbell.games.take_stock.game import TakeStock
from closingbell.games.take_stock.views import TakeStockView
from closingbell.native import _take_stock as T
from closingbell.native import _take_stock_bot as B
from closingbell.sim.bench import sample_positions, time_clone

WAYS = ("reference", "views", "compiled")


def _game(players: int) -> TakeStock:
    game = closingbell.load_game("take_stock", players=players)
    assert isinstance(game, TakeStock)
    return game


def decision_views(game: TakeStock, count: int) -> list[TakeStockView]:
    """The deciding seat's view at ``count`` positions with a choice."""
    states = [s for s in sample_positions(game, 4 * count, seed=7) if len(s.legal_actions()) > 1]
    views = [s.view(s.current_player) for s in states[:count]]
    return [v for v in views if isinstance(v, TakeStockView)]


def searcher(game: TakeStock, way: str, worlds: int) -> ISMCTSBot:
    """The expert search run ``way``."""
    engine = "reference" if way == "reference" else "native"
    bot = ISMCTSBot(game, 3, engine=engine, **{**STRONG, "iterations": worlds})
    if way == "views":
        bot.worlds.sampler = None
        bot.worlds.playout = None
    return bot


def search_all(bot: ISMCTSBot, views: list[TakeStockView]) -> tuple[int, float, list[int]]:
    """Worlds searched, seconds and choices over ``views``."""
    worlds = 0
    choices = []
    start = time.perf_counter()
    for view in views:
        choices.append(bot.choose(view))
        worlds += bot.last_iterations
    return worlds, time.perf_counter() - start, choices


def worlds_per_second(rounds: int, worlds: int, views_per: int) -> None:
    print(f"paired search (STRONG, {worlds} worlds a decision at most, {views_per} decisions):")
    print(
        f"  {'seats':5s} "
        + " ".join(f"{w:>12s}" for w in WAYS)
        + "   compiled / reference, / views"
    )
    for players in (2, 3, 4):
        game = _game(players)
        views = decision_views(game, views_per)
        best: dict[str, float] = {}
        choices: dict[str, list[int]] = {}
        for _ in range(rounds):
            for way in WAYS:
                count, seconds, picked = search_all(searcher(game, way, worlds), views)
                best[way] = max(best.get(way, 0.0), count / seconds)
                choices[way] = picked
        same = choices["reference"] == choices["views"] == choices["compiled"]
        print(
            f"  {players:5d} "
            + " ".join(f"{best[w]:8.0f} w/s" for w in WAYS)
            + f"   {best['compiled'] / best['reference']:5.1f}x, "
            f"{best['compiled'] / best['views']:4.1f}x"
            f"   same choices: {same}"
        )


def _worlds_of(
    game: TakeStock, views: list[TakeStockView], per_view: int
) -> list[tuple[T.State, int]]:
    """Sampled worlds and the round each play-out stops at the end of."""
    rng = random.Random(1)
    out = []
    for view in views:
        for _ in range(per_view):
            world = T.sample_state(game, view, rng)
            out.append((world, world.round))
    return out


def per_decision(rounds: int, players: int = 3) -> None:
    game = _game(players)
    worlds = _worlds_of(game, decision_views(game, 12), 20)
    procedure = TakeStockHeuristic(game).compiled_procedure()
    assert procedure is not None
    policies = [TakeStockHeuristic(game, q) for q in range(players)]

    def compiled(world: T.State, horizon: int) -> int:
        return B.playout(procedure, world, 30, horizon)

    def through_views(world: T.State, horizon: int) -> int:
        stop = _horizon_stop(horizon)
        steps = 0
        while not world.is_terminal() and not stop(world) and steps < 30:
            mover = world.current_player
            assert mover is not None
            world.apply(policies[mover].choose(world.view(mover)))
            steps += 1
        return steps

    best: dict[str, float] = {}
    for _ in range(rounds):
        for name, play in (("compiled", compiled), ("views", through_views)):
            copies = [(w.clone(), h) for w, h in worlds]
            start = time.perf_counter()
            steps = sum(play(w, h) for w, h in copies)
            seconds = time.perf_counter() - start
            best[name] = min(best.get(name, float("inf")), seconds / steps * 1e6)
    print(f"play-out decision, {players} seats ({steps} decisions a round):")
    print(f"  compiled play-out: {best['compiled']:.2f} us; Python loop over views with the")
    print(f"  compiled bot: {best['views']:.2f} us ({best['views'] / best['compiled']:.1f}x)")


def _timed(parts: dict[str, float], name: str, work: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        start = time.perf_counter()
        try:
            return work(*args)
        finally:
            parts[name] += time.perf_counter() - start

    return run


def breakdown(rounds: int, worlds: int, players: int = 3) -> None:
    game = _game(players)
    views = decision_views(game, 12)
    best: tuple[float, dict[str, float], int] | None = None
    for _ in range(rounds):
        bot = searcher(game, "compiled", worlds)
        parts = dict.fromkeys(("deal", "play-out", "evaluation"), 0.0)
        sampler = bot.worlds.sampler
        playout = bot.worlds.playout
        assert sampler is not None and playout is not None
        bot.worlds.sampler = _timed(parts, "deal", sampler)
        bot.worlds.playout = _timed(parts, "play-out", playout)
        bot.evaluate = _timed(parts, "evaluation", bot.evaluate)
        count, seconds, _ = search_all(bot, views)
        if best is None or seconds / count < best[0] / best[2]:
            best = (seconds, parts, count)
    assert best is not None
    seconds, parts, count = best
    print(f"where a world's time goes, compiled search, {players} seats ({count} worlds):")
    print(f"  {seconds / count * 1e6:.1f} us a world (with the timers' own cost)")
    rest = seconds - sum(parts.values())
    for name, spent in (*parts.items(), ("the rest (clones, tree, rewards...)", rest)):
        print(f"  {name:36s} {spent / count * 1e6:7.1f} us  {spent / seconds:4.0%}")
    clones = [w for w, _ in _worlds_of(game, views, 5)]
    print(f"  (of the rest: a clone costs {time_clone(clones):.2f} us, two a world)")


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 5
    worlds = int(argv[1]) if len(argv) > 1 else 16
    worlds_per_second(rounds, worlds, 12)
    per_decision(rounds)
    breakdown(rounds, worlds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
