"""Matches and tournaments: seating, seeds, determinism across workers, resuming a file."""

from __future__ import annotations

import collections
import csv
import io
from pathlib import Path

import pytest

from closingbell import sim
from closingbell.sim.results import columns
from tests.sim.helpers import QUICK

SEATS = ["random", "ismcts:iterations=2:c=0.5"]


@pytest.fixture(scope="module")
def in_process() -> list[sim.GameResult]:
    return sim.run_match("take_stock", SEATS, games=12, seed=5, options=QUICK, workers=1)


def test_each_deal_is_played_in_every_rotation(in_process: list[sim.GameResult]) -> None:
    assert [r.index for r in in_process] == list(range(12))
    deals = collections.defaultdict(list)
    for r in in_process:
        deals[r.deal].append(r)
        assert r.bots == tuple(SEATS[(seat - r.rotation) % 2] for seat in range(2))
        assert r.deal_seed == sim.deal_seed(5, r.deal)
        assert sum(r.wins) == pytest.approx(1.0)
        assert r.rounds == 1 and r.length > 0 and r.duration > 0
    assert sorted(deals) == list(range(6))
    for games in deals.values():
        assert [g.rotation for g in games] == [0, 1]
        assert len({g.deal_seed for g in games}) == 1
    seat_counts = collections.Counter((r.bots[s], s) for r in in_process for s in range(2))
    assert set(seat_counts.values()) == {6}, "every bot sits at every seat equally often"


def test_workers_do_not_change_the_results(in_process: list[sim.GameResult]) -> None:
    on_two = sim.run_match("take_stock", SEATS, games=12, seed=5, options=QUICK, workers=2)
    assert on_two == in_process
    assert [r.scores for r in on_two] == [r.scores for r in in_process]


def test_card_stock_market_on_two_workers_equals_in_process() -> None:
    seats = ["heuristic", "random", "heuristic:epsilon=0.5"]
    one = sim.run_match("card_stock_market", seats, games=6, seed=1, workers=1)
    two = sim.run_match("card_stock_market", seats, games=6, seed=1, workers=2)
    assert one == two
    assert all(r.rounds == 0 and r.players == 3 for r in one)
    assert len({r.scores for r in one}) > 1


def test_each_game_depends_only_on_its_task(in_process: list[sim.GameResult]) -> None:
    plan = sim.match_plan("take_stock", SEATS, games=12, seed=5, options=QUICK)
    for index in (0, 7, 11):
        task = plan.task(index)
        assert task.bot_seeds == tuple(sim.bot_seed(5, index, seat) for seat in range(2))
        assert sim.play_game(task) == in_process[index]
    other = sim.run_match("take_stock", SEATS, games=12, seed=6, options=QUICK, workers=1)
    assert [r.deal_seed for r in other] != [r.deal_seed for r in in_process]


def test_games_round_up_to_whole_deals() -> None:
    plan = sim.match_plan("take_stock", ["random"] * 3, games=10, seed=0)
    assert (plan.deals, plan.games) == (4, 12)
    assert plan.task(11).deal == 3 and plan.task(11).rotation == 2


def test_tournament_plays_every_combination_on_the_same_deals() -> None:
    bots = ["random", "ismcts:iterations=1", "ismcts:iterations=2"]
    plan = sim.tournament_plan("take_stock", bots, players=2, games=2, seed=3, options=QUICK)
    assert plan.tables == (
        ("random", "ismcts:iterations=1"),
        ("random", "ismcts:iterations=2"),
        ("ismcts:iterations=1", "ismcts:iterations=2"),
    )
    results = sim.execute(plan, workers=1)
    assert len(results) == plan.games == 3 * 2
    for r in results:
        assert set(r.bots) == set(plan.tables[r.table])
        assert r.deal_seed == sim.deal_seed(3, 0)
    summary = sim.summarize(results)
    assert sorted(summary["bots"]) == sorted(bots)
    assert all(b["games"] == 4 for b in summary["bots"].values())
    assert [t["bots"] for t in summary["tables"]] == [list(t) for t in plan.tables]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_resume_skips_the_games_a_file_holds(tmp_path: Path) -> None:
    full = tmp_path / "full.csv"
    reference = sim.run_match(
        "take_stock", ["random"] * 2, games=20, seed=9, options=QUICK, out=full, workers=1
    )
    header, *rows = _lines(full)
    assert header == ",".join(columns(2)) and len(rows) == 20

    # An interrupted run: some games finished (not in order), one more cut off mid-line.
    partial = tmp_path / "partial.csv"
    kept = [rows[4], rows[0], rows[7]]
    cells = next(csv.reader([kept[1]]))
    cells[columns(2).index("seat0_score")] = "999"  # only a skipped game keeps this mark
    line = io.StringIO()
    csv.writer(line, lineterminator="").writerow(cells)
    kept[1] = line.getvalue()
    partial.write_text("\n".join([header, *kept]) + "\n" + rows[1][:15], encoding="utf-8")

    resumed = sim.run_match(
        "take_stock", ["random"] * 2, games=20, seed=9, options=QUICK, out=partial, workers=2
    )
    assert resumed[0].scores[0] == 999, "game 0 was read from the file, not played again"
    assert resumed[1:] == reference[1:]
    header2, *rows2 = _lines(partial)
    assert header2 == header
    assert sorted(int(r.split(",")[0]) for r in rows2) == list(range(20))
    assert sim.read_results(partial) == resumed

    again = sim.run_match(
        "take_stock", ["random"] * 2, games=20, seed=9, options=QUICK, out=partial, workers=2
    )
    assert again == resumed and len(_lines(partial)) == 21, "a finished run plays nothing more"

    more = sim.run_match(
        "take_stock", ["random"] * 2, games=24, seed=9, options=QUICK, out=partial, workers=1
    )
    assert more[:20] == resumed and len(more) == 24, "more games extend the same file"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seed": 10}, "deal_seed"),
        ({"seats": ["random", "ismcts:iterations=1"]}, "bots"),
        ({"options": {"rounds": 2}}, "options"),
        ({"seats": ["random"] * 3}, "columns"),
    ],
)
def test_resume_refuses_a_file_of_other_settings(
    tmp_path: Path, change: dict, message: str
) -> None:
    out = tmp_path / "run.csv"
    settings = {"seats": ["random"] * 2, "seed": 9, "options": QUICK}
    sim.run_match("take_stock", games=2, out=out, workers=1, **settings)
    before = out.read_bytes()
    with pytest.raises(sim.SimulationError, match=message):
        sim.run_match("take_stock", games=2, out=out, workers=1, **{**settings, **change})
    assert out.read_bytes() == before, "a refused file is left as it was"


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["random"], "2 to 6 players, not 1"),
        (["random"] * 7, "2 to 6 players, not 7"),
        (["nobody", "random"], "unknown bot 'nobody'"),
        (["ismcts:iterations", "random"], "bad bot spec"),
        (["ismcts:iterations=0", "random"], "iterations must be a positive integer"),
        (["random:depth=3", "random"], "cannot play"),
    ],
)
def test_bad_matches_are_refused_with_a_reason(seats: list[str], message: str) -> None:
    with pytest.raises(sim.SimulationError, match=message):
        sim.run_match("take_stock", seats, games=2)


def test_parse_spec_reads_typed_settings() -> None:
    spec = sim.parse_spec(" ismcts:iterations=200:c=0.7:flag=true:label=x1:none=None ")
    assert spec.text == "ismcts:iterations=200:c=0.7:flag=true:label=x1:none=None"
    assert spec.kind == "ismcts"
    assert spec.params == {"iterations": 200, "c": 0.7, "flag": True, "label": "x1", "none": None}
    assert type(spec.params["iterations"]) is int
    with pytest.raises(sim.SimulationError, match="given twice"):
        sim.parse_spec("ismcts:c=1:c=2")
    with pytest.raises(sim.SimulationError, match="bot name"):
        sim.parse_spec(":c=1")


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("take_stock", ["heuristic", "medium", "random"], {"rounds": 2}),
        ("card_stock_market", ["heuristic", "easy"], {}),
        ("take_stock", ["ismcts:iterations=8:max_playout=20", "heuristic"], {"rounds": 1}),
    ],
)
def test_every_engine_plays_the_same_games(
    game: str, seats: list[str], options: dict[str, object]
) -> None:
    runs = {
        engine: sim.run_match(
            game, seats, games=4, seed=9, options=options, workers=1, engine=engine
        )
        for engine in ("reference", "auto", "native")
    }
    assert runs["auto"] == runs["reference"] == runs["native"]
    assert {r.length for r in runs["reference"]} != {0}


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(sim.SimulationError, match="engine must be one of auto, native, reference"):
        sim.run_match("take_stock", ["random", "random"], games=2, engine="fast")
