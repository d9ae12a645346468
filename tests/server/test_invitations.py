"""Invitations: seats kept for named accounts, declined, limited, and kept in their place.

An account may keep open seats for others when it makes a table. The invited account may
decline (``POST /api/tables/{id}/decline``): the seat becomes an ordinary open seat, and the
table's pages, on every server, see it open. An account may have only so many invitations
open at once, counted in the database; and however many invitations an account receives,
"My games" still lists first the games where it is the player's turn, and its badge counts
only a few invitations.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi.testclient import TestClient

from tests.server.helpers import client_for, expect, hello, join, run_sql, wait_state
from tests.server.test_accounts import ORIGIN, PASSWORD, sign_up, use
from tests.server.test_cluster import postgres_url, servers

__all__ = ["postgres_url"]  # the fixture, used here too

TWO = ["open", "open"]


def invite(site: TestClient, name: str, seats: list[str] = TWO, **extra: Any) -> Any:
    """Make a Take Stock table with the last seat kept for ``name``; the raw answer."""
    invited: list[str | None] = [None] * (len(seats) - 1) + [name]
    body = {"game": "take_stock", "seats": seats, "invited": invited, **extra}
    return site.post("/api/tables", json=body, headers=ORIGIN)


def invited(site: TestClient, name: str, **extra: Any) -> str:
    """Make a table with its seat 1 kept for ``name``; its id."""
    answer = invite(site, name, **extra)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"]["id"])


def decline(site: TestClient, table_id: str) -> Any:
    """``POST /api/tables/{id}/decline`` from the site's own page."""
    return site.post(f"/api/tables/{table_id}/decline", headers=ORIGIN)


def sign_in(site: TestClient, name: str) -> None:
    """Sign ``site``'s browser in as ``name``."""
    site.cookies.clear()
    answer = site.post(
        "/api/account/signin", json={"username": name, "password": PASSWORD}, headers=ORIGIN
    )
    assert answer.status_code == 200, answer.text


def mine(site: TestClient) -> dict[str, Any]:
    """``GET /api/my/games``."""
    answer = site.get("/api/my/games")
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def error(answer: Any, status: int, code: str) -> str:
    """The message of a refusal, checked to have ``status`` and ``code``."""
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code, body
    return str(body["message"])


# ---------------------------------------------------------------- declining


def test_an_invitation_is_declined_and_the_seat_opens_for_anyone(database_url: str) -> None:
    with client_for(database_url) as site:
        sign_up(site, "alice")
        use(site, None)
        sign_up(site, "carol")
        table = invited(site, "Alice")
        carol = site.post(f"/api/tables/{table}/join", json={}, headers=ORIGIN).json()["token"]
        with site.websocket_connect(f"/ws/tables/{table}") as ws:
            seats = hello(ws, carol)["seats"]
            assert seats[1] == {**seats[1], "kind": "open", "name": "alice", "invited": True}
            # Only the invited account may decline, signed in, from the site's own pages.
            error(decline(site, table), 409, "not_invited")
            use(site, None)
            error(decline(site, table), 401, "sign_in_required")
            sign_in(site, "alice")
            refused = site.post(f"/api/tables/{table}/decline")  # a session, but no Origin
            error(refused, 403, "bad_origin")
            other = site.post(
                f"/api/tables/{table}/decline", headers={"origin": "https://evil.example"}
            )
            error(other, 403, "bad_origin")
            error(decline(site, "nosuchtable"), 404, "unknown_table")
            assert [g["invited"] for g in mine(site)["games"]] == [True]
            answer = decline(site, table)
            assert answer.status_code == 200, answer.text
            seat = answer.json()["table"]["seats"][1]
            assert (seat["kind"], seat["name"], seat["invited"]) == ("open", None, False)
            # Carol's page sees the seat open, as after any change of seats.
            shown = wait_state(ws, lambda m: not m["seats"][1]["invited"])["seats"][1]
            assert (shown["kind"], shown["name"]) == ("open", None)
            assert mine(site) == {"games": [], "waiting": 0, "invitations": 0}
            error(decline(site, table), 409, "not_invited")
            # Anyone may take the seat now; a guest too.
            use(site, None)
            assert join(site, table, "Guest")["seat"] == 1
            assert expect(ws, "state")["status"] == "playing"


def test_a_decline_reaches_the_other_servers(postgres_url: str) -> None:
    with servers(postgres_url, 2) as (a, b):
        sign_up(b, "alice")
        sign_up(a, "carol")
        table = invited(a, "alice")
        carol = a.post(f"/api/tables/{table}/join", json={}, headers=ORIGIN).json()["token"]
        with a.websocket_connect(f"/ws/tables/{table}") as ws:
            assert hello(ws, carol)["seats"][1]["invited"] is True
            assert decline(b, table).status_code == 200
            shown = wait_state(ws, lambda m: not m["seats"][1]["invited"])["seats"][1]
            assert (shown["kind"], shown["name"]) == ("open", None)
        assert a.get(f"/api/tables/{table}").json()["table"]["seats"][1]["invited"] is False


# ---------------------------------------------------------------- limits


def test_an_account_may_keep_only_so_many_invitations_open(database_url: str) -> None:
    with client_for(database_url, invitations_open=3, invitations_to_one=2) as site:
        for name in ("alice", "bob", "dave"):
            sign_up(site, name)
            use(site, None)
        sign_up(site, "carol")
        first = invited(site, "alice")
        invited(site, "alice")
        # Two to Alice: a third to her is refused, one to anyone else is not.
        message = error(invite(site, "Alice"), 409, "too_many_invitations")
        assert "at most 2" in message and "'alice'" in message
        invited(site, "bob")
        message = error(invite(site, "dave"), 409, "too_many_invitations")
        assert "at most 3" in message and "3 of yours are open" in message
        # Nothing of the refused tables was made.
        assert len(site.get("/api/tables").json()["tables"]) == 3
        # A table with no invitation is made as ever.
        made = site.post("/api/tables", json={"game": "take_stock", "seats": TWO}, headers=ORIGIN)
        assert made.status_code == 201
        # Alice declines one: Carol may invite again; a seat taken is no longer open either.
        sign_in(site, "alice")
        assert decline(site, first).status_code == 200
        sign_in(site, "carol")
        table = invited(site, "dave")
        error(invite(site, "dave"), 409, "too_many_invitations")
        sign_in(site, "dave")
        assert site.post(f"/api/tables/{table}/join", json={}, headers=ORIGIN).status_code == 200
        sign_in(site, "carol")
        invited(site, "dave")
        # An invitation nobody answered for longer than the server counts one holds no place.
        error(invite(site, "bob"), 409, "too_many_invitations")
        run_sql(
            database_url,
            "UPDATE tables SET created_at = :old WHERE id IN "
            "(SELECT table_id FROM seats WHERE invited_user_id IS NOT NULL AND kind = 'open')",
            old=dt.datetime.now(dt.UTC) - dt.timedelta(days=15),
        )
        invited(site, "bob")


def test_servers_sharing_a_database_count_invitations_together(postgres_url: str) -> None:
    with servers(postgres_url, 2, invitations_open=2) as (a, b):
        sign_up(a, "alice")
        use(a, None)
        sign_up(a, "bob")
        use(a, None)
        sign_up(a, "carol")
        sign_in(b, "carol")
        invited(a, "alice")
        invited(b, "bob")
        error(invite(a, "alice"), 409, "too_many_invitations")
        error(invite(b, "bob"), 409, "too_many_invitations")


# ---------------------------------------------------------------- My games


def test_many_invitations_never_push_out_the_players_own_turn(database_url: str) -> None:
    settings = {"invitations_open": 1000, "invitations_to_one": 1000, "tables_per_minute": 0}
    with client_for(database_url, **settings) as site:
        sign_up(site, "mallory")
        use(site, None)
        sign_up(site, "carol")
        use(site, None)
        sign_up(site, "victim")
        # The victim's own game, against a bot, where it is her turn (seed 1: seat 0 first).
        body = {"game": "take_stock", "seats": ["open", "easy"], "seed": 1}
        own = site.post("/api/tables", json=body, headers=ORIGIN).json()["table"]["id"]
        site.post(f"/api/tables/{own}/join", json={"seat": 0}, headers=ORIGIN)
        sign_in(site, "carol")
        friend = invited(site, "victim")
        # Then a hundred invitations from one account, each newer than the friend's.
        sign_in(site, "mallory")
        spam = [invited(site, "victim") for _ in range(100)]
        sign_in(site, "victim")
        answer = mine(site)
        games = answer["games"]
        assert games[0]["table"]["id"] == own and games[0]["your_turn"] is True
        listed = [g["table"]["id"] for g in games if g["invited"]]
        # A few of the newest from each inviter: the friend's is not drowned.
        assert listed == [*spam[::-1][:3], friend]
        assert answer["invitations"] == 101
        assert answer["waiting"] == 1 + 3  # her turn, and a few invitations at most
        # Declining them one by one brings the older ones into the list.
        assert decline(site, spam[-1]).status_code == 200
        after = [g["table"]["id"] for g in mine(site)["games"] if g["invited"]]
        assert after == [*spam[::-1][1:4], friend]
