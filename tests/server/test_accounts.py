"""Accounts and sessions: sign-up, sign-in, throttling, cross-site refusals, seats by session."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect
from websockets.typing import Origin

from closingbell.server.accounts import PASSWORD_MAX, SESSION_COOKIE, SignInThrottle
from closingbell.server.settings import Settings
from closingbell.server.store import Store
from tests.server.helpers import (
    client_for,
    expect,
    expect_error,
    hello,
    join,
    sqlite_database,
    wait_state,
)
from tests.server.test_http_limits import served

ORIGIN = {"origin": "http://testserver"}
"""The page's own origin, as a browser sends it with every request that changes something."""

PASSWORD = "correct horse battery"


@pytest.fixture
def site(database_url: str) -> Iterator[TestClient]:
    """A server on each database; failed sign-ins refused after three per account."""
    with client_for(database_url, sign_ins_per_account=3, sign_ins_per_address=6) as client:
        yield client


def sign_up(client: TestClient, name: str, **extra: Any) -> str:
    """Make an account; the session cookie's value (also kept by ``client``)."""
    answer = client.post(
        "/api/account/signup",
        json={"username": name, "password": PASSWORD, **extra},
        headers=ORIGIN,
    )
    assert answer.status_code == 201, answer.text
    cookie = answer.cookies.get(SESSION_COOKIE)
    assert cookie
    return cookie


def use(client: TestClient, cookie: str | None) -> None:
    """Make ``client`` the browser of the session ``cookie`` (``None``: a guest)."""
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(SESSION_COOKIE, cookie)


def stored(url: str, query: str) -> list[Any]:
    async def run() -> list[Any]:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                return list((await conn.execute(sa.text(query))).all())
        finally:
            await store.close()

    return asyncio.run(run())


def test_sign_up_sign_in_and_out(site: TestClient, database_url: str) -> None:
    assert site.get("/api/account").json() == {"user": None}
    cookie = sign_up(site, "Alice")
    assert site.get("/api/account").json() == {"user": {"username": "Alice", "bot": False}}
    assert site.post("/api/account/signout", headers=ORIGIN).json() == {"user": None}
    use(site, cookie)  # the old cookie, kept by an attacker: revoked for good
    assert site.get("/api/account").json() == {"user": None}
    use(site, None)
    signed = site.post("/api/account/signin", json={"username": "alice", "password": PASSWORD})
    assert signed.status_code == 200
    assert signed.json()["user"] == {"username": "Alice", "bot": False}
    assert site.get("/api/account").json() == {"user": {"username": "Alice", "bot": False}}
    # The password is kept only as its Argon2id hash, the session only as its SHA-256.
    [(digest,)] = stored(database_url, "SELECT password_hash FROM users")
    assert digest.startswith("$argon2id$") and PASSWORD not in digest
    hashes = [h for (h,) in stored(database_url, "SELECT id_hash FROM sessions")]
    assert signed.cookies[SESSION_COOKIE] not in hashes and len(hashes) == 1


def test_the_session_cookie_is_http_only_and_same_site(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "a.db")) as client:
        answer = client.post("/api/account/signup", json={"username": "bob", "password": PASSWORD})
        header = answer.headers["set-cookie"].lower()
        assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    with client_for(sqlite_database(tmp_path / "b.db")) as client:
        client.base_url = client.base_url.copy_with(scheme="https")  # type: ignore[misc]
        answer = client.post(
            "https://testserver/api/account/signup", json={"username": "bob", "password": PASSWORD}
        )
        assert "secure" in answer.headers["set-cookie"].lower()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"username": "ab", "password": PASSWORD}, "bad_username"),
        ({"username": "<script>", "password": PASSWORD}, "bad_username"),
        ({"username": "carol", "password": "short"}, "bad_password"),
        ({"username": "carol", "password": "x" * 1025}, "bad_password"),
        ({"username": "carol", "password": "x" * 60_000}, "bad_password"),
        ({"username": "carol"}, "bad_request"),
    ],
)
def test_a_bad_sign_up_is_refused_and_makes_nothing(
    site: TestClient, database_url: str, body: dict[str, Any], code: str
) -> None:
    answer = site.post("/api/account/signup", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == code
    assert "set-cookie" not in answer.headers
    assert stored(database_url, "SELECT count(*) FROM users") == [(0,)]


def test_a_name_is_taken_in_any_case(site: TestClient) -> None:
    sign_up(site, "Dana")
    use(site, None)
    answer = site.post("/api/account/signup", json={"username": "dANA", "password": PASSWORD})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "username_taken"


def test_no_such_account_and_a_wrong_password_get_one_answer(site: TestClient) -> None:
    sign_up(site, "erin")
    use(site, None)
    wrong = site.post("/api/account/signin", json={"username": "erin", "password": "not-it-at-all"})
    nobody = site.post(
        "/api/account/signin", json={"username": "frank", "password": "not-it-at-all"}
    )
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json()
    assert wrong.json()["error"]["code"] == "bad_sign_in"
    assert "set-cookie" not in wrong.headers and "set-cookie" not in nobody.headers


def test_no_password_over_the_limit_is_hashed(
    site: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = site.app.state.hub.accounts  # type: ignore[attr-defined]
    lengths: list[int] = []
    hasher = accounts.hasher

    class Counting:
        """The accounts' hasher, counting the length of every password it is given."""

        def hash(self, password: str) -> str:
            lengths.append(len(password))
            return str(hasher.hash(password))

        def verify(self, stored: str, password: str) -> bool:
            lengths.append(len(password))
            return bool(hasher.verify(stored, password))

    monkeypatch.setattr(accounts, "hasher", Counting())
    long = "x" * (PASSWORD_MAX + 1)
    answer = site.post("/api/account/signup", json={"username": "xena", "password": long})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_password"
    assert str(PASSWORD_MAX) in answer.json()["error"]["message"]
    assert lengths == []
    sign_up(site, "xena")
    for body, status in (
        ({"old": PASSWORD, "new": long}, 422),
        ({"old": long, "new": PASSWORD}, 401),
    ):
        answer = site.post("/api/account/password", json=body, headers=ORIGIN)
        assert answer.status_code == status and answer.json()["error"]["code"] == "bad_password"
    use(site, None)
    # At sign-in, a password over the limit is a wrong one: the same answer, the same work.
    over = site.post("/api/account/signin", json={"username": "xena", "password": long})
    wrong = site.post("/api/account/signin", json={"username": "xena", "password": "x" * 20})
    assert over.status_code == wrong.status_code == 401
    assert over.json() == wrong.json()
    assert lengths and max(lengths) <= PASSWORD_MAX


def test_failed_sign_ins_are_throttled_per_account_and_per_address(site: TestClient) -> None:
    sign_up(site, "gina")
    use(site, None)

    def attempt(name: str, password: str) -> Any:
        return site.post("/api/account/signin", json={"username": name, "password": password})

    for _ in range(3):
        assert attempt("gina", "guess-guess").status_code == 401
    # Past the limit even the right password is refused for a while, with the same answer
    # for an account that exists and one that does not.
    refused = attempt("gina", PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_sign_ins"
    for _ in range(3):
        assert attempt("nobody", "guess-guess").status_code == 401
    assert attempt("nobody", "guess-guess").json()["error"]["code"] == "too_many_sign_ins"
    # Six failures from this address: every account is refused from it now.
    assert attempt("someone-else", "guess-guess").status_code == 429


def test_the_throttle_forgets_failures_after_its_window() -> None:
    now = [0.0]
    throttle = SignInThrottle(per_account=2, per_address=5, window=60, clock=lambda: now[0])
    throttle.failed("hal", "1.2.3.4")
    throttle.failed("hal", "1.2.3.4")
    assert throttle.wait("hal", "5.6.7.8") == pytest.approx(60)
    assert throttle.wait("ivy", "1.2.3.4") == 0
    now[0] = 30
    assert throttle.wait("hal", "1.2.3.4") == pytest.approx(30)
    now[0] = 60.5
    assert throttle.wait("hal", "1.2.3.4") == 0
    throttle.failed("hal", "1.2.3.4")
    throttle.succeeded("hal")
    assert throttle.wait("hal", "1.2.3.4") == 0


def test_a_password_change_signs_out_the_other_sessions(site: TestClient) -> None:
    first = sign_up(site, "jack")
    use(site, None)
    second = site.post(
        "/api/account/signin", json={"username": "jack", "password": PASSWORD}
    ).cookies[SESSION_COOKIE]
    wrong = site.post(
        "/api/account/password",
        json={"old": "not-the-password", "new": "new password 1"},
        headers=ORIGIN,
    )
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_password"
    changed = site.post(
        "/api/account/password", json={"old": PASSWORD, "new": "new password 1"}, headers=ORIGIN
    )
    assert changed.status_code == 200
    assert site.get("/api/account").json()["user"] == {
        "username": "jack",
        "bot": False,
    }  # this one stays
    use(site, first)
    assert site.get("/api/account").json() == {"user": None}
    use(site, None)
    assert second != first
    old = site.post("/api/account/signin", json={"username": "jack", "password": PASSWORD})
    assert old.status_code == 401
    new = site.post("/api/account/signin", json={"username": "jack", "password": "new password 1"})
    assert new.status_code == 200


def test_a_cross_site_post_is_refused(site: TestClient, database_url: str) -> None:
    sign_up(site, "kim")
    evil = {"origin": "https://evil.example"}
    body = {"game": "take_stock", "seats": ["open", "easy"]}
    for answer in (
        site.post("/api/tables", json=body, headers=evil),
        site.post("/api/tables", json=body, headers={"referer": "https://evil.example/page"}),
        site.post("/api/tables", json=body),  # the cookie, and no page named at all
        site.post("/api/account/signout", headers=evil),
        site.post("/api/account/password", json={"old": PASSWORD, "new": "x" * 12}, headers=evil),
    ):
        assert answer.status_code == 403
        assert answer.json()["error"]["code"] == "bad_origin"
    assert stored(database_url, "SELECT count(*) FROM tables") == [(0,)]
    assert site.get("/api/account").json()["user"] == {
        "username": "kim",
        "bot": False,
    }  # still signed in
    made = site.post("/api/tables", json=body, headers=ORIGIN)
    assert made.status_code == 201
    referred = site.post("/api/tables", json=body, headers={"referer": "http://testserver/"})
    assert referred.status_code == 201


RATED = {"game": "take_stock", "seats": ["open", "hard"], "rated": True}
"""A table only a signed-in player may make."""


@pytest.mark.parametrize("order", ["session-first", "session-last"])
def test_a_session_cookie_in_either_of_two_cookie_headers_needs_an_origin(
    site: TestClient, database_url: str, order: str
) -> None:
    # The guard and the app must read one set of cookies: a session the guard missed but
    # the app saw would sign a forged request in.
    cookie = sign_up(site, "una")
    use(site, None)
    headers = [("cookie", f"{SESSION_COOKIE}={cookie}"), ("cookie", "x=1")]
    if order == "session-last":
        headers.reverse()
    forged = site.post("/api/tables", json=RATED, headers=headers)
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "bad_origin"
    assert stored(database_url, "SELECT count(*) FROM tables") == [(0,)]
    made = site.post("/api/tables", json=RATED, headers=[*headers, ("origin", ORIGIN["origin"])])
    assert made.status_code == 201 and made.json()["table"]["rated"] is True


@pytest.mark.parametrize("order", ["session-first", "session-last"])
def test_a_websocket_reads_the_session_from_either_of_two_cookie_headers(
    tmp_path: Path, order: str
) -> None:
    # On a real server: the test client joins a WebSocket's headers of one name into one.
    with served(tmp_path) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
        page = {"origin": f"http://127.0.0.1:{port}"}
        signed = http.post(
            "/api/account/signup", json={"username": "wes", "password": PASSWORD}, headers=page
        )
        table = http.post("/api/tables", json=RATED, headers=page).json()["table"]
        assert http.post(f"/api/tables/{table['id']}/join", json={}, headers=page).is_success
        headers = [("Cookie", f"{SESSION_COOKIE}={signed.cookies[SESSION_COOKIE]}")]
        headers.append(("Cookie", "x=1"))
        if order == "session-last":
            headers.reverse()
        with connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table['id']}",
            origin=Origin(page["origin"]),
            additional_headers=headers,
            open_timeout=10,
        ) as ws:
            ws.send(json.dumps({"type": "hello", "account": True}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


def test_a_page_of_another_scheme_is_another_site(site: TestClient, database_url: str) -> None:
    sign_up(site, "vic")
    refused = site.post("/api/tables", json=RATED, headers={"origin": "https://testserver"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_origin"
    assert stored(database_url, "SELECT count(*) FROM tables") == [(0,)]
    over_https = "https://testserver/api/tables"
    refused = site.post(over_https, json=RATED, headers={"origin": "http://testserver"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_origin"
    made = site.post(over_https, json=RATED, headers={"origin": "https://testserver"})
    assert made.status_code == 201


def test_a_cross_origin_websocket_is_refused(site: TestClient) -> None:
    sign_up(site, "lee")
    table = site.post(
        "/api/tables", json={"game": "take_stock", "seats": ["open", "easy"]}, headers=ORIGIN
    ).json()["table"]
    site.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN)
    with (
        pytest.raises(WebSocketDisconnect),
        site.websocket_connect(
            f"/ws/tables/{table['id']}", headers={"origin": "https://evil.example"}
        ) as ws,
    ):
        ws.receive_text()
    # Without an Origin (not a browser), the session is not used for a seat either.
    with site.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        expect_error(ws, "not_seated")


def test_a_session_reaches_only_its_own_seat(site: TestClient) -> None:
    mona = sign_up(site, "mona")
    table = site.post(
        "/api/tables", json={"game": "take_stock", "seats": ["open", "open"]}, headers=ORIGIN
    ).json()["table"]
    mine = site.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN).json()
    assert mine["seat"] == 0 and mine["table"]["seats"][0]["name"] == "mona"
    use(site, None)
    guest = join(site, table["id"], "guest")
    ned = sign_up(site, "ned")
    with site.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        refused = expect_error(ws, "not_seated")
        assert "no seat" in refused["message"]
        shown = hello(ws)  # a spectator still
        assert shown["seat"] is None and shown["legal"] == []
    # A signed-in player whose account has no seat cannot borrow one by name or number.
    taken = site.post(f"/api/tables/{table['id']}/join", json={"seat": 0}, headers=ORIGIN)
    assert taken.status_code == 409
    use(site, mona)
    with site.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        assert expect(ws, "welcome")["seat"] == 0
        assert expect(ws, "state")["seat"] == 0
    use(site, ned)
    with site.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        assert hello(ws, guest["token"])["seat"] == 1  # a seat token works as before


def test_a_guest_who_signs_up_mid_game_keeps_the_seat(site: TestClient) -> None:
    table = site.post("/api/tables", json={"game": "take_stock", "seats": ["open", "easy"]}).json()[
        "table"
    ]
    guest = join(site, table["id"], "Olive")
    with site.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        hello(ws, guest["token"])
        answer = site.post(
            "/api/account/signup",
            json={
                "username": "olive",
                "password": PASSWORD,
                "seats": [
                    {"table": table["id"], "token": guest["token"]},
                    {"table": "x", "token": "y"},
                ],
            },
            headers=ORIGIN,
        )
        assert answer.status_code == 201 and answer.json()["claimed"] == [table["id"]]
        seats = wait_state(ws, lambda m: m["seats"][0]["account"])["seats"]
        assert seats[0]["name"] == "Olive" and seats[1]["account"] is False
    with site.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        ws.send_text(json.dumps({"type": "hello", "account": True}))
        assert expect(ws, "welcome")["seat"] == 0
    with site.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        assert hello(ws, guest["token"])["seat"] == 0  # the link still works too


def test_rated_tables_seat_signed_in_players_only(site: TestClient) -> None:
    body = {"game": "take_stock", "seats": ["open", "hard"], "rated": True}
    anonymous = site.post("/api/tables", json=body)
    assert anonymous.status_code == 403 and anonymous.json()["error"]["code"] == "sign_in_required"
    sign_up(site, "pat")
    table = site.post("/api/tables", json=body, headers=ORIGIN).json()["table"]
    assert table["rated"] is True
    practice = site.post("/api/tables", json={**body, "position": "seed: 3"}, headers=ORIGIN)
    assert practice.status_code == 422 and "never rated" in practice.json()["error"]["message"]
    use(site, None)
    guest = site.post(f"/api/tables/{table['id']}/join", json={"name": "guest"})
    assert guest.status_code == 403 and guest.json()["error"]["code"] == "sign_in_required"


def test_invited_seats_are_kept_for_their_accounts(site: TestClient) -> None:
    sign_up(site, "quinn")
    use(site, None)
    ruth = sign_up(site, "ruth")
    unknown = site.post(
        "/api/tables",
        json={"game": "take_stock", "seats": ["open", "open"], "invited": [None, "nobody"]},
        headers=ORIGIN,
    )
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown_player"
    table = site.post(
        "/api/tables",
        json={
            "game": "take_stock",
            "seats": ["open", "open", "easy"],
            "invited": [None, "Quinn", None],
        },
        headers=ORIGIN,
    ).json()["table"]
    assert table["seats"][1] == {
        "seat": 1,
        "kind": "open",
        "name": "quinn",
        "connected": False,
        "stand_in": False,
        "account": False,
        "invited": True,
        "bot_account": False,
    }
    assert site.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN).json()["seat"] == 0
    use(site, None)
    kept = site.post(f"/api/tables/{table['id']}/join", json={"name": "guest", "seat": 1})
    assert kept.status_code == 409
    full = site.post(f"/api/tables/{table['id']}/join", json={"name": "guest"})
    assert full.status_code == 409 and full.json()["error"]["code"] == "table_full"
    quinn = site.post("/api/account/signin", json={"username": "quinn", "password": PASSWORD})
    assert quinn.status_code == 200
    joined = site.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN).json()
    assert joined["seat"] == 1 and joined["table"]["status"] == "playing"
    assert ruth


def test_a_guest_may_not_sit_under_an_accounts_name(site: TestClient) -> None:
    sign_up(site, "Alice")
    use(site, None)
    table = site.post("/api/tables", json={"game": "take_stock", "seats": ["open", "open"]})
    table_id = table.json()["table"]["id"]
    # Any case, outer spaces, full-width letters: all read as the account's name.
    for name in ("alice", "ALICE", " Alice ", "\uff41\uff4c\uff49\uff43\uff45"):
        answer = site.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert answer.status_code == 409, (name, answer.text)
        assert answer.json()["error"]["code"] == "name_taken"
        assert "account" in answer.json()["error"]["message"]
    seats = site.get(f"/api/tables/{table_id}").json()["table"]["seats"]
    assert [s["kind"] for s in seats] == ["open", "open"]
    # Nor in a guided first game, which is then not made at all.
    learn = site.post("/api/learn", json={"game": "take_stock", "name": "alice"})
    assert learn.status_code == 409 and learn.json()["error"]["code"] == "name_taken"
    assert len(site.get("/api/tables").json()["tables"]) == 1
    # Another name is a guest's to take; the account sits under its own.
    assert join(site, table_id, "Alice Cooper")["seat"] == 0
    answer = site.post("/api/account/signin", json={"username": "alice", "password": PASSWORD})
    assert answer.status_code == 200
    joined = site.post(f"/api/tables/{table_id}/join", json={}, headers=ORIGIN).json()
    assert joined["table"]["seats"][1] == {**joined["table"]["seats"][1], "name": "Alice"}
    assert joined["table"]["seats"][1]["account"] is True


def test_sign_in_takes_about_as_long_for_an_unknown_name(database_url: str) -> None:
    # At the server's own hashing costs, not the tests' cheap ones: at those the time a
    # sign-in takes is the HTTP round trip's, whether it hashes or not.
    costs = {"hash_time_cost": Settings.hash_time_cost, "hash_memory": Settings.hash_memory}
    with client_for(database_url, sign_ins_per_account=3, sign_ins_per_address=6, **costs) as site:
        sign_up(site, "sam")
        use(site, None)
        timings = {}
        for name in ("sam", "nobody-here"):
            started = time.perf_counter()
            site.post("/api/account/signin", json={"username": name, "password": "wrong password"})
            timings[name] = time.perf_counter() - started
    # Both check an Argon2 hash: neither answers in a fraction of the other's time.
    assert timings["nobody-here"] > timings["sam"] / 5


def test_passwords_and_cookies_never_reach_a_log_line(
    site: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "a very secret phrase"
    with caplog.at_level(logging.DEBUG):
        made = site.post(
            "/api/account/signup", json={"username": "tess", "password": secret}, headers=ORIGIN
        )
        cookie = made.cookies[SESSION_COOKIE]
        site.post("/api/account/signin", json={"username": "tess", "password": secret + "x"})
        site.post(
            "/api/account/password", json={"old": secret, "new": secret + "!"}, headers=ORIGIN
        )
        site.post("/api/account/signup", json={"username": "tess", "password": secret})
        site.post("/api/account/signout", headers=ORIGIN)
    logged = "\n".join(
        f"{r.getMessage()} {r.args!r} {getattr(r, '__dict__', {})!r}" for r in caplog.records
    )
    assert caplog.records  # the requests were logged ...
    assert secret not in logged and cookie not in logged  # ... without their secrets
