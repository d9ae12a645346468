"""Search bots think in helper processes: the table goes on, the bot's generator comes back
moved on, and the helpers stop with the server."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from closingbell.bots import make_bot
from closingbell.cli.main import main
from closingbell.server.hub import Hub
from closingbell.server.thinking import BotPool
from tests.server.helpers import client_for, create, sqlite_database


def wait_for_version(client: TestClient, table_id: str, version: int) -> None:
    for _ in range(1500):
        if client.get(f"/api/tables/{table_id}").json()["table"]["version"] >= version:
            return
        time.sleep(0.02)
    raise AssertionError(f"the table did not reach version {version}")


def hub_of(client: TestClient) -> Hub:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert isinstance(hub, Hub)
    return hub


@pytest.mark.usefixtures("quick_expert")
@pytest.mark.parametrize("processes", [1, 0])
def test_an_expert_thinks_in_a_helper_process_unless_told_not_to(
    tmp_path: Path, processes: int
) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), bot_processes=processes) as client:
        hub = hub_of(client)
        table_id = create(client, "take_stock", ["expert", "random"], seed=3)["id"]
        wait_for_version(client, table_id, 12)
        table = hub.tables[table_id]
        view = client.get(f"/api/tables/{table_id}/view").json()
        assert any(e.get("seat") == 0 for e in view["events"] if e["type"] != "draw")
        assert hub.bots.started == (processes > 0)
        assert bool(multiprocessing.active_children()) == (processes > 0)
        # The bot kept for the next move is the one that thought: its generator moved on.
        bot = table.driver.bots[0]
        fresh = make_bot("expert", table.game, seed=bot.seed)
        assert bot.rng.getstate() != fresh.rng.getstate()
    assert not hub.bots.started
    assert multiprocessing.active_children() == []


def test_rule_based_bots_never_start_the_helpers(client: TestClient) -> None:
    table_id = create(client, "take_stock", ["medium", "random"], seed=3)["id"]
    wait_for_version(client, table_id, 12)
    assert not hub_of(client).bots.started


def test_a_negative_number_of_bot_processes_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(ValueError, match="0 or more"):
        BotPool(-1)
    assert main(["serve", "--bot-processes", "-1"]) == 2
    assert "--bot-processes must be 0 or more" in capsys.readouterr().err


@pytest.mark.usefixtures("quick_expert")
def test_a_table_goes_on_when_a_helper_process_dies(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), bot_processes=1) as client:
        hub = hub_of(client)
        table_id = create(client, "take_stock", ["expert", "random"], seed=3)["id"]
        wait_for_version(client, table_id, 4)
        (helper,) = multiprocessing.active_children()
        helper.kill()
        helper.join(10)
        version = client.get(f"/api/tables/{table_id}").json()["table"]["version"]
        # The move under way (if any) is worked out again in a thread; later ones in a new
        # helper process.
        wait_for_version(client, table_id, version + 8)
        assert "a bots' helper process died" in caplog.text
        assert hub.bots.started
        assert [p.pid for p in multiprocessing.active_children()] != [helper.pid]


@pytest.mark.usefixtures("quick_expert")
def test_bots_think_in_threads_where_no_helper_process_may_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A hardened service or a sandbox may forbid the shared memory a process pool needs.
    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied: '/dev/shm/sem.mp-x'")

    monkeypatch.setattr("closingbell.server.thinking.ProcessPoolExecutor", refused)
    with client_for(sqlite_database(tmp_path / "web.db"), bot_processes=2) as client:
        hub = hub_of(client)
        table_id = create(client, "take_stock", ["expert", "random"], seed=3)["id"]
        wait_for_version(client, table_id, 12)
        assert hub.bots.processes == 0 and not hub.bots.started
        assert multiprocessing.active_children() == []
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors == [
        "the bots' helper processes cannot start ([Errno 13] Permission denied: "
        "'/dev/shm/sem.mp-x'); bots think in threads"
    ]
