"""Records of games started from a position: the ``position`` header, round trips, errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import closingbell
from closingbell import PositionError, RecordError, State
from closingbell.core.records import (
    FORMAT_LINE,
    GameRecord,
    replay,
    replay_iter,
    start_from_position,
)

GAMES = ["take_stock", "card_stock_market"]
"""Every game: each has a position notation (docs/positions.md)."""


def midgame(game: str, players: int, seed: int, steps: int) -> State:
    """A state reached from a deal by ``steps`` seeded random actions."""
    state = closingbell.load_game(game, players=players).new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < steps:
        state.apply(rng.choice(state.legal_actions()))
    return state


def played_from(position: str, game: str, players: int, seed: int, steps: int | None) -> State:
    """The game started from ``position`` and played on by seeded random actions."""
    state = closingbell.load_game(game, players=players).state_from_position(position)
    rng = random.Random(seed)
    while not state.is_terminal() and (steps is None or len(state.history) < steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


def header(text: str, key: str) -> tuple[int, str]:
    """The line number and value of header ``key`` in a record's text."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith(f"{key}: "):
            return number, line[len(key) + 2 :]
    raise AssertionError(f"no {key!r} line")


def with_line(text: str, number: int, new: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = new
    return "\n".join(lines)


@pytest.fixture(scope="module", params=GAMES)
def started(request: pytest.FixtureRequest) -> tuple[str, State]:
    """A position taken from the middle of a game, and that game played on to its end."""
    game: str = request.param
    position = midgame(game, 3, 41, 40).to_position()
    return position, played_from(position, game, 3, 5, None)


def test_a_finished_game_from_a_position_round_trips(started: tuple[str, State]) -> None:
    position, state = started
    record = GameRecord.from_state(state, ["ana", "bob", "cy"], position=position)
    assert record.position == position
    assert record.seed == state.seed
    assert record.result is not None
    text = record.dumps()
    assert text.startswith(FORMAT_LINE + "\n")  # the format stays 1: see docs/records.md
    number, value = header(text, "position")
    assert value == position
    assert number == header(text, "seed")[0] + 1
    read = GameRecord.loads(text)
    assert read == record
    assert read.lines["position"] == number
    again = replay(read)
    assert again.to_json() == state.to_json()
    assert again.scores() == state.scores()


def test_replay_iter_starts_from_the_position(started: tuple[str, State]) -> None:
    position, state = started
    record = GameRecord.loads(GameRecord.from_state(state, position=position).dumps())
    first = record.start()
    assert first.to_position() == position
    assert not first.from_deal and first.history == []
    steps = list(replay_iter(record))
    assert len(steps) == len(state.history)
    assert steps[-1].state.to_json() == state.to_json()


@pytest.mark.parametrize("game", GAMES)
def test_an_unfinished_game_from_a_position_round_trips(tmp_path: Path, game: str) -> None:
    position = midgame(game, 4, 8, 25).to_position()
    state = played_from(position, game, 4, 9, 12)
    assert not state.is_terminal()
    path = tmp_path / "g.cbrec"
    GameRecord.from_state(state, position=position).write(path)
    record = GameRecord.read(path)
    assert record.result is None and record.position == position
    assert replay(record).to_position() == state.to_position()


@pytest.mark.parametrize("game", GAMES)
def test_a_short_position_is_recorded_in_its_canonical_form(game: str) -> None:
    short = "seed: 17"
    state = played_from(short, game, 3, 2, 10)
    record = GameRecord.from_state(state, position=short)
    canonical = closingbell.load_game(game, players=3).state_from_position(short).to_position()
    assert record.position == canonical != short
    assert ";" in canonical and "\n" not in canonical
    assert replay(GameRecord.loads(record.dumps())).to_json() == state.to_json()


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_written_position_line_is_read(game: str) -> None:
    # Records written by closingbell hold the canonical text; any one-line position reads.
    record = GameRecord(
        game=game,
        version=closingbell.load_game(game, players=2).info.version,
        options={"players": 2},
        seed=3,
        seats=("a", "b"),
        position="seed: 3",
    )
    text = record.dumps()
    assert "\nposition: seed: 3\n" in text
    assert replay(GameRecord.loads(text)).to_position() == (
        closingbell.load_game(game, players=2).state_from_position("seed: 3").to_position()
    )


def test_a_game_from_a_position_is_not_a_deal(started: tuple[str, State]) -> None:
    # Without its position, the record's actions do not replay from the deal of its seed.
    position, state = started
    text = GameRecord.from_state(state, position=position).dumps()
    number, _ = header(text, "position")
    lines = text.split("\n")
    del lines[number - 1]
    with pytest.raises(RecordError):
        replay(GameRecord.loads("\n".join(lines)))


def test_from_state_refuses_a_position_the_history_does_not_start_from(
    started: tuple[str, State],
) -> None:
    state = started[1]
    other = midgame(state.game.info.name, 3, 41, 30).to_position()  # same seed, earlier
    with pytest.raises(RecordError, match="does not lead from the position"):
        GameRecord.from_state(state, position=other)


def test_from_state_refuses_a_position_of_another_seed(started: tuple[str, State]) -> None:
    position, state = started
    seed = header(position.replace("; ", "\n"), "seed")[1]
    moved = position.replace(f"seed: {seed}", f"seed: {int(seed) + 1}", 1)
    with pytest.raises(RecordError, match="seed"):
        GameRecord.from_state(state, position=moved)


# ---------------------------------------------------------------------- refused positions


@pytest.fixture(scope="module", params=GAMES)
def text(request: pytest.FixtureRequest) -> str:
    game: str = request.param
    position = midgame(game, 3, 5, 30).to_position()
    return GameRecord.from_state(played_from(position, game, 3, 6, 8), position=position).dumps()


def refused_at(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(GameRecord.loads(text))
    return info.value


def position_error(game: str, position: str) -> PositionError:
    with pytest.raises(PositionError) as info:
        closingbell.load_game(game, players=3).state_from_position(position)
    return info.value


@pytest.mark.parametrize(
    "bad",
    [
        "seed: 1; hands: - / -",
        "seed: 1; nonsense: 4",
        "seed: 1; seed: 2",
        "hands",
        "seed: minus one",
    ],
)
def test_a_malformed_position_is_refused_at_its_line_with_the_field_and_reason(
    text: str, bad: str
) -> None:
    number, _ = header(text, "position")
    game = header(text, "game")[1]
    expected = position_error(game, bad)
    error = refused_at(with_line(text, number, f"position: {bad}"))
    assert error.line == number
    assert error.reason == str(expected)
    if expected.field is not None:
        assert f"position field {expected.field!r}: {expected.reason}" == error.reason
    assert str(error) == f"line {number}: {expected}"


def test_an_empty_position_is_refused_at_its_line(text: str) -> None:
    number, _ = header(text, "position")
    error = refused_at(with_line(text, number, "position:"))
    assert error.line == number and "empty" in error.reason


def test_a_seed_that_is_not_the_positions_is_refused_at_the_seed_line(text: str) -> None:
    number, seed = header(text, "seed")
    error = refused_at(with_line(text, number, f"seed: {int(seed) + 1}"))
    assert error.line == number
    assert f"position's is {seed}" in error.reason


def test_a_position_given_twice_is_refused(text: str) -> None:
    number, value = header(text, "position")
    lines = text.split("\n")
    lines.insert(number, f"position: {value}")
    error = refused_at("\n".join(lines))
    assert error.line == number + 1 and "given twice" in error.reason


def test_an_action_by_the_wrong_seat_is_refused_at_its_line(text: str) -> None:
    lines = text.split("\n")
    first = lines.index("actions:") + 2
    seat, action = lines[first - 1].split(": ", 1)
    error = refused_at(with_line(text, first, f"{(int(seat) + 1) % 3}: {action}"))
    assert error.line == first
    assert f"seat {seat}" in error.reason and "is to decide" in error.reason


def test_start_from_position_names_the_line() -> None:
    game = closingbell.load_game("card_stock_market", players=2)
    with pytest.raises(RecordError) as info:
        start_from_position(game, "cash: 1", 12)
    assert info.value.line == 12
    assert info.value.reason.startswith("position field 'cash': ")
