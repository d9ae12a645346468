"""What chooses a remote seat's actions: bots and functions, and what an agent may answer."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import closingbell
from closingbell.remote.agents import AgentError, Choose, bot_chooser, checked, load_agent
from closingbell.remote.client import Connector, Settings, _Table


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


def test_every_table_played_at_once_may_have_its_decision_pending() -> None:
    """Eight tables' choosers each wait until all eight are choosing (as agents that wait
    on a model served elsewhere): the program runs them side by side, more of them than a
    default thread pool holds on this machine (six)."""
    at_once = 8
    meeting = threading.Barrier(at_once, timeout=20)
    game = closingbell.load_game("card_stock_market", players=2)

    def make(game: closingbell.Game, seed: int) -> Choose:
        inner = bot_chooser("random")(game, seed)

        def choose(view: closingbell.View) -> int:
            meeting.wait()
            return inner(view)

        return choose

    connector = Connector(
        Settings(server="http://127.0.0.1:9", token="t", make=make, at_once=at_once),
        say=lambda line: None,
    )
    sent: list[dict[str, Any]] = []

    class Socket:
        async def send(self, text: str) -> None:
            sent.append(json.loads(text))

    async def play() -> None:
        turns = []
        for i in range(at_once):
            state = game.new_game(i)
            seat = state.current_player
            assert seat is not None
            table = _Table(f"t{i}", game=game, choose=make(game, i), seat=seat)
            message = {
                "legal": [{"id": a} for a in state.legal_actions()],
                "version": 0,
                "view": state.view(seat).to_dict(),
            }
            turns.append(connector._act(Socket(), table, message))  # type: ignore[arg-type]
        await asyncio.gather(*turns)

    asyncio.run(play())
    assert len(sent) == at_once and {m["type"] for m in sent} == {"action"}
