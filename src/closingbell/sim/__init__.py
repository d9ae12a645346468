"""Running games many times: speed figures, matches, tournaments and their statistics.

>>> from closingbell import sim
>>> games = sim.run_match("take_stock", ["random", "random"], games=2, seed=1, workers=1)
>>> [g.rotation for g in games]
[0, 1]
>>> sim.summarize(games, rate=False)["games"]
2

Everything returns plain data: :class:`GameResult` records and JSON-ready dicts. The
libraries of the ``sim`` extra (tqdm, openskill, matplotlib) are imported only by the
functions that need them, and Ray only by the ``ray`` backend.
"""

from closingbell.sim.play import GameResult, GameTask, Plan, bot_seed, deal_seed, play_game
from closingbell.sim.plots import plot_summary
from closingbell.sim.report import format_summary
from closingbell.sim.results import columns, read_results, write_results
from closingbell.sim.runner import (
    BACKENDS,
    execute,
    match_plan,
    run_match,
    run_tournament,
    tournament_plan,
)
from closingbell.sim.specs import BotSpec, SimulationError, parse_spec
from closingbell.sim.stats import mean_interval, ratings, summarize, wilson_interval

__all__ = [
    "BACKENDS",
    "BotSpec",
    "GameResult",
    "GameTask",
    "Plan",
    "SimulationError",
    "bot_seed",
    "columns",
    "deal_seed",
    "execute",
    "format_summary",
    "match_plan",
    "mean_interval",
    "parse_spec",
    "play_game",
    "plot_summary",
    "ratings",
    "read_results",
    "run_match",
    "run_tournament",
    "summarize",
    "tournament_plan",
    "wilson_interval",
    "write_results",
]
