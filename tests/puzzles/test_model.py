"""Puzzle files: what is written reads back the same, and a bad line is refused by name."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import closingbell
from closingbell.puzzles import Puzzle, PuzzleFormatError, Worth, read_puzzles, write_puzzles
from tests.puzzles.test_finder import SELL_CLUBS


def _puzzle(position: str = SELL_CLUBS, source: str = "test") -> Puzzle:
    game = closingbell.load_game("card_stock_market", players=4)
    state = game.state_from_position(position)
    seat = state.current_player
    assert seat is not None
    legal = list(state.legal_actions())
    worths = tuple(
        Worth(
            a,
            (40.0 - 30 * i, 30.0 - 30 * i, 50.0 - 30 * i),
            (0.5, 0.4, 0.6),
            (-30.0 * i, -30.0 * i - 5, min(0.0, -30.0 * i + 5)),
        )
        for i, a in enumerate(legal)
    )
    return Puzzle(
        game="card_stock_market",
        version=game.info.version,
        options=game.options_dict(),
        position=state.to_position(),
        seat=seat,
        best=legal[0],
        worths=worths,
        themes=("sell",),
        reason={"en": "Because.", "zh-Hant": "因為。"},
        worlds=48,
        source=source,
    )


def test_a_puzzle_reads_back_as_written(tmp_path: Path) -> None:
    puzzle = _puzzle()
    assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle
    path = tmp_path / "p.jsonl"
    assert write_puzzles(path, [puzzle]) == 1
    assert read_puzzles(path) == [puzzle]
    assert puzzle.view().seat == puzzle.seat
    assert len(puzzle.id) == 12 and puzzle.id == _puzzle(source="elsewhere").id


def _changed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = _puzzle().to_json()
    change(data)
    return data


def _set(key: str, value: object) -> Callable[[dict[str, Any]], object]:
    return lambda d: d.__setitem__(key, value)


BAD: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("missing", lambda d: d.pop("seat"), "missing field 'seat'"),
    ("unknown", _set("colour", "red"), "unknown field 'colour'"),
    ("format", _set("format", 9), "format 9"),
    ("game", _set("game", "chess"), "no game 'chess'"),
    ("seat kind", _set("seat", "2"), "seat must be a whole number"),
    ("seat", _set("seat", 1), "seat 1 does not decide"),
    ("position", _set("position", "prices: 99"), "the game refuses the puzzle"),
    ("options", _set("options", {"players": 9}), "the game refuses the puzzle"),
    ("id", _set("id", "0" * 12), "is not the puzzle's"),
    ("best", lambda d: d.__setitem__("best", d["worths"][1]["action"]), "best action must come"),
    ("worths", lambda d: d["worths"].pop(), "the position's legal actions"),
    ("worth", lambda d: d["worths"][0].__setitem__("win", [0.5, 0.6, 0.4]), "low <= mean"),
    ("nan", lambda d: d["worths"][0].__setitem__("margin", [1, 2]), "worths[0].margin"),
    ("reason", _set("reason", {"en": "x"}), "reason must give a sentence in each"),
    ("themes", _set("themes", "sell"), "themes must be a list"),
    ("worlds", _set("worlds", 1), "worlds must be at least 2"),
]


@pytest.mark.parametrize(("name", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_puzzle_is_refused_naming_what_is_wrong(
    name: str, change: Callable[[dict[str, Any]], object], message: str, tmp_path: Path
) -> None:
    data = _changed(change)
    message = re.escape(message)
    with pytest.raises(PuzzleFormatError, match=message):
        Puzzle.from_json(data)
    good = json.dumps(_puzzle().to_json())
    path = tmp_path / "bad.jsonl"
    path.write_text(good + "\n\n" + json.dumps(data) + "\n")
    with pytest.raises(PuzzleFormatError, match=f"line 3: .*{message}"):
        read_puzzles(path)


def test_a_file_that_is_not_puzzles_is_refused_by_line(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    good = json.dumps(_puzzle().to_json())
    for text, message in [
        ("{nope", "line 1: not JSON"),
        ("[1, 2]", "line 1: a puzzle is a JSON object"),
        (good + "\n" + good, "line 2: puzzle .* is given twice"),
        ("x" * 70_000, "line 1: longer than"),
    ]:
        path.write_text(text + "\n")
        with pytest.raises(PuzzleFormatError, match=message):
            read_puzzles(path)


def test_a_puzzle_s_horizon_reads_back_and_is_checked() -> None:
    data = _puzzle().to_json()
    assert "horizon" not in data and Puzzle.from_json(data).horizon == "game"
    data["horizon"] = "game"
    assert Puzzle.from_json(data).horizon == "game"
    data["horizon"] = "round"
    with pytest.raises(PuzzleFormatError, match="card_stock_market has no horizon 'round'"):
        Puzzle.from_json(data)
    data["horizon"] = "turn"
    with pytest.raises(PuzzleFormatError, match="horizon must be one of game, round"):
        Puzzle.from_json(data)
