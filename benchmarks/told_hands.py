"""Print what knowing every opponent's hand would be worth to a search bot: an upper bound.

Usage::

    python benchmarks/told_hands.py --game card_stock_market --players 6 --games 96 \\
        --seed 2026 --bot "expert:seconds=none:iterations=1224:candidates=8" --out DIR \\
        [--against FILE] [--workers W]

A search bot deals its possible worlds from its seat's view, where every opponent's hand is
as likely as any other. Here the search bot's worlds are dealt from the true state instead,
with only the order of the draw pile (and of Take Stock's event pile above Market Closed)
shuffled: the bot is told every hand, every saved event and every card set aside. No
player can play like this, and no bot of the project does; the figure shows how much of
the distance to winning every game lies in the hidden hands, and so what inferring them
could at most bring.

The games are the same deals and seat orders as ``benchmarks/bot_strength.py`` with the
same ``--seed`` and bots (the first bot against ``hard`` ones), kept in
``DIR/<game>-<players>p.csv`` (resumable). ``--against`` names that script's results file
for the bot as it plays, and prints the difference game by game: the margin and the wins.
Figures only, never asserted.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from pathlib import Path
from typing import Any

from bot_strength import seat_figures  # the benchmarks' folder is on the path

import closingbell
from closingbell import native, sim
from closingbell.bots.ismcts import ISMCTSBot
from closingbell.core.game import State
from closingbell.core.view import View
from closingbell.sim.play import play_to_end, result_of
from closingbell.sim.results import ResultsFile

HIDDEN_ORDERS = ("draw", "ev_above")
"""The piles whose order a told bot still does not know (those a game's state has)."""


def told_game(task: sim.GameTask) -> sim.GameResult:
    """Play ``task`` with its search bot dealing its worlds from the true state."""
    start = time.perf_counter()
    game = closingbell.load_game(task.game, players=len(task.bots), **json.loads(task.options))
    bots = [
        sim.parse_spec(text).make(game, seed, task.engine)
        for text, seed in zip(task.bots, task.bot_seeds, strict=True)
    ]
    # The reference state, whose piles can be shuffled; worlds are then made compiled.
    state = native.new_game(game, task.deal_seed, "reference")
    compiled = native.engine_for(game, task.engine)

    def deal(_view: View, rng: Any) -> State:
        world = state.clone()
        for name in HIDDEN_ORDERS:
            pile = getattr(world, name, None)
            if pile is not None:
                rng.shuffle(pile)
        return compiled.from_state(world) if compiled is not None else world

    for bot in bots:
        if isinstance(bot, ISMCTSBot):
            bot.worlds.sample = deal  # type: ignore[method-assign]
    first = play_to_end(state, bots)
    return result_of(task, state, first, time.perf_counter() - start)


def figures(path: Path, bot: str) -> dict[int, tuple[float, float]]:
    """Each game's win share and margin of ``bot``'s seat in the results file ``path``."""
    return seat_figures(sim.read_results(path), bot)


def line(name: str, games: dict[int, tuple[float, float]]) -> str:
    """A bot's win rate with its interval and its mean margin with its standard error."""
    n = len(games)
    wins = sum(w for w, _ in games.values())
    low, high = sim.wilson_interval(wins, n)
    margins = [m for _, m in games.values()]
    error = statistics.stdev(margins) / n**0.5
    return (
        f"{name}: {n} games, wins {wins:.1f} = {wins / n:.1%} [{low:.1%}, {high:.1%}], "
        f"margin {statistics.fmean(margins):+.1f} ± {error:.1f}"
    )


def main() -> None:
    """Play the told bot's games and print its figures, and the difference if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=closingbell.available_games())
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=96)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bot", required=True, help="the search bot told the hands")
    parser.add_argument("--out", type=Path, required=True, help="a folder for the results")
    parser.add_argument("--against", type=Path, help="bot_strength's results for the same run")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    seats = [args.bot] + ["hard"] * (args.players - 1)
    plan = sim.match_plan(args.game, seats, games=args.games, seed=args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{args.game}-{args.players}p.csv"
    sink = ResultsFile(path, plan)
    try:
        tasks = [plan.task(i) for i in range(plan.games) if i not in sink.finished]
        if args.workers > 1:
            with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
                for result in pool.imap_unordered(told_game, tasks):
                    sink.write(result)
        else:
            for task in tasks:
                sink.write(told_game(task))
    finally:
        sink.close()
    told = figures(path, args.bot)
    print(line("told the hands", told))
    if args.against is not None:
        usual = figures(args.against, args.bot)
        print(line("as it plays", usual))
        common = sorted(set(told) & set(usual))
        diffs = [told[i][1] - usual[i][1] for i in common]
        wins = sum(told[i][0] - usual[i][0] for i in common)
        error = statistics.stdev(diffs) / len(diffs) ** 0.5
        print(
            f"told less as it plays, over {len(common)} games: "
            f"margin {statistics.fmean(diffs):+.1f} ± {error:.1f}, wins {wins:+.1f}"
        )


if __name__ == "__main__":
    main()
