"""No message leaks what its recipient may not see.

Complete games of both games are played through the server by WebSocket clients that
choose random legal actions, beside a bot and a spectator. Every message each connection
receives is kept, then checked against the real state at that message's version (rebuilt
from the finished game's record): the view must be exactly the rules engine's view for
that seat; the seat's own hand, saved events and face-down cards must be its own; every
private log entry of another seat must arrive only in its redacted form; and no message
may carry the seed or another seat's token.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import closingbell
from closingbell.core.events import entry_to_dict, visible_entries
from tests.server.helpers import create, join, receive

PRIVATE_FIELDS = {
    "take_stock": {"hand": "hands", "saved_events": "saved", "own_hidden": "hidden"},
    "card_stock_market": {"hand": "hands"},
}
"""For each game, view fields that hold one seat's secrets, and the state field behind each."""


class Recorder:
    """One connection and every message it received, raw and parsed."""

    def __init__(self, ws: WebSocketTestSession, seat: int | None, token: str | None) -> None:
        self.ws = ws
        self.seat = seat
        self.token = token
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any]:
        message = receive(self.ws)
        assert message is not None, f"seat {self.seat}: no message came"
        assert message["type"] != "closed"
        self.raw.append(json.dumps(message))
        self.messages.append(message)
        return message

    def read_until(self, predicate: Any) -> dict[str, Any]:
        while True:
            message = self.read()
            assert message["type"] != "error", message
            if message["type"] == "state" and predicate(message):
                return message


def play_through(
    client: TestClient, game: str, seats: list[str], seed: int
) -> tuple[str, list[Recorder]]:
    """Play a whole game with random clients in the open seats; return every connection."""
    table = create(client, game, seats, seed=seed)
    table_id = table["id"]
    humans = [p for p, kind in enumerate(seats) if kind == "open"]
    tokens = {p: join(client, table_id, f"player {p}", seat=p)["token"] for p in humans}
    rng = random.Random(seed)
    path = f"/ws/tables/{table_id}"
    with client.websocket_connect(path) as spy_ws:
        sockets = [client.websocket_connect(path).__enter__() for _ in humans]
        try:
            recorders = [Recorder(spy_ws, None, None)] + [
                Recorder(ws, p, tokens[p]) for ws, p in zip(sockets, humans, strict=True)
            ]
            for rec in recorders:
                rec.ws.send_text(json.dumps({"type": "hello", "token": rec.token}))

            def settled_after(version: int) -> Any:
                # Bots stop when a person must decide: every connection reaches that state.
                return lambda m: (
                    m["version"] > version
                    and (m["status"] == "finished" or m["current_player"] in humans)
                )

            version = -1
            while True:
                reached = [rec.read_until(settled_after(version)) for rec in recorders]
                assert len({m["version"] for m in reached}) == 1
                version = reached[0]["version"]
                if reached[0]["status"] == "finished":
                    break
                mover = reached[0]["current_player"]
                rec, message = next(
                    (r, m) for r, m in zip(recorders, reached, strict=True) if r.seat == mover
                )
                choice = rng.choice(message["legal"])
                rec.ws.send_text(
                    json.dumps({"type": "action", "version": version, "action": choice["id"]})
                )
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
    return table_id, recorders


@pytest.mark.parametrize(
    ("game", "seats", "seed"),
    [
        ("take_stock", ["open", "medium", "open"], 7_318_220_468_111_907),
        ("take_stock", ["medium", "open", "open", "easy"], 5_944_102_377_520_063),
        ("card_stock_market", ["open", "open", "medium"], 6_402_918_833_174_211),
        ("card_stock_market", ["hard", "open", "open", "open"], 8_813_006_245_719_442),
    ],
)
def test_no_message_carries_another_seats_secrets(
    client: TestClient, game: str, seats: list[str], seed: int
) -> None:
    table_id, recorders = play_through(client, game, seats, seed)
    body = client.get(f"/api/tables/{table_id}/record").json()
    real = closingbell.load_game(game, **body["options"]).new_game(seed)
    states = [real.clone()]
    for action in body["actions"]:
        real.apply(action["id"])
        states.append(real.clone())
    assert real.is_terminal()
    tokens = {r.seat: r.token for r in recorders if r.token}
    fields = PRIVATE_FIELDS[game]
    for rec in recorders:
        seat = rec.seat
        events: list[dict[str, Any]] = []
        checked = 0
        for raw, message in zip(rec.raw, rec.messages, strict=True):
            # The seed is secret (it would reveal every shuffle): the record has it, no message.
            assert str(seed) not in raw
            for other, token in tokens.items():
                if other != seat:
                    assert token not in raw, f"seat {seat} was sent seat {other}'s token"
            if message["type"] != "state":
                continue
            state = states[message["version"]]
            # Exactly the rules engine's view for this seat: nothing added, nothing kept.
            assert message["view"] == state.view(seat).to_dict()
            for view_field, state_field in fields.items():
                secret = getattr(state, state_field)
                own = sorted(secret[seat]) if seat is not None else []
                assert sorted(message["view"][view_field]) == own
            # Events: the visible log, in order, with others' private parts redacted.
            assert message["first_event"] == len(events)
            events += message["events"]
            visible = visible_entries(state.log, seat)
            assert len(events) == len(visible)
            checked += 1
        # Every private entry of another seat reached this connection redacted, or not at all.
        log = states[-1].log
        fields_of = states[-1].EVENT_FIELDS
        shown = iter(events)
        for owner, full, redacted in log:
            if owner is None or owner == seat:
                assert next(shown) == entry_to_dict(full, fields_of)
            elif redacted is not None:
                got = next(shown)
                assert got == entry_to_dict(redacted, fields_of)
                if redacted != full:
                    assert got != entry_to_dict(full, fields_of)
        assert next(shown, None) is None
        assert checked > 20
