"""The compiled engines' generated includes say what the games' data modules say."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import closingbell
from closingbell.core.serial import HEADER_KEYS
from closingbell.games.take_stock.state import ROUND_END_REASONS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def codegen() -> ModuleType:
    """``scripts/native_codegen.py``, loaded by path as setup.py loads it."""
    spec = importlib.util.spec_from_file_location(
        "native_codegen", ROOT / "scripts/native_codegen.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_constant_is_the_data_modules_value(codegen: ModuleType) -> None:
    for spec in codegen.CONSTANTS:
        data = codegen.DataModules(ROOT, spec.game)
        text = codegen.constants_text(spec, data)
        for module, names in spec.groups:
            imported = vars(importlib.import_module(f"closingbell.games.{spec.game}.{module}"))
            for c_name, expression in names:
                value = eval(expression, dict(imported))
                assert f"    {c_name} = {value}  #" in text, (c_name, expression)


def test_round_end_reasons_are_numbered_in_order(codegen: ModuleType) -> None:
    text = codegen.constants_text(codegen.TAKE_STOCK, codegen.DataModules(ROOT, "take_stock"))
    assert "    TS_R_NONE = -1\n" in text
    for i, reason in enumerate(ROUND_END_REASONS):
        assert f"    TS_R_{reason.upper()} = {i}  #" in text


def test_a_broken_assumption_stops_the_build(codegen: ModuleType, tmp_path: Path) -> None:
    folder = tmp_path / "src/closingbell/games/take_stock"
    folder.mkdir(parents=True)
    for module in ("cards", "actions", "state"):
        text = (ROOT / f"src/closingbell/games/take_stock/{module}.py").read_text()
        (folder / f"{module}.py").write_text(text)
    cards = folder / "cards.py"
    cards.write_text(cards.read_text().replace("frozenset({11, 12})", "frozenset({10, 12})"))
    with pytest.raises(ValueError, match=r"assumes cards\.py: CLOSING_VALUES"):
        codegen.constants_text(codegen.TAKE_STOCK, codegen.DataModules(tmp_path, "take_stock"))


def test_what_is_not_a_constant_expression_is_refused(codegen: ModuleType, tmp_path: Path) -> None:
    folder = tmp_path / "src/closingbell/games/take_stock"
    folder.mkdir(parents=True)
    (folder / "cards.py").write_text("import os\nVALUES = len(os.listdir('.'))\n")
    with pytest.raises(ValueError, match=r"cannot read .os\.listdir"):
        codegen.DataModules(tmp_path, "take_stock").value("cards", "VALUES")


@pytest.mark.parametrize("game", ["take_stock", "card_stock_market"])
def test_every_field_of_the_state_has_a_getter(codegen: ModuleType, game: str) -> None:
    (spec,) = [g for g in codegen.GETTERS if g.game == game]
    shapes = importlib.import_module(f"closingbell.games.{game}.state").SHAPES
    text = codegen.getters_text(spec, codegen.DataModules(ROOT, spec.game))
    for name in shapes:
        assert f"    def {name}(self):" in text
    fields = tuple(f for f in spec.fields if f.name != "log")
    short = codegen.Getters(**{**vars(spec), "fields": fields})
    with pytest.raises(ValueError, match="no getter for log"):
        codegen.getters_text(short, codegen.DataModules(ROOT, spec.game))


@pytest.mark.parametrize("game", ["take_stock", "card_stock_market"])
def test_the_built_state_reads_every_field_through_the_generated_class(game: str) -> None:
    compiled = pytest.importorskip(f"closingbell.native._{game}")
    state = compiled.new_game(closingbell.load_game(game, players=3), 4)
    reference = state.to_reference()
    for name in reference.SHAPES:
        assert name in vars(compiled._StateFields)
        assert getattr(state, name) == getattr(reference, name), name


@pytest.mark.parametrize("game", ["take_stock", "card_stock_market"])
def test_the_json_keys_are_the_fields_and_the_header_in_order(
    codegen: ModuleType, game: str
) -> None:
    (spec,) = [k for k in codegen.KEYS if k.game == game]
    shapes = importlib.import_module(f"closingbell.games.{game}.state").SHAPES
    keys = sorted({*shapes, *HEADER_KEYS})
    text = codegen.keys_text(spec, ROOT)
    for i, key in enumerate(keys):
        assert f"    K_{key.upper()} = {i}\n" in text
    assert f"    K_COUNT = {len(keys)}\n" in text
    assert "cdef tuple _KEYS = (\n" + "".join(f'    "{k}",\n' for k in keys) + ")\n" in text
