"""Loading the scripts of ``benchmarks/`` that tests look into (they are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

FOLDER = Path(__file__).parents[1] / "benchmarks"
"""The benchmark scripts' folder."""


def load(name: str) -> ModuleType:
    """The module of ``benchmarks/<name>.py``, freshly loaded."""
    spec = importlib.util.spec_from_file_location(name, FOLDER / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered under its name before it runs: dataclasses look their module up there.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
