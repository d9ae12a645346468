"""``closingbell bench``: the shape of its table and JSON, never its speed."""

from __future__ import annotations

import json
import math
import re

import pytest

import closingbell
from closingbell import native
from closingbell.cli.main import main
from closingbell.core import replay, serial
from closingbell.core.registry import game_class
from closingbell.sim import bench

QUICK = ["--games", "2", "--seconds", "0.05", "--states", "4"]
"""Options that keep each run short: the figures are checked for shape only."""

NUMBER = re.compile(r"^\d[\d,]*(\.\d+)?$")


ENGINES = ("reference", "native")


def all_cases() -> list[tuple[str, int, str]]:
    return [
        (name, n, engine)
        for name in closingbell.available_games()
        for n in bench.player_counts(name)
        for engine in ENGINES
    ]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["bench", *QUICK, "--json", *args]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert isinstance(doc, dict)
    return doc


def test_table_has_a_row_per_game_and_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *QUICK]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("game"))
    assert "decisions/s" in lines[header] and "games/s" in lines[header]
    assert "clone" in lines[header] and "sample_state" in lines[header]
    assert "to_json" in lines[header] and "from_json" in lines[header]
    assert "view" in lines[header] and "rule-based" in lines[header]
    assert set(lines[header + 1]) <= {"-", " "}
    end = lines.index("", header)
    rows = [line.split() for line in lines[header + 2 : end]]
    assert [(row[0], int(row[1]), row[2]) for row in rows] == all_cases()
    for row in rows:
        assert len(row) == len(bench.COLUMNS)
        assert row[3] == "2", "--games 2 plays exactly two games per count"
        for cell in row[4:]:
            assert NUMBER.match(cell), cell
            assert float(cell.replace(",", "")) > 0
    # Then the compiled engine's speed-up, one row per game and player count.
    assert lines[end + 1].startswith("native engine's speed-up over the reference")
    speedups = [line.split() for line in lines[end + 4 :] if line.strip()]
    assert [(row[0], int(row[1])) for row in speedups] == [
        (name, n) for name, n, engine in all_cases() if engine == "native"
    ]
    for row in speedups:
        assert len(row) == 2 + len(bench.SPEEDUPS)
        assert all(re.match(r"^\d[\d,]*\.\dx$", cell) for cell in row[2:]), row


def test_json_figures_are_positive_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys)
    assert doc["closingbell"] == closingbell.__version__
    results = doc["results"]
    assert isinstance(results, list)
    assert [(r["game"], r["players"], r["engine"]) for r in results] == all_cases()
    for r in results:
        assert r["games"] == 2
        assert isinstance(r["decisions"], int) and r["decisions"] >= 2
        assert r["states"] == 4
        for key in (
            "seconds",
            "decisions_per_second",
            "games_per_second",
            "clone_us",
            "view_us",
            "sample_us",
            "heuristic_us",
            "heuristic_games_per_second",
            "to_json_us",
            "from_json_us",
            "sampled_to_json_us",
            "sampled_from_json_us",
            "ismcts_ips",
            "paired_wps",
            "vector_steps_per_second",
        ):
            assert isinstance(r[key], float) and math.isfinite(r[key]) and r[key] > 0, key
        assert r["mean_decisions"] == r["decisions"] / 2
        assert r["decisions_per_second"] == pytest.approx(r["decisions"] / r["seconds"])
    speedups = doc["speedups"]
    assert isinstance(speedups, list)
    assert [(e["game"], e["players"]) for e in speedups] == [
        (name, n) for name, n, engine in all_cases() if engine == "native"
    ]
    by_row = {(r["game"], r["players"], r["engine"]): r for r in results}
    for e in speedups:
        ref = by_row[e["game"], e["players"], "reference"]
        nat = by_row[e["game"], e["players"], "native"]
        assert (
            e["decisions_per_second"] == nat["decisions_per_second"] / ref["decisions_per_second"]
        )
        assert e["clone_us"] == ref["clone_us"] / nat["clone_us"]


def test_game_and_players_select_the_rows(capsys: pytest.CaptureFixture[str]) -> None:
    name = closingbell.available_games()[0]
    info = game_class(name).info
    counts = [info.min_players, info.max_players]
    doc = run_json(capsys, "--game", name, "--players", *map(str, counts))
    results = doc["results"]
    assert isinstance(results, list)
    assert [(r["game"], r["players"]) for r in results] == [
        (name, n) for n in counts for _ in ENGINES
    ]


def test_engine_selects_the_rows(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "--game", "take_stock", "--players", "2", "--engine", "reference")
    results = doc["results"]
    assert isinstance(results, list)
    assert [(r["players"], r["engine"]) for r in results] == [(2, "reference")]
    assert doc["speedups"] == []


def test_refuses_player_counts_no_game_allows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *QUICK, "--players", "99"]) == 2
    captured = capsys.readouterr()
    assert "99" in captured.err and captured.out == ""


@pytest.mark.parametrize("bad", [["--games", "0"], ["--seconds", "-1"], ["--game", "no_such"]])
def test_refuses_bad_options(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["bench", *bad])
    assert info.value.code == 2
    assert capsys.readouterr().err


def test_timed_playouts_stop_after_the_budget() -> None:
    game = closingbell.load_game(closingbell.available_games()[0], players=3)
    figures = bench.time_playouts(game, seconds=0.05)
    assert figures.games >= 1 and figures.decisions >= figures.games
    assert figures.seconds >= 0.05
    assert figures.games_per_second > 0 and figures.decisions_per_second > 0


def test_positions_are_live_states_of_the_game() -> None:
    game = closingbell.load_game(closingbell.available_games()[0], players=4)
    states = bench.sample_positions(game, 12, seed=3)
    assert len(states) == 12
    assert all(not s.is_terminal() and s.game is game for s in states)
    assert len({len(s.history) for s in states}) > 1, "positions come from several stages"


def test_the_json_figures_leave_the_compiled_code_plugged_in(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The plain Python code is timed too, by unplugging the compiled codecs for a while.
    run_json(capsys, "--players", "3")
    for name, short in native.SERIAL_MODULES.items():
        module = native.module(short)
        assert module is not None
        assert type(serial.registered_codec(name)) is module.Codec
        assert replay.registered(name) is module.replay
