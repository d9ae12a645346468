"""Players' standings over HTTP: profiles, leaderboards and their pages.

The routes are described in docs/protocol.md ("Ratings and profiles").
A player is named by an account's username, or ``bot:<level>`` for a bot. What is answered
is read from the ``ratings``, ``rating_changes`` and ``results`` tables that the server writes
with each game's last action (``RatingRepository.store_finishes``); accounts' ids never leave the
server: a rating's ``user:<id>`` is turned into its username before it is sent.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse

from closingbell.bots import LEVELS, available_bots
from closingbell.core.registry import available_games
from closingbell.server.errors import WebError
from closingbell.server.hub import Hub
from closingbell.server.players import hub_of
from closingbell.server.protocol import ErrorCode
from closingbell.server.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    bot_player,
    displayed,
    provisional,
    user_player,
)
from closingbell.server.store import Store
from closingbell.server.store.records import aware
from closingbell.server.store.schema import (
    rating_changes_table,
    ratings_table,
    results_table,
    tables_table,
    users_table,
)

router = APIRouter()
"""The routes of this module, included by the app."""

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""Where the pages' files are."""

USER_PREFIX = user_player("")
"""How an account is named as a rated player: ``user:<id>``."""
BOT_PREFIX = "bot:"
"""How a bot is named in a profile's address: ``bot:<level>``."""

PAGE_MAX = 100
"""The most finished games, or leaderboard places, in one answer."""
OFFSET_MAX = 100_000
"""The furthest a page may start."""
HISTORY_MAX = 500
"""The most points of a rating's history sent (the latest)."""
NAME_MAX = 64
"""The longest name looked up."""
TOURNAMENTS_SHOWN = 50
"""The most finished tournaments a profile lists (the latest)."""


def _time(value: dt.datetime | None) -> str | None:
    """A stored time as ISO 8601 text in UTC."""
    found = aware(value)
    return None if found is None else found.isoformat()


def _rating(mu: float, sigma: float) -> dict[str, Any]:
    """A rating as sent: mu, sigma, the displayed rating, and whether it is provisional.

    The displayed rating is ``mu - 3 sigma``; see :func:`~closingbell.server.ratings.provisional`.
    """
    return {
        "mu": mu,
        "sigma": sigma,
        "rating": displayed(mu, sigma),
        "provisional": provisional(sigma),
    }


def _number(value: float) -> float | int:
    """A stored score: whole numbers as integers."""
    return int(value) if float(value).is_integer() else value


async def _who(hub: Hub, name: str) -> tuple[str, str, str | None, bool] | None:
    """The player called ``name``, or ``None``.

    Its player key, its name as shown, its bot level (a built-in bot) and whether it is a
    bot account.
    """
    if len(name) > NAME_MAX:
        return None
    if name.startswith(BOT_PREFIX):
        level = name[len(BOT_PREFIX) :]
        return (bot_player(level), name, level, False) if level in available_bots() else None
    user = await hub.accounts.find(name)
    return None if user is None else (user_player(user.id), user.username, None, user.bot)


async def profile(hub: Hub, name: str, limit: int, offset: int) -> dict[str, Any] | None:
    """The profile of the player called ``name`` (``None``: no such player).

    Each game's rating, history (the latest :data:`HISTORY_MAX` points, oldest first) and
    the bots' ratings beside it; the player's finished games, newest first, ``limit`` of them
    from ``offset``.
    """
    who = await _who(hub, name)
    if who is None:
        return None
    player, shown, level, bot_account = who
    bots = [bot_player(b) for b in LEVELS]
    rc = rating_changes_table
    async with hub.store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(ratings_table).where(
                ratings_table.c.player.in_([player, *bots]), ratings_table.c.games > 0
            )
        )
        standings = {(r.player, r.game): r for r in rows.all()}
        games = []
        for game in available_games():
            history = await conn.execute(
                sa.select(rc.c.table_id, rc.c.at, rc.c.mu, rc.c.sigma)
                .where(rc.c.player == player, rc.c.game == game)
                .order_by(rc.c.at.desc(), rc.c.table_id.desc())
                .limit(HISTORY_MAX)
            )
            own = standings.get((player, game))
            games.append(
                {
                    "game": game,
                    "rating": None if own is None else _rating(own.mu, own.sigma),
                    "rated_games": 0 if own is None else int(own.games),
                    "history": [
                        {"table": h.table_id, "at": _time(h.at), **_rating(h.mu, h.sigma)}
                        for h in reversed(history.all())
                    ],
                    "bots": [
                        {
                            "bot": b,
                            **_rating(found.mu, found.sigma),
                            "games": int(found.games),
                        }
                        for b in LEVELS
                        if (found := standings.get((bot_player(b), game))) is not None
                    ],
                }
            )
        total = await conn.scalar(
            sa.select(sa.func.count())
            .select_from(results_table)
            .where(results_table.c.player == player)
        )
        results = await conn.execute(_results_of(player).limit(limit).offset(offset))
        finished = [
            {
                "table": r.table_id,
                "game": r.game,
                "finished_at": _time(r.finished_at),
                "seat": int(r.seat),
                "score": _number(r.score),
                "rank": int(r.rank),
                "players": int(r.players),
                "rated": r.rated_mu is not None,
            }
            for r in results.all()
        ]
    puzzles = None
    tournaments = []
    if level is None and player.startswith(USER_PREFIX):
        played = await hub.store.tournaments.of_user(
            player.removeprefix(USER_PREFIX), TOURNAMENTS_SHOWN
        )
        tournaments = [
            {
                "id": t.id,
                "name": t.name,
                "kind": t.kind,
                "game": t.game,
                "place": entry.place,
                "entrants": entrants,
                "score": entry.score,
                "finished_at": _time(t.finished_at),
            }
            for t, entry, entrants in played
        ]
        solving = await hub.store.puzzles.ratings(player.removeprefix(USER_PREFIX))
        puzzles = {
            g: {"rating": r.rating, "tried": r.tried, "solved": r.solved}
            for g, r in solving.items()
        }
    return {
        "username": shown,
        "bot": level,
        "bot_account": bot_account,
        "games": games,
        "puzzles": puzzles,
        "tournaments": tournaments,
        "results": finished,
        "total": int(total or 0),
        "limit": limit,
        "offset": offset,
    }


def _results_of(player: str) -> sa.Select[Any]:
    """The finished games of ``player``, newest first, with their numbers of players."""
    rc = rating_changes_table
    seated = results_table.alias("seated")
    players = (
        sa.select(sa.func.count())
        .select_from(seated)
        .where(seated.c.table_id == results_table.c.table_id)
        .scalar_subquery()
    )
    return (
        sa.select(
            results_table.c.table_id,
            results_table.c.seat,
            results_table.c.score,
            results_table.c.rank,
            results_table.c.finished_at,
            tables_table.c.game,
            players.label("players"),
            rc.c.mu.label("rated_mu"),
        )
        .select_from(
            results_table.join(tables_table).outerjoin(
                rc,
                sa.and_(rc.c.table_id == results_table.c.table_id, rc.c.player == player),
            )
        )
        .where(results_table.c.player == player)
        .order_by(
            results_table.c.finished_at.desc(),
            results_table.c.table_id.desc(),
            results_table.c.seat,
        )
    )


async def leaderboard(store: Store, game: str, limit: int, offset: int) -> dict[str, Any]:
    """The players and bots of ``game`` ranked by displayed rating: ``limit`` from ``offset``."""
    named = ratings_table.outerjoin(
        users_table, ratings_table.c.player == sa.literal("user:") + users_table.c.id
    )
    where = sa.and_(
        ratings_table.c.game == game,
        ratings_table.c.games > 0,
        sa.or_(ratings_table.c.player.startswith("bot:"), users_table.c.id.is_not(None)),
    )
    async with store.engine.connect() as conn:
        total = await conn.scalar(sa.select(sa.func.count()).select_from(named).where(where))
        rows = await conn.execute(
            sa.select(
                ratings_table.c.player,
                ratings_table.c.mu,
                ratings_table.c.sigma,
                ratings_table.c.games,
                users_table.c.username,
                users_table.c.bot.label("bot_account"),
            )
            .select_from(named)
            .where(where)
            .order_by(
                (ratings_table.c.mu - 3 * ratings_table.c.sigma).desc(),
                ratings_table.c.games.desc(),
                ratings_table.c.player,
            )
            .limit(limit)
            .offset(offset)
        )
        found = rows.all()
    players = []
    for place, r in enumerate(found, offset + 1):
        level = r.player[len(BOT_PREFIX) :] if r.username is None else None
        players.append(
            {
                "place": place,
                "username": r.player if level is not None else r.username,
                "bot": level,
                "bot_account": level is None and bool(r.bot_account),
                **_rating(r.mu, r.sigma),
                "games": int(r.games),
            }
        )
    return {
        "game": game,
        "players": players,
        "total": int(total or 0),
        "limit": limit,
        "offset": offset,
    }


async def table_ratings(store: Store, table_id: str) -> dict[str, Any] | None:
    """How a finished table changed its players' ratings (``None``: no such table).

    Each seat whose player's rating the game changed, with the rating before and after it and
    the rated games after it; no seat when the game rated nobody. Raises ``not_finished`` for
    a table not over.
    """
    rc = rating_changes_table
    async with store.engine.connect() as conn:
        table = (
            await conn.execute(
                sa.select(tables_table.c.game, tables_table.c.status).where(
                    tables_table.c.id == table_id
                )
            )
        ).first()
        if table is None:
            return None
        if table.status != "finished":
            raise WebError(
                ErrorCode.NOT_FINISHED, "a table's ratings change once its game is over", 409
            )
        seats = (
            await conn.execute(
                sa.select(results_table.c.seat, results_table.c.player)
                .where(results_table.c.table_id == table_id)
                .order_by(results_table.c.seat)
            )
        ).all()
        changes = {
            r.player: r
            for r in (await conn.execute(sa.select(rc).where(rc.c.table_id == table_id))).all()
        }
        out = []
        for seat, player in seats:
            after = changes.get(player)
            if after is None:
                continue
            earlier = sa.and_(rc.c.player == player, rc.c.game == table.game, rc.c.at < after.at)
            before = (
                await conn.execute(
                    sa.select(rc.c.mu, rc.c.sigma).where(earlier).order_by(rc.c.at.desc()).limit(1)
                )
            ).first()
            games = await conn.scalar(sa.select(sa.func.count()).select_from(rc).where(earlier))
            old = _rating(DEFAULT_MU, DEFAULT_SIGMA) if before is None else _rating(*before)
            new = _rating(after.mu, after.sigma)
            out.append(
                {
                    "seat": int(seat),
                    "before": old,
                    "after": new,
                    "change": new["rating"] - old["rating"],
                    "rated_games": int(games or 0) + 1,
                }
            )
    return {"table": table_id, "game": table.game, "seats": out}


@router.get("/api/tables/{table_id}/ratings")
async def ratings_of_table(request: Request, table_id: str) -> dict[str, Any]:
    """How a finished table's game changed its players' ratings."""
    found = (
        None if len(table_id) > NAME_MAX else await table_ratings(hub_of(request).store, table_id)
    )
    if found is None:
        raise WebError(ErrorCode.UNKNOWN_TABLE, f"no table {table_id[:64]!r}", 404)
    return found


@router.get("/api/players/{username}")
async def player_profile(
    request: Request,
    username: str,
    limit: int = Query(20, ge=1, le=PAGE_MAX),
    offset: int = Query(0, ge=0, le=OFFSET_MAX),
) -> dict[str, Any]:
    """A player's ratings, their history, and their finished games (``bot:<level>``: a bot)."""
    found = await profile(hub_of(request), username, limit, offset)
    if found is None:
        raise WebError(ErrorCode.UNKNOWN_PLAYER, f"no player is called {username[:64]!r}", 404)
    return found


@router.get("/api/leaderboard/{game}")
async def game_leaderboard(
    request: Request,
    game: str,
    limit: int = Query(50, ge=1, le=PAGE_MAX),
    offset: int = Query(0, ge=0, le=OFFSET_MAX),
) -> dict[str, Any]:
    """The rated players and bots of ``game``, best first."""
    if game not in available_games():
        raise WebError(ErrorCode.UNKNOWN_GAME, f"no game is called {game[:64]!r}", 404)
    return await leaderboard(hub_of(request).store, game, limit, offset)


@router.get("/players/{username}", include_in_schema=False)
async def profile_page(username: str) -> FileResponse:
    """A player's profile page."""
    return FileResponse(STATIC_DIR / "profile.html")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    """The leaderboard page."""
    return FileResponse(STATIC_DIR / "leaderboard.html")
