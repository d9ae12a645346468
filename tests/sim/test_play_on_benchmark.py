"""``benchmarks/bench_play_on.py``: the decisions of a tiny saved run measured by playing on."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import closingbell
from closingbell import native
from tests import benchmarks
from tests.sim.helpers import QUICK

RUN = {"count": 4, "worlds": 3, "iterations": 4, "seed": 5}
"""The tiny saved run's settings."""


@pytest.fixture(scope="module")
def mistakes() -> ModuleType:
    return benchmarks.load("bench_mistakes")


@pytest.fixture(scope="module")
def bench(mistakes: ModuleType) -> ModuleType:
    return benchmarks.load("bench_play_on")  # finds bench_mistakes, loaded first


@pytest.fixture(scope="module")
def played(mistakes: ModuleType) -> list[Any]:
    games: list[Any] = mistakes.run(
        RUN["count"],
        worlds=RUN["worlds"],
        iterations=RUN["iterations"],
        seed=RUN["seed"],
        options=QUICK,
    )
    return games


@pytest.fixture(scope="module")
def measured(bench: ModuleType, played: list[Any]) -> list[Any]:
    found, cpu = bench.run(played, pairs=2, jobs=2, options=QUICK, **RUN)
    assert cpu > 0
    return list(found)


def test_every_mark_is_chosen_with_as_many_comparable_unmarked_decisions(
    bench: ModuleType, played: list[Any]
) -> None:
    chosen = bench.choose(played, 5)
    groups = {
        (g, place): group for g, places in chosen.items() for place, (group, _) in places.items()
    }
    for g in played:
        for place, d in enumerate(g.decisions):
            if d.marked:
                expected = "marked" if d.bot == "heuristic" else "expert marked"
                assert groups[(g.index, place)] == expected
            elif (g.index, place) in groups:
                assert groups[(g.index, place)] == "unmarked"
                assert d.bot == "heuristic" and d.cost > 0  # another action was preferred
    marked = [d for g in played for d in g.decisions if d.marked and d.bot == "heuristic"]
    unmarked = [k for k, group in groups.items() if group == "unmarked"]
    assert len(marked) > 0 and len(unmarked) == len(marked)
    assert bench.choose(played, 5) == chosen  # the controls are drawn from the seed


def test_each_chosen_decision_is_played_on_from_the_real_position(
    bench: ModuleType, played: list[Any], measured: list[Any]
) -> None:
    chosen = bench.choose(played, 5)
    assert len(measured) == sum(len(places) for places in chosen.values())
    assert all(len(m.costs) == len(m.win_costs) == 2 for m in measured)
    assert all(-1 <= w <= 1 for m in measured for w in m.win_costs)
    # The first measure, by hand: the same game to that decision, both actions played on.
    first = measured[0]
    game = closingbell.load_game("take_stock", players=2, **QUICK)
    plan = bench.match_plan(
        "take_stock",
        ["heuristic", bench.mistakes.expert_spec(RUN["iterations"])],
        games=RUN["count"],
        seed=RUN["seed"],
        options=QUICK,
    )
    task = plan.task(first.game)
    place = min(chosen[first.game])
    bots = bench.mistakes.bots_of(task, game)
    analyst = bench.mistakes.analyst_of(task, game, RUN["worlds"], RUN["seed"])
    state = native.new_game(game, task.deal_seed, task.engine)
    seen = 0
    while True:
        seat = state.current_player
        view = state.view(seat)
        action = bots[seat].choose(view)
        if len(state.legal_actions()) > 1:
            if seen == place:
                break
            seen += 1
        state.apply(action)
    best = analyst.analyze(view, action).actions[0].action
    rng = bench.derive_rng(RUN["seed"], "play on", task.index, place, 0)
    seeds = [bench.fresh_seed(rng) for _ in task.bots]
    after = []
    for choice in (action, best):
        world = state.clone()
        world.apply(choice)
        after.append(bench.outcome(bench._play_out(world, game, task, seeds), seat)[0])
    assert first.costs[0] == after[1] - after[0]


def test_a_run_that_is_not_the_saved_one_is_refused(bench: ModuleType, played: list[Any]) -> None:
    with pytest.raises(SystemExit, match="not the saved run's game"):
        bench.run(played, pairs=1, jobs=1, options=QUICK, **{**RUN, "worlds": 2})


def test_the_figures_are_the_groups_means(bench: ModuleType) -> None:
    def measure(deal: int, group: str, cost: float) -> Any:
        return bench.PlayOn(deal, deal, group, 1, 10.0, (cost - 1, cost + 1), (0.0, 0.5))

    measures = [measure(d, "marked", 9.0) for d in range(4)]
    measures += [measure(d, "unmarked", 2.0) for d in range(4)]
    figures = bench.summarize(measures, resamples=50, seed=1)
    assert figures["marked/cost"].estimate == pytest.approx(9.0)
    assert figures["unmarked/cost"].estimate == pytest.approx(2.0)
    assert figures["difference"].low == pytest.approx(7.0) == figures["difference"].high
    assert figures["marked/win"].estimate == pytest.approx(0.25)
    assert figures["marked/analysed"].estimate == pytest.approx(10.0)
    assert figures["expert marked/cost"] is None
    text = bench.report(measures, figures)
    assert "marked less unmarked play-on cost: +7.00 [+7.00, +7.00] points" in text
    assert "expert marked: 0 decisions" in text


def test_saved_measures_read_back_the_same(
    bench: ModuleType, measured: list[Any], tmp_path: Path
) -> None:
    path = tmp_path / "play_on.json"
    bench.save(measured, str(path))
    assert bench.load(str(path)) == measured
