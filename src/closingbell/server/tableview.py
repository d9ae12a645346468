"""What a live table sends: its info, each connection's ``state`` message, the seats.

The rules engine's view (``state.view(seat)``, ``None`` for spectators) is the only thing
about a game that leaves the server; these functions build the messages around it and
send them to every connection of a table.
"""

from __future__ import annotations

import asyncio
from functools import partial

from closingbell.server.client import Connection
from closingbell.server.protocol import (
    LegalAction,
    Result,
    SeatInfo,
    SeatsMessage,
    StateMessage,
    TableInfo,
)
from closingbell.server.tablebase import TableBase
from closingbell.text.games import narrator_for
from closingbell.text.names import seat_name
from closingbell.text.narrator import Narrator


def seat_infos(table: TableBase) -> list[SeatInfo]:
    """Every seat as everyone may see it."""
    return [
        SeatInfo(
            seat=p,
            kind=s.kind,  # type: ignore[arg-type]
            name=s.bot if s.kind == "bot" else s.name,
            connected=s.kind == "bot" or s.present > 0,
            stand_in=s.stand_in,
            account=s.user_id is not None,
            invited=s.kind == "open" and s.invited is not None,
            bot_account=s.bot_account,
        )
        for p, s in enumerate(table.seats)
    ]


def table_info(table: TableBase) -> TableInfo:
    """The table as the lobby shows it."""
    return TableInfo(
        id=table.id,
        game=table.game.info.name,
        title=table.game.info.title,
        players=table.game.players,
        options=table.game.options_dict(),
        clock=table.clock,
        status=table.status,
        version=table.version,
        seats=seat_infos(table),
        from_position=table.position is not None,
        rated=table.rated,
        move_time=table.move_time,
        deadline=table.deadline(),
        spectator_chat=table.spectator_chat,
        rematch_of=table.rematch_of,
        rematch=table.rematch,
        hints_used=table.hints_used,
        tutorial=table.tutor is not None,
    )


def message_for(table: TableBase, conn: Connection) -> StateMessage:
    """The ``state`` message for ``conn``, with the events it has not been sent yet."""
    state = table.state
    seat = conn.seat
    view = None
    legal: list[LegalAction] = []
    events: list[dict[str, object]] = []
    first = conn.sent_events
    lines: list[str | None] = []
    if table.status != "waiting":
        narrator = narrator_of(table, conn)
        shown = state.view(seat)
        view = shown.to_dict()
        if seat is not None and table.status == "playing":
            legal = [
                LegalAction(
                    id=a,
                    text=table.game.action_to_string(a),
                    label=None if narrator is None else narrator.describe_action(shown, a),
                )
                for a in getattr(shown, "legal_actions", ())
            ]
        events = state.visible_events(seat, conn.log_pos)
        conn.log_pos = len(state.log)
        conn.sent_events += len(events)
        if narrator is not None:
            lines = [narrator.describe_event(e) for e in events]
    over = table.status == "finished"
    return StateMessage(
        table_id=table.id,
        version=table.version,
        status=table.status,
        seat=seat,
        current_player=None if table.status in ("waiting", "abandoned") else state.current_player,
        decision=None if table.status != "playing" else state.decision,
        view=view,
        legal=legal,
        events=events,
        first_event=first,
        lines=lines,
        last_action=None if table.last_action is None else table.last_action.seen_by(seat),
        result=Result(scores=state.scores(), winners=state.winners()) if over else None,
        seats=seat_infos(table),
        deadline=table.deadline(),
        time_left=table.time_left(),
        deciding_for=deciding_for(table),
    )


def deciding_for(table: TableBase) -> float | None:
    """Seconds the seat to move has been deciding (a bot: thinking), to a tenth."""
    if table.status != "playing":
        return None
    return round(max(0.0, asyncio.get_running_loop().time() - table.version_since), 1)


def names(table: TableBase, lang: str) -> list[str]:
    """Each seat's name in ``lang``.

    A person's own, a bot's level and seat ("Medium 2"), a bot account's marked ("BOT ana").
    """
    return [
        seat_name(
            p,
            lang,
            name=s.name,
            bot=s.bot if s.kind == "bot" else None,
            bot_account=s.kind == "human" and s.bot_account,
        )
        for p, s in enumerate(table.seats)
    ]


def narrator_of(table: TableBase, conn: Connection) -> Narrator | None:
    """``conn``'s narrator, made on first use once every seat has its name."""
    if conn.narrator is None and conn.lang is not None:
        conn.narrator = narrator_for(table.game, names(table, conn.lang), conn.lang)
    return conn.narrator


def broadcast_state(table: TableBase) -> None:
    """Send every connection its ``state`` message."""
    for conn in table.connections:
        conn.send(message_for(table, conn))
    if table.tutor is not None:  # the lessons, after the state
        table.tutor.flush(table.connections, partial(narrator_of, table))


def broadcast_seats(table: TableBase, skip: Connection | None = None) -> None:
    """Send every connection (but ``skip``) the seats."""
    message = SeatsMessage(version=table.version, seats=seat_infos(table))
    for conn in table.connections:
        if conn is not skip:
            conn.send(message)
