"""The notices between servers, typed (``server.notices``): what the cluster sends reads back
as it was sent, the store's notices read as their kinds, and nothing else passes for one."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from closingbell.server import notices
from closingbell.server.store import ChatRow


def on_the_wire(fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The kind and the fields of a notice as another server receives them (JSON)."""
    received = json.loads(json.dumps({**fields, "p": "a1b2"}))
    return received["k"], received


@pytest.mark.parametrize(
    "sent",
    [
        notices.Release(["t1", "t2"]),
        notices.Bye(),
        notices.Revoke(["d1"]),
        notices.Here("t1", [2, 0, 1]),
        notices.Ask("t1"),
        notices.StandIn("t1", 2),
    ],
)
def test_what_the_cluster_sends_reads_back_as_sent(sent: Any) -> None:
    assert notices.read(*on_the_wire(notices.fields(sent))) == sent


def test_the_stores_notices_read_as_their_kinds() -> None:
    actions = {"k": "actions", "x": [["t1", 4, 0, 17, "player"], ["t2", 0, 1, 3, "bot"]]}
    assert notices.read(*on_the_wire(actions)) == notices.Actions(
        {"t1": [(4, 0, 17, "player")], "t2": [(0, 1, 3, "bot")]}
    )
    at = dt.datetime(2026, 12, 4, 18, 0, tzinfo=dt.UTC)
    row = ChatRow(id=9, seat=1, name="Ana", text="gg", at=at, user_id="u1")
    chat = {"k": "chat", "t": "t1", "m": row.notice()}
    assert notices.read(*on_the_wire(chat)) == notices.Chat("t1", row)
    for kind, made in [
        ("join", notices.Join),
        ("rematch", notices.Rematch),
        ("hints", notices.Hints),
        ("abandoned", notices.Abandoned),
    ]:
        assert notices.read(*on_the_wire({"k": kind, "t": "t1"})) == made("t1")


def test_an_unknown_kind_is_no_notice_and_bad_fields_are_refused() -> None:
    assert notices.read("weather", {"t": "t1"}) is None
    with pytest.raises(KeyError):
        notices.read("here", {"t": "t1"})
    with pytest.raises(ValueError):
        notices.read("stand_in", {"t": "t1", "seat": "two"})
