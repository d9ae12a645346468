"""The compiled engines are built by the project's own install, and the fallback works."""

from __future__ import annotations

import pytest

import closingbell
from closingbell import native
from closingbell.games.take_stock.game import TakeStockState

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference


def test_every_compiled_module_is_built() -> None:
    # scripts/test.sh installs a C compiler and Python's headers, so nothing may be missing.
    assert native.built() == dict.fromkeys(native.MODULES, True)
    assert native.available()


def test_without_a_compiled_engine_the_reference_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "module", lambda name: None)
    game = closingbell.load_game("take_stock", players=3)
    state = native.new_game(game, 11)
    assert type(state) is TakeStockState
    assert state.to_json() == game.new_game(11).to_json()
    assert native.from_state(state) is state
    assert native.engine_of(state) == "reference"
    assert not native.available("take_stock")
    with pytest.raises(RuntimeError, match="compiled engine of Take Stock is not built"):
        native.new_game(game, 11, engine="native")


def test_an_unknown_engine_is_refused() -> None:
    game = closingbell.load_game("take_stock", players=3)
    with pytest.raises(ValueError, match="engine must be one of auto, native, reference"):
        native.new_game(game, 1, engine="fast")
