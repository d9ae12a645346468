"""The house keeps its shape: no import circle, rooms import only the rooms below, short modules."""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "architecture.py"


@pytest.fixture(scope="module")
def architecture() -> ModuleType:
    """``scripts/architecture.py``, loaded from its file."""
    spec = importlib.util.spec_from_file_location("architecture", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_import_graph_of_src_has_no_circle(architecture: ModuleType) -> None:
    assert architecture.circles(architecture.graph()) == []


def test_each_room_imports_only_the_rooms_below_it(architecture: ModuleType) -> None:
    assert architecture.trespasses(architecture.graph()) == []


def test_no_module_is_over_900_lines(architecture: ModuleType) -> None:
    assert architecture.long_modules() == []


def test_the_check_finds_a_circle_hidden_at_a_files_foot_or_in_a_function(
    architecture: ModuleType, tmp_path: Path
) -> None:
    package = tmp_path / "closingbell"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("")
    (package / "core" / "a.py").write_text("X = 1\n\nfrom closingbell.core import b  # noqa\n")
    (package / "core" / "b.py").write_text(
        textwrap.dedent(
            """
            def later():
                from .a import X
                return X
            """
        )
    )
    (package / "core" / "c.py").write_text("from closingbell.core import a\n")
    edges = architecture.graph(tmp_path)
    assert architecture.circles(edges) == [["closingbell.core.a", "closingbell.core.b"]]
    cycle = architecture.cycle(edges, ["closingbell.core.a", "closingbell.core.b"])
    assert cycle == ["closingbell.core.a", "closingbell.core.b", "closingbell.core.a"]


def test_the_check_finds_a_room_importing_one_above_it(
    architecture: ModuleType, tmp_path: Path
) -> None:
    package = tmp_path / "closingbell"
    for room in ("core", "server"):
        (package / room).mkdir(parents=True)
        (package / room / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from closingbell import server\n")
    (package / "core" / "x.py").write_text("from closingbell.server import y\n")
    (package / "server" / "y.py").write_text("from closingbell.core import x\n")
    edges = architecture.graph(tmp_path)
    # Importing ``closingbell.server.y`` runs ``closingbell.server`` first: both are counted.
    assert architecture.trespasses(edges) == [
        ("closingbell.core.x", "closingbell.server"),
        ("closingbell.core.x", "closingbell.server.y"),
    ]


def test_the_check_counts_lines(architecture: ModuleType, tmp_path: Path) -> None:
    package = tmp_path / "closingbell"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "long.py").write_text("x = 1\n" * 12)
    assert architecture.long_modules(tmp_path, longest=11) == [("closingbell.long", 12)]
    assert architecture.long_modules(tmp_path, longest=12) == []
