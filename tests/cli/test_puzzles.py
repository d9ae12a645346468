"""``closingbell puzzles build``: puzzles from records and self-play, and its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

import closingbell
from closingbell.cli.main import main
from closingbell.core.records import GameRecord
from closingbell.puzzles import read_puzzles
from tests.puzzles.test_finder import SELL_CLUBS


@pytest.fixture
def record(tmp_path: Path) -> Path:
    game = closingbell.load_game("card_stock_market", players=4)
    state = game.state_from_position(SELL_CLUBS)
    path = tmp_path / "sell.cbrec"
    GameRecord.from_state(state, position=SELL_CLUBS).write(path)
    return path


def test_build_finds_the_puzzle_of_a_record_and_appends_without_repeats(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.jsonl"
    args = ["puzzles", "build", str(record), "--worlds", "24", "--screen", "8", "--seed", "1"]
    assert main([*args, "--out", str(out), "--quiet"]) == 0
    assert "1 puzzles written" in capsys.readouterr().out
    (puzzle,) = read_puzzles(out)
    assert puzzle.source == f"{record} action 1"
    assert (
        closingbell.load_game("card_stock_market", players=4).action_to_string(puzzle.best)
        == "sell 10C"
    )
    # Again into the same file: refused without --append, nothing repeated with it.
    assert main([*args, "--out", str(out), "--quiet"]) == 2
    assert "--append" in capsys.readouterr().err
    assert main([*args, "--out", str(out), "--quiet", "--append"]) == 0
    assert "0 puzzles written" in capsys.readouterr().out
    assert read_puzzles(out) == [puzzle]


def test_build_plays_the_bots_games_on_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.jsonl"
    argv = ["puzzles", "build", "--from-selfplay", "2", "--game", "take_stock", "--players", "2"]
    argv += ["--option", "rounds=1", "--worlds", "4", "--screen", "0", "--workers", "2"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    summary = capsys.readouterr().out
    looked = int(summary.split(" decisions looked at")[0].rsplit(" ", 1)[1])
    assert looked > 10 and summary.rstrip().endswith(" s)") and "in 2 games" in summary
    found = read_puzzles(out)
    assert f"{len(found)} puzzles written" in summary
    for puzzle in found:
        assert puzzle.source.startswith("self-play hard/hard deal ")
        assert (puzzle.options["players"], puzzle.options["rounds"]) == (2, 1)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "name RECORD files or --from-selfplay"),
        (["--from-selfplay", "1", "--game", "chess"], "chess"),
        (["--from-selfplay", "1", "--bots", "grandmaster"], "grandmaster"),
        (["--from-selfplay", "1", "--players", "9"], "players"),
        (["--from-selfplay", "1", "--worlds", "1"], "at least 2 worlds"),
    ],
)
def test_build_refuses_bad_use_and_writes_nothing(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.jsonl"
    assert main(["puzzles", "build", *argv, "--out", str(out), "--quiet"]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_build_refuses_a_bad_record_or_puzzle_file(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.cbrec"
    bad.write_text("game: chess\n")
    out = tmp_path / "p.jsonl"
    assert main(["puzzles", "build", str(bad), "--out", str(out), "--quiet"]) == 1
    assert "bad.cbrec" in capsys.readouterr().err
    assert not out.exists()
    out.write_text("{nope\n")
    argv = ["puzzles", "build", str(record), "--out", str(out), "--append", "--quiet"]
    assert main(argv) == 1
    assert "line 1: not JSON" in capsys.readouterr().err
    assert out.read_text() == "{nope\n"
