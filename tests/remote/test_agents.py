"""What chooses a remote seat's actions: bots and functions, and what an agent may answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import closingbell
from closingbell.remote.agents import AgentError, bot_chooser, checked, load_agent


def _view() -> closingbell.View:
    game = closingbell.load_game("card_stock_market", players=2)
    return game.new_game(3).view(game.new_game(3).current_player)


def test_a_bot_level_chooses_legal_actions_from_views() -> None:
    game = closingbell.load_game("take_stock", players=3)
    state = game.new_game(4)
    choosers = [bot_chooser("medium")(game, seat) for seat in range(3)]
    for _ in range(30):
        seat = state.current_player
        assert seat is not None
        view = game.view_from_dict(state.view(seat).to_dict())
        state.apply(checked(choosers[seat], view))


def test_an_answer_that_is_not_a_legal_action_is_refused_with_what_it_was() -> None:
    view = _view()
    legal = view.legal_actions  # type: ignore[attr-defined]
    assert checked(lambda v: np.int64(legal[0]), view) == legal[0]  # numpy's integers count
    for answer in (max(legal) + 1, True, "1", None, 1.5):
        with pytest.raises(AgentError, match="not one of the legal actions"):
            checked(lambda v, a=answer: a, view)


def test_an_agent_is_loaded_from_a_module_or_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text("def first(view):\n    return view.legal_actions[0]\nNAME = 3\n")
    view = _view()
    choose = load_agent(f"{path}:first")(closingbell.load_game("card_stock_market", players=2), 0)
    assert choose(view) == view.legal_actions[0]  # type: ignore[attr-defined]
    assert load_agent("random:choice") is not None
    for spec, message in (
        ("first", "MODULE:FUNC"),
        (f"{tmp_path / 'none.py'}:first", "no file"),
        (f"{path}:other", "has no 'other'"),
        (f"{path}:NAME", "is not a function"),
        ("no_module_called_this:f", "no module"),
    ):
        with pytest.raises(AgentError, match=message):
            load_agent(spec)
    with pytest.raises(AgentError, match="no bot is called 'wizard'"):
        bot_chooser("wizard")
