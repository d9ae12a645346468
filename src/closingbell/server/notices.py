"""The notices servers sharing a PostgreSQL database send each other, typed.

A notice travels as a JSON object on PostgreSQL's ``NOTIFY`` channel (``server.cluster``):
``k`` names its kind, ``p`` the server that sent it, and the other fields are the kind's.
Each kind is a class here; :func:`read` turns a notice's fields into one, :func:`fields`
turns one back into the fields sent. The store sends the notices of what it commits
(actions, joins, chat, rematch votes, hints, abandoned tables), the cluster the others.

Below the cluster and the tables, so that neither imports the other to say what it heard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from closingbell.server.store import ChatRow

Note = tuple[int, int, int, str]
"""An action a notice carries: its number, its seat, the action and who chose it."""


@dataclass(frozen=True)
class About:
    """A notice about one table."""

    table: str
    """The table's id."""


@dataclass(frozen=True)
class Actions:
    """Actions committed (``actions``): each table's, in the order they were stored."""

    notes: dict[str, list[Note]]
    """The actions by table id."""


@dataclass(frozen=True)
class Release:
    """Leases handed over (``release``): whoever holds these tables may take them."""

    tables: list[str]
    """The tables' ids."""


@dataclass(frozen=True)
class Bye:
    """The sender stopped (``bye``): its connections are gone."""


@dataclass(frozen=True)
class Revoke:
    """Sessions revoked (``revoke``): close the WebSockets opened with them."""

    sessions: list[str]
    """The sessions' SHA-256 digests."""


@dataclass(frozen=True)
class Join(About):
    """A seat was joined or declined (``join``): read the table's seats again."""


@dataclass(frozen=True)
class Here(About):
    """The sender's connections to each seat of a table (``here``)."""

    counts: list[int]
    """The sender's connections holding each seat's token, seat by seat."""


@dataclass(frozen=True)
class Ask(About):
    """The sender has just loaded a table (``ask``): say who is connected to it."""


@dataclass(frozen=True)
class StandIn(About):
    """A bot now stands in for an absent player (``stand_in``)."""

    seat: int
    """The seat stood in for."""


@dataclass(frozen=True)
class Chat(About):
    """A chat message was stored (``chat``), carried whole."""

    row: ChatRow
    """The message."""


@dataclass(frozen=True)
class Rematch(About):
    """A rematch vote was stored (``rematch``): read the votes again."""


@dataclass(frozen=True)
class Hints(About):
    """A hint was taken at a practice table (``hints``)."""


@dataclass(frozen=True)
class Abandoned(About):
    """The server running a table ended it as abandoned (``abandoned``)."""


TableNotice = Join | Here | StandIn | Chat | Rematch | Hints | Abandoned
"""What a live table hears about itself from other servers."""

Notice = Actions | Release | Bye | Revoke | Ask | TableNotice
"""Every kind of notice."""


def read(kind: str, notice: dict[str, Any]) -> Notice | None:
    """The notice of ``kind`` whose fields are ``notice``; ``None`` for an unknown kind.

    Raises ``KeyError``, ``TypeError`` or ``ValueError`` for fields that do not fit.
    """
    if kind == "actions":
        notes: dict[str, list[Note]] = {}
        for table_id, number, seat, action, by in notice["x"]:
            notes.setdefault(table_id, []).append((number, seat, action, by))
        return Actions(notes)
    if kind == "release":
        return Release(list(notice["t"]))
    if kind == "bye":
        return Bye()
    if kind == "revoke":
        return Revoke([str(s) for s in notice["s"]])
    table = str(notice.get("t"))
    if kind == "here":
        return Here(table, [int(n) for n in notice["n"]])
    if kind == "stand_in":
        return StandIn(table, int(notice["seat"]))
    if kind == "chat":
        return Chat(table, ChatRow.from_notice(notice["m"]))
    simple: dict[str, type[Join | Ask | Rematch | Hints | Abandoned]] = {
        "join": Join,
        "ask": Ask,
        "rematch": Rematch,
        "hints": Hints,
        "abandoned": Abandoned,
    }
    made = simple.get(kind)
    return None if made is None else made(table)


def fields(notice: Release | Bye | Revoke | Here | Ask | StandIn) -> dict[str, Any]:
    """The fields a notice the cluster sends travels as (:func:`read` reads them back)."""
    if isinstance(notice, Release):
        return {"k": "release", "t": notice.tables}
    if isinstance(notice, Bye):
        return {"k": "bye"}
    if isinstance(notice, Revoke):
        return {"k": "revoke", "s": notice.sessions}
    if isinstance(notice, Here):
        return {"k": "here", "t": notice.table, "n": notice.counts}
    if isinstance(notice, Ask):
        return {"k": "ask", "t": notice.table}
    return {"k": "stand_in", "t": notice.table, "seat": notice.seat}
