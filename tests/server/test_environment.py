"""Server settings and ``closingbell serve``'s options from environment variables."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
import typing
from pathlib import Path
from typing import Any

import httpx
import pytest

from closingbell.cli.main import build_parser
from closingbell.cli.serve import SETTING_OPTIONS, from_environment, run
from closingbell.server.environment import (
    EnvironmentValueError,
    parse_as,
    settings_from_environment,
    variable,
)
from closingbell.server.settings import Settings
from tests.server.helpers import HTTP, client_for, create, run_sql
from tests.server.test_serve import free_port


def serve_args(*argv: str) -> Any:
    return build_parser().parse_args(["serve", *argv])


def sample_text(kind: Any) -> tuple[str, Any]:
    """A variable's text for a setting of type ``kind``, and the value it must give."""
    if kind is bool:
        return "yes", True
    if kind is int or kind == int | None:
        return "7", 7
    if kind is float:
        return "2.5", 2.5
    assert kind == tuple[str, ...], kind
    return " https://A.example , http://b.example:8080,", (
        "https://a.example",
        "http://b.example:8080",
    )


def test_every_setting_is_read_from_its_variable_by_its_type() -> None:
    kinds = typing.get_type_hints(Settings)
    environ = {}
    expected = {}
    for field in dataclasses.fields(Settings):
        text, value = sample_text(kinds[field.name])
        environ[variable(field.name)] = text
        expected[field.name] = value
    assert variable("bot_delay") == "CLOSINGBELL_BOT_DELAY"
    read = settings_from_environment(environ)
    assert read == expected
    for name, value in read.items():
        assert type(value) is type(expected[name])
    Settings(**read)  # every one a setting


@pytest.mark.parametrize(
    ("text", "value"),
    [
        *[("true", True), ("TRUE", True), ("1", True), ("Yes", True), ("on", True)],
        *[("false", False), ("0", False), ("no", False), ("OFF", False)],
    ],
)
def test_booleans_in_words_or_digits(text: str, value: bool) -> None:
    assert parse_as(bool, text) is value
    assert settings_from_environment({"CLOSINGBELL_ALLOW_SEED": text}) == {"allow_seed": value}


def test_unset_or_empty_variables_leave_the_defaults() -> None:
    assert settings_from_environment({}) == {}
    environ = {"CLOSINGBELL_BOT_DELAY": "", "CLOSINGBELL_RATE": "  ", "OTHER": "1"}
    assert settings_from_environment(environ) == {}
    assert settings_from_environment({"CLOSINGBELL_NO_SUCH_SETTING": "1"}) == {}


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("BOT_DELAY", "fast", "must be a number"),
        ("BOT_DELAY", "nan", "must be a number"),
        ("BOT_DELAY", "-1", "must be 0 or more"),
        ("MAX_MESSAGE", "4k", "must be a whole number"),
        ("MAX_MESSAGE", "1.5", "must be a whole number"),
        ("BOT_PROCESSES", "many", "must be a whole number"),
        ("ALLOW_SEED", "maybe", "must be true or false"),
        ("ALLOWED_ORIGINS", "play.example.com", "origin"),
    ],
)
def test_a_malformed_value_names_its_variable(name: str, text: str, says: str) -> None:
    with pytest.raises(EnvironmentValueError) as raised:
        settings_from_environment({f"CLOSINGBELL_{name}": text})
    message = str(raised.value)
    assert message.startswith(f"environment variable CLOSINGBELL_{name}={text!r}: ")
    assert says in message
    assert "\n" not in message
    assert raised.value.variable == f"CLOSINGBELL_{name}"


def test_options_that_set_settings_have_the_settings_defaults() -> None:
    args = serve_args()
    defaults = Settings()
    for option, setting in SETTING_OPTIONS.items():
        value = getattr(args, option)
        assert (tuple(value) if isinstance(value, list) else value) == getattr(defaults, setting)


def test_the_command_line_wins_over_the_environment_which_wins_over_the_default() -> None:
    environ = {
        "CLOSINGBELL_HOST": "0.0.0.0",
        "CLOSINGBELL_PORT": "8001",
        "CLOSINGBELL_BOT_DELAY": "0.2",
        "CLOSINGBELL_ADDRESS_CONNECTIONS": "7",
        "CLOSINGBELL_HELLO_TIMEOUT": "12",
        "CLOSINGBELL_DATABASE": "postgresql://u:p@db/closingbell",
        "CLOSINGBELL_LOG_FORMAT": "json",
    }
    # An option given on the command line wins, even with its default value.
    args = serve_args("--port", "9000", "--bot-delay", "0.6")
    sources, settings = from_environment(args, environ)
    assert (args.host, args.port, args.bot_delay) == ("0.0.0.0", 9000, 0.6)
    assert args.websockets_per_address == 7
    assert (args.database, args.log_format) == ("postgresql://u:p@db/closingbell", "json")
    assert settings == {"hello_timeout": 12.0}  # the settings no option sets
    assert sources["port"] == "--port"
    assert sources["host"] == "CLOSINGBELL_HOST"
    assert sources["websockets_per_address"] == "CLOSINGBELL_ADDRESS_CONNECTIONS"
    assert sources["header_timeout"] == "default"
    assert args.header_timeout == 5.0
    untouched = serve_args()
    from_environment(untouched, {})
    assert (untouched.host, untouched.port, untouched.log_format) == ("127.0.0.1", 8000, "text")


def test_allowed_origins_from_the_environment_or_the_command_line() -> None:
    environ = {"CLOSINGBELL_ALLOWED_ORIGINS": "https://a.example,https://B.example"}
    args = serve_args()
    from_environment(args, environ)
    assert args.allowed_origin == ["https://a.example", "https://b.example"]
    args = serve_args(
        "--allowed-origin", "https://c.example", "--allowed-origin", "https://d.example"
    )
    from_environment(args, environ)
    assert args.allowed_origin == ["https://c.example", "https://d.example"]


@pytest.mark.parametrize(
    ("environ", "says"),
    [
        ({"CLOSINGBELL_PORT": "eighty"}, "CLOSINGBELL_PORT='eighty': must be a whole number"),
        ({"CLOSINGBELL_PORT": "0"}, "CLOSINGBELL_PORT must be from 1 to 65535"),
        ({"CLOSINGBELL_LOG_FORMAT": "xml"}, "CLOSINGBELL_LOG_FORMAT must be one of text, json"),
        ({"CLOSINGBELL_TABLES_BURST": "0"}, "CLOSINGBELL_TABLES_BURST must be more than 0"),
        ({"CLOSINGBELL_HEADER_TIMEOUT": "soon"}, "CLOSINGBELL_HEADER_TIMEOUT='soon'"),
        ({"CLOSINGBELL_MAX_CONNECTIONS": "-5"}, "CLOSINGBELL_MAX_CONNECTIONS must be 0 or more"),
        ({"CLOSINGBELL_BOT_DELAY": "-1"}, "CLOSINGBELL_BOT_DELAY='-1': must be 0 or more"),
        ({"CLOSINGBELL_SEND_BUFFER": "1MB"}, "CLOSINGBELL_SEND_BUFFER='1MB'"),
    ],
)
def test_serve_refuses_a_malformed_variable_in_one_line_without_starting(
    environ: dict[str, str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "web.db"
    environ = {**environ, "CLOSINGBELL_DATABASE": str(database)}
    assert run(serve_args(), environ) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("closingbell serve: ")
    assert says in err
    assert not database.exists()


def test_a_wrong_option_is_still_named_as_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(serve_args("--tables-burst", "0"), {"CLOSINGBELL_TABLES_BURST": "5"}) == 2
    assert "--tables-burst must be more than 0" in capsys.readouterr().err


def test_serve_help_names_the_variables(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in ("CLOSINGBELL_BOT_DELAY", "CLOSINGBELL_PORT", "CLOSINGBELL_LOG_FORMAT"):
        assert name in text
    assert "CLOSINGBELL_ADDRESS_CONNECTIONS" in text  # --websockets-per-address's setting
    assert "command line wins" in text


def test_the_process_refuses_a_malformed_variable(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "CLOSINGBELL_RATE": "lots"}
    done = subprocess.run(
        [sys.executable, "-m", "closingbell.cli.main", "serve", "--port", str(free_port())],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "closingbell serve: environment variable CLOSINGBELL_RATE='lots': must be a number\n"
    )
    assert done.stdout == ""
    assert not (tmp_path / "data").exists()


def test_a_server_configured_by_its_environment_logs_json_lines(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url) as client:
        table_id = create(client, "take_stock", ["open", "open"])["id"]
    run_sql(url, "UPDATE tables SET options = 'not json' WHERE id = :id", id=table_id)
    port = free_port()
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "CLOSINGBELL_PORT": str(port),
        "CLOSINGBELL_DATABASE": url,
        "CLOSINGBELL_LOG_FORMAT": "json",
        "CLOSINGBELL_BOT_DELAY": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "closingbell.cli.main", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.communicate()
            try:
                ready = HTTP.get(f"http://127.0.0.1:{port}/readyz", timeout=1)
                if ready.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        assert ready.headers["x-request-id"]
    finally:
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate(timeout=10)
    assert f"open http://127.0.0.1:{port}/" in out
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    damaged = [x for x in lines if x["message"].startswith(f"table {table_id} is unavailable")]
    assert len(damaged) == 1, err
    assert damaged[0]["table"] == table_id
    assert damaged[0]["level"] == "ERROR"
    assert damaged[0]["logger"] == "closingbell.server.tables"
    assert "request" not in damaged[0]  # start-up is nobody's request
