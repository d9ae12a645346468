"""A finished game's record file, downloaded from the server, is what ``closingbell replay``
reads: ``GET /api/tables/{id}/record.cbrec``."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import act, create, expect, hello, join

GAMES = ["take_stock", "card_stock_market"]


def play_to_the_end(client: TestClient, table_id: str, token: str, seed: int) -> dict[str, Any]:
    """Play seat 0 with random legal actions until the game is over; the last ``state``."""
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        message = hello(ws, token)
        acted = -1
        while message["status"] != "finished":
            if message["legal"] and message["version"] > acted:
                acted = message["version"]
                act(ws, acted, rng.choice(message["legal"])["id"])
            message = expect(ws, "state")
    return message


def replay(path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """``closingbell replay FLAGS PATH`` in a process of its own."""
    command = [sys.executable, "-m", "closingbell.cli.main", "replay", *flags, str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("game", GAMES)
def test_the_downloaded_record_file_replays_to_the_servers_result(
    client: TestClient, tmp_path: Path, game: str
) -> None:
    table = create(client, game, ["open", "easy"], seed=5)
    token = join(client, table["id"], "小明 Ana")["token"]
    final = play_to_the_end(client, table["id"], token, seed=5)
    assert final["result"] is not None

    response = client.get(f"/api/tables/{table['id']}/record.cbrec")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    disposition = response.headers["content-disposition"]
    name = f"closingbell-{game}-{table['id']}.cbrec"
    assert disposition == f'attachment; filename="{name}"'
    assert response.text.startswith("closingbell record 1\n")
    assert re.search(r'^seats: \["小明 Ana", "easy"\]$', response.text, re.MULTILINE)
    path = tmp_path / name
    path.write_bytes(response.content)

    shown = replay(path)
    assert shown.returncode == 0, shown.stderr
    assert "every action is legal and the recorded result matches" in shown.stdout
    checked = replay(path, "--json")
    assert checked.returncode == 0, checked.stderr
    summary = json.loads(checked.stdout)
    assert summary["game"] == game
    assert summary["over"] and summary["result_checked"]
    assert summary["seats"] == ["小明 Ana", "easy"]
    assert (summary["scores"], summary["winners"]) == (
        final["result"]["scores"],
        final["result"]["winners"],
    )
    # The same record as the JSON answer holds.
    assert response.text == client.get(f"/api/tables/{table['id']}/record").json()["record"]


def test_no_record_file_before_the_game_is_over(client: TestClient) -> None:
    table = create(client, "take_stock", ["open", "easy"])
    response = client.get(f"/api/tables/{table['id']}/record.cbrec")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_finished"
    missing = client.get("/api/tables/nosuchtable/record.cbrec")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "unknown_table"
