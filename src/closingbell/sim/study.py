"""A study of a game: what it is like, measured by bots playing it many times.

:func:`study_plans` lays out the games, :func:`run_study` plays them (resumable, on every
core or on Ray, through :func:`closingbell.sim.execute`) and :func:`analyze` turns their
results into plain data (``study.json``), which :mod:`closingbell.sim.study_report` writes
as ``report.md`` and PNG charts. Every figure has a 95% interval. The measurements:

- **A field** (``field-N``): ``hard`` bots at every seat of an ``N``-player table, each deal
  played once (identical bots: a rotation would replay the same game). Who wins by their
  place in the turn order (from the seat that makes the game's first decision), how long a
  game lasts, how close it ends, and what happens in it (:data:`GAME_FACTS`).
- **Skill** (``skill-LEVEL-N``): one ``hard`` bot among ``N - 1`` bots of a weaker level,
  seats rotated on every deal. How often the stronger bot wins, against the fair share
  ``1/N``: how much skill decides against the luck of the cards.
- **Rules options** (``option-KEY=VALUE``): the field at ``option_players`` with one option
  changed, on the same deals as the field, compared deal by deal (paired) with the field.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from closingbell.core.options import option_infos
from closingbell.core.registry import game_class
from closingbell.sim.play import GameResult, Plan, facts_of, options_key
from closingbell.sim.runner import checked_game, execute, match_plan
from closingbell.sim.specs import SimulationError
from closingbell.sim.stats import mean_interval, wilson_interval

FIELD = "hard"
"""The bot at every seat of a field, and the stronger bot of the skill tables."""

WEAKER = ("random", "easy", "medium")
"""The levels the stronger bot meets at the skill tables, weakest first."""

Metric = Callable[[GameResult], float | None]
"""One number of a game (``None``: the game does not have it)."""


def _first(result: GameResult) -> int | None:
    seat = facts_of(result).get("first_seat", -1)
    return seat if seat >= 0 else None


def first_wins(result: GameResult) -> float | None:
    """The share of the win of the seat that made the game's first decision."""
    seat = _first(result)
    return None if seat is None else result.wins[seat]


def winning_margin(result: GameResult) -> float:
    """The winner's score less the second best score."""
    top = sorted(result.scores, reverse=True)
    return float(top[0] - top[1])


def spread(result: GameResult) -> float:
    """The best score less the worst."""
    return float(max(result.scores) - min(result.scores))


def _share(kind: str, of: str) -> Metric:
    def metric(result: GameResult) -> float | None:
        facts = facts_of(result)
        total = facts.get(of, 0)
        return facts.get(kind, 0) / total if total else None

    return metric


def _count(kind: str) -> Metric:
    def metric(result: GameResult) -> float | None:
        facts = facts_of(result)
        return float(facts.get(kind, 0)) if facts else None

    return metric


def _happened(kind: str) -> Metric:
    def metric(result: GameResult) -> float | None:
        facts = facts_of(result)
        return float(facts.get(kind, 0) > 0) if facts else None

    return metric


@dataclass(frozen=True)
class Fact:
    """Something that happens in a game, measured in every game of a field."""

    name: str
    """Its key in ``study.json``."""
    label: str
    """What it is, for the report."""
    metric: Metric
    """Its number in one game: a share (of rounds, say), 1 when it happened, or a count."""
    share: bool = True
    """Whether it is a share (shown in percent) rather than a count."""


ROUND_ENDS = ("market_closed", "high_card", "empty_hand", "no_cards")
"""How a Take Stock round can end (the ``reason`` of its ``round_end`` events)."""

GAME_FACTS: dict[str, tuple[Fact, ...]] = {
    "take_stock": tuple(
        Fact(
            f"round_end:{reason}",
            f"rounds ended by {reason.replace('_', ' ')}",
            _share(f"round_end:{reason}", "round_end"),
        )
        for reason in ROUND_ENDS
    ),
    "card_stock_market": (
        Fact("bank_short", "games where the bank ran short (a levy)", _happened("levy")),
        Fact("bankrupt", "suits bankrupted a game", _count("bankrupt"), share=False),
    ),
}
"""What each game's study counts, from the facts every simulated game records."""


def metrics_of(game: str) -> tuple[Fact, ...]:
    """The numbers compared between rules options."""
    return (
        Fact("length", "decisions in a game", lambda r: float(r.length), share=False),
        Fact("winning_margin", "winner's lead over the second", winning_margin, share=False),
        Fact("first_wins", "first player's share of the wins", first_wins),
        *GAME_FACTS.get(game, ()),
    )


@dataclass(frozen=True)
class StudyPlan:
    """One measurement of a study: its name and the games it plays."""

    name: str
    """``field-N``, ``skill-LEVEL-N`` or ``option-KEY=VALUE``."""
    kind: str
    """``field``, ``skill`` or ``option``."""
    plan: Plan
    """Its games."""
    weaker: str | None = None
    """The weaker level of a skill table."""
    option: tuple[str, Any] | None = None
    """The option changed, and its value, for an option plan."""


@dataclass(frozen=True)
class Study:
    """What a study measures: a game, the table sizes, the games per measurement."""

    game: str
    """The registered name of the game."""
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    """The table sizes studied."""
    games: int = 2000
    """Games of each measurement (a skill table's rounded up to whole rotations)."""
    seed: int = 0
    """The seed every deal is drawn from: the fields and option runs share their deals."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Rules options held for every game of the study."""
    option_players: int = 4
    """The table size at which each rules option is compared with the default."""

    def __post_init__(self) -> None:
        try:
            info = game_class(self.game).info
        except KeyError as exc:
            raise SimulationError(str(exc)) from None
        if not self.players:
            raise SimulationError("a study needs at least one table size")
        for n in (*self.players, self.option_players):
            if not info.min_players <= n <= info.max_players:
                raise SimulationError(
                    f"{info.title} is played by {info.min_players} to {info.max_players} "
                    f"players, not {n}"
                )
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 2:
            raise SimulationError(f"a study plays at least 2 games a measurement, not {self.games}")
        checked_game(self.game, self.option_players, self.options)  # the options are checked here

    def varied(self) -> list[tuple[str, Any, Any]]:
        """Each rules option with a choice, not held by the study: (key, value, default)."""
        cls = type(checked_game(self.game, self.option_players, self.options).options)
        out = []
        for info in option_infos(cls):
            if info.name in self.options:
                continue
            kind = info.check.describe()
            if kind["kind"] == "boolean":
                values: list[Any] = [not info.default]
            elif kind["kind"] == "choice":
                values = [v for v in kind["values"] if v != info.default]
            else:
                continue
            out += [(info.name, value, info.default) for value in values]
        return out


def _field(study: Study, players: int, options: Mapping[str, Any]) -> Plan:
    checked_game(study.game, players, options)
    return Plan(
        game=study.game,
        options=options_key(options),
        tables=((FIELD,) * players,),
        seed=study.seed,
        deals=study.games,
        rotate=False,
    )


def study_plans(study: Study) -> list[StudyPlan]:
    """Every measurement of ``study``, in the order they are played."""
    varied = study.varied()
    sizes = list(study.players)
    if varied and study.option_players not in sizes:
        sizes.append(study.option_players)  # the options are compared with this field
    plans = [StudyPlan(f"field-{n}", "field", _field(study, n, study.options)) for n in sizes]
    for n in study.players:
        for weaker in WEAKER:
            seats = [FIELD, *([weaker] * (n - 1))]
            plan = match_plan(
                study.game, seats, games=study.games, seed=study.seed, options=study.options
            )
            plans.append(StudyPlan(f"skill-{weaker}-{n}", "skill", plan, weaker=weaker))
    for key, value, _default in varied:
        options = {**study.options, key: value}
        plan = _field(study, study.option_players, options)
        text = json.dumps(value)
        plans.append(StudyPlan(f"option-{key}={text}", "option", plan, option=(key, value)))
    return plans


def _file_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_=." else "_" for c in name) + ".csv"


def run_study(
    study: Study,
    out: str | os.PathLike[str],
    *,
    workers: int | None = None,
    backend: str = "processes",
    address: str | None = None,
    progress: bool = False,
) -> dict[str, list[GameResult]]:
    """Play every measurement of ``study``, each into ``out/games/NAME.csv``.

    A file already there is resumed: its games are not played again, so an interrupted
    study goes on where it stopped. Returns each measurement's games by name.
    """
    games = Path(out) / "games"
    games.mkdir(parents=True, exist_ok=True)
    results = {}
    for item in study_plans(study):
        results[item.name] = execute(
            item.plan,
            workers=workers,
            backend=backend,
            address=address,
            out=games / _file_name(item.name),
            progress=progress,
            label=item.name,
        )
    return results


def _mean(values: Sequence[float]) -> dict[str, Any]:
    interval = mean_interval(values)
    return {
        "mean": statistics.fmean(values) if values else math.nan,
        "ci95": list(interval) if interval else None,
        "games": len(values),
    }


def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"rate": wins / games if games else math.nan, "ci95": [low, high], "games": games}


def _quantiles(values: Sequence[float]) -> list[float]:
    """The 10th, 25th, 50th, 75th and 90th percentiles."""
    if len(values) < 2:
        return [float(v) for v in values] * 5
    cuts = statistics.quantiles(values, n=20, method="inclusive")
    return [cuts[1], cuts[4], cuts[9], cuts[14], cuts[17]]


def _field_summary(game: str, results: Sequence[GameResult]) -> dict[str, Any]:
    n = results[0].players
    by_place = [0.0] * n
    counted = 0
    for r in results:
        first = _first(r)
        if first is None:
            continue
        counted += 1
        for seat, win in enumerate(r.wins):
            by_place[(seat - first) % n] += win
    lengths = [float(r.length) for r in results]
    margins = [winning_margin(r) for r in results]
    spreads = [spread(r) for r in results]
    facts = {}
    for fact in GAME_FACTS.get(game, ()):
        values = [v for v in (fact.metric(r) for r in results) if v is not None]
        facts[fact.name] = {"label": fact.label, "share": fact.share, **_mean(values)}
    return {
        "games": len(results),
        "even": 1.0 / n,
        "by_place": [_rate(w, counted) for w in by_place],
        "length": {**_mean(lengths), "quantiles": _quantiles(lengths)},
        "winning_margin": {**_mean(margins), "quantiles": _quantiles(margins)},
        "spread": _mean(spreads),
        "facts": facts,
    }


def _skill_summary(results: Sequence[GameResult]) -> dict[str, Any]:
    wins = sum(w for r in results for bot, w in zip(r.bots, r.wins, strict=True) if bot == FIELD)
    return {**_rate(wins, len(results)), "fair": 1.0 / results[0].players}


def _paired(
    metric: Metric, base: Sequence[GameResult], changed: Sequence[GameResult]
) -> dict[str, Any]:
    pairs = [(metric(a), metric(b)) for a, b in zip(base, changed, strict=True)]
    kept = [(a, b) for a, b in pairs if a is not None and b is not None]
    before = [a for a, _ in kept]
    after = [b for _, b in kept]
    diff = _mean([b - a for a, b in kept])
    return {
        "default": statistics.fmean(before) if before else math.nan,
        "changed": statistics.fmean(after) if after else math.nan,
        "difference": diff["mean"],
        "ci95": diff["ci95"],
        "games": diff["games"],
    }


def analyze(study: Study, results: Mapping[str, Sequence[GameResult]]) -> dict[str, Any]:
    """The study's figures as JSON-ready data (``study.json``), from its games' results."""
    cls = game_class(study.game)
    defaults = {(k, json.dumps(v)): d for k, v, d in study.varied()}
    doc: dict[str, Any] = {
        "game": study.game,
        "title": cls.info.title,
        "unit": "dollars" if study.game == "card_stock_market" else "points",
        "options": dict(study.options),
        "players": list(study.players),
        "games": study.games,
        "seed": study.seed,
        "option_players": study.option_players,
        "field_bot": FIELD,
        "weaker": list(WEAKER),
        "field": {},
        "skill": {},
        "options_compared": [],
    }
    for n in study.players:
        doc["field"][str(n)] = _field_summary(study.game, results[f"field-{n}"])
        doc["skill"][str(n)] = {w: _skill_summary(results[f"skill-{w}-{n}"]) for w in WEAKER}
    base = results.get(f"field-{study.option_players}", ())
    metrics = metrics_of(study.game)
    for item in study_plans(study):
        if item.option is None:
            continue
        key, value = item.option
        default = defaults[key, json.dumps(value)]
        changed = results[item.name]
        doc["options_compared"].append(
            {
                "option": key,
                "value": value,
                "default": default,
                "players": study.option_players,
                "metrics": {
                    m.name: {"label": m.label, "share": m.share, **_paired(m.metric, base, changed)}
                    for m in metrics
                },
            }
        )
    return doc
