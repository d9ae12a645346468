"""The bots' pace: a pause per turn, shorter ones between the decisions of a turn, a turn
kept within its time, and how long the seat to move has been deciding."""

from __future__ import annotations

import time
from typing import Any

import pytest

from closingbell.server.botdriver import bot_pause
from closingbell.server.settings import Settings
from tests.server.helpers import client_for, create, hello, sqlite_database, wait_state
from tests.server.test_memory import hub_of


def turn_pauses(settings: Settings, decisions: int, thinking: float = 0.0) -> list[float]:
    """The pauses of a bot's turn of ``decisions`` decisions, each taking ``thinking``."""
    pauses: list[float] = []
    elapsed = 0.0
    for n in range(decisions):
        pause = bot_pause(settings, n == 0, elapsed)
        pauses.append(pause)
        elapsed += max(pause, thinking)
    return pauses


@pytest.mark.parametrize("decisions", [1, 2, 3, 4, 6, 9])  # a bot's turns: 1 to 9 decisions
def test_a_bots_whole_turn_takes_at_most_its_time_by_default(decisions: int) -> None:
    settings = Settings()
    pauses = turn_pauses(settings, decisions, thinking=0.005)
    assert settings.bot_turn <= 1.5
    assert pauses[0] == settings.bot_delay
    # Every decision is still seen: it comes after a pause of its own, shorter than the first.
    assert all(0 < p <= settings.bot_step_delay for p in pauses[1:])
    # The bot thinks during its pauses: the turn is shown within its time.
    assert sum(max(p, 0.005) for p in pauses) <= settings.bot_turn + 0.005


def test_the_following_decisions_of_a_turn_wait_less_than_its_first() -> None:
    settings = Settings(bot_delay=0.5, bot_step_delay=0.2, bot_turn=1.5)
    assert turn_pauses(settings, 4) == [0.5, 0.2, 0.2, 0.2]
    # A long turn's later pauses shrink to fit in the turn's time.
    long = turn_pauses(settings, 9)
    assert long[:4] == [0.5, 0.2, 0.2, 0.2]
    assert long[4:] == sorted(long[4:], reverse=True) and sum(long) <= 1.5
    # Without a first pause there are none.
    assert turn_pauses(Settings(bot_delay=0), 5) == [0.0] * 5


def test_a_bot_waits_once_a_turn_and_briefly_between_its_decisions(tmp_path: Any) -> None:
    pace = {"bot_delay": 0.04, "bot_step_delay": 0.01, "bot_turn": 0.2}
    with client_for(sqlite_database(tmp_path / "pace.db"), **pace) as client:
        hub = hub_of(client)
        waited: list[tuple[bool, float]] = []
        real_sleep = hub.sleep

        async def sleep(seconds: float) -> None:
            # Whether the decision begins its seat's turn, and the pause before it.
            (table,) = hub.tables.values()
            seat = table.state.current_player
            first = table.last_action is None or table.last_action.seat != seat
            waited.append((first, seconds))
            await real_sleep(seconds)

        hub.sleep = sleep
        table = create(client, "card_stock_market", ["medium", "medium", "medium"], seed=5)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws)
            wait_state(ws, lambda m: m["version"] >= 40, timeout=30)
        firsts = [s for first, s in waited if first]
        follows = [s for first, s in waited if not first]
        assert firsts and follows
        assert all(s == pytest.approx(0.04) for s in firsts)
        assert all(0 < s <= 0.01 for s in follows)


def test_the_state_says_how_long_the_seat_to_move_has_been_deciding(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "deciding.db"), bot_delay=60) as client:
        table = create(client, "take_stock", ["open", "medium"], seed=3)
        assert client.get(f"/api/tables/{table['id']}/view").json()["deciding_for"] is None
        client.post(f"/api/tables/{table['id']}/join", json={"name": "Ana", "seat": 0})
        time.sleep(0.3)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            message = hello(ws)
        assert message["status"] == "playing"
        assert 0.2 <= message["deciding_for"] < 30
