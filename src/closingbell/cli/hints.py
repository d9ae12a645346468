"""Commands a person can type to go on, as they work in the environment running now.

After ``bash scripts/play.sh``, ``closingbell`` is ``.venv/bin/closingbell`` and is not on
the ``PATH``: a hint saying ``closingbell play --resume FILE`` would fail. These functions
name the programs of the environment closingbell runs in, by the shortest path that works
from the current directory, so that a hint can be copied and run as it is.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

import closingbell


def shown_path(path: Path) -> str:
    """``path`` as typed here: relative to the working directory when inside it, else whole."""
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def _same_file(a: str | None, b: Path) -> bool:
    if a is None:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _program(name: str) -> Path:
    """The script ``name`` installed beside the running interpreter."""
    return Path(sys.executable).parent / name


def closingbell_command(*args: str) -> str:
    """The ``closingbell`` command with ``args``, quoted for a POSIX shell.

    ``closingbell`` when that name on the ``PATH`` is this environment's program; else the
    program's path; else the interpreter running the command-line module.
    """
    script = _program("closingbell")
    if _same_file(shutil.which("closingbell"), script):
        words = ["closingbell"]
    elif script.exists():
        words = [shown_path(script)]
    else:
        words = [shown_path(Path(sys.executable)), "-m", "closingbell.cli.main"]
    return shlex.join([*words, *args])


def checkout() -> Path | None:
    """The source checkout closingbell runs from (installed with ``pip install -e``), if any."""
    root = Path(closingbell.__file__).resolve().parent.parent.parent
    return root if (root / "pyproject.toml").is_file() else None


def install_extra(extra: str) -> str:
    """The command that installs the extra ``extra`` (``sim``, ``web`` ...) here.

    It installs into the environment running now, from the checkout when closingbell runs
    from one (``.venv/bin/pip install -e '.[sim]'``).
    """
    pip = _program("pip")
    words = [shown_path(pip)] if pip.exists() else [shown_path(Path(sys.executable)), "-m", "pip"]
    root = checkout()
    if root is None:
        return shlex.join([*words, "install", f"closingbell[{extra}]"])
    where = shown_path(root) if root != Path.cwd() else "."
    return shlex.join([*words, "install", "-e", f"{where}[{extra}]"])
