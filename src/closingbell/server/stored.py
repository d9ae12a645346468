"""Tables as stored: the live table a stored row rebuilds, and the lobby's view of one.

A stored table is rebuilt by replaying its actions from its deal (or its position) under the
rules version it began with; one whose data does not fit raises ``ValueError`` with the
reason, and the hub marks it unavailable.
"""

from __future__ import annotations

from typing import Literal

from closingbell.core.errors import IllegalActionError, UnknownGameError
from closingbell.core.records import start_from_position
from closingbell.core.registry import game_class
from closingbell.server.protocol import LastAction, SeatInfo, TableInfo
from closingbell.server.store import TableRow
from closingbell.server.tablebase import Services
from closingbell.server.tables import LiveTable
from closingbell.server.tutorials import tutorial_of


def rebuild(hub: Services, row: TableRow) -> LiveTable:
    """The live table of a stored row, its actions replayed; raise if they do not fit."""
    if row.problem is not None:
        raise ValueError(row.problem)
    if row.status not in ("waiting", "playing", "finished", "abandoned"):
        raise ValueError(f"its status {row.status!r} is not one of the server's")
    if row.clock is not None and not 0 < row.clock <= 86400:
        raise ValueError(f"its clock {row.clock} is out of range")
    # A table made under an older rules version goes on under the rules it began with.
    game = game_class(row.game).for_version(row.rules_version, row.options)
    kinds = [s.kind for s in row.seats]
    if [s.seat for s in row.seats] != list(range(game.players)):
        raise ValueError(f"it has seats {[s.seat for s in row.seats]} for {game.players} players")
    if any(k not in ("open", "human", "bot") for k in kinds):
        raise ValueError(f"its seats are of kinds {kinds}")
    if row.status != "abandoned" and (row.status == "waiting") != ("open" in kinds):
        raise ValueError(f"it is {row.status} with seats of kinds {kinds}")
    if row.status == "waiting" and row.actions:
        raise ValueError(f"it is waiting for players after {len(row.actions)} actions")
    if row.position is None:
        state = game.new_game(row.seed)
    else:
        state = start_from_position(game, row.position)
        if state.seed != row.seed:
            raise ValueError(f"its seed {row.seed} is not its position's seed {state.seed}")
    last = None
    for number, action in enumerate(row.actions):
        seat = state.current_player
        if seat is None:
            raise ValueError(f"action {number} follows the end of the game")
        secret = state.choice_is_secret()
        try:
            state.apply(action)
        except (IllegalActionError, TypeError) as exc:
            raise ValueError(f"action {number} ({action!r}) is refused: {exc}") from None
        by: Literal["player", "bot", "stand_in"] = (
            "bot" if row.seats[seat].kind == "bot" else "player"
        )
        stored = row.chosen_by[number] if number < len(row.chosen_by) else None
        if stored in ("player", "bot", "stand_in"):
            by = stored  # type: ignore[assignment]
        text = game.action_to_string(action)
        last = LastAction(seat=seat, id=action, text=text, by=by, secret=secret)
    if (row.status == "finished") != state.is_terminal():
        raise ValueError(
            f"it is {row.status}, but its game is {'' if state.is_terminal() else 'not '}over"
        )
    table = LiveTable(hub, row, game, state)
    table.last_action = last
    return table


def stored_info(row: TableRow) -> TableInfo:
    """A table as stored, for the lobby; raises ``ValueError`` for a row it cannot show."""
    if row.problem is not None:
        raise ValueError(row.problem)
    cls = game_class(row.game)
    options = cls.options_for_version(row.rules_version, row.options)
    return TableInfo(
        id=row.id,
        game=row.game,
        title=cls.info.title,
        players=len(row.seats),
        options=options,
        clock=row.clock,
        status=row.status,  # type: ignore[arg-type]
        version=row.version,
        seats=[
            SeatInfo(
                seat=s.seat,
                kind=s.kind,  # type: ignore[arg-type]
                name=s.bot if s.kind == "bot" else s.name,
                connected=s.kind == "bot",
                stand_in=False,
                account=s.user_id is not None,
                invited=s.kind == "open" and s.invited_user_id is not None,
                bot_account=s.bot_account,
            )
            for s in row.seats
        ],
        from_position=row.position is not None,
        rated=row.rated,
        move_time=row.move_time,
        spectator_chat=row.spectator_chat,
        rematch_of=row.rematch_of,
        rematch=row.rematch,
        hints_used=row.hints_used,
        tutorial=tutorial_of(row, options) is not None,
    )


def unavailable_info(row: TableRow) -> TableInfo:
    """A table that cannot be rebuilt, for the lobby: what can be read of it."""
    try:
        title = game_class(row.game).info.title
    except UnknownGameError:
        title = row.game
    return TableInfo(
        id=row.id,
        game=row.game,
        title=title,
        players=len(row.seats),
        options=row.options,
        clock=None,
        status="unavailable",
        version=row.version,
        seats=[],
        from_position=row.position is not None,
    )


def why(exc: Exception) -> str:
    """Why a stored table cannot be used, in one line."""
    text = " ".join(str(exc).split())
    if isinstance(exc, ValueError | KeyError) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
