"""The server's words: the lobby's games in both languages, and bots named per connection."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import closingbell
from closingbell.text.i18n import LANGS
from tests.server.helpers import act, create, expect, join
from tests.server.test_lobby import error_of, wait_finished

OLD_OPTION_KEYS = {"name", "default", "doc"}
KINDS = {"integer", "boolean", "choice", "int_tuple", "seat"}


@pytest.mark.parametrize("lang", list(LANGS))
def test_games_describe_every_option_for_people(client: TestClient, lang: str) -> None:
    body = client.get("/api/games", params={"lang": lang}).json()
    assert body["bots"] == closingbell.available_bots()
    assert set(body["bot_labels"]) == set(body["bots"])
    assert all(body["bot_labels"].values())
    for game in body["games"]:
        assert {"name", "title", "min_players", "max_players", "version", "options"} <= set(game)
        assert game["options"], game["name"]
        for option in game["options"]:
            where = f"{game['name']}.{option['name']} ({lang})"
            assert set(option) >= OLD_OPTION_KEYS, where
            assert option["kind"] in KINDS, where
            assert isinstance(option["nullable"], bool), where
            assert option["label"] and option["help"], where
            assert "_" not in option["label"] + option["help"], where
            if option["kind"] in ("integer", "int_tuple"):
                assert option["min"] <= option["max"], where
            if option["kind"] == "int_tuple":
                assert option["length"] == len(option["default"]), where
            if option["kind"] == "choice":
                values = [c["value"] for c in option["choices"]]
                assert option["default"] in values, where
                assert all(c["label"] for c in option["choices"]), where
            else:
                assert "choices" not in option, where
        assert "players" not in [o["name"] for o in game["options"]]


def test_games_speak_chinese_when_asked(client: TestClient) -> None:
    en = client.get("/api/games").json()
    assert client.get("/api/games", params={"lang": "en"}).json() == en
    zh = client.get("/api/games", params={"lang": "zh-Hant"}).json()
    titles = {g["name"]: g["title"] for g in zh["games"]}
    assert titles == {"card_stock_market": "卡牌股市", "take_stock": "炒股票"}
    assert {g["name"]: g["title"] for g in en["games"]}["take_stock"] == "Take Stock"
    assert en["bot_labels"]["medium"] == "Medium"
    assert zh["bot_labels"]["medium"] == "普通電腦"  # the terminal's word
    rounds = next(o for o in zh["games"][1]["options"] if o["name"] == "rounds")
    assert rounds["label"] == "回合數"
    assert (rounds["kind"], rounds["min"], rounds["default"]) == ("integer", 1, 4)
    dealer = next(o for o in en["games"][1]["options"] if o["name"] == "first_dealer")
    assert dealer["kind"] == "seat" and dealer["nullable"] is True
    tie = next(o for o in zh["games"][1]["options"] if o["name"] == "final_tie")
    assert tie["choices"] == [
        {"value": "shared", "label": "共同獲勝"},
        {"value": "most_tokens", "label": "剩下最多股票選擇權的人獲勝"},
    ]


def test_games_refuse_an_unknown_language(client: TestClient) -> None:
    error_of(client.get("/api/games", params={"lang": "fr"}), 404, "bad_request")


def _lines_of_a_game_with_a_bot(client: TestClient, lang: str) -> tuple[list[str], list[str]]:
    """Play seat 0 against a medium bot (seat 1) on a ``lang`` connection: every log line
    and every choice's label it was sent."""
    table = create(client, "take_stock", ["open", "medium"], seed=8, options={"rounds": 1})
    seat = join(client, table["id"], "Ana", seat=0)
    lines: list[str] = []
    labels: list[str] = []
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": seat["token"], "lang": lang}))
        expect(ws, "welcome")
        for _ in range(400):
            state: dict[str, Any] = expect(ws, "state")
            lines += [line for line in state["lines"] if line]
            labels += [a["label"] for a in state["legal"]]
            if state["status"] == "finished":
                break
            if state["current_player"] == 0 and state["legal"]:
                act(ws, state["version"], state["legal"][0]["id"])
    return lines, labels


def test_a_chinese_connection_names_the_bots_in_chinese(client: TestClient) -> None:
    lines, labels = _lines_of_a_game_with_a_bot(client, "zh-Hant")
    assert any("普通電腦 2" in line for line in lines), lines
    assert not any("Medium" in line for line in lines), lines
    assert labels and not any("Medium" in label for label in labels)
    assert any(line.startswith("Ana ") for line in lines)


def test_an_english_connection_names_the_bots_in_english(client: TestClient) -> None:
    lines, _labels = _lines_of_a_game_with_a_bot(client, "en")
    assert any("Medium 2" in line for line in lines), lines


def test_a_replay_names_the_bots_in_its_language(client: TestClient) -> None:
    table = create(client, "card_stock_market", ["easy", "medium"], seed=5)
    wait_finished(client, table["id"])
    path = f"/api/tables/{table['id']}/replay"
    words = {
        lang: [
            line
            for step in client.get(path, params={"limit": 1000, "lang": lang}).json()["steps"]
            for line in step["lines"]
            if line
        ]
        for lang in LANGS
    }
    assert any("普通電腦 2" in line for line in words["zh-Hant"])
    assert not any("Medium" in line or "Easy" in line for line in words["zh-Hant"])
    assert any("Easy 1" in line for line in words["en"])
