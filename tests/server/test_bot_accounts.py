"""Bot accounts: made from a new account, played by a program through its API tokens."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from closingbell.server.accounts import TOKENS_PER_ACCOUNT
from closingbell.server.client import CLOSE_SIGNED_OUT
from tests.server.helpers import act, client_for, expect, expect_error
from tests.server.test_accounts import ORIGIN, sign_up, stored, use


@pytest.fixture
def site(database_url: str) -> Iterator[TestClient]:
    with client_for(database_url) as client:
        yield client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _bot_with_token(site: TestClient, name: str) -> tuple[str, str]:
    """A new bot account's session cookie and one API token of it."""
    cookie = sign_up(site, name)
    made = site.post("/api/account/bot", headers=ORIGIN)
    assert made.status_code == 200, made.text
    assert made.json() == {"user": {"username": name, "bot": True}}
    answer = site.post("/api/account/tokens", json={"name": "agent"}, headers=ORIGIN)
    assert answer.status_code == 201, answer.text
    return cookie, answer.json()["token"]


def test_a_new_account_becomes_a_bot_and_its_tokens_are_shown_once(
    site: TestClient, database_url: str
) -> None:
    cookie, token = _bot_with_token(site, "robo")
    listed = site.get("/api/account/tokens").json()
    assert listed["most"] == TOKENS_PER_ACCOUNT
    [entry] = listed["tokens"]
    assert entry["name"] == "agent" and entry["used_at"] is None
    assert token not in json.dumps(listed)  # listed by name and dates, never the token
    # Only the token's SHA-256 is kept.
    rows = stored(database_url, "SELECT token_hash FROM api_tokens")
    assert len(rows) == 1 and token not in str(rows) and len(rows[0][0]) == 64
    # The token opens the account, without a cookie or an Origin.
    use(site, None)
    me = site.get("/api/account", headers=_bearer(token)).json()
    assert me == {"user": {"username": "robo", "bot": True}}
    use(site, cookie)
    assert site.get("/api/account/tokens").json()["tokens"][0]["used_at"] is not None


def test_what_a_bot_account_may_not_do_is_refused_and_changes_nothing(
    site: TestClient, database_url: str
) -> None:
    # A person's account has no tokens.
    sign_up(site, "person")
    refused = site.post("/api/account/tokens", json={"name": "x"}, headers=ORIGIN)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_a_bot"
    # An account that sat at a table stays a person's.
    table = site.post(
        "/api/tables", json={"game": "take_stock", "seats": ["open", "easy"]}, headers=ORIGIN
    ).json()["table"]
    assert site.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN).status_code == 200
    refused = site.post("/api/account/bot", headers=ORIGIN)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "has_games"
    assert stored(database_url, "SELECT bot FROM users WHERE username = 'person'")[0][0] in (
        0,
        False,
    )
    _cookie, token = _bot_with_token(site, "robo")
    again = site.post("/api/account/bot", headers=ORIGIN)
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_bot"
    for name, code in (
        ("", "bad_token_name"),
        ("x" * 65, "bad_token_name"),
        ("a\nb", "bad_token_name"),
    ):
        bad = site.post("/api/account/tokens", json={"name": name}, headers=ORIGIN)
        assert bad.json()["error"]["code"] == code, (name, bad.text)
    for i in range(TOKENS_PER_ACCOUNT - 1):
        assert (
            site.post("/api/account/tokens", json={"name": f"t{i}"}, headers=ORIGIN).status_code
            == 201
        )
    full = site.post("/api/account/tokens", json={"name": "one more"}, headers=ORIGIN)
    assert full.status_code == 409 and full.json()["error"]["code"] == "too_many_tokens"
    assert len(site.get("/api/account/tokens").json()["tokens"]) == TOKENS_PER_ACCOUNT
    # A token cannot manage tokens or change the password: only the owner's browser can.
    use(site, None)
    for method, path, body in (
        ("GET", "/api/account/tokens", None),
        ("POST", "/api/account/tokens", {"name": "mine"}),
        ("POST", "/api/account/password", {"old": "x" * 8, "new": "y" * 8}),
    ):
        answer = site.request(method, path, json=body, headers=_bearer(token))
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "sign_in_required"
    # A wrong token is refused, not taken for a guest's.
    for header in (_bearer("nope"), _bearer(""), {"Authorization": "Basic abc"}):
        answer = site.get("/api/account", headers=header)
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "bad_api_token"
        made = site.post(
            "/api/tables", json={"game": "take_stock", "seats": ["open", "easy"]}, headers=header
        )
        assert made.status_code == 401
    assert len(stored(database_url, "SELECT id FROM tables")) == 1


def test_a_bot_account_plays_a_game_through_its_token_and_a_revoked_token_closes(
    site: TestClient,
) -> None:
    cookie, token = _bot_with_token(site, "robo")
    use(site, None)
    made = site.post(
        "/api/tables",
        json={
            "game": "take_stock",
            "seats": ["open", "random"],
            "options": {"rounds": 1},
            "rated": True,
        },
        headers=_bearer(token),
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    joined = site.post(f"/api/tables/{table['id']}/join", json={}, headers=_bearer(token))
    assert joined.status_code == 200, joined.text
    assert joined.json()["table"]["seats"][0]["name"] == "robo"
    path = f"/ws/tables/{table['id']}"
    with site.websocket_connect(path, headers=_bearer(token)) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        assert expect(ws, "welcome")["seat"] == 0
        state = expect(ws, "state")
        ws.send_text(json.dumps({"type": "chat", "text": "good luck"}))
        [said] = expect(ws, "chat")["messages"]
        assert (said["name"], said["account"], said["bot_account"]) == ("robo", True, True)
        while state["status"] != "finished":
            if state["legal"]:
                act(ws, state["version"], state["legal"][0]["id"])
            state = expect(ws, "state")
        assert state["result"]["winners"]
    # Marked as a bot account in the stored chat, its profile and its leaderboard line.
    [kept] = site.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert kept["bot_account"] is True
    profile = site.get("/api/players/robo").json()
    assert profile["bot_account"] is True and profile["bot"] is None
    [rated] = [g for g in profile["games"] if g["game"] == "take_stock"]
    assert rated["rated_games"] == 1
    lines = site.get("/api/leaderboard/take_stock").json()["players"]
    assert sorted((p["username"], str(p["bot"]), p["bot_account"]) for p in lines) == [
        ("bot:random", "random", False),
        ("robo", "None", True),
    ]
    # A wrong token is refused at the table; another bot account's token has no seat there.
    with site.websocket_connect(path, headers=_bearer("nope")) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        expect_error(ws, "bad_api_token")
    _, other = _bot_with_token(site, "other")
    use(site, None)
    with site.websocket_connect(path, headers=_bearer(other)) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        expect_error(ws, "not_seated")
    # Revoked by its owner: the token opens nothing more.
    use(site, cookie)
    token_id = site.get("/api/account/tokens").json()["tokens"][0]["id"]
    assert site.delete(f"/api/account/tokens/{token_id}", headers=ORIGIN).status_code == 200
    gone = site.delete(f"/api/account/tokens/{token_id}", headers=ORIGIN)
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "unknown_token"
    assert site.get("/api/account/tokens").json()["tokens"] == []
    use(site, None)
    assert site.get("/api/account", headers=_bearer(token)).status_code == 401
    with site.websocket_connect(path, headers=_bearer(token)) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        expect_error(ws, "bad_api_token")


def test_revoking_a_token_closes_the_connections_it_opened(site: TestClient) -> None:
    cookie, token = _bot_with_token(site, "robo")
    use(site, None)
    table = site.post(
        "/api/tables",
        json={"game": "take_stock", "seats": ["open", "easy"]},
        headers=_bearer(token),
    ).json()["table"]
    site.post(f"/api/tables/{table['id']}/join", json={}, headers=_bearer(token))
    with site.websocket_connect(f"/ws/tables/{table['id']}", headers=_bearer(token)) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        expect(ws, "state")
        use(site, cookie)
        token_id = site.get("/api/account/tokens").json()["tokens"][0]["id"]
        site.delete(f"/api/account/tokens/{token_id}", headers=ORIGIN)
        closed = expect(ws, "closed")
        assert closed["code"] == CLOSE_SIGNED_OUT, closed


def test_a_bot_accounts_seat_says_so_in_the_lobby_and_at_the_table(site: TestClient) -> None:
    _, token = _bot_with_token(site, "robo")
    sign_up(site, "person")
    table = site.post(
        "/api/tables", json={"game": "take_stock", "seats": ["open", "open"]}, headers=ORIGIN
    ).json()["table"]
    assert site.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN).status_code == 200
    use(site, None)
    joined = site.post(f"/api/tables/{table['id']}/join", json={}, headers=_bearer(token)).json()
    seats = joined["table"]["seats"]
    assert [(s["name"], s["account"], s["bot_account"]) for s in seats] == [
        ("person", True, False),
        ("robo", True, True),
    ]
    listed = next(t for t in site.get("/api/tables").json()["tables"] if t["id"] == table["id"])
    assert [s["bot_account"] for s in listed["seats"]] == [False, True]
    with site.websocket_connect(f"/ws/tables/{table['id']}", headers=_bearer(token)) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        assert [s["bot_account"] for s in expect(ws, "welcome")["table"]["seats"]] == [False, True]


def test_a_bot_account_sits_at_a_limited_number_of_tables_at_once(database_url: str) -> None:
    with client_for(database_url, bot_account_games=2) as site:
        _, token = _bot_with_token(site, "robo")
        use(site, None)
        short = {"game": "take_stock", "seats": ["open", "random"], "options": {"rounds": 1}}
        tables = [
            site.post("/api/tables", json=body, headers=_bearer(token)).json()["table"]["id"]
            for body in (short, {"game": "take_stock", "seats": ["open", "open"]}, short)
        ]
        for table_id in tables[:2]:
            joined = site.post(f"/api/tables/{table_id}/join", json={}, headers=_bearer(token))
            assert joined.status_code == 200, joined.text
        refused = site.post(f"/api/tables/{tables[2]}/join", json={}, headers=_bearer(token))
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "too_many_games"
        seats = site.get(f"/api/tables/{tables[2]}").json()["table"]["seats"]
        assert [s["kind"] for s in seats] == ["open", "bot"]
        # A person is not limited so.
        sign_up(site, "person")
        for body in (short, short, short):
            table_id = site.post("/api/tables", json=body, headers=ORIGIN).json()["table"]["id"]
            assert (
                site.post(f"/api/tables/{table_id}/join", json={}, headers=ORIGIN).status_code
                == 200
            )
        # Once one of its games is over, the bot account may sit again.
        use(site, None)
        with site.websocket_connect(f"/ws/tables/{tables[0]}", headers=_bearer(token)) as ws:
            ws.send_text(json.dumps({"type": "hello", "account": True}))
            state = expect(ws, "state")
            while state["status"] != "finished":
                if state["legal"]:
                    act(ws, state["version"], state["legal"][0]["id"])
                state = expect(ws, "state")
        again = site.post(f"/api/tables/{tables[2]}/join", json={}, headers=_bearer(token))
        assert again.status_code == 200, again.text


def test_the_account_page_is_served(site: TestClient) -> None:
    page = site.get("/account")
    assert page.status_code == 200 and "/static/account-page.js" in page.text
