"""Print how often the Take Stock heuristic bot beats random players, and how fast it decides.

Usage: ``python benchmarks/bot_strength_take_stock.py [DEALS_2P] [DEALS_4P]`` (defaults 200
and 100). Each deal is played once per seat rotation: [heuristic, random] at two players and
[heuristic, random, random, random] at four, so 200 and 100 deals make 400 games each. A
shared win counts as a fraction. Win rates come with 95% Wilson intervals; the time is the
mean of the heuristic's ``choose`` per decision (building the view is not counted).
Figures only, never asserted.
"""

from __future__ import annotations

import math
import platform
import sys
import time

import closingbell
from closingbell.bots.base import Bot, RandomBot
from closingbell.bots.take_stock import TakeStockHeuristic


def wilson(share: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate measured over ``games`` games."""
    if games == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    return max(0.0, centre - half / (1 + z * z / games)), min(
        1.0, centre + half / (1 + z * z / games)
    )


def measure(players: int, deals: int) -> tuple[float, int, float, int]:
    """The heuristic's win share and games, and its decision time in total and count."""
    game = closingbell.load_game("take_stock", players=players)
    wins = 0.0
    games = 0
    spent = 0.0
    decisions = 0
    for deal in range(deals):
        for seat in range(players):
            bots: list[Bot] = [RandomBot(game, 1000 * deal + s) for s in range(players)]
            bots[seat] = TakeStockHeuristic(game, deal)
            state = game.new_game(deal)
            while not state.is_terminal():
                p = state.current_player
                assert p is not None
                view = state.view(p)
                if p == seat:
                    start = time.perf_counter()
                    action = bots[p].choose(view)
                    spent += time.perf_counter() - start
                    decisions += 1
                else:
                    action = bots[p].choose(view)
                state.apply(action)
            winners = state.winners()
            if seat in winners:
                wins += 1 / len(winners)
            games += 1
    return wins / games, games, spent, decisions


def main(argv: list[str]) -> int:
    deals = {2: int(argv[0]) if argv else 200, 4: int(argv[1]) if len(argv) > 1 else 100}
    print(
        f"closingbell {closingbell.__version__}, {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, one core"
    )
    print("players  games  heuristic wins (95% CI)     random seat's share  us/decision")
    for players, count in deals.items():
        share, games, spent, decisions = measure(players, count)
        low, high = wilson(share, games)
        per = 1e6 * spent / max(1, decisions)
        print(
            f"{players:>7}  {games:>5}  {share:6.3f} ({low:.3f} to {high:.3f})"
            f"       {1 / players:>17.3f}  {per:>11.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
