"""Ratings as stored: each game's results, each player's rating, the history of changes.

A game's last action is stored with each seat's result and, at a rated table, its players'
new ratings (``server.ratings``), in the same transaction (:meth:`RatingRepository.store_finishes`,
called by the action repository); ``closingbell ratings --rebuild`` recomputes them all
(:meth:`RatingRepository.rebuild`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from closingbell.server.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Change,
    Ladder,
    Standing,
    rated_entries,
)
from closingbell.server.store.database import Database
from closingbell.server.store.records import QueuedAction, aware
from closingbell.server.store.schema import (
    rating_changes_table,
    ratings_table,
    results_table,
    tables_table,
)


class RatingRepository:
    """The results and ratings of the database's games."""

    def __init__(self, database: Database) -> None:
        self.database = database
        """The database written to."""

    async def store_finishes(self, conn: AsyncConnection, items: list[QueuedAction]) -> None:
        """Write the results of the games ``items`` end, and rate the rated ones.

        The ratings of their players are read and locked (:meth:`_lock_ratings`), changed
        game by game in the batch's order through a :class:`~closingbell.server.ratings.Ladder`
        and written back, with one ``rating_changes`` row per player and game: all in the
        transaction of the games' last actions, so that a failed write changes nothing. A
        rated game is dated after its players' previous rated games (``Ladder.when``), so
        that ``closingbell ratings --rebuild`` replays them in the same order. A table where
        a hint was taken (``hints_used``, read here, in the same transaction) rates nobody,
        whatever its ``finish`` says.
        """
        hinted = set(
            (
                await conn.execute(
                    sa.select(tables_table.c.id).where(
                        tables_table.c.id.in_([item.table_id for item in items]),
                        tables_table.c.hints_used,
                    )
                )
            ).scalars()
        )
        games = [
            (item, item.finish, [] if item.table_id in hinted else item.finish.entries())
            for item in items
            if item.finish
        ]
        keys = sorted({(p, finish.game) for _, finish, entries in games for p, _ in entries})
        ladder = Ladder(await self._lock_ratings(conn, keys, items[0].at))
        results: list[dict[str, Any]] = []
        changes: list[Change] = []
        for item, finish, entries in games:
            at = ladder.when(finish.game, item.at, (p for p, _ in entries))
            changes += ladder.play(item.table_id, finish.game, at, entries)
            results += [
                {
                    "table_id": item.table_id,
                    "seat": seat,
                    "player": player,
                    "score": score,
                    "rank": rank,
                    "finished_at": at,
                }
                for seat, (player, score, rank) in enumerate(
                    zip(finish.players, finish.scores, finish.ranks, strict=True)
                )
            ]
        await conn.execute(results_table.insert(), results)
        for player, game in sorted(ladder.touched):
            standing = ladder.standings[(player, game)]
            await conn.execute(
                ratings_table.update()
                .where(ratings_table.c.player == player, ratings_table.c.game == game)
                .values(_rating_values(standing))
            )
        if changes:
            await conn.execute(rating_changes_table.insert(), [_change_row(c) for c in changes])

    async def _lock_ratings(
        self, conn: AsyncConnection, keys: list[tuple[str, str]], at: dt.datetime
    ) -> dict[tuple[str, str], Standing]:
        """The ratings of ``keys`` (player, game), each row made if missing and locked.

        One ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` per key, in sorted order:
        it makes a new player's row (at the defaults, no game yet) or locks the existing one
        and reads its latest committed figures. Two servers finishing games of the same
        players at once thus take turns, each rating on top of the other's change, and,
        taking the locks in one order, never wait for each other in a circle.
        """
        insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        found: dict[tuple[str, str], Standing] = {}
        for player, game in keys:
            statement = (
                insert(ratings_table)
                .values(
                    player=player,
                    game=game,
                    mu=DEFAULT_MU,
                    sigma=DEFAULT_SIGMA,
                    games=0,
                    updated_at=at,
                )
                .on_conflict_do_update(
                    index_elements=[ratings_table.c.player, ratings_table.c.game],
                    set_={"mu": ratings_table.c.mu},
                )
                .returning(
                    ratings_table.c.mu,
                    ratings_table.c.sigma,
                    ratings_table.c.games,
                    ratings_table.c.updated_at,
                )
            )
            row = (await conn.execute(statement)).one()
            found[(player, game)] = _standing(row)
        return found

    async def rebuild(self) -> tuple[int, int]:
        """Recompute every rating from the stored results of rated tables, in one transaction.

        The games are replayed through the same :class:`~closingbell.server.ratings.Ladder`
        as the live updates, in the order of their ``finished_at`` then table id, from the
        defaults; ``ratings`` and ``rating_changes`` are then rewritten whole. A table where
        a hint was taken (``hints_used``) is left out, as the live update leaves it. On
        PostgreSQL the ``ratings`` table is locked first (``EXCLUSIVE``): servers finishing
        rated games meanwhile wait, then rate on top of the rebuilt figures. Returns the
        number of games rated and of ratings written.
        """
        async with self.database.writing("ratings") as conn:
            if self.database.shared:
                await conn.execute(sa.text("LOCK TABLE ratings IN EXCLUSIVE MODE"))
            stored = await conn.execute(
                sa.select(
                    results_table.c.table_id,
                    results_table.c.player,
                    results_table.c.rank,
                    results_table.c.finished_at,
                    tables_table.c.game,
                )
                .select_from(results_table.join(tables_table))
                .where(tables_table.c.rated, sa.not_(tables_table.c.hints_used))
                .order_by(results_table.c.table_id, results_table.c.seat)
            )
            games: dict[str, tuple[dt.datetime, str, list[tuple[str | None, int]]]] = {}
            for r in stored.all():
                at = aware(r.finished_at)
                assert at is not None
                games.setdefault(r.table_id, (at, r.game, []))[2].append((r.player, r.rank))
            ladder = Ladder()
            changes: list[Change] = []
            played = 0
            for table_id, (at, game, seats) in sorted(games.items(), key=lambda g: (g[1][0], g[0])):
                entries = rated_entries(seats)
                at = ladder.when(game, at, (p for p, _ in entries))
                made = ladder.play(table_id, game, at, entries)
                changes += made
                played += bool(made)
            await conn.execute(rating_changes_table.delete())
            await conn.execute(ratings_table.delete())
            if ladder.standings:
                await conn.execute(
                    ratings_table.insert(),
                    [
                        {"player": player, "game": game, **_rating_values(standing)}
                        for (player, game), standing in sorted(ladder.standings.items())
                    ],
                )
            if changes:
                await conn.execute(rating_changes_table.insert(), [_change_row(c) for c in changes])
        return played, len(ladder.standings)


def _standing(row: Any) -> Standing:
    """A stored rating (a row that has rated no game yet has no date)."""
    games = int(row.games)
    return Standing(
        mu=float(row.mu),
        sigma=float(row.sigma),
        games=games,
        updated_at=aware(row.updated_at) if games else None,
    )


def _rating_values(standing: Standing) -> dict[str, Any]:
    """The columns of a ``ratings`` row that a rated game changes."""
    return {
        "mu": standing.mu,
        "sigma": standing.sigma,
        "games": standing.games,
        "updated_at": standing.updated_at,
    }


def _change_row(change: Change) -> dict[str, Any]:
    """A ``rating_changes`` row."""
    return {
        "table_id": change.table_id,
        "player": change.player,
        "game": change.game,
        "mu": change.mu,
        "sigma": change.sigma,
        "at": change.at,
    }
