"""The puzzles closingbell ships: every one reads back, and a sample is still best when checked.

Reading a file checks each puzzle whole (its position, its seat, its legal actions, the best
first). A sample of each game's puzzles, drawn afresh at each run (the seed is in the failure),
is analysed again over twice the puzzle's worlds, all fresh: the best action must still be
the best, ahead of every other action.
"""

from __future__ import annotations

import random

import pytest

from closingbell.bots.analysis import Analyst
from closingbell.puzzles import THEMES, Puzzle, read_puzzles
from closingbell.puzzles.model import shipped_files

SHIPPED: dict[str, list[Puzzle]] = {path.stem: read_puzzles(path) for path in shipped_files()}
"""Each game's shipped puzzles, read (and so checked) once."""

SAMPLE = 2
"""Puzzles of each game analysed again in each run of the suite."""


def test_the_shipped_puzzles_read_back_whole() -> None:
    assert set(SHIPPED) == set(THEMES)
    assert all(len(puzzles) >= 200 for puzzles in SHIPPED.values())
    # Take Stock's are judged at the end of their round (docs/puzzles.md).
    assert {p.horizon for p in SHIPPED["take_stock"]} == {"round"}
    assert {p.horizon for p in SHIPPED["card_stock_market"]} == {"game"}
    for game, puzzles in SHIPPED.items():
        assert puzzles, game
        assert all(p.game == game for p in puzzles)
        assert all(set(p.themes) <= set(THEMES[game]) for p in puzzles)
        assert all(p.reason["en"] and p.reason["zh-Hant"] for p in puzzles)
        assert len({p.id for p in puzzles}) == len(puzzles)
        # Every puzzle's lead over the next best is one a player feels, and sure.
        assert all(p.worths[1].behind[2] < 0 for p in puzzles)


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_a_sample_of_the_shipped_puzzles_is_still_best_over_fresh_worlds(game: str) -> None:
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    for puzzle in rng.sample(SHIPPED[game], min(SAMPLE, len(SHIPPED[game]))):
        rules = puzzle.make_game()
        analyst = Analyst(rules, worlds=2 * puzzle.worlds, seed=seed, horizon=puzzle.horizon)
        found = analyst.analyze(puzzle.view(rules))
        assert found.best == puzzle.best, (puzzle.id, seed)
        assert found.value_of(puzzle.best).margin.mean > max(
            v.margin.mean for v in found.actions if v.action != puzzle.best
        )
