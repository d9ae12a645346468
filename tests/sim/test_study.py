"""The study of a game: its plans, its figures checked against the games, its report."""

from __future__ import annotations

import collections
import json
import statistics
from pathlib import Path
from typing import Any

import pytest

import closingbell
from closingbell import sim
from closingbell.cli.main import main
from closingbell.sim.play import facts_of, game_facts
from closingbell.sim.study import FIELD, WEAKER, Study, analyze, run_study, study_plans
from closingbell.sim.study_report import CHARTS, headlines, report_markdown
from tests.sim.helpers import QUICK

SMALL = Study("take_stock", players=(2, 3), games=6, seed=4, options=QUICK, option_players=3)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("study")
    return out, run_study(SMALL, out, workers=1)


def test_a_study_plays_a_field_skill_tables_and_each_option_on_the_field_s_deals() -> None:
    plans = {p.name: p for p in study_plans(SMALL)}
    varied = SMALL.varied()
    assert len(varied) == 9 and "rounds" not in {k for k, _, _ in varied}
    assert len(plans) == 2 + 2 * len(WEAKER) + len(varied)
    field = plans["field-3"].plan
    # One bot at every seat: each deal once, not once per rotation.
    assert field.tables == ((FIELD,) * 3,) and field.games == SMALL.games
    skill = plans["skill-easy-3"].plan
    assert skill.tables == ((FIELD, "easy", "easy"),) and skill.games == 6
    assert {skill.task(i).bots.count(FIELD) for i in range(skill.games)} == {1}
    for key, value, default in varied:
        option = plans[f"option-{key}={json.dumps(value)}"].plan
        assert json.loads(option.options) == {**QUICK, key: value} and value != default
        # The same deals as the field, so that each deal is compared with itself.
        assert [option.task(i).deal_seed for i in range(6)] == [
            field.task(i).deal_seed for i in range(6)
        ]


def test_bad_studies_are_refused() -> None:
    with pytest.raises(sim.SimulationError, match="unknown game"):
        Study("chess")
    with pytest.raises(sim.SimulationError, match="2 to 6 players, not 7"):
        Study("take_stock", players=(2, 7))
    with pytest.raises(sim.SimulationError, match="2 to 6 players, not 1"):
        Study("card_stock_market", option_players=1)
    with pytest.raises(sim.SimulationError, match="at least 2 games"):
        Study("take_stock", games=1)
    with pytest.raises(sim.SimulationError, match="rounds"):
        Study("take_stock", options={"rounds": 99})


def test_every_game_records_what_happened_in_it() -> None:
    game = closingbell.load_game("take_stock", players=3, rounds=2)
    state = game.new_game(3)
    first = state.current_player
    bots = [closingbell.make_bot("hard", game, seed=q) for q in range(3)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat)))
    facts = game_facts(state, first)
    kinds = collections.Counter(entry[1][0] for entry in state.log)
    assert {k: v for k, v in facts.items() if ":" not in k and k != "first_seat"} == kinds
    assert facts["first_seat"] == first and facts["round_end"] == 2
    ends = sum(v for k, v in facts.items() if k.startswith("round_end:"))
    assert ends == 2
    assert [k.split(":")[1] for k in facts if k.startswith("round_end:")] == sorted(
        {entry[1][2] for entry in state.log if entry[1][0] == "round_end"}
    )


def test_the_figures_are_those_of_the_games(played: tuple[Path, dict[str, Any]]) -> None:
    out, results = played
    doc = analyze(SMALL, results)
    field = results["field-3"]
    summary = doc["field"]["3"]
    assert summary["games"] == 6 and summary["even"] == pytest.approx(1 / 3)
    # Each game's win goes to one place in the turn order, counted from the first seat.
    by_place = [0.0, 0.0, 0.0]
    for r in field:
        first = facts_of(r)["first_seat"]
        for seat, win in enumerate(r.wins):
            by_place[(seat - first) % 3] += win
    assert [p["rate"] for p in summary["by_place"]] == pytest.approx([w / 6 for w in by_place])
    assert summary["length"]["mean"] == pytest.approx(statistics.fmean(r.length for r in field))
    ends = summary["facts"]["round_end:market_closed"]["mean"]
    closed = [facts_of(r).get("round_end:market_closed", 0) for r in field]
    assert ends == pytest.approx(sum(closed) / 6)  # one round a game
    skill = doc["skill"]["2"]["random"]
    games = results["skill-random-2"]
    wins = sum(w for r in games for b, w in zip(r.bots, r.wins, strict=True) if b == FIELD)
    assert skill["rate"] == pytest.approx(wins / 6) and skill["rate"] > skill["fair"]
    # An option is compared with the field deal by deal.
    item = next(i for i in doc["options_compared"] if i["option"] == "frozen_scoring")
    changed = results['option-frozen_scoring="zero"']
    length = item["metrics"]["length"]
    diffs = [b.length - a.length for a, b in zip(field, changed, strict=True)]
    assert length["difference"] == pytest.approx(statistics.fmean(diffs))
    assert (item["value"], item["default"], item["players"]) == ("zero", "price", 3)
    # Every game is kept, one file a measurement.
    files = sorted(p.name for p in (out / "games").iterdir())
    assert len(files) == len(study_plans(SMALL)) and "field-3.csv" in files


def test_a_study_goes_on_where_it_stopped(
    played: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    out, results = played
    again = run_study(SMALL, out, workers=1)
    assert again == results
    bigger = Study("take_stock", players=(2, 3), games=8, seed=4, options=QUICK, option_players=3)
    more = run_study(bigger, out, workers=1)
    assert more["field-3"][:6] == results["field-3"] and len(more["field-3"]) == 8


def test_the_report_says_what_the_figures_say(
    played: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    _, results = played
    doc = analyze(SMALL, results)
    text = report_markdown(doc, "closingbell study --game take_stock")
    assert text.startswith("# What Take Stock is like: a study")
    assert "closingbell study --game take_stock" in text
    for line in headlines(doc):
        assert f"- {line}" in text
    first = doc["field"]["2"]["by_place"][0]
    assert f"| 2 | 6 | {100 * first['rate']:.1f}%" in text
    for item in doc["options_compared"]:
        assert f"`{item['option']}={json.dumps(item['value'])}`" in text
    for chart in CHARTS:
        assert f"({chart})" in text


def test_the_command_writes_the_report_and_refuses_bad_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    args = ["study", "--game", "take_stock", "--players", "2", "--games", "4"]
    args += ["--option-players", "2", "--option", "rounds=1", "--workers", "1", "--quiet"]
    assert main([*args, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"Report: {out / 'report.md'}" in printed and "Going first." in printed
    data = json.loads((out / "study.json").read_text())
    assert data["command"] == (
        "closingbell study --game take_stock --players 2 --games 4 --seed 0 "
        f"--option-players 2 --option rounds=1 --out {out}"
    )
    assert data["players"] == [2] and data["options"] == {"rounds": 1}
    for chart in CHARTS:
        assert (out / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for bad, message in [
        (["--game", "chess"], "unknown game"),
        (["--game", "take_stock", "--players", "9"], "not 9"),
        (["--game", "take_stock", "--option", "rounds=0"], "rounds"),
        (["--game", "take_stock", "--address", "ray://x:1"], "--address needs --backend ray"),
    ]:
        nowhere = tmp_path / "nowhere"
        assert main(["study", *bad, "--out", str(nowhere)]) == 2
        assert message in capsys.readouterr().err and not nowhere.exists()
    with pytest.raises(SystemExit):
        main(["study", "--game", "take_stock", "--players", "x", "--out", str(tmp_path)])
