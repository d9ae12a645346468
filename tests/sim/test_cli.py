"""``closingbell simulate``: its summary, JSON, plots, errors, and Ctrl-C with resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from closingbell import sim
from closingbell.cli.hints import install_extra
from closingbell.cli.main import main
from tests.sim.helpers import QUICK, QUICK_ARGS, cli, run_json

PNG = b"\x89PNG\r\n\x1a\n"


def test_json_summary_shape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    doc = run_json(
        capsys,
        *QUICK_ARGS,
        "--seats",
        "random,ismcts:iterations=2",
        "--games",
        "5",
        "--seed",
        "4",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert doc["games"] == 6, "5 games round up to 3 deals of 2 rotations"
    assert (doc["game"], doc["seed"], doc["deals"], doc["players"]) == ("take_stock", 4, 3, 2)
    assert doc["options"] == QUICK
    assert set(doc["bots"]) == {"random", "ismcts:iterations=2"}
    for stats in doc["bots"].values():
        assert stats["games"] == 6
        assert 0 <= stats["wins"] <= 6
        assert stats["win_rate"] == pytest.approx(stats["wins"] / 6)
        low, high = stats["ci95"]
        assert 0 <= low <= stats["win_rate"] <= high <= 1
        assert isinstance(stats["mean_score"], float)
        assert set(stats["rating"]) == {"mu", "sigma", "ordinal"}
    assert sum(b["wins"] for b in doc["bots"].values()) == pytest.approx(6)
    assert [s["seat"] for s in doc["seats"]] == [0, 1]
    assert doc["length"]["mean_rounds"] == 1
    assert doc["out"] == str(out)
    assert doc == {**doc, **_same_from_library(out)}


def _same_from_library(out: Path) -> dict[str, object]:
    results = sim.read_results(out)
    summary = sim.summarize(results)
    summary.pop("length")  # durations are measured, not reproduced
    return json.loads(json.dumps(summary))


def test_text_summary_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    bots = "random,ismcts:iterations=1,ismcts:iterations=2"
    assert cli(["simulate", *QUICK_ARGS, "--tournament", "--bots", bots, "--games", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("take_stock, 2 players, tournament of 3 tables: 6 games")
    for name in ("random", "ismcts:iterations=1", "ismcts:iterations=2"):
        assert any(line.startswith(name + " ") for line in text.splitlines())
    assert "Advantage by seat" in text and "Win rate at each table" in text
    assert "Wilson" in text


def test_plots_are_png_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plots = tmp_path / "plots"
    doc = run_json(
        capsys,
        *QUICK_ARGS,
        "--seats",
        "random,random,ismcts:iterations=1",
        "--games",
        "3",
        "--workers",
        "1",
        "--plot",
        str(plots),
    )
    names = sorted(Path(p).name for p in doc["plots"])
    assert names == sorted(sim.plots.PLOTS)
    for name in names:
        data = (plots / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000


def test_plot_summary_from_the_library(tmp_path: Path) -> None:
    results = sim.run_match("take_stock", ["random", "random"], games=4, options=QUICK, workers=1)
    paths = sim.plot_summary(results, sim.summarize(results), tmp_path / "new" / "dir")
    assert [p.name for p in paths] == list(sim.plots.PLOTS)
    assert all(p.read_bytes().startswith(PNG) for p in paths)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "random,wizard"], "unknown bot 'wizard'"),
        (["--seats", "random,ismcts:iterations"], "bad bot spec"),
        (["--seats", "random,ismcts:c=-1"], "exploration constant"),
        (["--seats", "random"], "2 to 6 players, not 1"),
        (["--seats", ",".join(["random"] * 7)], "2 to 6 players, not 7"),
        (["--seats", "random,random", "--players", "3"], "--players is 3"),
        (["--seats", "random,,random"], "empty bot spec"),
        (["--game", "chess", "--seats", "random,random"], "unknown game 'chess'"),
        (["--seats", "random,random", "--option", "rounds=99"], "rounds"),
        (["--seats", "random,random", "--option", "rounds"], "KEY=VALUE"),
        (["--seats", "random,random", "--address", "auto"], "--backend ray"),
        (["--tournament", "--bots", "random"], "at least 2 bots"),
        (["--tournament", "--bots", "random,random"], "different specs"),
        (["--tournament"], "needs --bots"),
        (["--bots", "random,random"], "--tournament"),
        ([], "needs --seats"),
    ],
)
def test_bad_arguments_exit_2_with_a_reason(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert cli(["simulate", "--quiet", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "closingbell simulate: error:" in captured.err
    assert message in captured.err


@pytest.mark.parametrize("args", [["--games", "0"], ["--workers", "0"], ["--backend", "mpi"]])
def test_bad_numbers_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert cli(["simulate", "--seats", "random,random", *args]) == 2
    assert "error" in capsys.readouterr().err


def test_resume_with_other_settings_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = str(tmp_path / "r.csv")
    base = ["simulate", *QUICK_ARGS, "--seats", "random,random", "--games", "2", "--out", out]
    assert cli(base) == 0
    capsys.readouterr()
    assert cli([*base, "--seed", "1"]) == 2
    assert "other settings" in capsys.readouterr().err


def test_ray_backend_without_ray_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what a missing package looks like
    assert cli(["simulate", "--seats", "random,random", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert "needs Ray" in err and f"install it with: {install_extra('dist')}" in err


def _data_rows(path: Path) -> int:
    if not path.exists():
        return 0
    return max(0, path.read_text(encoding="utf-8").count("\n") - 1)


def test_ctrl_c_keeps_finished_games_and_the_same_command_resumes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run.csv"
    argv = [*QUICK_ARGS, "--seats", "random,random", "--games", "1200", "--seed", "8"]
    argv += ["--workers", "2", "--out", str(out)]
    command = [sys.executable, "-m", "closingbell.cli.main", "simulate", *argv]
    # Its own process group, like a terminal's job, so that Ctrl-C reaches the workers too.
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 30
        while _data_rows(out) < 20 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err.decode()
    assert b"interrupted" in err and b"resume" in err
    saved = sim.read_results(out)
    assert 20 <= len(saved) < 1200, "interrupted part-way, finished games kept"

    plan = sim.match_plan("take_stock", ["random", "random"], games=1200, seed=8, options=QUICK)
    for result in saved[:: max(1, len(saved) // 10)]:
        assert sim.play_game(plan.task(result.index)) == result

    assert cli(["simulate", "--json", *argv]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 1200
    resumed = sim.read_results(out)
    assert [r.index for r in resumed] == list(range(1200))
    assert resumed[: len(saved)] != [] and {r.index: r for r in resumed}[saved[0].index] == saved[0]
    for index in (0, 567, 1199):
        assert sim.play_game(plan.task(index)) == resumed[index]


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--option", "rounds=1", "--seats", "random,random", "--games", "6"]
    assert cli([*argv, "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "6/6" in captured.err and "game/s" in captured.err
    assert "6/6" not in captured.out and captured.out.startswith("take_stock, 2 players")


def test_a_missing_sim_extra_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "openskill" else real(name, *a),
    )
    assert main(["simulate", "--seats", "random,random", "--games", "2", "--quiet"]) == 2
    assert f"install it with: {install_extra('sim')}" in capsys.readouterr().err
