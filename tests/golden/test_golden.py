"""Golden records: complete games replayed to their recorded results.

The ``*.cbrec`` files next to this test were written by ``make_golden.py``. If one of
these tests fails, the rules now play differently: either fix the regression or, for an
intended change, bump the game's version and regenerate the files (see that script).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import closingbell
from closingbell import RecordError
from closingbell.core.records import EXTENSION, GameRecord, replay, round_results
from closingbell.core.registry import game_class
from tests.golden import make_golden

HERE = Path(__file__).resolve().parent
GOLDEN = sorted(HERE.glob(f"*{EXTENSION}"))


@pytest.mark.parametrize("game", closingbell.available_games())
def test_the_golden_set_covers_every_game(game: str) -> None:
    assert {p.stem for p in GOLDEN} == set(make_golden.GAMES)
    records = [r for r in map(GameRecord.read, GOLDEN) if r.game == game]
    assert {len(r.seats) for r in records} == {2, 3, 4, 5, 6}
    defaults = closingbell.load_game(game, players=2).options_dict()
    del defaults["players"]
    varied = [r for r in records if {k: r.options[k] for k in defaults} != defaults]
    assert varied, "some golden games must use non-default options"


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_result(path: Path) -> None:
    record = GameRecord.read(path)
    assert record.result is not None
    state = replay(record)
    assert state.is_terminal()
    state.check_invariants()
    assert state.scores() == list(record.result.scores)
    assert state.winners() == list(record.result.winners)
    if record.game == "take_stock":
        assert record.result.rounds is not None
        assert round_results(state) == [list(r) for r in record.result.rounds]
        assert len(record.result.rounds) == record.options["rounds"]
        assert sum(map(sum, record.result.rounds)) == sum(record.result.scores)
    else:
        assert record.result.rounds is None


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay_gives_the_same_events_twice(path: Path) -> None:
    record = GameRecord.read(path)
    one, two = replay(record), replay(record)
    assert one.to_json() == two.to_json()
    for seat in [None, *range(len(record.seats))]:
        assert one.visible_events(seat) == two.visible_events(seat)


@pytest.mark.parametrize("name", sorted(make_golden.GAMES))
def test_the_script_still_writes_the_same_files(name: str) -> None:
    # Random play picks among the sorted legal actions, so this also guards their order.
    assert make_golden.play(name).dumps() == (HERE / f"{name}{EXTENSION}").read_text("utf-8")


def test_golden_replay_notices_other_rules() -> None:
    record = GameRecord.read(HERE / f"take_stock_3p{EXTENSION}")
    other = dataclasses.replace(record, options={**record.options, "shares_table": [3] * 11})
    with pytest.raises(RecordError, match="the result does not match the replay"):
        replay(other)


OLDER = sorted((HERE / "older").glob(f"*{EXTENSION}"))
"""Records written by older rules versions, kept when a version was bumped."""


def test_older_records_are_kept() -> None:
    assert {GameRecord.read(p).version for p in OLDER} == {1}


@pytest.mark.parametrize("path", OLDER, ids=[p.stem for p in OLDER])
def test_an_older_record_replays_to_its_result_under_its_own_rules(path: Path) -> None:
    record = GameRecord.read(path)
    assert record.version < game_class(record.game).info.version
    assert record.result is not None
    state = replay(record)
    state.check_invariants()
    assert state.scores() == list(record.result.scores)
    assert state.winners() == list(record.result.winners)
