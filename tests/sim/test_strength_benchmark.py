"""``benchmarks/bot_strength.py``: whole rotations and the first bot's figures line."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from closingbell.sim import GameResult
from tests import benchmarks


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return benchmarks.load("bot_strength")


def result(index: int, bots: tuple[str, ...], scores: tuple[int, ...]) -> GameResult:
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    wins = tuple(1 / len(winners) if i in winners else 0.0 for i in range(len(scores)))
    return GameResult(
        index=index,
        game="take_stock",
        options="{}",
        table=0,
        deal=index // len(bots),
        rotation=index % len(bots),
        deal_seed=index,
        bots=bots,
        scores=scores,
        wins=wins,
        duration=2.0,
    )


def test_only_complete_rotations_count(bench: ModuleType) -> None:
    games = [result(i, ("a", "b"), (1, 0)) for i in (0, 1, 2, 4, 5)]
    assert [r.index for r in bench.whole_rotations(games)] == [0, 1]
    assert bench.whole_rotations([]) == []


def test_the_first_bots_line(bench: ModuleType) -> None:
    games = [
        result(0, ("a:x=1", "b", "b"), (10, 4, 7)),  # margin +4.5, a wins
        result(1, ("b", "a:x=1", "b"), (9, 6, 9)),  # margin -3.0, b's share
        result(2, ("b", "b", "a:x=1"), (5, 5, 8)),  # margin +3.0, a wins
        result(3, ("a:x=1", "b", "b"), (1, 2, 3)),  # an incomplete rotation: left out
    ]
    line = bench.first_bot_figures(games, "a:x=1")
    assert line.startswith("a, whole rotations: 3 games, win rate 66.7% [")
    assert "margin +1.5 ± 2.3 (s.e.), 2 s a game" in line
    assert bench.first_bot_figures(games[:1], "a:x=1") == "whole rotations: too few games"


def test_report_needs_the_results_folder(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["bot_strength.py", "--report"])
    with pytest.raises(SystemExit):
        bench.main()
    assert "--report reads the games kept in --out DIR" in capsys.readouterr().err
