"""The statistics of a set of games: win rates, scores, seat advantage, length and ratings.

Win rates count *win shares*: a sole winner scores 1, each of k players sharing first place
scores 1/k. Their 95% intervals are Wilson score intervals computed from the observed share
(the formula needs only the proportion and the number of games, so fractional wins are
fine). Mean scores get a normal-approximation interval (mean +/- 1.96 standard errors).
Ratings are openskill's Plackett-Luce model, updated game by game in index order.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from closingbell.sim.play import GameResult

Z95 = statistics.NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95% interval (1.95996...)."""
INTERVALS = (
    "95% intervals: Wilson score interval for win rates (fractional wins count as shares), "
    "normal approximation (mean +/- 1.96 standard errors) for mean scores"
)
"""How the summary's intervals are computed, in words."""


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``wins / games`` (``wins`` may be fractional)."""
    if games <= 0:
        return (0.0, 1.0)
    p = min(max(wins / games, 0.0), 1.0)
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float] | None:
    """The normal-approximation interval of the mean of ``values`` (``None`` below 2 values)."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean - half, mean + half)


def _ranks(result: GameResult) -> list[float]:
    """Each seat's place for the rating model: winners first, then by score (0 is best)."""
    keys = [
        (0 if win > 0 else 1, -score) for win, score in zip(result.wins, result.scores, strict=True)
    ]
    order = sorted(set(keys))
    return [float(order.index(k)) for k in keys]


def ratings(results: Iterable[GameResult]) -> dict[str, dict[str, float]]:
    """Each bot's openskill Plackett-Luce rating after the games, taken in index order.

    A bot seated more than once at a table (``random,random,heuristic``) is rated per seat
    in that game and takes the mean of its seats' new ratings.
    """
    from openskill.models import PlackettLuce  # noqa: PLC0415 (the sim extra)

    model = PlackettLuce()
    current: dict[str, Any] = {}
    for result in sorted(results, key=lambda r: r.index):
        for bot in result.bots:
            if bot not in current:
                current[bot] = model.rating(name=bot)
        teams = [[current[bot]] for bot in result.bots]
        rated = model.rate(teams, ranks=_ranks(result))
        updates: dict[str, list[Any]] = defaultdict(list)
        for bot, (rating,) in zip(result.bots, rated, strict=True):
            updates[bot].append(rating)
        for bot, new in updates.items():
            current[bot] = model.rating(
                mu=statistics.fmean(r.mu for r in new),
                sigma=statistics.fmean(r.sigma for r in new),
                name=bot,
            )
    return {
        bot: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for bot, r in current.items()
    }


def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [low, high],
    }


def _scores(values: Sequence[float]) -> dict[str, Any]:
    interval = mean_interval(values)
    return {
        "mean_score": statistics.fmean(values) if values else 0.0,
        "score_sd": statistics.stdev(values) if len(values) > 1 else 0.0,
        "score_ci95": list(interval) if interval else None,
    }


def summarize(results: Iterable[GameResult], *, rate: bool = True) -> dict[str, Any]:
    """The summary of a set of games as JSON-ready data.

    ``{"games", "players", "even_win_rate", "intervals", "bots": {NAME: {"games", "wins",
    "win_rate", "ci95", "mean_score", "score_sd", "score_ci95", "rating"}}, "seats": [...],
    "length": {...}, "tables": [...]}``; bots are listed by win rate, best first. A bot's
    ``games`` counts its seats: a bot seated twice in a game counts twice. ``rate=False``
    leaves the (slower) ratings out.
    """
    games = sorted(results, key=lambda r: r.index)
    bot_wins: dict[str, float] = defaultdict(float)
    bot_scores: dict[str, list[float]] = defaultdict(list)
    seat_wins: dict[int, float] = defaultdict(float)
    seat_scores: dict[int, list[float]] = defaultdict(list)
    tables: dict[tuple[str, ...], list[GameResult]] = defaultdict(list)
    for result in games:
        for seat, (bot, score, win) in enumerate(
            zip(result.bots, result.scores, result.wins, strict=True)
        ):
            bot_wins[bot] += win
            bot_scores[bot].append(score)
            seat_wins[seat] += win
            seat_scores[seat].append(score)
        n = result.players
        tables[tuple(result.bots[(i + result.rotation) % n] for i in range(n))].append(result)
    rated = ratings(games) if rate and games else {}
    bots = {
        bot: {
            **_rate(bot_wins[bot], len(bot_scores[bot])),
            **_scores(bot_scores[bot]),
            **({"rating": rated[bot]} if bot in rated else {}),
        }
        for bot in bot_scores
    }
    bots = dict(sorted(bots.items(), key=lambda item: -item[1]["win_rate"]))
    seats = [
        {
            "seat": seat,
            **_rate(seat_wins[seat], len(seat_scores[seat])),
            **_scores(seat_scores[seat]),
        }
        for seat in sorted(seat_scores)
    ]
    lengths = [r.length for r in games]
    durations = [r.duration for r in games]
    players = max((r.players for r in games), default=0)
    summary: dict[str, Any] = {
        "games": len(games),
        "players": players,
        "even_win_rate": 1 / players if players else 0.0,
        "intervals": INTERVALS,
        "bots": bots,
        "seats": seats,
        "length": {
            "mean": statistics.fmean(lengths) if lengths else 0.0,
            "min": min(lengths, default=0),
            "max": max(lengths, default=0),
            "mean_rounds": statistics.fmean(r.rounds for r in games) if games else 0.0,
            "mean_seconds": statistics.fmean(durations) if durations else 0.0,
            "total_seconds": sum(durations),
        },
    }
    if len(tables) > 1:
        summary["tables"] = [
            {
                "bots": list(names),
                "table": table[0].table,
                "games": len(table),
                "win_rate": {
                    bot: sum(
                        w for r in table for b, w in zip(r.bots, r.wins, strict=True) if b == bot
                    )
                    / sum(r.bots.count(bot) for r in table)
                    for bot in dict.fromkeys(names)
                },
            }
            for names, table in tables.items()
        ]
    return summary
