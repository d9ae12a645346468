"""A signed-in player's games, and declining an invitation (docs/protocol.md).

``GET /api/my/games``, the page ``/my``, and ``POST /api/tables/{id}/decline``.

Every table where the account has a seat, or an open seat kept for it (an invitation): the
games where it is the player's turn first, the soonest deadline first, then invitations,
then the other unfinished games, then the last finished ones. Whose turn it is comes from
the live table (the database does not keep it), so the games being played are loaded
through the hub, which keeps them in memory for a while; their number is bounded.

Anyone with an account may invite anyone, so invitations are read apart from the player's
own games and bounded on their own (the newest, a few per inviter): however many arrive,
they never push out a game where it is the player's turn, and they count for little in the
number of tables waiting for the player.
"""

from __future__ import annotations

import contextlib
import math
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel

from closingbell.server.errors import WebError
from closingbell.server.hub import Hub
from closingbell.server.players import hub_of, signed_in
from closingbell.server.protocol import TableInfo
from closingbell.server.store import TableRow
from closingbell.server.tableview import table_info

router = APIRouter()
"""The routes of this module, included by the app."""

PAGE = Path(__file__).resolve().parent / "static" / "mygames.html"
"""The "My games" page."""

UNFINISHED_LISTED = 100
"""Unfinished tables listed at most (the newest)."""
FINISHED_LISTED = 20
"""Finished tables listed at most (the last finished)."""
INVITATIONS_LISTED = 10
"""Invitations listed at most (the newest)."""
INVITATIONS_PER_INVITER = 3
"""Invitations from one account listed at most: one inviter cannot fill the list."""
INVITATIONS_COUNTED = 3
"""Invitations counted at most in ``waiting``, beside every table where it is the player's
turn: the badge stays a count of what waits for the player, however many invitations come."""


class MyResult(BaseModel):
    """How a finished game ended for the player."""

    place: int
    """The player's place, from 1 (seats with the same score share a place)."""
    players: int
    """How many played."""
    score: int
    """The player's final score (dollars in Card Stock Market)."""
    won: bool
    """Whether the player is among the winners."""


class MyGame(BaseModel):
    """One table of the signed-in player's."""

    table: TableInfo
    """The table as the lobby shows it."""
    seat: int
    """The player's seat, or the open seat kept for them (``invited``)."""
    your_turn: bool
    """Whether the player must decide now (the game is on and their seat is to move)."""
    invited: bool
    """Whether the seat is an open seat kept for the player: they may take it (join)."""
    to_move: int | None
    """The seat to move while the game is on, else ``None``."""
    deadline: float | None
    """For a game over days, when the seat to move must have decided (Unix time)."""
    time_left: float | None
    """For a game over days, the seconds the seat to move has left (server's clock)."""
    updated: float | None = None
    """When the table last changed (Unix time): for a finished game, when it ended."""
    result: MyResult | None = None
    """For a finished game where the player had a seat, how it ended for them."""


class MyGames(BaseModel):
    """``GET /api/my/games``: the signed-in player's tables, in the order to show them."""

    games: list[MyGame]
    """Their turn first (soonest deadline first), invitations, other unfinished, finished."""
    waiting: int
    """How many tables wait for the player: every one where it is their turn, and their
    invitations up to :data:`INVITATIONS_COUNTED`."""
    invitations: int
    """How many open seats are kept for the player in all (``games`` lists at most
    :data:`INVITATIONS_LISTED` of them)."""


@router.get("/api/my/games")
async def my_games(request: Request) -> MyGames:
    """The signed-in player's tables (``401 sign_in_required`` for a guest)."""
    user = await signed_in(request)
    hub = hub_of(request)
    found = await hub.store.tables.of_account(
        user.id,
        unfinished=UNFINISHED_LISTED,
        invitations=INVITATIONS_LISTED,
        per_inviter=INVITATIONS_PER_INVITER,
        finished=FINISHED_LISTED,
    )
    seated = {row.id for row in found.seated}
    # An account seated at a table may still have another seat of it kept for it.
    invited = [row for row in found.invited if row.id not in seated]
    rows = [*found.seated, *invited, *found.finished]
    games = [await _game(hub, row, user.id) for row in rows]
    games.sort(key=_order)  # stable: the newest first within each group
    turns = sum(g.your_turn for g in games)
    # The count and the list are two reads: a seat kept meanwhile may be in one only.
    invitations = max(sum(g.invited for g in games), found.invitations)
    return MyGames(
        games=games,
        waiting=turns + min(invitations, INVITATIONS_COUNTED),
        invitations=invitations,
    )


@router.post("/api/tables/{table_id}/decline")
async def decline(request: Request, table_id: str) -> dict[str, TableInfo]:
    """Decline the invitation to ``table_id``: the seat kept for the player becomes open.

    ``401 sign_in_required`` for a guest, ``404 unknown_table``, ``409 not_invited`` when no
    open seat of the table is kept for the player.
    """
    user = await signed_in(request)
    table = await hub_of(request).get(table_id)
    await table.seating.decline(user.id)
    return {"table": table_info(table)}


@router.get("/my", include_in_schema=False)
async def my_games_page() -> FileResponse:
    """The "My games" page."""
    return FileResponse(PAGE)


async def _game(hub: Hub, row: TableRow, user_id: str) -> MyGame:
    """What ``user_id`` sees of one of its tables: live if being played, else as stored."""
    table = hub.tables.get(row.id)
    if table is None and row.status in ("playing", "finished"):
        # A finished game is loaded for its result (at most FINISHED_LISTED of them).
        with contextlib.suppress(WebError):  # unavailable: shown as stored says
            table = await hub.get(row.id)
    if table is None:
        info = hub.info_of(row)
        seats = [(s.user_id, s.invited_user_id) for s in row.seats]
        to_move = deadline = time_left = None
    else:
        info = table_info(table)
        seats = [(s.user_id, s.invited) for s in table.seats]
        to_move = table.state.current_player if table.status == "playing" else None
        deadline, time_left = table.deadline(), table.time_left()
    # The seat the account sits in, else the open seat kept for it.
    seated = [p for p, (account, _) in enumerate(seats) if account == user_id]
    kept = [
        p for p, (account, kept_for) in enumerate(seats) if account is None and kept_for == user_id
    ]
    seat = (seated or kept or [0])[0]
    result = None
    if table is not None and table.status == "finished" and seated:
        scores, winners = table.state.scores(), table.state.winners()
        result = MyResult(
            place=1 + sum(s > scores[seat] for s in scores),
            players=len(scores),
            score=scores[seat],
            won=seat in winners,
        )
    return MyGame(
        table=info,
        seat=seat,
        your_turn=bool(seated) and to_move == seat,
        invited=not seated and bool(kept) and info.status == "waiting",
        to_move=to_move,
        deadline=deadline,
        time_left=time_left,
        updated=None if row.updated_at is None else row.updated_at.timestamp(),
        result=result,
    )


def _order(game: MyGame) -> tuple[int, float]:
    """Where a table goes in the list: its group, then its deadline within the first."""
    if game.your_turn:
        return 0, math.inf if game.deadline is None else game.deadline
    if game.invited:
        return 1, 0.0
    return (3 if game.table.status in ("finished", "abandoned") else 2), 0.0
