"""``closingbell play``: the command line's arguments reach the terminal game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from closingbell import load_game
from closingbell.cli.main import main
from closingbell.core.records import GameRecord, replay


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


# ---------------------------------------------------------------- starting from a position


def position_of(game: str, players: int, seed: int, steps: int) -> str:
    """The canonical position of a game dealt from ``seed`` after ``steps`` random actions."""
    state = load_game(game, players=players).new_game(seed)
    rng = random.Random(seed)
    while len(state.history) < steps:
        state.apply(rng.choice(state.legal_actions()))
    return state.to_position()


@pytest.mark.parametrize("game", ["take_stock", "card_stock_market"])
def test_a_game_starts_from_a_position_and_its_record_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    position = position_of(game, 3, 21, 30)
    path = tmp_path / "g.cbrec"
    args = ["play", "--game", game, "--seats", "random,easy,random", "--pace", "0"]
    assert main([*args, "--position", position, "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "from a position" in out
    record = GameRecord.read(path)
    assert record.position == position
    assert record.seed == 21
    assert record.result is not None
    final = replay(record)
    assert final.is_terminal()
    assert final.scores() == list(record.result.scores)


def test_a_position_is_read_from_a_file(tmp_path: Path) -> None:
    position = position_of("card_stock_market", 2, 4, 12)
    written = tmp_path / "start.txt"
    # A file may spread the fields over lines and hold comments.
    written.write_text("\ufeff# a puzzle\n" + position.replace("; ", "\n") + "\n", encoding="utf-8")
    path = tmp_path / "g.cbrec"
    args = ["play", "--game", "card_stock_market", "--seats", "random,random", "--pace", "0"]
    assert main([*args, "--position", f"@{written}", "--save", str(path)]) == 0
    assert GameRecord.read(path).position == position


def test_a_short_position_starts_from_its_defaults(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    args = ["play", "--game", "card_stock_market", "--seats", "random,random", "--pace", "0"]
    assert main([*args, "--position", "seed: 8; cash: 150 / 250", "--save", str(path)]) == 0
    record = GameRecord.read(path)
    assert record.position is not None
    assert "cash: 150 / 250" in record.position
    assert record.seed == 8


@pytest.mark.parametrize(
    ("position", "words"),
    [
        ("seed: 8; cash: 150", ["field “cash”", "2 seats need 2 parts"]),
        ("seed: 8; colour: red", ["field “colour”", "no such field"]),
        ("hands", ["the position is refused:", "not a field"]),
    ],
)
def test_a_bad_position_is_refused_with_its_field_and_nothing_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], position: str, words: list[str]
) -> None:
    path = tmp_path / "g.cbrec"
    args = ["play", "--game", "card_stock_market", "--seats", "random,random"]
    assert main([*args, "--position", position, "--save", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("closingbell play: ") and "\n" not in err
    for word in words:
        assert word in err
    assert not path.exists()


def test_position_arguments_that_cannot_go_together_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.cbrec"
    base = ["play", "--game", "card_stock_market", "--seats", "random,random", "--save", str(path)]
    assert main([*base, "--position", "seed: 3", "--seed", "3"]) == 2
    assert "leave out --seed" in capsys.readouterr().err
    assert main([*base, "--position", f"@{tmp_path / 'missing.txt'}"]) == 2
    assert "cannot read" in capsys.readouterr().err
    big = tmp_path / "big.txt"
    big.write_text("# " + "x" * 20_000, encoding="utf-8")
    assert main([*base, "--position", f"@{big}"]) == 2
    assert "longer than a position may be" in capsys.readouterr().err
    assert main(["play", "--resume", "x.cbrec", "--position", "seed: 1"]) == 2
    assert "--position" in capsys.readouterr().err
    assert not path.exists()


def test_rules_options_come_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.cbrec"
    args = ["play", "--seats", "random,random", "--seed", "3", "--pace", "0"]
    assert main([*args, "--option", "rounds=1", "--save", str(path)]) == 0
    record = GameRecord.read(path)
    assert record.options["rounds"] == 1
    assert len(record.result.rounds or ()) == 1  # type: ignore[union-attr]
    assert main([*args, "--option", "rouds=1", "--save", str(tmp_path / "h.cbrec")]) == 2
    assert "bad rules option" in capsys.readouterr().err
    assert main([*args, "--option", "players=3", "--save", str(tmp_path / "h.cbrec")]) == 2
    assert "number of seats" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args, "--option", "rounds"])


def test_help_tells_how_to_give_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--position TEXT" in out
    assert "@FILE" in out
    assert "docs/positions.md" in out
