"""Hints name commands that work as printed, in the environment closingbell runs in."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from closingbell.cli import hints


def fake_environment(root: Path, *, pip: bool = True) -> Path:
    """A checkout-like folder with ``.venv/bin/python`` and its ``closingbell`` script."""
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("python", "closingbell", *(["pip"] if pip else [])):
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
    return bin_dir


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run as ``.venv/bin/closingbell`` of a checkout in ``tmp_path``, the working directory,
    with only the system's folders on the ``PATH``; return the environment's ``bin``."""
    bin_dir = fake_environment(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return bin_dir


def test_after_play_sh_the_hint_names_the_script_in_dot_venv(checkout: Path) -> None:
    """``bash scripts/play.sh`` runs ``.venv/bin/closingbell``, which is not on the PATH."""
    command = hints.closingbell_command("play", "--resume", "/tmp/my game.cbrec")
    assert command == ".venv/bin/closingbell play --resume '/tmp/my game.cbrec'"


def test_from_elsewhere_the_hint_names_the_whole_path(
    tmp_path: Path, checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert hints.closingbell_command() == str(checkout / "closingbell")


def test_on_the_path_the_hint_is_the_bare_name(
    checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{checkout}{os.pathsep}/usr/bin")
    assert hints.closingbell_command("play") == "closingbell play"


def test_without_the_script_the_hint_runs_the_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python3"))
    assert hints.closingbell_command("play") == "bin/python3 -m closingbell.cli.main play"


def test_install_hints_install_the_extra_from_the_checkout(
    tmp_path: Path, checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hints, "checkout", lambda: tmp_path)
    assert hints.install_extra("sim") == ".venv/bin/pip install -e '.[sim]'"
    monkeypatch.setattr(hints, "checkout", lambda: None)
    assert hints.install_extra("sim") == ".venv/bin/pip install 'closingbell[sim]'"


def test_install_hints_fall_back_to_python_m_pip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = fake_environment(tmp_path / "env", pip=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    monkeypatch.setattr(hints, "checkout", lambda: tmp_path / "src")
    assert hints.install_extra("web") == "env/.venv/bin/python -m pip install -e 'src[web]'"


def test_this_source_checkout_is_found() -> None:
    root = hints.checkout()
    assert root is not None and (root / "src" / "closingbell" / "cli" / "hints.py").is_file()


def test_the_install_hint_of_this_environment_names_a_real_pip() -> None:
    words = shlex.split(hints.install_extra("sim"))
    pip = words[: words.index("install")]
    found = subprocess.run([*pip, "--version"], capture_output=True, text=True, check=False)
    assert found.returncode == 0, found.stderr
