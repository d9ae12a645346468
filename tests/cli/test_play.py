"""``closingbell play``: the command line's arguments reach the terminal game."""

from __future__ import annotations

from pathlib import Path

import pytest

from closingbell.cli.main import main
from closingbell.core.records import GameRecord


def test_bots_alone_play_a_game_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.cbrec"
    args = ["play", "--seats", "random,easy", "--seed", "5", "--pace", "0", "--save", str(path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Final scores" in out
    assert GameRecord.read(path).result is not None


def test_chinese_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.cbrec"
    args = ["play", "--seats", "random,random", "--lang", "zh-Hant", "--pace", "0"]
    assert main([*args, "--seed", "2", "--save", str(path)]) == 0
    assert "最終得分" in capsys.readouterr().out


def test_bad_arguments_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seats", "you,wizard"]) == 2
    assert "unknown seat “wizard”" in capsys.readouterr().err
    assert main(["play", "--seats", "you"]) == 2
    assert "needs 2 to 6 seats" in capsys.readouterr().err
    assert main(["play", "--resume", str(tmp_path / "missing.cbrec")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["play", "--resume", "x", "--seed", "3"]) == 2
    with pytest.raises(SystemExit):
        main(["play", "--lang", "fr"])
    with pytest.raises(SystemExit):
        main(["play", "--pace", "-1"])
