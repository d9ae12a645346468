"""``benchmarks/bench_mistakes.py``: two tiny games played, analysed and summed up."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests import benchmarks
from tests.sim.helpers import QUICK


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return benchmarks.load("bench_mistakes")


@pytest.fixture(scope="module")
def played(bench: ModuleType) -> list[Any]:
    games: list[Any] = bench.run(2, worlds=3, iterations=4, seed=5, options=QUICK)
    return games


def test_one_deal_is_played_with_the_seats_swapped(played: list[Any]) -> None:
    first, second = played
    assert [g.index for g in played] == [0, 1]
    assert first.deal == second.deal == 0
    assert first.bots == ("heuristic", "expert")
    assert second.bots == ("expert", "heuristic")


def test_every_decision_of_both_seats_is_analysed(played: list[Any]) -> None:
    for g in played:
        decisions = g.decisions
        assert {d.seat for d in decisions} == {0, 1}
        for d in decisions:
            assert d.game == g.index and d.deal == g.deal
            assert d.bot == g.bots[d.seat]
            assert d.choices > 1 and d.round == 1
            assert d.cost > 0 or not d.marked
            scores = g.scores
            assert d.margin == scores[d.seat] - scores[1 - d.seat]


def test_the_summary_counts_the_decisions_and_gives_intervals(
    bench: ModuleType, played: list[Any]
) -> None:
    summary = bench.summarize(played, resamples=50, seed=1)
    assert (summary.games, summary.deals) == (2, 1)
    decisions = [d for g in played for d in g.decisions]
    for bot in ("heuristic", "expert"):
        mine = [d for d in decisions if d.bot == bot]
        assert summary.decisions[bot] == len(mine) > 0
        assert summary.marked[bot] == sum(d.marked for d in mine)
        rate = summary.rates[bot]
        assert rate.estimate == pytest.approx(summary.marked[bot] / len(mine))
        # One deal: every resample is that deal, so the interval is the estimate itself.
        assert rate.low == rate.estimate == rate.high
    margins = [
        g.scores[g.bots.index("expert")] - g.scores[g.bots.index("heuristic")] for g in played
    ]
    assert summary.expert_margin.estimate == pytest.approx(sum(margins) / 2)
    assert "2 games (1 deals, seats rotated)" in bench.report(summary)


def test_the_fit_finds_a_known_difference(bench: ModuleType) -> None:
    # Margins made exactly 10 + 0.5 * value - 7 * marked: the fit gives back -7 and 0.5.
    decision = bench.Decision
    games = []
    for deal in range(6):
        rows = []
        for k in range(5):
            marked = (deal + k) % 3 == 0
            value = float(deal * 7 - k * 3)
            rows.append(
                decision(
                    game=deal,
                    deal=deal,
                    bot="heuristic",
                    seat=0,
                    round=1,
                    choices=3,
                    marked=marked,
                    value=value,
                    cost=4.0 if marked else 0.0,
                    margin=10 + 0.5 * value - 7 * marked,
                )
            )
        games.append(
            bench.PlayedGame(deal, deal, ("heuristic", "expert"), (1, 0), tuple(rows), 0.0, 0.0)
        )
    summary = bench.summarize(games, resamples=100, seed=2)
    assert summary.difference.estimate == pytest.approx(-7)
    assert summary.difference.low == pytest.approx(-7) and summary.difference.high == pytest.approx(
        -7
    )
    assert summary.slope == pytest.approx(0.5)
    assert summary.predicted_cost == pytest.approx(4.0)
    assert summary.rates["expert"] is None  # no decision of the expert's to count
    assert summary.expert_wins == 0.0


def test_a_saved_run_reads_back_the_same(
    bench: ModuleType, played: list[Any], tmp_path: Path
) -> None:
    path = tmp_path / "run.json"
    bench.save(played, str(path))
    assert bench.load(str(path)) == played
