"""deploy/: the systemd unit passes ``systemd-analyze verify`` and its offline security
review, runs ``closingbell serve`` as it should, and the settings it and the example
environment file give are ones the server reads."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from closingbell.cli.serve import OWN_OPTIONS, SETTING_OPTIONS
from closingbell.server.environment import variable
from closingbell.server.settings import Settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
"""The folder of the deployment's files."""

INSTALLED = "/opt/closingbell/venv/bin/closingbell"
"""Where the unit expects the virtualenv's ``closingbell``."""

MOST_EXPOSED = 25
"""The highest exposure allowed by ``systemd-analyze security`` (out of 100; 2.5 of 10)."""


def analyze() -> str:
    """The path of ``systemd-analyze``; fails the test (never skips) without it."""
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.fail(
            "systemd-analyze is missing, so the systemd unit cannot be checked: run the "
            "suite with scripts/test.sh, which installs Debian's systemd package",
            pytrace=False,
        )
    return found


def unit_here(tmp_path: Path, text: str | None = None) -> Path:
    """The unit, or ``text``, with ExecStart pointed at this environment's ``closingbell``.

    ``verify`` checks that the program exists, so the copy runs the one installed here.
    """
    here = Path(sys.executable).parent / "closingbell"
    assert here.is_file(), here
    text = (DEPLOY / "closingbell.service").read_text() if text is None else text
    unit = tmp_path / "closingbell.service"
    unit.write_text(text.replace(INSTALLED, str(here)))
    return unit


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of ``unit`` (it works without a running systemd)."""
    return subprocess.run(
        [analyze(), "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        check=False,
        cwd=unit.parent,
    )


def settings(text: str) -> dict[str, list[str]]:
    """The keys of a unit or environment file and their values, in order."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    done = verify(unit_here(tmp_path))
    # verify exits 0 after warnings about unknown keys or bad values: any output fails.
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_verify_fails_on_a_broken_unit(tmp_path: Path) -> None:
    text = (DEPLOY / "closingbell.service").read_text()
    typo = verify(unit_here(tmp_path, text.replace("ProtectSystem=", "ProtectSistem=")))
    assert "Unknown key 'ProtectSistem'" in typo.stdout + typo.stderr
    missing = verify(unit_here(tmp_path, text.replace(INSTALLED, "/nowhere/closingbell")))
    assert missing.returncode != 0
    assert "is not executable" in missing.stdout + missing.stderr


def test_the_unit_is_hardened(tmp_path: Path) -> None:
    unit = unit_here(tmp_path)
    done = subprocess.run(
        [analyze(), "security", "--offline=yes", f"--threshold={MOST_EXPOSED}", str(unit)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout.splitlines()[-1:]


def test_the_unit_runs_the_server_as_its_own_user() -> None:
    unit = settings((DEPLOY / "closingbell.service").read_text())
    assert unit["ExecStart"] == [f"{INSTALLED} serve"]
    assert unit["User"] == ["closingbell"]
    assert unit["EnvironmentFile"] == ["/etc/closingbell/closingbell.env"]
    assert unit["Restart"] == ["on-failure"]
    assert unit["KillSignal"] == ["SIGTERM"]
    assert unit["StateDirectory"] == ["closingbell"]
    assert unit["ProtectSystem"] == ["strict"]
    assert unit["NoNewPrivileges"] == ["yes"]
    assert unit["PrivateTmp"] == ["yes"]
    assert "TimeoutStopSec" in unit
    database = dict(e.split("=", 1) for e in unit["Environment"])["CLOSINGBELL_DATABASE"]
    assert database.startswith("/var/lib/closingbell/")  # the state directory, writable


def test_every_variable_given_is_one_the_server_reads() -> None:
    known = {variable(name) for name in OWN_OPTIONS} | {
        variable(f.name) for f in dataclasses.fields(Settings)
    }
    assert {variable(name) for name in SETTING_OPTIONS.values()} <= known
    unit = settings((DEPLOY / "closingbell.service").read_text())
    given = [e.split("=", 1)[0] for e in unit["Environment"]]
    # The example environment file, and the settings the nginx site's comment gives.
    for shown in ("closingbell.env", "nginx/closingbell.conf"):
        lines = [x.lstrip("#").strip() for x in (DEPLOY / shown).read_text().splitlines()]
        named = [x.split("=", 1)[0] for x in lines if x.startswith("CLOSINGBELL_")]
        assert named, shown
        given += named
    assert given
    assert set(given) <= known, set(given) - known
