"""The words belong to neither front end: ``closingbell.text`` imports neither, nor Rich."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import closingbell.text


def test_importing_every_module_of_text_loads_no_front_end() -> None:
    modules = [
        f"closingbell.text.{m.name}" for m in pkgutil.iter_modules(closingbell.text.__path__)
    ]
    assert "closingbell.text.take_stock" in modules
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded = json.loads(done.stdout)
    forbidden = ("rich", "closingbell.tui", "closingbell.server", "closingbell.cli", "fastapi")
    assert not [m for m in loaded if m.split(".")[0] == "rich" or m.startswith(forbidden)]
