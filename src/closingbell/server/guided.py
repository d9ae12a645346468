"""``POST /api/learn``: a guided first game, its table opened and its learner seated.

The table deals the game's tutorial (``server.tutorials``): its rules options, fixed seed
and seats, the learner in the tutorial's seat and its bots in the others, never rated. The
answer is a join's, with the learner's seat token; the lessons come over the table's
WebSocket, in the language its ``hello`` asks for (docs/protocol.md).
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from closingbell.learn import available_tutorials
from closingbell.server.errors import WebError
from closingbell.server.players import hub_of, session_user
from closingbell.server.protocol import ErrorCode, Joined, StartTutorial
from closingbell.server.tableview import table_info
from closingbell.server.tutorials import NoTutorial, tutorial_row

router = APIRouter()
"""The routes of this module, included by the app."""

LEARN_PATH = "/api/learn"
"""The route that opens a guided first game (rate-limited as a new table is)."""


def has_tutorial(game_name: str) -> bool:
    """Whether ``game_name`` has a guided first game (``GET /api/games``' ``learn``)."""
    return game_name in available_tutorials()


@router.post(LEARN_PATH, status_code=201)
async def learn(request: Request, body: StartTutorial) -> Joined:
    """Open a guided first game of ``body.game`` and seat its learner."""
    hub = hub_of(request)
    user = await session_user(request)
    name = body.name if user is None else user.username
    if name is None:
        raise WebError(ErrorCode.BAD_NAME, "name: give your name (or sign in)", 422)
    if user is None:
        await hub.check_guest_name(name)  # before the table is made, not after
    try:
        row, found = tutorial_row(body.game)
    except NoTutorial:
        games = ", ".join(available_tutorials())
        raise WebError(
            ErrorCode.UNKNOWN_GAME,
            f"no guided first game of {body.game!r} (there are: {games})",
            422,
        ) from None
    table = await hub.open(row, found.load())
    seat, token = await table.seating.join(name, found.seat, None if user is None else user.id)
    return Joined(table=table_info(table), seat=seat, token=token)
