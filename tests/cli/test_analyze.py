"""``closingbell analyze``: a seat's decisions reviewed from a record, as text, JSON and a chart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from closingbell.bots.analysis import Analyst
from closingbell.cli.main import main
from closingbell.core.records import GameRecord
from closingbell.text.games import narrator_for

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RECORD = GOLDEN / "take_stock_2p.cbrec"


def test_the_review_as_json_names_every_decision_with_a_choice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["analyze", str(RECORD), "--seat", "2", "--budget", "4", "--json"]) == 0
    out, err = capsys.readouterr()
    found = json.loads(out)
    record = GameRecord.read(RECORD)
    state = record.start()
    with_choice = []
    for index, recorded in enumerate(record.actions):
        if state.current_player == 1 and len(state.legal_actions()) > 1:
            with_choice.append(index)
        state.apply(state.game.string_to_action(recorded.text))
    assert [d["index"] for d in found["decisions"]] == with_choice
    assert (found["seat"], found["budget"], found["game"]) == (2, 4, "take_stock")
    assert found["mistakes"] == sum(d["mistake"] for d in found["decisions"])
    for d in found["decisions"]:
        assert d["actions"][0] == d["best"]
        assert d["taken"] in d["actions"]
        checked = d["checked"]
        assert (checked is None) == (d["taken"]["action"] == d["best"]["action"])
        assert d["mistake"] == (
            d["taken"]["behind_interval"][1] < 0
            and checked is not None
            and checked["behind_interval"][1] < 0
        )
        assert (
            0
            <= d["taken"]["win_interval"][0]
            <= d["taken"]["win"]
            <= d["taken"]["win_interval"][1]
            <= 1
        )
    assert found["mistakes"] > 0
    for d in found["decisions"]:
        # A mistake says why, ending with its measured cost; other decisions say nothing.
        assert ("reason" in d) == d["mistake"]
        if d["mistake"]:
            assert "The cost: about" in d["reason"] and "points of final margin" in d["reason"]
    assert "left" in err  # progress and the time left
    # The same seed gives the same review.
    assert main(["analyze", str(RECORD), "--seat", "2", "--budget", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr()[0]) == found


@pytest.mark.parametrize(
    ("record", "seat"), [("take_stock_2p.cbrec", 1), ("card_stock_market_2p.cbrec", 2)]
)
def test_a_mistakes_reason_is_the_narrators_from_the_seats_view(
    record: str, seat: int, capsys: pytest.CaptureFixture[str]
) -> None:
    path = GOLDEN / record
    args = ["analyze", str(path), "--seat", str(seat), "--budget", "4", "--seed", "2"]
    assert main([*args, "--json", "--lang", "zh-Hant"]) == 0
    found = json.loads(capsys.readouterr()[0])
    marked = [d for d in found["decisions"] if d["mistake"]]
    assert marked
    read = GameRecord.read(path)
    state = read.start()
    narrator = narrator_for(state.game, list(read.seats), "zh-Hant")
    assert narrator is not None
    first = marked[0]
    for recorded in read.actions[: first["index"]]:
        state.apply(state.game.string_to_action(recorded.text))
    view = state.view(seat - 1)
    taken = first["taken"]["action"]
    analysis = Analyst(state.game, worlds=4, seed=2).analyze(view, taken)
    assert first["reason"] == narrator.explain(view, taken, analysis.best, analysis)
    assert first["reason"].startswith("選擇") and "代價" in first["reason"]
    # The text review prints each reason under its mistake.
    assert main(args) == 0
    lines = capsys.readouterr()[0].splitlines()
    at = next(i for i, line in enumerate(lines) if "MISTAKE" in line)
    assert lines[at + 1].startswith("      ") and "The cost: about" in lines[at + 1]


def test_the_text_review_and_the_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "review.png"
    assert main(["analyze", str(RECORD), "--seat", "1", "--budget", "3", "--plot", str(chart)]) == 0
    out = capsys.readouterr()[0]
    assert out.splitlines()[0].startswith(GameRecord.read(RECORD).seats[0])
    assert "mistakes" in out.splitlines()[0] and "margin" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["--seat", "3"], 2, "--seat is 1 to 2"),
        (["--seat", "0"], 2, "--seat is 1 to 2"),
        (["--seat", "1", "--budget", "0"], 2, "--budget is at least 2"),
        (["--seat", "1", "--budget", "1"], 2, "--budget is at least 2"),
    ],
)
def test_bad_use_is_refused_in_one_line(
    args: list[str], status: int, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(RECORD), *args]) == status
    assert said in capsys.readouterr()[1]


def test_a_bad_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.cbrec"
    bad.write_text("not a record\n", encoding="utf-8")
    assert main(["analyze", str(bad), "--seat", "1"]) == 1
    assert "closingbell analyze:" in capsys.readouterr()[1]
    assert main(["analyze", str(tmp_path / "missing.cbrec"), "--seat", "1"]) == 1
    assert "cannot read" in capsys.readouterr()[1]
