"""Small runs shared by the simulator tests (kept short: one-round Take Stock, two seats)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from closingbell.cli.main import main
from closingbell.sim import GameResult

QUICK = {"rounds": 1}
"""Take Stock options that make a game last a few milliseconds."""
QUICK_ARGS = ["--option", "rounds=1", "--quiet"]
"""The same on the command line, without a progress bar."""


def result(
    index: int,
    bots: Sequence[str],
    scores: Sequence[int],
    wins: Sequence[float],
    *,
    length: int = 10,
    rounds: int = 4,
) -> GameResult:
    """A hand-made game result."""
    n = len(bots)
    return GameResult(
        index=index,
        game="take_stock",
        options="{}",
        table=0,
        deal=index // n,
        rotation=index % n,
        deal_seed=index // n,
        bots=tuple(bots),
        scores=tuple(scores),
        wins=tuple(wins),
        rounds=rounds,
        length=length,
        duration=0.01,
    )


def cli(argv: list[str]) -> int:
    """Run the command line and return its exit code, argparse's own exits included."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """The JSON summary printed by ``closingbell simulate --json ARGS``."""
    assert cli(["simulate", "--json", *args]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert isinstance(doc, dict)
    return doc
