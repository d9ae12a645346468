"""``closingbell bench --web`` on a tiny run: a real server process and real clients play,
and the figures hang together. No timing thresholds: this is a benchmark's test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from closingbell.cli.main import build_parser
from closingbell.server.loadtest import (
    WebBenchSettings,
    format_report,
    percentile,
    run_webbench,
)


def test_percentile_is_nearest_rank() -> None:
    samples = [float(x) for x in range(1, 101)]
    assert percentile(samples, 0.5) == 50.0
    assert percentile(samples, 0.99) == 99.0
    assert percentile(samples, 1.0) == 100.0
    assert percentile([], 0.5) == 0.0
    assert percentile([3.0], 0.99) == 3.0


def test_a_tiny_run_plays_and_measures(tmp_path: Path) -> None:
    settings = WebBenchSettings(
        tables=3, seconds=3.0, database=f"sqlite:///{tmp_path / 'bench.db'}", think=0.05
    )
    result = run_webbench(settings)
    assert result.errors == {}
    assert result.actions > 0
    assert result.tables_held == 3
    assert result.clients == 6
    lat = result.latency_ms
    assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    assert result.messages >= result.actions
    assert result.actions_per_second > 0
    assert result.client_cpu >= 0
    doc = result.to_dict()
    assert json.loads(json.dumps(doc))["actions"] == result.actions
    report = format_report(result)
    assert "p99" in report
    assert "2 open seats" in report


def test_expert_tables_think_in_the_servers_helper_processes(tmp_path: Path) -> None:
    settings = WebBenchSettings(
        tables=1,
        # Long enough for the helper process to start and answer on a loaded 2-core machine.
        seconds=8.0,
        database=f"sqlite:///{tmp_path / 'bench.db'}",
        think=0.05,
        experts=1,
        bot_processes=1,
    )
    result = run_webbench(settings)
    assert result.errors == {}
    assert result.actions > 0
    assert result.expert_actions > 0
    assert result.helper_cpu is not None and result.helper_cpu > 0
    report = format_report(result)
    assert "1, bot processes: 1" in report
    assert "expert actions" in report
    assert result.to_dict()["expert_actions_per_second"] > 0


def test_replays_are_asked_for_and_their_cost_to_the_event_loop_measured(tmp_path: Path) -> None:
    settings = WebBenchSettings(
        tables=1, seconds=3.0, database=f"sqlite:///{tmp_path / 'bench.db'}", think=0.05, replays=5
    )
    result = run_webbench(settings)
    assert result.errors == {}
    assert result.actions > 0
    assert result.replays_answered > 0
    assert 0 < result.replay_ms["p50"] <= result.replay_ms["max"]
    assert result.loop_cpu is not None and result.loop_ms_per_replay is not None
    assert "asked 5 a second" in format_report(result)
    assert result.to_dict()["loop_ms_per_replay"] > 0


def test_the_cli_runs_it_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(
        [
            "bench",
            "--web",
            "--tables",
            "2",
            "--seconds",
            "2",
            "--think",
            "0",
            "--database",
            str(tmp_path / "bench.db"),
            "--json",
        ]
    )
    assert args.run(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["settings"]["tables"] == 2
    assert doc["actions"] > 0
    assert doc["errors"] == {}
    assert doc["latency_ms"]["p50"] <= doc["latency_ms"]["p99"]


@pytest.mark.parametrize("flag", ["--think", "--experts", "--replays", "--bot-processes"])
def test_the_cli_refuses_a_negative_count(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["bench", "--web", flag, "-1"])
    assert args.run(args) == 2
    assert f"{flag} must be 0 or more" in capsys.readouterr().err


def test_the_cli_refuses_two_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(
        ["bench", "--web", "--game", "take_stock", "--game", "card_stock_market"]
    )
    assert args.run(args) == 2
    assert "one --game" in capsys.readouterr().err
