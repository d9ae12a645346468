"""Game records: round trips, every malformed file refused at its line, checked replays."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

import closingbell
from closingbell import RecordError, State
from closingbell.core.records import (
    FORMAT_LINE,
    MAX_LINE_BYTES,
    MAX_RECORD_BYTES,
    MAX_VALUE_DEPTH,
    GameRecord,
    RecordedAction,
    RecordResult,
    replay,
    replay_iter,
)

SEATS = ["ana", "bó", "random"]


def play(players: int, seed: int, steps: int | None = None, **options: object) -> State:
    """A Take Stock game played with seeded random moves, to the end or ``steps`` actions."""
    state = closingbell.load_game("take_stock", players=players, **options).new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (steps is None or len(state.history) < steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module")
def finished() -> State:
    return play(3, 7)


@pytest.fixture(scope="module")
def text(finished: State) -> str:
    return GameRecord.from_state(finished, SEATS).dumps()


def line_of(text: str, prefix: str) -> int:
    """The 1-based number of the first line starting with ``prefix``."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith(prefix):
            return number
    raise AssertionError(f"no line starts with {prefix!r}")


def replace_line(text: str, number: int, new: str | None) -> str:
    """``text`` with line ``number`` replaced by ``new`` (removed when ``None``)."""
    lines = text.split("\n")
    if new is None:
        del lines[number - 1]
    else:
        lines[number - 1] = new
    return "\n".join(lines)


def refused(text: str) -> RecordError:
    """The error that reading and replaying ``text`` raises (the test fails if none)."""
    with pytest.raises(RecordError) as info:
        replay(GameRecord.loads(text))
    return info.value


# ---------------------------------------------------------------------- round trips


def test_finished_game_round_trips(finished: State, text: str) -> None:
    record = GameRecord.from_state(finished, SEATS)
    assert record.game == "take_stock"
    assert record.version == finished.game.info.version
    assert record.options == finished.game.options_dict()
    assert record.seats == tuple(SEATS)
    assert len(record.actions) == len(finished.history)
    assert [finished.game.string_to_action(a.text) for a in record.actions] == finished.history
    assert record.result == RecordResult(
        tuple(finished.scores()),
        tuple(finished.winners()),
        tuple(tuple(r) for r in finished.round_results()),  # type: ignore[attr-defined]
    )
    again = GameRecord.loads(text)
    assert again == record
    assert again.dumps() == text
    state = replay(again)
    assert state == finished
    assert state.visible_events(None) == finished.visible_events(None)
    for seat in range(3):
        assert state.visible_events(seat) == finished.visible_events(seat)


def test_action_lines_name_the_acting_seat(finished: State) -> None:
    record = GameRecord.from_state(finished)
    state = finished.game.new_game(7)
    for action in record.actions:
        assert action.seat == state.current_player
        state.apply_string(action.text)
    assert record.seats == ("player 1", "player 2", "player 3")


def test_unfinished_game_round_trips() -> None:
    state = play(4, 99, steps=40)
    record = GameRecord.from_state(state)
    assert record.result is None
    text = record.dumps()
    assert "result:" not in text
    assert text.splitlines()[-1] == f"{record.actions[-1].seat}: {record.actions[-1].text}"
    assert replay(GameRecord.loads(text)) == state


def test_new_game_round_trips() -> None:
    state = closingbell.load_game("take_stock", players=2).new_game(0)
    record = GameRecord.loads(GameRecord.from_state(state).dumps())
    assert record.actions == ()
    assert replay(record) == state


def test_state_read_back_from_json_records_the_same(finished: State) -> None:
    copy = finished.game.state_from_json(finished.to_json())
    assert GameRecord.from_state(copy, SEATS) == GameRecord.from_state(finished, SEATS)


def test_write_and_read_utf8_file(tmp_path: Path, finished: State) -> None:
    record = GameRecord.from_state(finished, ["小明", "ana", "x"])
    path = tmp_path / "game.cbrec"
    record.write(path)
    raw = path.read_bytes()
    assert raw.startswith(FORMAT_LINE.encode() + b"\n")
    assert "小明".encode() in raw
    assert b"\r" not in raw
    assert GameRecord.read(path) == record


def test_non_default_options_survive(tmp_path: Path) -> None:
    state = play(2, 5, rounds=2, frozen_scoring="zero", shares_table=[3] * 11, first_dealer=1)
    path = tmp_path / "odd.cbrec"
    GameRecord.from_state(state).write(path)
    record = GameRecord.read(path)
    assert record.options["shares_table"] == [3] * 11
    assert record.options["rounds"] == 2
    assert replay(record) == state


def test_comments_blank_lines_crlf_and_bom_are_allowed(text: str, finished: State) -> None:
    lines = text.split("\n")
    lines.insert(0, "# a comment before the format line")
    lines.insert(3, "")
    lines.insert(5, "   # indented comment")
    actions_at = lines.index("actions:")
    lines.insert(actions_at + 3, "# round one goes on")
    lines.insert(actions_at + 4, "")
    decorated = "\ufeff" + "\r\n".join(lines)
    record = GameRecord.loads(decorated)
    assert record == GameRecord.loads(text)
    assert replay(record) == finished


def test_action_text_is_read_like_the_engine_reads_it(text: str, finished: State) -> None:
    number = line_of(text, "actions:") + 1
    seat, action = text.split("\n")[number - 1].split(": ")
    loose = replace_line(text, number, f"  {seat} :   {action.upper()}  ")
    assert replay(GameRecord.loads(loose)) == finished


def test_minimal_options_are_completed_by_the_game(finished: State) -> None:
    record = GameRecord.from_state(finished, SEATS)
    short = GameRecord(
        game="take_stock",
        version=1,
        options={"players": 3},
        seed=7,
        seats=("a", "b", "c"),
        actions=record.actions,
    )
    assert replay(short) == finished


def test_records_compare_and_hash_by_their_data(text: str) -> None:
    one = GameRecord.loads(text)
    two = GameRecord.loads("# shifted\n" + text)
    assert one.lines != two.lines
    assert one.actions[0].line != two.actions[0].line
    assert one == two
    assert hash(one) == hash(two)


def test_options_are_copied(finished: State) -> None:
    options = finished.game.options_dict()
    record = GameRecord.from_state(finished)
    made = GameRecord("take_stock", 1, options, 7, ("a", "b", "c"))
    options["players"] = 5
    assert made.options["players"] == 3
    assert record.options["players"] == 3


def test_from_state_checks_seat_names(finished: State) -> None:
    with pytest.raises(RecordError, match="3 names"):
        GameRecord.from_state(finished, ["only", "two"])


def test_from_state_refuses_a_sampled_state() -> None:
    state = play(3, 11, steps=60)
    sampled = state.game.sample_state(state.view(0), random.Random(1))
    assert sampled != state
    with pytest.raises(RecordError, match="does not lead from its seed"):
        GameRecord.from_state(sampled)


# ---------------------------------------------------------------------- replay_iter


def test_replay_iter_yields_after_each_action(text: str, finished: State) -> None:
    record = GameRecord.loads(text)
    rounds_seen = []
    steps = 0
    for step in replay_iter(record):
        assert step.index == steps
        assert step.action == record.actions[steps]
        assert step.action_id == finished.history[steps]
        assert step.state.history == finished.history[: steps + 1]
        rounds_seen.append(len(step.state.round_results()))  # type: ignore[attr-defined]
        steps += 1
    assert steps == len(finished.history)
    assert rounds_seen[-1] == 4
    assert sorted(rounds_seen) == rounds_seen


def test_replay_iter_checks_the_result_only_at_the_end(text: str) -> None:
    number = line_of(text, "result:")
    data = json.loads(text.split("\n")[number - 1].removeprefix("result: "))
    data["scores"][0] += 1
    bad = GameRecord.loads(replace_line(text, number, f"result: {json.dumps(data)}"))
    steps = replay_iter(bad)
    for _ in range(len(bad.actions)):
        next(steps)
    with pytest.raises(RecordError) as info:
        next(steps)
    assert info.value.line == number


# ---------------------------------------------------------------------- malformed files


HEADER_CASES = [
    # (what to do, line to replace or None to insert, new text, reason)
    ("format", "closingbell record 1", "closingbell record 2", "unsupported record format '2'"),
    ("format", "closingbell record 1", "take stock game", "not a closingbell record"),
    ("game", "game:", "game: chess", "unknown game 'chess'"),
    ("game", "game:", "game: take stock", "one registered name"),
    ("version", "version:", "version: 99", "rules version 99"),
    ("version", "version:", 'version: "1"', "version must be an integer"),
    ("options", "options:", "options: {players: 3}", "bad JSON value for 'options'"),
    ("options", "options:", "options: [3]", "options must be a JSON object"),
    ("options", "options:", 'options: {"players": 9}', "bad options: option 'players'"),
    ("options", "options:", 'options: {"players": 3, "round": 2}', "unknown option 'round'"),
    ("options", "options:", 'options: {"rounds": 2}', "option 'players' is required"),
    ("options", "options:", 'options: {"players": 3, "rounds": NaN}', "NaN is not a JSON value"),
    ("seed", "seed:", "seed: 7.5", "seed must be an integer"),
    ("seed", "seed:", "seed: -1", "bad seed"),
    ("seed", "seed:", f"seed: {2**63}", "bad seed"),
    ("seed", "seed:", "seed: seven", "bad JSON value for 'seed'"),
    ("seats", "seats:", 'seats: ["ana", "bob"]', "2 seat names for a 3-player game"),
    ("seats", "seats:", 'seats: ["ana", 2, "c"]', "seats must be a JSON list of names"),
    ("seats", "seats:", 'seats: "ana"', "seats must be a JSON list of names"),
    ("result", "result:", 'result: {"scores": [1, 2, 3]}', "the result has no 'winners'"),
    ("result", "result:", 'result: {"scores": [1, 2], "winners": [0]}', "2 scores"),
    ("result", "result:", 'result: {"scores": [1, 2, "3"], "winners": [0]}', "integers"),
    ("result", "result:", 'result: {"scores": [1, 2, 3], "winners": [3]}', "winners must be"),
    ("result", "result:", 'result: {"scores": [1, 2, 3], "winners": []}', "winners must be"),
    (
        "result",
        "result:",
        'result: {"scores": [1, 2, 3], "winners": [0], "rounds": [[1, 2]]}',
        "a round with 2 scores",
    ),
    (
        "result",
        "result:",
        'result: {"scores": [1, 2, 3], "winners": [0], "rounds": [1]}',
        "list of lists of integers",
    ),
    (
        "result",
        "result:",
        'result: {"scores": [1, 2, 3], "winners": [0], "bonus": 1}',
        "unknown result key 'bonus'",
    ),
    ("result", "result:", "result: [1, 2, 3]", "result must be a JSON object"),
    ("key", "seed:", "colour: red", "unknown header key 'colour'"),
    ("key", "seed:", "seed 7", "expected 'key: value' or 'actions:'"),
]


@pytest.mark.parametrize(("_kind", "prefix", "new", "reason"), HEADER_CASES)
def test_malformed_header_line_is_refused_at_its_line(
    text: str, _kind: str, prefix: str, new: str, reason: str
) -> None:
    number = line_of(text, prefix)
    error = refused(replace_line(text, number, new))
    assert error.line == number
    assert reason in error.reason
    assert str(error).startswith(f"line {number}: ")


@pytest.mark.parametrize("key", ["game", "version", "options", "seed", "seats"])
def test_missing_header_key_is_refused_at_the_actions_line(text: str, key: str) -> None:
    without = replace_line(text, line_of(text, f"{key}:"), None)
    error = refused(without)
    assert error.line == line_of(without, "actions:")
    assert f"missing header key {key!r}" in error.reason


def test_result_is_optional(text: str, finished: State) -> None:
    without = replace_line(text, line_of(text, "result:"), None)
    record = GameRecord.loads(without)
    assert record.result is None
    assert replay(record) == finished


def test_a_hinted_game_says_so_and_reads_back(text: str, finished: State) -> None:
    record = GameRecord.loads(text)
    assert record.hinted is False and "hinted" not in text
    hinted = dataclasses.replace(record, hinted=True)
    written = hinted.dumps()
    assert written.split("\n")[line_of(written, "actions:") - 2] == "hinted: true"
    again = GameRecord.loads(written)
    assert again == hinted and again.hinted is True and again != record
    assert replay(again) == finished
    said_no = replace_line(text, line_of(text, "actions:"), "hinted: false\nactions:")
    assert GameRecord.loads(said_no) == record


@pytest.mark.parametrize("value", ["1", '"yes"', "null", "[true]"])
def test_hinted_is_true_or_false(text: str, value: str) -> None:
    number = line_of(text, "actions:")
    error = refused(replace_line(text, number, f"hinted: {value}\nactions:"))
    assert error.line == number
    assert "hinted must be true or false" in error.reason


def test_duplicate_header_key_is_refused(text: str) -> None:
    number = line_of(text, "seed:")
    lines = text.split("\n")
    lines.insert(number, "seed: 8")
    error = refused("\n".join(lines))
    assert error.line == number + 1
    assert f"given twice (first on line {number})" in error.reason


def test_missing_actions_line_is_refused_at_the_end(text: str) -> None:
    header = text.split("actions:", maxsplit=1)[0].rstrip("\n")
    error = refused(header)
    assert error.line == len(header.split("\n"))
    assert "'actions:'" in error.reason


@pytest.mark.parametrize("empty", ["", "\n\n", "# only a comment\n"])
def test_empty_record_is_refused(empty: str) -> None:
    error = refused(empty)
    assert error.line == len(empty.split("\n"))
    assert "empty record" in error.reason


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        ("raise Oil 5", "expected 'SEAT: action'"),
        ("-1: market A", "expected 'SEAT: action'"),
        ("one: market A", "expected 'SEAT: action'"),
        ("0:", "no action after the seat"),
        ("7: market A", "seat 7 is not a seat of this 3-player game"),
        ("seed: 8", "expected 'SEAT: action'"),
    ],
)
def test_malformed_action_line_is_refused_at_its_line(text: str, new: str, reason: str) -> None:
    number = line_of(text, "actions:") + 5
    error = refused(replace_line(text, number, new))
    assert error.line == number
    assert reason in error.reason


def test_non_utf8_file_is_refused_at_its_line(tmp_path: Path, text: str) -> None:
    number = line_of(text, "seats:")
    path = tmp_path / "latin1.cbrec"
    path.write_bytes(replace_line(text, number, 'seats: ["Jos\xe9", "b", "c"]').encode("latin-1"))
    with pytest.raises(RecordError) as info:
        GameRecord.read(path)
    assert info.value.line == number
    assert "not UTF-8" in info.value.reason


def _padded(text: str, size: int) -> str:
    """``text`` grown to exactly ``size`` characters with comment lines after its header."""
    head, actions = text.split("actions:\n")
    missing = size - len(text)
    comments = []
    while missing > 0:
        line = "#" * min(missing - 1, MAX_LINE_BYTES) if missing > 1 else ""
        comments.append(line)
        missing -= len(line) + 1
    padded = head + "".join(c + "\n" for c in comments) + "actions:\n" + actions
    assert len(padded) == size
    return padded


def test_a_record_may_hold_a_bounded_number_of_bytes(tmp_path: Path, text: str) -> None:
    # ASCII names, so that characters and bytes count alike.
    text = replace_line(text, line_of(text, "seats:"), 'seats: ["ana", "bo", "random"]')
    path = tmp_path / "big.cbrec"
    at_bound = _padded(text, MAX_RECORD_BYTES)
    path.write_text(at_bound, encoding="utf-8", newline="\n")
    assert GameRecord.read(path) == GameRecord.loads(at_bound)
    over = _padded(text, MAX_RECORD_BYTES + 1)
    passed_at = over.count("\n", 0, MAX_RECORD_BYTES) + 1
    path.write_text(over, encoding="utf-8", newline="\n")
    for read in (lambda: GameRecord.read(path), lambda: GameRecord.loads(over)):
        with pytest.raises(RecordError) as info:
            read()
        assert info.value.line == passed_at
        assert f"longer than {MAX_RECORD_BYTES:,} bytes" in info.value.reason


def test_a_line_may_hold_a_bounded_number_of_bytes(tmp_path: Path, text: str) -> None:
    number = line_of(text, "seed:")
    fits = replace_line(text, number, "#" * MAX_LINE_BYTES + "\nseed: 7")
    assert GameRecord.loads(fits).seed == 7
    too_long = replace_line(text, number, "#" * (MAX_LINE_BYTES + 1) + "\nseed: 7")
    path = tmp_path / "long.cbrec"
    path.write_text(too_long, encoding="utf-8")
    for read in (lambda: GameRecord.read(path), lambda: GameRecord.loads(too_long)):
        with pytest.raises(RecordError) as info:
            read()
        assert info.value.line == number
        assert f"the line is longer than {MAX_LINE_BYTES:,} bytes" in info.value.reason
    # A file without a single newline is refused at its first line, without reading it all.
    path.write_bytes(b"x" * (MAX_RECORD_BYTES * 4))
    with pytest.raises(RecordError) as info:
        GameRecord.read(path)
    assert info.value.line == 1 and "the line is longer" in info.value.reason


@pytest.mark.parametrize(
    ("prefix", "value", "depth"),
    [
        ("options:", '{"players": 3, "rounds": %s}', MAX_VALUE_DEPTH),
        ("options:", '{"players": 3, "rounds": %s}', 1000),
        ("seats:", "%s", 1000),
        ("result:", '{"scores": %s}', 1000),
    ],
)
def test_deeply_nested_header_values_are_refused_at_their_line(
    text: str, prefix: str, value: str, depth: int
) -> None:
    # depth levels of lists inside the value: one more level than allowed, or far more.
    number = line_of(text, prefix)
    nested = value % ("[" * depth + "]" * depth)
    error = refused(replace_line(text, number, f"{prefix} {nested}"))
    assert error.line == number
    assert f"nest deeper than {MAX_VALUE_DEPTH} levels" in error.reason


@pytest.mark.parametrize("digits", [4, 5000])
def test_a_seat_number_with_too_many_digits_is_refused(text: str, digits: int) -> None:
    number = line_of(text, "actions:") + 1
    error = refused(replace_line(text, number, "9" * digits + ": market A"))
    assert error.line == number
    assert (
        error.reason
        == f"seat {'9' * min(digits, 12)}... ({digits} digits) is not a seat of any game"
    )


def test_a_huge_seed_is_refused_in_a_short_message(text: str) -> None:
    number = line_of(text, "seed:")
    error = refused(replace_line(text, number, "seed: " + "7" * 4000))
    assert error.line == number
    assert (
        error.reason
        == "bad seed: seed must be between 0 and 2**63 - 1, not a number of 4000 digits"
    )


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        GameRecord.read(tmp_path / "nothing.cbrec")


# ---------------------------------------------------------------------- bad actions


def action_line(text: str, index: int) -> tuple[int, int, str]:
    """Line number, seat and text of the action at ``index`` (counted from 0)."""
    number = line_of(text, "actions:") + 1 + index
    seat, _, action = text.split("\n")[number - 1].partition(": ")
    return number, int(seat), action


def test_illegal_action_is_refused_with_the_engines_reason(text: str, finished: State) -> None:
    index = 30
    number, seat, _ = action_line(text, index)
    state = finished.game.new_game(7)
    for action in finished.history[:index]:
        state.apply(action)
    illegal = next(a for a in range(364) if a not in state.legal_actions())
    with pytest.raises(closingbell.IllegalActionError) as engine:
        state.apply(illegal)
    bad = replace_line(text, number, f"{seat}: {state.action_to_string(illegal)}")
    error = refused(bad)
    assert error.line == number
    assert f"action {index + 1}" in error.reason
    assert str(engine.value) in error.reason


def test_unreadable_action_is_refused(text: str) -> None:
    number, seat, _ = action_line(text, 12)
    error = refused(replace_line(text, number, f"{seat}: sell Oil 5"))
    assert error.line == number
    assert "action 13: unreadable action" in error.reason
    assert "'sell Oil 5' is not a Take Stock action" in error.reason


def test_wrong_seat_is_refused(text: str, finished: State) -> None:
    number, seat, action = action_line(text, 20)
    other = (seat + 1) % 3
    error = refused(replace_line(text, number, f"{other}: {action}"))
    assert error.line == number
    assert f"gives seat {other}, but seat {seat} ({SEATS[seat]}) is to decide" in error.reason


def test_action_after_the_end_is_refused(text: str) -> None:
    longer = text.rstrip("\n") + "\n0: market A\n"
    error = refused(longer)
    assert error.line == len(text.rstrip("\n").split("\n")) + 1
    assert "the game is already over" in error.reason


def test_first_bad_action_is_the_one_reported(text: str) -> None:
    first, _, _ = action_line(text, 3)
    second, seat2, _ = action_line(text, 9)
    bad = replace_line(replace_line(text, second, f"{seat2}: nonsense"), first, "0: also bad")
    assert refused(bad).line == first


def test_record_made_in_code_reports_the_action_number(finished: State) -> None:
    record = GameRecord.from_state(finished, SEATS)
    actions = list(record.actions)
    actions[4] = RecordedAction(actions[4].seat, "gibberish")
    bad = GameRecord(
        game=record.game,
        version=record.version,
        options=record.options,
        seed=record.seed,
        seats=record.seats,
        actions=tuple(actions),
    )
    with pytest.raises(RecordError) as info:
        replay(bad)
    assert info.value.line is None
    assert info.value.reason.startswith("action 5: unreadable action")


# ---------------------------------------------------------------------- results


def with_result(text: str, change: dict[str, object]) -> tuple[str, int]:
    number = line_of(text, "result:")
    data = json.loads(text.split("\n")[number - 1].removeprefix("result: "))
    data.update(change)
    return replace_line(text, number, f"result: {json.dumps(data)}"), number


def test_wrong_scores_are_reported(text: str, finished: State) -> None:
    scores = finished.scores()
    wrong = [scores[0] + 10, *scores[1:]]
    bad, number = with_result(text, {"scores": wrong})
    error = refused(bad)
    assert error.line == number
    assert error.reason == (
        f"the result does not match the replay: scores {wrong} recorded, {scores} replayed"
    )


def test_wrong_winners_are_reported(text: str, finished: State) -> None:
    winners = finished.winners()
    wrong = [(winners[0] + 1) % 3]
    bad, number = with_result(text, {"winners": wrong})
    error = refused(bad)
    assert error.line == number
    assert f"winners {wrong} recorded, {winners} replayed" in error.reason


def test_wrong_round_results_are_reported(text: str, finished: State) -> None:
    rounds = finished.round_results()  # type: ignore[attr-defined]
    wrong = [r[:] for r in rounds]
    wrong[1][2] += 1
    bad, number = with_result(text, {"rounds": wrong})
    error = refused(bad)
    assert error.line == number
    assert f"round results {wrong} recorded, {rounds} replayed" in error.reason


def test_result_of_an_unfinished_game_is_reported(text: str) -> None:
    number, _, _ = action_line(text, 100)
    cut = "\n".join(text.split("\n")[:number])
    error = refused(cut)
    assert error.line == line_of(text, "result:")
    assert "the game is not over after its last action" in error.reason


def test_result_without_rounds_checks_scores_and_winners_only(text: str, finished: State) -> None:
    number = line_of(text, "result:")
    short = {"scores": finished.scores(), "winners": finished.winners()}
    record = GameRecord.loads(replace_line(text, number, f"result: {json.dumps(short)}"))
    assert record.result is not None
    assert record.result.rounds is None
    assert replay(record) == finished
