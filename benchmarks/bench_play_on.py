"""Whether marked mistakes cost the game, measured by playing on from them (issue 23).

Usage::

    python benchmarks/bench_play_on.py RUN [--games N] [--worlds W] [--iterations I]
                                       [--seed S] [--pairs K] [--jobs J]
                                       [--resamples B] [--save FILE]
    python benchmarks/bench_play_on.py --report FILE [--resamples B]

``RUN`` is a run of ``benchmarks/bench_mistakes.py`` kept with ``--save``, and ``--games``,
``--worlds``, ``--iterations`` and ``--seed`` must be that run's: every game is played
again from its deal and its bots' seeds, so it is the same game, and the script checks it
(the same scores, and the same marks where it looks).

A game's final margin follows a whole game of luck, which hides what one decision cost
(``bench_mistakes.py`` compares them by least squares, and needs many marks to see it).
Here each chosen decision is measured where it was taken: from the real position of the
game (the real cards, not a world the analysis dealt), the action taken and the action
the analysis preferred are each played on to the end by the same bots as the game
(heuristic and expert at the run's budget, fresh seeds), K times each, the two actions of
a pair sharing the bots' seeds. The decision's *play-on cost* is the mean of the final
margin after the preferred action less that after the action taken (its seat's score
minus the other's). This measure is independent of the analysis: other cards (the real
ones), other players (the game's bots, not the analysis's rule-based play-outs) and other
seeds.

The decisions measured:

- **marked**: every decision of the rule-based bot marked as a mistake;
- **unmarked**: as many unmarked decisions of the rule-based bot, where the action taken
  was not the analysis's preferred one, drawn one per marked decision from the same round
  (comparable decisions: a different choice was open and the game was as far on);
- **expert marked**: every decision of the expert marked as a mistake.

It prints each group's mean play-on cost, the marked less the unmarked, and the analysis's
own mean estimate of the same costs, each with a 95% percentile bootstrap interval over
deals (the two games of a deal share its cards). ``--save FILE`` keeps every measured
decision as JSON, ``--report FILE`` prints a saved measurement again. Figures only, never
asserted. With K = 2 it is sized for about half an hour of both cores on the 2-core
machine for the 100-game run that docs/bots.md describes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import platform
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import bench_mistakes as mistakes

import closingbell
from closingbell import native
from closingbell.bots.analysis import outcome
from closingbell.bots.base import legal_of
from closingbell.core.game import Game, State
from closingbell.core.rng import derive_rng, fresh_seed
from closingbell.sim.play import GameTask
from closingbell.sim.runner import match_plan

GROUPS = ("marked", "unmarked", "expert marked")
"""The groups of decisions measured, by the names the figures use."""


@dataclass(frozen=True)
class PlayOn:
    """One decision measured by playing on from it."""

    game: int
    """The game's index in the run."""
    deal: int
    """The deal's number."""
    group: str
    """One of :data:`GROUPS`."""
    round: int
    """The round it was taken in."""
    analysed_cost: float
    """The analysis's own mean estimate of what the action taken cost (points)."""
    costs: tuple[float, ...]
    """Per pair of play-ons, the final margin after the preferred action less after the
    action taken."""
    win_costs: tuple[float, ...]
    """The same for the win (1, a share of a tie, or 0)."""

    @property
    def cost(self) -> float:
        """The mean play-on cost over the pairs."""
        return sum(self.costs) / len(self.costs)


Chosen = dict[int, dict[int, tuple[str, "mistakes.Decision"]]]
"""The decisions to measure: ``{game: {place: (group, decision)}}``, where the place is the
decision's position in its game's list of analysed decisions."""


def choose(games: Sequence[mistakes.PlayedGame], seed: int) -> Chosen:
    """The decisions to measure (see the module's text); the controls are drawn from ``seed``."""
    rng = random.Random(seed)
    chosen: Chosen = {}
    pool: dict[int, list[tuple[int, int]]] = {}
    marked: list[mistakes.Decision] = []
    decisions = {g.index: g.decisions for g in games}
    for g in games:
        for place, d in enumerate(g.decisions):
            if d.marked:
                group = "marked" if d.bot == "heuristic" else "expert marked"
                chosen.setdefault(g.index, {})[place] = (group, d)
                if d.bot == "heuristic":
                    marked.append(d)
            elif d.bot == "heuristic" and d.cost > 0:
                pool.setdefault(d.round, []).append((g.index, place))
    for d in marked:
        rounds = [d.round] if pool.get(d.round) else [r for r in sorted(pool) if pool[r]]
        if not rounds:
            break
        candidates = pool[rounds[rng.randrange(len(rounds))]]
        game, place = candidates.pop(rng.randrange(len(candidates)))
        chosen.setdefault(game, {})[place] = ("unmarked", decisions[game][place])
    return chosen


def _play_out(state: State, game: Game, task: GameTask, seeds: Sequence[int]) -> State:
    """Play ``state`` to its end with fresh bots of the game's specs and ``seeds``."""
    bots = mistakes.bots_of(task, game, seeds)
    while not state.is_terminal():
        mover = state.current_player
        assert mover is not None
        state.apply(bots[mover].choose(state.view(mover)))
    return state


@dataclass(frozen=True)
class Job:
    """One game of the saved run to play again, and its decisions to measure."""

    task: GameTask
    """The game, as the run played it."""
    options: dict[str, Any]
    """The run's rules options."""
    worlds: int
    """The run's analysis worlds."""
    run_seed: int
    """The run's seed (the play-ons' seeds come from it too)."""
    wanted: dict[int, tuple[str, mistakes.Decision]]
    """The decisions to measure, by their place among the game's decisions."""
    saved_scores: tuple[int, ...]
    """The saved game's final scores."""
    pairs: int
    """Play-ons of each action."""


def play_on_game(job: Job) -> tuple[list[PlayOn], float]:
    """Play ``job``'s game again and measure its wanted decisions; the CPU seconds."""
    task, wanted, pairs, seed = job.task, job.wanted, job.pairs, job.run_seed
    started = time.process_time()
    game = closingbell.load_game("take_stock", players=2, **job.options)
    bots = mistakes.bots_of(task, game)
    analyst = mistakes.analyst_of(task, game, job.worlds, seed)
    state = native.new_game(game, task.deal_seed, task.engine)
    place = 0
    found: list[PlayOn] = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bots[seat].choose(view)
        if len(legal_of(view)) > 1:
            if place in wanted:
                group, saved = wanted[place]
                analysis = analyst.analyze(view, action)
                if analysis.is_mistake(action) != saved.marked or saved.seat != seat:
                    raise SystemExit(
                        f"game {task.index} is not the saved run's game: give the run's "
                        "--games, --worlds, --iterations and --seed"
                    )
                best = analysis.actions[0].action
                costs, wins = [], []
                for pair in range(pairs):
                    rng = derive_rng(seed, "play on", task.index, place, pair)
                    seeds = [fresh_seed(rng) for _ in task.bots]
                    after = {}
                    for choice in (action, best):
                        world = state.clone()
                        world.apply(choice)
                        after[choice] = outcome(_play_out(world, game, task, seeds), seat)
                    costs.append(after[best][0] - after[action][0])
                    wins.append(after[best][1] - after[action][1])
                found.append(
                    PlayOn(
                        game=task.index,
                        deal=task.deal,
                        group=group,
                        round=saved.round,
                        analysed_cost=saved.cost,
                        costs=tuple(costs),
                        win_costs=tuple(wins),
                    )
                )
                if len(found) == len(wanted):
                    break
            place += 1
        state.apply(action)
    if len(found) < len(wanted):
        raise SystemExit(f"game {task.index} ended before all its decisions were found")
    if state.is_terminal() and tuple(state.scores()) != job.saved_scores:
        raise SystemExit(f"game {task.index} did not end as the saved run's did")
    return found, time.process_time() - started


def run(
    games: Sequence[mistakes.PlayedGame],
    *,
    count: int,
    worlds: int,
    iterations: int,
    seed: int,
    pairs: int,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[PlayOn], float]:
    """Measure the chosen decisions of the saved ``games``; every measure and the CPU seconds.

    ``count``, ``worlds``, ``iterations``, ``seed`` and ``options`` are the saved run's.
    """
    plan = match_plan(
        "take_stock",
        ["heuristic", mistakes.expert_spec(iterations)],
        games=count,
        seed=seed,
        options=options,
    )
    chosen = choose(games, seed)
    scores = {g.index: g.scores for g in games}
    work = [
        Job(plan.task(index), dict(options or {}), worlds, seed, wanted, scores[index], pairs)
        for index, wanted in sorted(chosen.items())
    ]
    found: list[PlayOn] = []
    cpu = 0.0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_on_game, job) for job in work]
        for done, future in enumerate(futures, 1):
            measured, seconds = future.result()
            found += measured
            cpu += seconds
            if progress is not None:
                progress(done, len(futures))
    return found, cpu


def _sums(measures: Sequence[PlayOn]) -> dict[str, float]:
    sums: dict[str, float] = {}
    for m in measures:
        for key, x in (
            ("n", 1.0),
            ("cost", m.cost),
            ("win", sum(m.win_costs) / len(m.win_costs)),
            ("analysed", m.analysed_cost),
        ):
            sums[f"{m.group}/{key}"] = sums.get(f"{m.group}/{key}", 0.0) + x
    return sums


def _means(sums: Mapping[str, float]) -> dict[str, float]:
    out: dict[str, float] = {}
    for group in GROUPS:
        n = sums.get(f"{group}/n", 0.0)
        for key in ("cost", "win", "analysed"):
            out[f"{group}/{key}"] = sums.get(f"{group}/{key}", 0.0) / n if n else math.nan
    out["difference"] = out["marked/cost"] - out["unmarked/cost"]
    return out


def summarize(
    measures: Sequence[PlayOn], *, resamples: int = 2000, seed: int = 0
) -> dict[str, mistakes.Interval | None]:
    """Each group's mean figures and the marked less the unmarked, with intervals."""
    by_deal: dict[int, list[PlayOn]] = {}
    for m in measures:
        by_deal.setdefault(m.deal, []).append(m)
    deals = [_sums(group) for group in by_deal.values()]

    def total(sample: Sequence[dict[str, float]]) -> dict[str, float]:
        out: dict[str, float] = {}
        for s in sample:
            for key, x in s.items():
                out[key] = out.get(key, 0.0) + x
        return out

    whole = _means(total(deals))
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {key: [] for key in whole}
    for _ in range(resamples):
        sample = _means(total([deals[rng.randrange(len(deals))] for _ in deals]))
        for key, x in sample.items():
            if not math.isnan(x):
                draws[key].append(x)
    figures: dict[str, mistakes.Interval | None] = {}
    for key, x in whole.items():
        if math.isnan(x) or len(draws[key]) < 0.95 * resamples:
            figures[key] = None
            continue
        ordered = sorted(draws[key])
        figures[key] = mistakes.Interval(
            x, mistakes._quantile(ordered, 0.025), mistakes._quantile(ordered, 0.975)
        )
    return figures


def report(measures: Sequence[PlayOn], figures: Mapping[str, mistakes.Interval | None]) -> str:
    """The figures as lines of text."""
    lines = []
    for group in GROUPS:
        n = sum(m.group == group for m in measures)
        pairs = {len(m.costs) for m in measures if m.group == group}
        cost, win = figures.get(f"{group}/cost"), figures.get(f"{group}/win")
        analysed = figures.get(f"{group}/analysed")
        each = f", {'/'.join(map(str, sorted(pairs)))} pairs each" if pairs else ""
        lines.append(f"{group}: {n} decisions{each}")
        if cost is None or win is None or analysed is None:
            lines.append("  too few for an interval")
            continue
        lines.append(f"  play-on cost {cost} points, {win.estimate:+.1%} of a win")
        lines.append(f"  [{win.low:+.1%}, {win.high:+.1%}]; the analysis said {analysed} points")
    difference = figures.get("difference")
    lines.append(
        "marked less unmarked play-on cost: "
        + (f"{difference} points" if difference else "too few for an interval")
    )
    return "\n".join(lines)


def save(measures: Sequence[PlayOn], path: str) -> None:
    """Write ``measures`` to ``path`` as JSON."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump([dataclasses.asdict(m) for m in measures], out)


def load(path: str) -> list[PlayOn]:
    """The measures that :func:`save` wrote to ``path``."""
    with open(path, encoding="utf-8") as source:
        data = json.load(source)
    return [
        PlayOn(**{**m, "costs": tuple(m["costs"]), "win_costs": tuple(m["win_costs"])})
        for m in data
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """Measure, or read a measurement, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", help="a run of bench_mistakes.py kept with --save")
    parser.add_argument("--games", type=int, default=100, help="the run's games (100)")
    parser.add_argument("--worlds", type=int, default=32, help="the run's analysis worlds (32)")
    parser.add_argument("--iterations", type=int, default=300, help="the run's expert (300)")
    parser.add_argument("--seed", type=int, default=2026, help="the run's seed (2026)")
    parser.add_argument("--pairs", type=int, default=2, help="play-ons of each action (2)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples (2000)")
    parser.add_argument("--save", metavar="FILE", help="keep the measures in FILE (JSON)")
    parser.add_argument("--report", metavar="FILE", help="print the figures of saved measures")
    args = parser.parse_args(argv)
    for name in ("games", "worlds", "iterations", "pairs", "jobs", "resamples"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if (args.run is None) == (args.report is None):
        parser.error("give a saved run to measure, or --report FILE")
    print(f"closingbell {closingbell.__version__}, CPython {platform.python_version()}")
    wall = time.perf_counter()
    if args.report:
        measures = load(args.report)
        print(f"the measures saved in {args.report}")
        cpu = math.nan
    else:
        try:
            games = mistakes.load(args.run)
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"cannot read the run {args.run}: {error}")

        def progress(done: int, total: int) -> None:
            print(f"\rgame {done}/{total}", end="", file=sys.stderr)

        measures, cpu = run(
            games,
            count=args.games,
            worlds=args.worlds,
            iterations=args.iterations,
            seed=args.seed,
            pairs=args.pairs,
            jobs=args.jobs,
            progress=progress,
        )
        print(file=sys.stderr)
        if args.save:
            save(measures, args.save)
    print(report(measures, summarize(measures, resamples=args.resamples, seed=args.seed)))
    wall = time.perf_counter() - wall
    if not math.isnan(cpu):
        print(f"CPU: {cpu / 60:.1f} min; this command's wall clock {wall / 60:.1f} min")


if __name__ == "__main__":
    main()
