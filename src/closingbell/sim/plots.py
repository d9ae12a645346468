"""Charts of a match or tournament as PNG files, drawn with matplotlib's Agg canvas.

Figures are made with :class:`matplotlib.figure.Figure` and no pyplot, so nothing touches
a display or matplotlib's global state.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from closingbell.sim.play import GameResult

PLOTS = ("score_distribution.png", "win_rate_by_seat.png", "win_rate_by_bot.png")
"""The files :func:`plot_summary` writes."""


def figure_of(width: float = 7.0, height: float = 4.0) -> Any:
    """A new figure on an Agg canvas, laid out to fit, of ``width`` by ``height`` inches."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415 (sim extra)
    from matplotlib.figure import Figure  # noqa: PLC0415

    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def error_bars(rates: list[float], intervals: list[list[float]]) -> list[list[float]]:
    """Matplotlib's yerr for ``rates`` with 95% ``intervals`` ([low, high] each)."""
    return [
        [r - ci[0] for r, ci in zip(rates, intervals, strict=True)],
        [ci[1] - r for r, ci in zip(rates, intervals, strict=True)],
    ]


def plot_summary(
    results: Iterable[GameResult], summary: dict[str, Any], directory: str | os.PathLike[str]
) -> list[Path]:
    """Write the score distributions, win rate by seat and win rate by bot; return the paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    names = list(summary["bots"])
    scores: dict[str, list[int]] = defaultdict(list)
    for result in results:
        for bot, score in zip(result.bots, result.scores, strict=True):
            scores[bot].append(score)
    paths = [out / name for name in PLOTS]
    even = summary["even_win_rate"]

    figure = figure_of(max(6.0, 1.4 * len(names) + 2), 4.5)
    axes = figure.add_subplot()
    axes.boxplot([scores[n] for n in names], showmeans=True)
    axes.set_xticks(range(1, len(names) + 1), names, rotation=20, ha="right")
    axes.set_ylabel("final score")
    axes.set_title(f"Score distribution per bot ({summary['games']:,} games)")
    figure.savefig(paths[0])

    seats = summary["seats"]
    figure = figure_of()
    axes = figure.add_subplot()
    rates = [s["win_rate"] for s in seats]
    axes.bar(
        [f"seat {s['seat']}" for s in seats],
        rates,
        yerr=error_bars(rates, [s["ci95"] for s in seats]),
        capsize=4,
        color="tab:orange",
    )
    axes.axhline(even, color="grey", linestyle="--", label=f"even share {100 * even:.1f}%")
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_title("Win rate by seat position")
    axes.legend()
    figure.savefig(paths[1])

    figure = figure_of(max(6.0, 1.4 * len(names) + 2), 4.5)
    axes = figure.add_subplot()
    bots = summary["bots"]
    rates = [bots[n]["win_rate"] for n in names]
    axes.bar(
        range(len(names)),
        rates,
        yerr=error_bars(rates, [bots[n]["ci95"] for n in names]),
        capsize=4,
    )
    axes.set_xticks(range(len(names)), names, rotation=20, ha="right")
    axes.axhline(even, color="grey", linestyle="--", label=f"even share {100 * even:.1f}%")
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_title("Win rate by bot")
    axes.legend()
    figure.savefig(paths[2])
    return paths
