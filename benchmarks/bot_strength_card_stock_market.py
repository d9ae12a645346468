"""How much stronger the Card Stock Market heuristic is than random play, and how fast.

Usage: ``python benchmarks/bot_strength_card_stock_market.py [GAMES]`` (games per player
count, default 400). For each deal seed the heuristic plays every seat in turn, against
one random bot at 2 players and three at 4, so no seat's advantage favours either side.
A shared win counts as a share. Prints win rates with 95% Wilson intervals and the
heuristic's mean time per decision; figures only, never asserted.
"""

from __future__ import annotations

import math
import platform
import sys
import time

import closingbell
from closingbell.bots import make_bot
from closingbell.bots.base import Bot
from closingbell.bots.card_stock_market import CardStockMarketHeuristic

DEFAULT_GAMES = 400


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(players: int, games: int) -> dict[str, float]:
    """Play ``games`` games (whole rotations) of the heuristic against random bots."""
    game = closingbell.load_game("card_stock_market", players=players)
    seeds = max(1, games // players)
    heuristic = others = margin = seconds = 0.0
    decisions = played = 0
    for seed in range(seeds):
        for at in range(players):
            bots: list[Bot] = [make_bot("random", game, seed * 10 + q) for q in range(players)]
            bots[at] = CardStockMarketHeuristic(game, seed)
            state = game.new_game(seed)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                view = state.view(seat)
                if seat == at:
                    start = time.perf_counter()
                    action = bots[seat].choose(view)
                    seconds += time.perf_counter() - start
                    decisions += 1
                else:
                    action = bots[seat].choose(view)
                state.apply(action)
            winners = state.winners()
            heuristic += (at in winners) / len(winners)
            others += sum(q != at for q in winners) / len(winners)
            scores = state.scores()
            margin += scores[at] - max(s for q, s in enumerate(scores) if q != at)
            played += 1
    return {
        "games": played,
        "heuristic": heuristic,
        "random_seat": others / (players - 1),
        "margin": margin / played,
        "us_per_decision": seconds / max(1, decisions) * 1e6,
        "decisions_per_game": decisions / played,
    }


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else DEFAULT_GAMES
    print(
        f"closingbell {closingbell.__version__}, {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, one core"
    )
    print("Card Stock Market: heuristic against random bots, every seat rotation per deal")
    for players in (2, 4):
        start = time.perf_counter()
        f = measure(players, games)
        n = int(f["games"])
        lo, hi = wilson(f["heuristic"], n)
        rlo, rhi = wilson(f["random_seat"], n)
        print(
            f"{players} players, {n} games ({time.perf_counter() - start:.1f} s): "
            f"heuristic wins {f['heuristic'] / n:.1%} [{lo:.1%}, {hi:.1%}], "
            f"each random seat {f['random_seat'] / n:.1%} [{rlo:.1%}, {rhi:.1%}] "
            f"(an equal share is {1 / players:.0%}); mean lead over the best opponent "
            f"${f['margin']:.0f}; {f['us_per_decision']:.0f} us per heuristic decision, "
            f"{f['decisions_per_game']:.0f} decisions per game"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
