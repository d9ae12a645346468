"""Tournaments over HTTP: create, list, show (standings, rounds, tables), enter, withdraw.

The server's :class:`~closingbell.server.tournaments.Director` runs them; these routes read
and write what it reads (docs/protocol.md, "Tournaments"). No answer holds an account id:
an entrant is named by its username, or a built-in bot by its level.
"""

from __future__ import annotations

import datetime as dt
import secrets
import unicodedata
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import Field

from closingbell.bots import available_bots
from closingbell.core.errors import OptionError, UnknownGameError
from closingbell.core.registry import game_class
from closingbell.server.accounts import User
from closingbell.server.errors import WebError
from closingbell.server.players import hub_of, session_user, signed_in
from closingbell.server.protocol import ErrorCode, _Strict
from closingbell.server.ratings import user_player
from closingbell.server.store.tournaments import EntryRow, TournamentRow
from closingbell.server.tournaments import standings, summary

router = APIRouter()

PAGE = Path(__file__).resolve().parent / "static" / "tournament.html"
"""The tournaments' page (the list, and one tournament)."""
LISTED = 50
"""The most tournaments over that the list shows (every one to come or running besides)."""
BOTS_MOST = 64
"""The most built-in bots a tournament's creator may enter."""


class NewTournament(_Strict):
    """``POST /api/tournaments``."""

    kind: Literal["swiss", "arena"]
    name: str = Field(max_length=200)
    game: str = Field(max_length=64)
    table_size: int = Field(ge=2, le=6)
    rounds: int | None = Field(None, ge=1, le=30)
    """A Swiss tournament's rounds."""
    minutes: float | None = Field(None, ge=1, le=24 * 60)
    """An arena's length."""
    starts_in: float = Field(300, ge=0, le=30 * 86400)
    """Seconds from now to its start."""
    clock: float = Field(60, ge=5, le=3600)
    """Seconds a turn at its tables."""
    rated: bool = False
    bots: list[str] = Field(default_factory=list, max_length=BOTS_MOST)
    """Built-in bots entered, by level (a level may come several times)."""
    bot_accounts: bool = True
    options: dict[str, Any] = Field(default_factory=dict)


def _name(text: str) -> str:
    name = unicodedata.normalize("NFC", text.strip())
    if not 1 <= len(name) <= 64 or not name.isprintable():
        raise WebError(ErrorCode.BAD_REQUEST, "name: 1 to 64 printable characters, not empty", 422)
    return name


def _check(body: NewTournament) -> dict[str, Any]:
    """The tables' rules options, every part of ``body`` checked; else :class:`WebError`."""
    try:
        cls = game_class(body.game)
    except UnknownGameError as exc:
        raise WebError(ErrorCode.UNKNOWN_GAME, str(exc), 422) from None
    info = cls.info
    if not info.min_players <= body.table_size <= info.max_players:
        raise WebError(
            ErrorCode.BAD_SEATS,
            f"{info.title} takes {info.min_players} to {info.max_players} seats a table",
            422,
        )
    if body.kind == "swiss" and (body.rounds is None or body.minutes is not None):
        raise WebError(ErrorCode.BAD_REQUEST, "a Swiss tournament has rounds, no minutes", 422)
    if body.kind == "arena" and (body.minutes is None or body.rounds is not None):
        raise WebError(ErrorCode.BAD_REQUEST, "an arena has minutes, no rounds", 422)
    unknown = sorted(set(body.bots) - set(available_bots()))
    if unknown:
        raise WebError(ErrorCode.UNKNOWN_BOT, f"no bot is called {', '.join(unknown)}", 422)
    options = {k: v for k, v in body.options.items() if k != "players"}
    # Tables may seat fewer than table_size (the entrants do not always divide): every
    # size from 2 up must take the options.
    for players in range(info.min_players, body.table_size + 1):
        try:
            cls(**{**options, "players": players})
        except (OptionError, TypeError, ValueError) as exc:
            raise WebError(ErrorCode.BAD_OPTIONS, str(exc), 422) from None
    return options


def _entry_of(user: User, joined: dt.datetime) -> EntryRow:
    return EntryRow(
        entrant=user_player(user.id),
        name=user.username,
        user_id=user.id,
        bot_account=user.bot,
        joined_at=joined,
    )


async def _tournament(request: Request, tournament_id: str) -> TournamentRow:
    found = None
    if len(tournament_id) <= 16:
        found = await hub_of(request).store.tournaments.get(tournament_id)
    if found is None:
        raise WebError(ErrorCode.UNKNOWN_TOURNAMENT, f"no tournament {tournament_id[:64]!r}", 404)
    return found


@router.post("/api/tournaments", status_code=201)
async def create(request: Request, body: NewTournament) -> dict[str, Any]:
    """Make a tournament (signed in); its bots are entered at once."""
    user = await signed_in(request)
    options = _check(body)
    hub = hub_of(request)
    now = hub.clock()
    row = TournamentRow(
        id=secrets.token_urlsafe(9),
        kind=body.kind,
        name=_name(body.name),
        game=body.game,
        options=options,
        table_size=body.table_size,
        rounds=body.rounds,
        minutes=body.minutes,
        clock=body.clock,
        rated=body.rated,
        bots=list(body.bots),
        bot_accounts=body.bot_accounts,
        created_by=user.id,
        created_at=now,
        starts_at=now + dt.timedelta(seconds=body.starts_in),
    )
    bots = [
        EntryRow(entrant=f"bot:{level}:{n}", name=f"bot:{level}:{n}", bot=level, joined_at=now)
        for n, level in enumerate(body.bots, 1)
    ]
    await hub.store.tournaments.create(row, bots)
    return {"tournament": summary(row, len(bots))}


@router.get("/api/tournaments")
async def listing(request: Request) -> dict[str, Any]:
    """Tournaments to come and running (soonest first), then the latest over."""
    repo = hub_of(request).store.tournaments
    out = []
    for t in await repo.listing(LISTED):
        entries = await repo.entries(t.id)
        out.append(summary(t, sum(1 for e in entries if not e.withdrawn)))
    return {"tournaments": out, "now": hub_of(request).clock().isoformat()}


@router.get("/api/tournaments/{tournament_id}")
async def show(request: Request, tournament_id: str) -> dict[str, Any]:
    """A tournament: its standings, its rounds' tables, and the viewer's own entry."""
    t = await _tournament(request, tournament_id)
    repo = hub_of(request).store.tournaments
    entries = await repo.entries(t.id)
    games = await repo.games(t.id)
    names = {e.entrant: e for e in entries}

    def who(key: str) -> dict[str, Any]:
        e = names[key]
        return {"name": e.name, "bot": e.bot, "bot_account": e.bot_account}

    lines = [
        {
            "place": s.entry.place if s.entry.place is not None else s.place,
            **who(s.entry.entrant),
            "score": s.entry.score,
            "tiebreak": s.tiebreak,
            "games": s.entry.games,
            "byes": s.entry.byes,
            "absences": s.entry.absences,
            "withdrawn": s.entry.withdrawn,
            "paused": s.entry.paused,
        }
        for s in standings(entries, games)
    ]
    rounds: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        rounds.setdefault(g.round, []).append(
            {
                "table": g.table_id,
                "status": g.status or "waiting",
                "seats": [who(k) for k in g.seats],
                "points": g.points,
            }
        )
    user = await session_user(request)
    you = None
    if user is not None:
        me = user_player(user.id)
        mine = names.get(me)
        playing = next(
            (g.table_id for g in games if me in g.seats and g.status in ("waiting", "playing")),
            None,
        )
        you = {
            "entered": mine is not None and not mine.withdrawn,
            "paused": mine is not None and mine.paused,
            "table": playing,
            "may_enter": t.status in ("open", "running") and (t.bot_accounts or not user.bot),
            "creator": t.created_by == user.id,
        }
    return {
        "tournament": summary(t, sum(1 for e in entries if not e.withdrawn)),
        "standings": lines,
        "rounds": [{"round": n, "tables": tables} for n, tables in sorted(rounds.items())],
        "you": you,
        "now": hub_of(request).clock().isoformat(),
    }


@router.post("/api/tournaments/{tournament_id}/join")
async def join(request: Request, tournament_id: str) -> dict[str, Any]:
    """Enter the tournament, or come back to it (after withdrawing, or counted absent)."""
    user = await signed_in(request)
    t = await _tournament(request, tournament_id)
    if t.status not in ("open", "running"):
        raise WebError(ErrorCode.TOURNAMENT_OVER, f"the tournament is {t.status}", 409)
    if user.bot and not t.bot_accounts:
        raise WebError(
            ErrorCode.BOT_ACCOUNTS_NOT_ALLOWED, "this tournament is for people (and its bots)", 403
        )
    hub = hub_of(request)
    new = await hub.store.tournaments.enter(t.id, _entry_of(user, hub.clock()))
    return {"entered": True, "new": new}


@router.post("/api/tournaments/{tournament_id}/start")
async def start_now(request: Request, tournament_id: str) -> dict[str, Any]:
    """Its creator starts a tournament not started yet now, rather than at its time."""
    user = await signed_in(request)
    t = await _tournament(request, tournament_id)
    if t.created_by != user.id:
        raise WebError(ErrorCode.NOT_CREATOR, "only the tournament's creator starts it early", 403)
    if t.status != "open":
        raise WebError(ErrorCode.TOURNAMENT_STARTED, f"the tournament is {t.status}", 409)
    hub = hub_of(request)
    await hub.store.tournaments.update(t.id, starts_at=hub.clock())
    return {"starts_at": hub.clock().isoformat()}


@router.post("/api/tournaments/{tournament_id}/withdraw")
async def withdraw(request: Request, tournament_id: str) -> dict[str, Any]:
    """Withdraw from the tournament: not seated in its later rounds (points kept)."""
    user = await signed_in(request)
    t = await _tournament(request, tournament_id)
    if t.status not in ("open", "running"):
        raise WebError(ErrorCode.TOURNAMENT_OVER, f"the tournament is {t.status}", 409)
    if not await hub_of(request).store.tournaments.withdraw(t.id, user_player(user.id)):
        raise WebError(ErrorCode.NOT_ENTERED, "you have not entered this tournament", 409)
    return {"withdrawn": True}


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page() -> FileResponse:
    """The tournaments' page: the list, and the form that makes one."""
    return FileResponse(PAGE)


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: str) -> FileResponse:
    """One tournament's page: standings, rounds, countdown."""
    return FileResponse(PAGE)
