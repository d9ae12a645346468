"""The results file read back by pandas and polars, cell for cell."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import polars as pl
import pytest

from closingbell import sim
from tests.sim.helpers import QUICK

SEATS = ["random", "ismcts:iterations=1:c=0.7", "random"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[sim.GameResult]]:
    out = tmp_path_factory.mktemp("csv") / "results.csv"
    results = sim.run_match("take_stock", SEATS, games=6, seed=2, options=QUICK, out=out, workers=1)
    return out, results


def test_columns_are_wide_per_seat() -> None:
    assert sim.columns(2) == [
        "index",
        "game",
        "options",
        "table",
        "deal",
        "deal_seed",
        "rotation",
        "players",
        "rounds",
        "length",
        "duration",
        "facts",
        "seat0_bot",
        "seat0_score",
        "seat0_win",
        "seat1_bot",
        "seat1_score",
        "seat1_win",
    ]


def test_pandas_reads_every_game(run: tuple[Path, list[sim.GameResult]]) -> None:
    path, results = run
    frame = pd.read_csv(path).sort_values("index").reset_index(drop=True)
    assert list(frame.columns) == sim.columns(3)
    assert len(frame) == len(results) == 6
    assert frame["index"].tolist() == list(range(6))
    assert frame["deal_seed"].tolist() == [r.deal_seed for r in results]
    assert str(frame["deal_seed"].dtype) == "int64"
    assert (frame["game"] == "take_stock").all()
    assert (frame["players"] == 3).all() and (frame["rounds"] == 1).all()
    assert frame["length"].tolist() == [r.length for r in results]
    for seat in range(3):
        assert frame[f"seat{seat}_bot"].tolist() == [r.bots[seat] for r in results]
        assert frame[f"seat{seat}_score"].tolist() == [r.scores[seat] for r in results]
        assert frame[f"seat{seat}_win"].tolist() == pytest.approx([r.wins[seat] for r in results])
    wins = frame[["seat0_win", "seat1_win", "seat2_win"]].sum(axis=1)
    assert wins.tolist() == pytest.approx([1.0] * 6)
    assert (frame["duration"] > 0).all()
    # Each game's facts are JSON counts of what its log holds, as the result has them.
    assert frame["facts"].tolist() == [r.facts for r in results]
    facts = [json.loads(text) for text in frame["facts"]]
    assert all(f["round_end"] == 1 and f["game_over"] == 1 for f in facts)
    assert all(0 <= f["first_seat"] < 3 for f in facts)


def test_polars_reads_every_game(run: tuple[Path, list[sim.GameResult]]) -> None:
    path, results = run
    frame = pl.read_csv(path).sort("index")
    assert frame.columns == sim.columns(3)
    assert frame.height == 6
    assert frame["deal_seed"].dtype == pl.Int64
    assert frame["seat0_win"].dtype == pl.Float64
    assert frame["rotation"].to_list() == [r.rotation for r in results]
    assert frame["seat1_bot"].to_list() == [r.bots[1] for r in results]
    assert frame["seat2_score"].to_list() == [r.scores[2] for r in results]
    # Win rate of the ISMCTS bot computed from the file equals the summary's.
    spec = SEATS[1]
    seat_games = frame.select(
        pl.concat_list(
            [pl.when(pl.col(f"seat{s}_bot") == spec).then(pl.col(f"seat{s}_win")) for s in range(3)]
        ).alias("w")
    )
    wins = sum(w for row in seat_games["w"].to_list() for w in row if w is not None)
    assert wins == pytest.approx(sim.summarize(results)["bots"][spec]["wins"])


def test_read_results_round_trips(run: tuple[Path, list[sim.GameResult]], tmp_path: Path) -> None:
    path, results = run
    assert sim.read_results(path) == results
    copy = tmp_path / "copy.csv"
    sim.write_results(copy, reversed(results))
    assert sim.read_results(copy) == results
    assert [r.duration for r in sim.read_results(copy)] == pytest.approx(
        [r.duration for r in results], abs=1e-6
    )


def test_a_file_written_before_facts_is_read_and_resumed(tmp_path: Path) -> None:
    out = tmp_path / "old.csv"
    plan = sim.match_plan("take_stock", SEATS, games=6, seed=2, options=QUICK)
    first = sim.execute(plan, games=3, workers=1)
    old = [r.__class__(**{**r.__dict__, "facts": ""}) for r in first]
    with out.open("w", encoding="utf-8") as f:
        f.write(",".join(sim.columns(3, facts=False)) + "\n")
        f.writelines(",".join(sim.results.to_row(r, facts=False)) + "\n" for r in old)
    assert sim.read_results(out) == old
    resumed = sim.execute(plan, workers=1, out=out)
    assert resumed[:3] == old and all(r.facts for r in resumed[3:])
    # The file keeps its shape: later games are written without facts, and read back.
    assert out.read_text().splitlines()[0] == ",".join(sim.columns(3, facts=False))
    assert [r.facts for r in sim.read_results(out)] == [""] * 6
