"""``closingbell replay``: the table of a good record, the errors of bad ones, exit codes."""

from __future__ import annotations

import json
import random
import re
import tracemalloc
from pathlib import Path

import pytest

import closingbell
from closingbell import State
from closingbell.cli.main import main
from closingbell.core.records import GameRecord

SEATS = ["ana", "bob", "cy"]


def play(players: int, seed: int, steps: int | None = None) -> State:
    state = closingbell.load_game("take_stock", players=players).new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (steps is None or len(state.history) < steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module")
def finished() -> State:
    return play(3, 12)


@pytest.fixture
def good(tmp_path: Path, finished: State) -> Path:
    path = tmp_path / "good.cbrec"
    GameRecord.from_state(finished, SEATS).write(path)
    return path


def corrupt(path: Path, prefix: str, new: str) -> int:
    """Replace the first line of ``path`` starting with ``prefix``; return its number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    number = next(i for i, line in enumerate(lines, 1) if line.startswith(prefix))
    lines[number - 1] = new
    path.write_text("\n".join(lines), encoding="utf-8")
    return number


def test_good_record_prints_rounds_and_result(
    good: Path, finished: State, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(good)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert (
        lines[0]
        == f"take_stock (rules version 1), seed 12, 3 seats, {len(finished.history)} actions"
    )
    head = next(line for line in lines if line.lstrip().startswith("round"))
    assert head.split() == ["round", "ended", "by", "1", "ana", "2", "bob", "3", "cy"]
    rounds = finished.round_results()  # type: ignore[attr-defined]
    reasons = finished.round_end_reasons()  # type: ignore[attr-defined]
    totals = [0, 0, 0]
    start = lines.index(head) + 1
    for number, (points, reason) in enumerate(zip(rounds, reasons, strict=True), 1):
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        expected = [str(number), *reason.split("_")]
        for p, t in zip(points, totals, strict=True):
            expected += [str(p), f"({t})"]
        assert lines[start + number - 1].split() == expected
    scores = finished.scores()
    assert f"final scores: ana {scores[0]}, bob {scores[1]}, cy {scores[2]}" in lines
    (winner,) = finished.winners()
    assert f"winner: {SEATS[winner]} (seat {winner + 1})" in lines
    assert lines[-1] == "every action is legal and the recorded result matches"


def test_quiet_prints_nothing(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--quiet", str(good)]) == 0
    assert capsys.readouterr() == ("", "")


def test_json_summary(good: Path, finished: State, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(good), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert data["file"] == str(good)
    assert data["game"] == "take_stock"
    assert data["seed"] == 12
    assert data["seats"] == SEATS
    assert data["actions"] == len(finished.history)
    assert data["over"] is True
    assert data["scores"] == finished.scores()
    assert data["winners"] == finished.winners()
    assert data["result_checked"] is True
    assert [r["points"] for r in data["rounds"]] == finished.round_results()  # type: ignore[attr-defined]
    assert [r["reason"] for r in data["rounds"]] == finished.round_end_reasons()  # type: ignore[attr-defined]
    assert data["rounds"][-1]["totals"] == finished.scores()


def test_quiet_and_json_do_not_mix(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["replay", "--quiet", "--json", str(good)])
    assert info.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_unfinished_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = play(2, 3, steps=25)
    path = tmp_path / "part.cbrec"
    GameRecord.from_state(state).write(path)
    assert main(["replay", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert "round  ended by" not in out
    assert "unfinished: the game is not over after 25 actions" in out
    scores = state.scores()
    assert f"scores so far: player 1 {scores[0]}, player 2 {scores[1]}" in out


def test_record_without_result(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt(good, "result:", "# result removed")
    assert main(["replay", str(good)]) == 0
    out, _ = capsys.readouterr()
    assert "every action is legal; the record holds no result to compare" in out


def test_illegal_action_is_reported_at_its_line(
    good: Path, finished: State, capsys: pytest.CaptureFixture[str]
) -> None:
    text = good.read_text(encoding="utf-8").split("\n")
    number = text.index("actions:") + 2 + 200  # the line of action 201
    seat = int(text[number - 1].split(":")[0])
    state = finished.game.new_game(12)
    for action in finished.history[:200]:
        state.apply(action)
    illegal = next(a for a in range(364) if a not in state.legal_actions())
    text[number - 1] = f"{seat}: {state.action_to_string(illegal)}"
    good.write_text("\n".join(text), encoding="utf-8")
    assert main(["replay", str(good)]) == 1
    out, err = capsys.readouterr()
    assert err.startswith(f"{good}:{number}: action 201 (seat {seat}): illegal action ")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    # Rounds finished before the bad action were already shown.
    assert "round  ended by" in out


def test_json_prints_nothing_for_a_bad_record(
    good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    number = corrupt(good, "seed:", "seed: -3")
    assert main(["replay", "--json", str(good)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{good}:{number}: bad seed: seed must be between 0 and 2**63 - 1, not -3\n"


@pytest.mark.parametrize(
    ("prefix", "new", "reason"),
    [
        ("closingbell record", "closingbell record 9", "unsupported record format '9'"),
        ("game:", "game: chess", "unknown game 'chess'"),
        ("seats:", 'seats: ["solo"]', "1 seat names for a 3-player game"),
        ("options:", 'options: {"players": 3, "speed": 2}', "bad options: unknown option"),
        ("result:", 'result: {"scores": [0, 0, 0], "winners": [0]}', "scores [0, 0, 0] recorded"),
    ],
)
def test_bad_record_is_reported_at_its_line(
    good: Path, prefix: str, new: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    number = corrupt(good, prefix, new)
    assert main(["replay", "-q", str(good)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{good}:{number}: ")
    assert reason in err
    assert "Traceback" not in err


DEEP = 1000
"""Nesting that ends Python's JSON parser with ``RecursionError``, in a few kilobytes."""


@pytest.mark.parametrize(
    ("prefix", "new", "key"),
    [
        ("options:", 'options: {"players": 3, "x": ' + "[" * DEEP + "]" * DEEP + "}", "options"),
        ("seats:", "seats: " + "[" * DEEP + "]" * DEEP, "seats"),
        ("result:", "result: " + '{"a":' * DEEP + "1" + "}" * DEEP, "result"),
    ],
)
def test_deeply_nested_values_are_reported_at_their_line(
    good: Path, prefix: str, new: str, key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    number = corrupt(good, prefix, new)
    assert main(["replay", str(good)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"{good}:{number}: bad JSON value for {key!r}: arrays and objects nest deeper than "
        "8 levels\n"
    )


def test_a_seat_number_of_5000_digits_is_reported_at_its_line(
    good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = good.read_text(encoding="utf-8").split("\n")
    number = lines.index("actions:") + 2
    lines[number - 1] = "9" * 5000 + ": market A"
    good.write_text("\n".join(lines), encoding="utf-8")
    assert main(["replay", str(good)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{good}:{number}: seat 999999999999... (5000 digits) is not a seat of any game\n"


def test_a_30_mb_record_is_refused_without_reading_it_whole(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The real game's actions over and over: reading it whole took over 600 MB.
    head, actions = good.read_text(encoding="utf-8").split("actions:\n")
    path = tmp_path / "huge.cbrec"
    with path.open("w", encoding="utf-8") as file:
        file.write(head + "actions:\n" + actions * (30_000_000 // len(actions) + 1))
    tracemalloc.start()
    try:
        status = main(["replay", str(path)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 1
    assert re.fullmatch(
        rf"{re.escape(str(path))}:\d+: the record is longer than 1,048,576 bytes, "
        r"the most a record may hold\n",
        capsys.readouterr().err,
    )
    # What Python allocated while reading: a bounded part of the file, never all of it.
    assert peak < 30 * 2**20


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "absent.cbrec"
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"closingbell replay: cannot read {path}: No such file or directory\n"


def test_directory_is_not_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"closingbell replay: cannot read {tmp_path}: ")


def test_non_utf8_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bin.cbrec"
    path.write_bytes(b"closingbell record 1\ngame: take_stock\n\xff\xfe\n")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:3: not UTF-8 text")


@pytest.mark.parametrize("game", ["take_stock", "card_stock_market"])
def test_a_record_from_a_position_replays_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    dealt = closingbell.load_game(game, players=3).new_game(31)
    rng = random.Random(31)
    for _ in range(30):
        dealt.apply(rng.choice(dealt.legal_actions()))
    position = dealt.to_position()
    state = closingbell.load_game(game, players=3).state_from_position(position)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "p.cbrec"
    GameRecord.from_state(state, SEATS, position=position).write(path)
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"{game} (rules version {state.game.info.version}), from a position, seed 31, 3 seats, "
        f"{len(state.history)} actions"
    )
    assert lines[1] == f"position: {position}"
    assert lines[-1] == "every action is legal and the recorded result matches"
    assert main(["replay", "--json", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["position"] == position
    assert summary["scores"] == state.scores()
    # A position the game refuses is reported at its line, with its field and reason.
    text = path.read_text(encoding="utf-8").replace(f"position: {position}", "position: seed: x")
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    with pytest.raises(closingbell.PositionError) as refused:
        closingbell.load_game(game, players=3).state_from_position("seed: x")
    assert refused.value.field == "seed"
    assert capsys.readouterr().err == f"{path}:6: {refused.value}\n"
