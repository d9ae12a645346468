"""Passwords cost a bounded share of the server, and a revoked session keeps no door open:
sign-ups throttled per address, hashing in a bounded pool of its own, wrong current passwords
throttled, sessions per account bounded, and a revoked session's WebSockets closed."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from closingbell.server.accounts import SESSION_COOKIE, SESSIONS_PER_ACCOUNT, AccountError, Hashing
from tests.server.helpers import (
    act,
    client_for,
    expect,
    postgres_database,
    receive,
    sqlite_database,
)
from tests.server.test_accounts import ORIGIN, PASSWORD, sign_up, stored, use
from tests.server.test_cluster import servers


def test_sign_ups_are_counted_per_address_failed_ones_too(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), sign_ups_per_address=3) as client:
        sign_up(client, "uma")
        use(client, None)
        # A malformed request costs no hash and is not counted.
        bad = client.post("/api/account/signup", json={"username": "x", "password": PASSWORD})
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_username"
        taken = client.post("/api/account/signup", json={"username": "UMA", "password": PASSWORD})
        assert taken.status_code == 409
        sign_up(client, "vic")
        use(client, None)
        refused = client.post("/api/account/signup", json={"username": "wes", "password": PASSWORD})
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_sign_ups"
        assert 3000 < int(refused.headers["retry-after"]) <= 3600
        assert client.post(
            "/api/account/signin", json={"username": "wes", "password": PASSWORD}
        ).json()["error"]["code"] == ("bad_sign_in")  # nothing was made


def test_hashing_waits_in_a_bounded_queue_and_refuses_beyond_it() -> None:
    release = threading.Event()

    def held(value: int) -> int:
        release.wait(10)
        return value

    async def main() -> list[Any]:
        hashing = Hashing(threads=1, waiting=2, per_address=2)
        running = [
            asyncio.ensure_future(hashing.run(held, n, address=a))
            for n, a in enumerate(["a", "b", "c"])
        ]
        await asyncio.sleep(0.05)
        assert hashing.pending == 3
        refusals = []
        for address in ("d", "a"):
            with pytest.raises(AccountError) as refused:
                await hashing.run(held, 9, address=address)
            refusals.append((refused.value.code, refused.value.status, refused.value.retry_after))
        release.set()
        done = await asyncio.gather(*running)
        # Room again, and an address with two under way is told to wait for them.
        second = Hashing(threads=1, waiting=8, per_address=2)
        release.clear()
        mine = [asyncio.ensure_future(second.run(held, n, address="e")) for n in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(AccountError) as again:
            await second.run(held, 9, address="e")
        release.set()
        await asyncio.gather(*mine)
        hashing.stop()
        second.stop()
        return [done, refusals, (again.value.code, again.value.status), hashing.pending]

    done, refusals, again, pending = asyncio.run(main())
    assert done == [0, 1, 2]
    assert refusals == [("busy", 503, 1), ("busy", 503, 1)]
    assert again == ("busy", 429)
    assert pending == 0


class SlowHasher(PasswordHasher):
    """Argon2 that takes a while longer, so that requests pile up behind it."""

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        time.sleep(0.4)
        return super().hash(password, salt=salt)


def test_a_sign_up_flood_is_answered_busy_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url, hash_waiting=1, hash_per_address=0) as client:
        client.app.state.hub.accounts.hasher = SlowHasher()  # type: ignore[attr-defined]

        def attempt(n: int) -> tuple[int, str | None, float]:
            began = time.perf_counter()
            answer = client.post(
                "/api/account/signup", json={"username": f"flood{n}", "password": PASSWORD}
            )
            return answer.status_code, answer.headers.get("retry-after"), began

        with ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(attempt, range(6)))
        statuses = sorted(status for status, _, _ in answers)
        # One hashing, one waiting: the others were refused without waiting for them.
        assert statuses.count(201) >= 2 and statuses.count(503) >= 1, statuses
        assert all(retry == "1" for status, retry, _ in answers if status == 503)
        assert client.get("/api/health").status_code == 200


def test_wrong_current_passwords_are_throttled_like_sign_ins(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url, sign_ins_per_account=3, sign_ins_per_address=6) as client:
        sign_up(client, "xena")

        def change(old: str) -> Any:
            return client.post(
                "/api/account/password", json={"old": old, "new": "another pass"}, headers=ORIGIN
            )

        for _ in range(3):
            assert change("guess-guess").status_code == 401
        refused = change(PASSWORD)  # the right one too, for a while
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_sign_ins"
        assert int(refused.headers["retry-after"]) > 0
        assert client.get("/api/account").json()["user"] == {"username": "xena", "bot": False}


def test_an_account_keeps_a_bounded_number_of_sessions(database_url: str) -> None:
    url = database_url
    with client_for(url) as client:
        cookies = [sign_up(client, "yara")]
        for _ in range(SESSIONS_PER_ACCOUNT + 1):
            use(client, None)
            answer = client.post(
                "/api/account/signin", json={"username": "yara", "password": PASSWORD}
            )
            cookies.append(answer.cookies[SESSION_COOKIE])
        assert stored(url, "SELECT count(*) FROM sessions") == [(SESSIONS_PER_ACCOUNT,)]
        for n, cookie in enumerate(cookies):
            use(client, cookie)
            user = client.get("/api/account").json()["user"]
            assert (user is None) == (n < 2), n  # the two oldest were revoked


def seated_socket(client: TestClient, name: str) -> tuple[str, str]:
    """Sign up ``name``, make a two-seat table and sit at seat 0; the cookie and table id."""
    cookie = sign_up(client, name)
    table = client.post(
        "/api/tables",
        json={"game": "take_stock", "seats": ["open", "open"], "seed": 1},  # seat 0 moves first
        headers=ORIGIN,
    ).json()["table"]
    assert (
        client.post(f"/api/tables/{table['id']}/join", json={}, headers=ORIGIN).status_code == 200
    )
    use(client, None)
    assert client.post(f"/api/tables/{table['id']}/join", json={"name": "guest"}).status_code == 200
    use(client, cookie)
    return cookie, table["id"]


@pytest.mark.parametrize("how", ["sign out", "password change"])
def test_a_revoked_session_closes_its_websockets(database_url: str, how: str) -> None:
    with client_for(database_url) as client:
        _, table_id = seated_socket(client, "zoe")
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=ORIGIN) as ws:
            ws.send_text(json.dumps({"type": "hello", "account": True}))
            assert expect(ws, "welcome")["seat"] == 0
            state = expect(ws, "state")
            assert state["current_player"] == 0
            if how == "sign out":
                assert client.post("/api/account/signout", headers=ORIGIN).status_code == 200
            else:
                use(client, None)
                other = client.post(
                    "/api/account/signin", json={"username": "zoe", "password": PASSWORD}
                ).cookies[SESSION_COOKIE]
                use(client, other)
                changed = client.post(
                    "/api/account/password",
                    json={"old": PASSWORD, "new": "new password 2"},
                    headers=ORIGIN,
                )
                assert changed.status_code == 200
            act(ws, state["version"], state["legal"][0]["id"])
            seen = []
            while (message := receive(ws, 5)) is not None and message["type"] != "closed":
                seen.append(message)
            assert message == {"type": "closed", "code": 4401}
            assert not [m for m in seen if m["type"] == "state"]  # the action was not heard
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        assert info["version"] == state["version"]


def test_a_session_signed_out_on_another_server_closes_its_websockets() -> None:
    """Two servers on one PostgreSQL database: the revocation is named in a notice."""
    with postgres_database() as url, servers(url, 2) as (a, b):
        cookie, table_id = seated_socket(a, "abby")
        use(b, cookie)
        with b.websocket_connect(f"/ws/tables/{table_id}", headers=ORIGIN) as ws:
            ws.send_text(json.dumps({"type": "hello", "account": True}))
            assert expect(ws, "state")["seat"] == 0
            assert a.post("/api/account/signout", headers=ORIGIN).status_code == 200
            assert receive(ws, 10) == {"type": "closed", "code": 4401}
