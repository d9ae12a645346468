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
from tests.server.helpers import postgres_database


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


def test_two_processes_on_postgresql_share_the_tables_and_count_the_commits() -> None:
    with postgres_database() as url:
        settings = WebBenchSettings(tables=4, seconds=3.0, database=url, think=0.05, processes=2)
        result = run_webbench(settings)
    assert result.errors == {}
    assert result.tables_held == 4
    assert len(result.servers) == 2
    # Each table has one client on each process: a seat's turn comes only once the other
    # process's notice of the action before it has arrived, so many actions through both
    # mean the notices carried the game across.
    assert [one.clients for one in result.servers] == [4, 4]
    assert all(one.actions > settings.tables for one in result.servers)
    assert sum(one.actions for one in result.servers) == result.actions
    assert all(one.cpu is not None and one.cpu > 0 for one in result.servers)
    assert result.server_cpu == pytest.approx(sum(one.cpu or 0 for one in result.servers), abs=0.2)
    assert result.commits is not None and result.commits > 0
    assert result.to_dict()["commits_per_second"] > 0
    report = format_report(result)
    assert "server 1 (port" in report
    assert "server 2 (port" in report
    assert "database commits" in report


def test_one_process_on_sqlite_reports_no_commits(tmp_path: Path) -> None:
    result = run_webbench(
        WebBenchSettings(
            tables=1, seconds=1.0, database=f"sqlite:///{tmp_path / 'bench.db'}", think=0.05
        )
    )
    assert result.commits is None and result.commits_per_second is None
    assert len(result.servers) == 1 and result.servers[0].actions == result.actions
    assert "database commits" not in format_report(result)


def test_several_processes_on_sqlite_are_refused(tmp_path: Path) -> None:
    settings = WebBenchSettings(database=f"sqlite:///{tmp_path / 'bench.db'}", processes=2)
    with pytest.raises(ValueError, match="needs a PostgreSQL database"):
        run_webbench(settings)
    assert not (tmp_path / "bench.db").exists()


@pytest.mark.parametrize("database", [None, "bench.db"])
def test_the_cli_refuses_several_processes_without_postgresql(
    database: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bench", "--web", "--processes", "2"]
    if database is not None:
        argv += ["--database", str(tmp_path / database)]
    args = build_parser().parse_args(argv)
    assert args.run(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("closingbell bench --web: --processes 2 needs a PostgreSQL database")
