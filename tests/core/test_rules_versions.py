"""Games saved under an older rules version still load and replay exactly, with the options
that version played by (``GameInfo.older_versions``, ``Game.for_version``).

The fixture ``tests/golden/older/card_stock_market_v1_3p_same_price.cbrec`` was written by
closingbell under Card Stock Market's rules version 1, which allowed a market change that
changes nothing; version 2 refuses one by default (option ``same_price_change``).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

import closingbell
from closingbell import RecordError, RulesVersionError, StateFormatError
from closingbell.cli.main import main
from closingbell.core.records import GameRecord, replay, replay_iter
from closingbell.core.registry import game_class
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.take_stock.game import TakeStock

FIXTURE = (
    Path(__file__).resolve().parent.parent
    / "golden"
    / "older"
    / "card_stock_market_v1_3p_same_price.cbrec"
)
SAME_PRICE_ACTION = 40
"""The fixture's action (counted from 1) that plays a number card at its suit's price."""
IDLE_BANKRUPTCY = 54
"""The fixture's action that bankrupts a suit at $0 that nobody holds."""
NEW_OPTIONS = ("same_price_change", "phase_order")
"""The Card Stock Market options version 1 did not have."""


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return GameRecord.read(FIXTURE)


def test_card_stock_market_plays_version_2_and_reads_version_1() -> None:
    assert CardStockMarket.info.version == 2
    assert CardStockMarket.versions() == [1, 2]
    assert TakeStock.versions() == [TakeStock.info.version]
    older = CardStockMarket.info.older_versions[1]
    assert dict(older) == {"same_price_change": True, "phase_order": "either"}


def test_every_older_version_names_every_option_added_since() -> None:
    for name in closingbell.available_games():
        cls = game_class(name)
        today = set(cls(players=2).options_dict())
        for version, values in cls.info.older_versions.items():
            assert version < cls.info.version
            assert set(values) <= today, (name, version)


def test_the_fixture_is_a_version_1_record_of_changes_that_change_nothing(
    record: GameRecord,
) -> None:
    assert record.version == 1
    assert not set(NEW_OPTIONS) & set(record.options)
    texts = [a.text for a in record.actions]
    assert texts[SAME_PRICE_ACTION - 1] == "market AD"
    assert texts[IDLE_BANKRUPTCY - 1] == "bankrupt JS"


def test_a_version_1_record_replays_to_its_result_with_version_1_options(
    record: GameRecord,
) -> None:
    game = record.check()
    assert isinstance(game, CardStockMarket)
    assert game.options.same_price_change is True
    assert game.options.phase_order == "either"
    state = replay(record)
    assert record.result is not None
    assert state.scores() == list(record.result.scores)
    assert state.winners() == list(record.result.winners)


def test_the_same_actions_under_version_2_defaults_are_refused(record: GameRecord) -> None:
    as_today = dataclasses.replace(record, version=2)
    with pytest.raises(RecordError) as info:
        replay(as_today)
    assert f"action {SAME_PRICE_ACTION} " in str(info.value)
    assert "would not change its value" in str(info.value)


def test_an_option_the_record_gives_itself_wins(record: GameRecord) -> None:
    stricter = dataclasses.replace(record, options={**record.options, "same_price_change": False})
    assert stricter.check().options.same_price_change is False  # type: ignore[attr-defined]
    with pytest.raises(RecordError, match=f"action {SAME_PRICE_ACTION} "):
        replay(stricter)


def test_recording_the_replay_again_writes_version_2_with_every_option(
    record: GameRecord,
) -> None:
    state = replay(record)
    again = GameRecord.from_state(state, list(record.seats))
    assert again.version == 2
    assert again.options["same_price_change"] is True
    assert again.options["phase_order"] == "either"
    assert [a.text for a in again.actions] == [a.text for a in record.actions]
    assert replay(GameRecord.loads(again.dumps())).to_json() == state.to_json()


@pytest.mark.parametrize("version", [0, 3, 99, -1])
def test_an_unknown_version_is_refused_on_its_line(record: GameRecord, version: Any) -> None:
    text = FIXTURE.read_text("utf-8").replace("version: 1", f"version: {json.dumps(version)}")
    with pytest.raises(RecordError) as info:
        GameRecord.loads(text)
    assert info.value.line == record.lines["version"]
    assert "is unknown: this closingbell plays version 2 and reads version 1" in str(info.value)


def test_for_version_refuses_what_it_cannot_read() -> None:
    with pytest.raises(RulesVersionError, match="take_stock rules version 0 is unknown"):
        TakeStock.for_version(0, {"players": 3})
    with pytest.raises(RulesVersionError, match=r"plays version 1$"):
        TakeStock.options_for_version("1", {"players": 3})
    with pytest.raises(RulesVersionError, match="version True is unknown"):
        CardStockMarket.options_for_version(True, {"players": 3})
    assert TakeStock.for_version(1, {"players": 3}).options == TakeStock(players=3).options


def test_options_for_version_completes_only_older_versions() -> None:
    given = {"players": 4, "strip": [3] * 8}
    assert CardStockMarket.options_for_version(2, given) == given
    assert CardStockMarket.options_for_version(1, given) == {
        "same_price_change": True,
        "phase_order": "either",
        **given,
    }


# ---------------------------------------------------------------------- state files


def _state_after(record: GameRecord, actions: int) -> Any:
    for step in replay_iter(record):
        if step.index + 1 == actions:
            return step.state
    raise AssertionError("the record is shorter")


def _as_version_1(state: Any) -> dict[str, Any]:
    """``state``'s JSON as version 1 wrote it: its version, and no option it lacked."""
    data = state.to_dict()
    data["version"] = 1
    for name in NEW_OPTIONS:
        del data["options"][name]
    return data


def test_a_version_1_state_file_is_read_by_the_game_of_its_version(record: GameRecord) -> None:
    state = _state_after(record, SAME_PRICE_ACTION + 3)
    data = _as_version_1(state)
    game = CardStockMarket.for_version(data["version"], data["options"])
    back = game.state_from_json(json.dumps(data))  # replayed from the deal: from_deal
    assert back.to_json() == state.to_json()
    assert json.loads(back.to_json())["version"] == 2


def test_a_version_1_state_file_is_refused_by_a_game_of_todays_defaults(
    record: GameRecord,
) -> None:
    data = _as_version_1(_state_after(record, SAME_PRICE_ACTION + 3))
    today = CardStockMarket(**data["options"])
    with pytest.raises(StateFormatError, match="under its rules version 1, differ"):
        today.state_from_json(json.dumps(data))


def test_a_state_file_of_an_unknown_version_is_refused(record: GameRecord) -> None:
    state = _state_after(record, 10)
    data = state.to_dict()
    data["version"] = 3
    with pytest.raises(StateFormatError, match="rules version 3 is unknown"):
        state.game.state_from_json(json.dumps(data))


# ---------------------------------------------------------------------- front ends


def test_closingbell_replay_checks_a_version_1_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "card_stock_market (rules version 1)" in out
    assert "every action is legal and the recorded result matches" in out
