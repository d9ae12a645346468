"""Whether the decisions the analysis marks as mistakes really cost the game (issue 23).

Usage::

    python benchmarks/bench_mistakes.py [--games N] [--worlds W] [--iterations I]
                                        [--seed S] [--resamples B] [--save FILE]
    python benchmarks/bench_mistakes.py --report FILE [--resamples B]

It plays N two-player Take Stock games between the rule-based bot (``heuristic``) and the
expert (the ``expert`` level's paired search, given I worlds a decision instead of its
second, so that the games are the same on every machine). Each deal is played twice, with
the seats swapped; the deals and the bots' seeds are the simulator's (docs/simulate.md).
Every decision of both seats that has a choice is analysed from that seat's view by
:class:`closingbell.bots.analysis.Analyst` at W worlds, as ``closingbell analyze`` does,
and marked as a mistake or not. It prints:

- **how often each bot's decisions are marked**: marked decisions over decisions with a
  choice, for each bot, with a 95% interval;
- **whether the marked decisions are followed by lower final margins** than comparable
  unmarked ones (below), with a 95% interval;
- for context, the expert's mean margin and win rate against the rule-based bot at this
  budget, and the analysis's own estimate of what the marked decisions cost.

**Comparable decisions.** A decision's outcome is the final margin of its seat's game (its
score minus the other seat's). Two decisions are compared at the same *position value*: the
analysis's mean final margin after the best action, which is what the seat could still
expect from the position when it decided, under sensible play. Over every analysed decision
of the rule-based bot, it fits by least squares

    final margin = a + b * position value + c * marked

and ``c`` is the difference: how much lower the final margin is after a marked decision
than after an unmarked decision of a position worth as much. Without the covariate a
comparison would mostly measure the luck of the deal and of the game so far (final margins
vary by some 76 points from deal to deal); with it, a decision late in a won game and one
early in a lost game are not compared as if they were alike. The unadjusted difference
(the mean final margin after marked decisions less that after unmarked ones) is printed
too. ``c`` is to be read against the analysis's mean estimate of the marked decisions'
cost (their paired lead behind the best action): a real mistake costs about what the
analysis says; a mark that is only noise costs nothing.

**Intervals.** The decisions of one game share its outcome, and the two games of a deal
share its cards, so neither decisions nor games are independent: every interval is a
percentile bootstrap over *deals* (B resamples, each deal taken with both its games), so
that the games of a deal, which share their cards, are never counted as independent.

``--save FILE`` keeps every analysed decision as JSON; ``--report FILE`` prints the figures
of a saved run without playing. Figures only, never asserted. The defaults (100 games, 32
worlds, 300 expert worlds a decision) are sized for about half an hour of one core on the
2-core machine. The ``expert`` level's second looks at some 2,600 worlds a decision there,
so the expert played here is weaker than that level; and the analysis is coarser than a
review's 64 worlds (fewer worlds give wider intervals, so fewer marks).

Measured once on the 2-core machine, shared with other work (one process)::

    nice -n 10 python benchmarks/bench_mistakes.py --games 100 --worlds 32 \
        --iterations 300 --seed 2026 --save /tmp/bench_mistakes_validate.json

    100 games (50 deals, seats rotated)
    heuristic: 892 of 14469 decisions marked, 6.2% [5.7%, 6.6%]
    expert: 621 of 14382 decisions marked, 4.3% [4.0%, 4.7%]
    heuristic's final margin after a marked decision, less after an unmarked one of the
    same position value: -8.31 [-13.47, -3.69] points
      (slope on the position value 0.80; the analysis's own mean
      cost of those marked decisions 18.99 points)
    the same without the position value: -5.80 [-11.51, -0.77] points
    expert against heuristic: margin +56.04 [+43.42, +69.32] points a game, wins 77.0%
    CPU: 9.6 min playing, 13.7 min analysing (14.0 s a game); this command's wall clock
    52.4 min

The marked decisions of the rule-based bot are followed by final margins 8.3 points lower
than unmarked ones of positions worth as much, and the whole interval is below zero; the
expert's decisions are marked less often than the rule-based bot's (4.3% against 6.2%, with
intervals that do not overlap), though not rarely. The observed cost is under half the
analysis's own estimate (19 points): the best action is the one that did best over the same
32 worlds, so part of its lead over the others is the luck of those worlds, and some marks
are noise.

Those figures are from before a review checked each mark over fresh worlds. With the check
the same run marks the heuristic 1.0% of the time and the expert 0.2%, too few marks for
this comparison to show a difference; ``bench_play_on.py`` measures those marks directly,
by playing on from them (docs/bots.md gives both).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import closingbell
from closingbell import native
from closingbell.bots.analysis import Analyst
from closingbell.bots.base import Bot, legal_of
from closingbell.core.game import Game
from closingbell.core.rng import derive_rng, fresh_seed
from closingbell.sim.play import GameTask
from closingbell.sim.runner import match_plan
from closingbell.sim.specs import parse_spec

BOTS = ("heuristic", "expert")
"""The two bots, by the names the figures use."""


def expert_spec(iterations: int) -> str:
    """The expert level's spec with a budget of ``iterations`` worlds a decision."""
    return f"expert:seconds=none:iterations={iterations}"


@dataclass(frozen=True)
class Decision:
    """One analysed decision (one with a choice) of one seat."""

    game: int
    """The game's index."""
    deal: int
    """The deal's number (both games of a deal share it)."""
    bot: str
    """``heuristic`` or ``expert``."""
    seat: int
    """The deciding seat."""
    round: int
    """The round it was taken in."""
    choices: int
    """How many legal actions there were."""
    marked: bool
    """Whether the analysis marks the action taken as a mistake."""
    value: float
    """The position's value: the analysis's mean final margin after the best action."""
    cost: float
    """The analysis's mean of how much less final margin the action taken gives than the
    best one (0 or more)."""
    margin: float
    """The seat's final margin in the game: its score minus the other seat's."""


@dataclass(frozen=True)
class PlayedGame:
    """One game played and analysed."""

    index: int
    """The game's index in the run."""
    deal: int
    """The deal's number."""
    bots: tuple[str, ...]
    """The bot at each seat, ``heuristic`` or ``expert``."""
    scores: tuple[int, ...]
    """Each seat's final score."""
    decisions: tuple[Decision, ...]
    """Every analysed decision of both seats, in the order taken."""
    play_seconds: float
    """CPU seconds the bots took to choose."""
    analysis_seconds: float
    """CPU seconds the analysis took."""


def _role(spec: str) -> str:
    return "expert" if spec.startswith("expert") else "heuristic"


def bots_of(task: GameTask, game: Game, seeds: Sequence[int] | None = None) -> list[Bot]:
    """Fresh bots of ``task``'s specs, seeded with ``seeds`` (by default the task's own)."""
    chosen = task.bot_seeds if seeds is None else seeds
    return [
        parse_spec(text).make(game, bot_seed, task.engine)
        for text, bot_seed in zip(task.bots, chosen, strict=True)
    ]


def analyst_of(task: GameTask, game: Game, worlds: int, seed: int) -> Analyst:
    """The analyst of ``task``'s game in a run of ``seed``: its worlds follow from both."""
    return Analyst(game, worlds=worlds, seed=fresh_seed(derive_rng(seed, "mistakes", task.index)))


def play_and_analyse(task: GameTask, game: Game, worlds: int, seed: int) -> PlayedGame:
    """Play ``task`` and analyse every decision with a choice of both seats."""
    bots = bots_of(task, game)
    roles = tuple(_role(text) for text in task.bots)
    analyst = analyst_of(task, game, worlds, seed)
    state = native.new_game(game, task.deal_seed, task.engine)
    taken: list[tuple[int, int, int, bool, float, float]] = []
    play = analysis = 0.0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        start = time.process_time()
        action = bots[seat].choose(view)
        play += time.process_time() - start
        if len(legal_of(view)) > 1:
            start = time.process_time()
            found = analyst.analyze(view, action)
            analysis += time.process_time() - start
            value = found.value_of(action)
            taken.append(
                (
                    seat,
                    int(getattr(view, "round", 0)),
                    len(legal_of(view)),
                    found.is_mistake(action),
                    found.actions[0].margin.mean,
                    # The lead measured again over fresh worlds, when it was.
                    -(found.checked[1] if found.checked else value.behind).mean,
                )
            )
        state.apply(action)
    scores = tuple(state.scores())
    margins = [s - max(o for q, o in enumerate(scores) if q != p) for p, s in enumerate(scores)]
    decisions = tuple(
        Decision(
            game=task.index,
            deal=task.deal,
            bot=roles[seat],
            seat=seat,
            round=rnd,
            choices=choices,
            marked=marked,
            value=value,
            cost=cost,
            margin=float(margins[seat]),
        )
        for seat, rnd, choices, marked, value, cost in taken
    )
    return PlayedGame(task.index, task.deal, roles, scores, decisions, play, analysis)


def run(
    games: int,
    *,
    worlds: int,
    iterations: int,
    seed: int = 2026,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> list[PlayedGame]:
    """Play and analyse ``games`` games (rounded up to whole deals), the seats rotated."""
    plan = match_plan(
        "take_stock",
        ["heuristic", expert_spec(iterations)],
        games=games,
        seed=seed,
        options=options,
    )
    game = closingbell.load_game("take_stock", players=2, **dict(options or {}))
    played = []
    start = time.process_time()
    for index in range(plan.games):
        played.append(play_and_analyse(plan.task(index), game, worlds, seed))
        if progress is not None:
            spent = time.process_time() - start
            progress(index + 1, plan.games, spent / (index + 1) * (plan.games - index - 1))
    return played


def save(games: Sequence[PlayedGame], path: str) -> None:
    """Write ``games`` to ``path`` as JSON."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump([dataclasses.asdict(g) for g in games], out)


def load(path: str) -> list[PlayedGame]:
    """The games that :func:`save` wrote to ``path``."""
    with open(path, encoding="utf-8") as source:
        data = json.load(source)
    return [
        PlayedGame(
            index=g["index"],
            deal=g["deal"],
            bots=tuple(g["bots"]),
            scores=tuple(g["scores"]),
            decisions=tuple(Decision(**d) for d in g["decisions"]),
            play_seconds=g["play_seconds"],
            analysis_seconds=g["analysis_seconds"],
        )
        for g in data
    ]


@dataclass(frozen=True)
class Interval:
    """An estimate and its 95% bootstrap interval."""

    estimate: float
    """The estimate from all the games."""
    low: float
    """The interval's lower end."""
    high: float
    """The interval's upper end."""

    def __str__(self) -> str:
        return f"{self.estimate:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"


@dataclass(frozen=True)
class Summary:
    """The figures of a run."""

    games: int
    """Games played."""
    deals: int
    """Deals (each played with the seats both ways)."""
    decisions: dict[str, int]
    """Each bot's decisions with a choice."""
    marked: dict[str, int]
    """Each bot's decisions marked as mistakes."""
    rates: dict[str, Interval | None]
    """Each bot's share of marked decisions."""
    difference: Interval | None
    """Final margin after the rule-based bot's marked decisions less after unmarked ones at
    the same position value (``None`` when there are too few of either to fit it)."""
    raw_difference: Interval | None
    """The same without the position value (mean against mean)."""
    slope: float
    """How much the final margin grows with the position value, in the fit."""
    predicted_cost: float
    """The analysis's mean cost of the rule-based bot's marked decisions (nan if none)."""
    expert_margin: Interval | None
    """The expert's mean margin over the rule-based bot, per game."""
    expert_wins: float
    """The expert's share of the wins (a tie counts half)."""


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """Solve a small linear system by Gaussian elimination; ``None`` if it is singular."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    scale = max(abs(x) for row in matrix for x in row)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) <= 1e-12 * scale:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


Stats = dict[str, float]
"""A deal's sums, added deal by deal to make a sample's."""


def _deal_stats(games: Sequence[PlayedGame]) -> Stats:
    """The sums every figure is computed from, over the games of one deal."""
    s: Stats = {}

    def add(key: str, x: float) -> None:
        s[key] = s.get(key, 0.0) + x

    for g in games:
        expert = g.bots.index("expert")
        add("games", 1)
        add("expert_margin", g.scores[expert] - g.scores[1 - expert])
        winners = [p for p, x in enumerate(g.scores) if x == max(g.scores)]
        add("expert_wins", 1 / len(winners) if expert in winners else 0.0)
        for d in g.decisions:
            add(f"n_{d.bot}", 1)
            add(f"m_{d.bot}", d.marked)
            if d.bot != "heuristic":
                continue
            x = (1.0, float(d.marked), d.value)
            for i in range(3):
                add(f"xy{i}", x[i] * d.margin)
                for j in range(i, 3):
                    add(f"xx{i}{j}", x[i] * x[j])
            if d.marked:
                add("cost", d.cost)
    return s


def _total(samples: Sequence[Stats]) -> Stats:
    total: Stats = {}
    for s in samples:
        for key, x in s.items():
            total[key] = total.get(key, 0.0) + x
    return total


def _figures(t: Stats) -> dict[str, float]:
    """Every figure of a sample's sums (nan where it cannot be computed)."""
    nan = math.nan
    out: dict[str, float] = {}
    for bot in BOTS:
        n = t.get(f"n_{bot}", 0.0)
        out[f"rate_{bot}"] = t.get(f"m_{bot}", 0.0) / n if n else nan
    games = t.get("games", 0.0)
    out["expert_margin"] = t.get("expert_margin", 0.0) / games if games else nan
    out["expert_wins"] = t.get("expert_wins", 0.0) / games if games else nan
    n, marked = t.get("xx00", 0.0), t.get("xx11", 0.0)
    out["raw"] = out["difference"] = out["slope"] = nan
    if 0 < marked < n:
        after_marked = t.get("xy1", 0.0) / marked
        out["raw"] = after_marked - (t.get("xy0", 0.0) - t.get("xy1", 0.0)) / (n - marked)
        xx = [[t.get(f"xx{min(i, j)}{max(i, j)}", 0.0) for j in range(3)] for i in range(3)]
        fit = _solve(xx, [t.get(f"xy{i}", 0.0) for i in range(3)])
        if fit is not None:
            out["difference"], out["slope"] = fit[1], fit[2]
    out["cost"] = t.get("cost", 0.0) / marked if marked else nan
    return out


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize(games: Sequence[PlayedGame], *, resamples: int = 2000, seed: int = 0) -> Summary:
    """The figures of ``games``, with intervals from ``resamples`` bootstraps over deals."""
    by_deal: dict[int, list[PlayedGame]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    deals = [_deal_stats(group) for group in by_deal.values()]
    whole = _figures(_total(deals))
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {key: [] for key in whole}
    for _ in range(resamples):
        sample = _figures(_total([deals[rng.randrange(len(deals))] for _ in deals]))
        for key, x in sample.items():
            if not math.isnan(x):
                draws[key].append(x)

    def interval(key: str) -> Interval | None:
        # A figure that many resamples cannot compute has no honest interval.
        if math.isnan(whole[key]) or len(draws[key]) < 0.95 * resamples or not draws[key]:
            return None
        return Interval(whole[key], _quantile(draws[key], 0.025), _quantile(draws[key], 0.975))

    counts = [d for g in games for d in g.decisions]
    return Summary(
        games=len(games),
        deals=len(deals),
        decisions={bot: sum(d.bot == bot for d in counts) for bot in BOTS},
        marked={bot: sum(d.bot == bot and d.marked for d in counts) for bot in BOTS},
        rates={bot: interval(f"rate_{bot}") for bot in BOTS},
        difference=interval("difference"),
        raw_difference=interval("raw"),
        slope=whole["slope"],
        predicted_cost=whole["cost"],
        expert_margin=interval("expert_margin"),
        expert_wins=whole["expert_wins"],
    )


def _percent(found: Interval | None) -> str:
    if found is None:
        return "too few decisions for an interval"
    return f"{found.estimate:.1%} [{found.low:.1%}, {found.high:.1%}]"


def report(summary: Summary) -> str:
    """The figures as lines of text."""
    lines = [f"{summary.games} games ({summary.deals} deals, seats rotated)"]
    for bot in BOTS:
        lines.append(
            f"{bot}: {summary.marked[bot]} of {summary.decisions[bot]} decisions marked, "
            f"{_percent(summary.rates[bot])}"
        )
    found = summary.difference
    lines.append(
        "heuristic's final margin after a marked decision, less after an unmarked one of the "
        "same position value: " + (f"{found} points" if found else "too few marks to fit")
    )
    lines.append(f"  (slope on the position value {summary.slope:.2f}; the analysis's own mean")
    lines.append(f"  cost of those marked decisions {summary.predicted_cost:.2f} points)")
    raw = summary.raw_difference
    lines.append(
        "the same without the position value: " + (f"{raw} points" if raw else "too few marks")
    )
    margin = summary.expert_margin
    lines.append(
        f"expert against heuristic: margin {margin} points a game, wins {summary.expert_wins:.1%}"
        if margin
        else "expert against heuristic: too few games"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Play, analyse and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games to play (100)")
    parser.add_argument("--worlds", type=int, default=32, help="analysis worlds a decision (32)")
    parser.add_argument(
        "--iterations", type=int, default=300, help="the expert's worlds a decision (300)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="the run's seed (2026)")
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples (2000)")
    parser.add_argument("--save", metavar="FILE", help="keep the analysed games in FILE (JSON)")
    parser.add_argument("--report", metavar="FILE", help="print the figures of a saved run")
    args = parser.parse_args(argv)
    for name in ("games", "worlds", "iterations", "resamples"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")

    def progress(done: int, total: int, left: float) -> None:
        print(f"\rgame {done}/{total}, about {left / 60:.0f} min left ", end="", file=sys.stderr)

    print(f"closingbell {closingbell.__version__}, CPython {platform.python_version()}")
    wall = time.perf_counter()
    if args.report:
        played = load(args.report)
        print(f"the games saved in {args.report}")
    else:
        print(
            f"Take Stock, 2 players: heuristic against {expert_spec(args.iterations)}, "
            f"analysis at {args.worlds} worlds, seed {args.seed}"
        )
        played = run(
            args.games,
            worlds=args.worlds,
            iterations=args.iterations,
            seed=args.seed,
            progress=progress,
        )
        print(file=sys.stderr)
        if args.save:
            save(played, args.save)
    summary = summarize(played, resamples=args.resamples, seed=args.seed)
    print(report(summary))
    play = sum(g.play_seconds for g in played)
    analysis = sum(g.analysis_seconds for g in played)
    per_game = statistics.fmean(g.play_seconds + g.analysis_seconds for g in played)
    wall = time.perf_counter() - wall
    print(
        f"CPU: {play / 60:.1f} min playing, {analysis / 60:.1f} min analysing "
        f"({per_game:.1f} s a game); this command's wall clock {wall / 60:.1f} min"
    )


if __name__ == "__main__":
    main()
