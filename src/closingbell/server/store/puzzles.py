"""Puzzles in the database: the puzzles themselves, accounts' answers and puzzle ratings.

A puzzle is stored as its line of the puzzle file (docs/puzzles.md), with its themes beside
it to filter by and its own rating. An account's first answer to a puzzle is the one that
counts: it is stored with the account's rating before and after, and it moves the
account's puzzle rating in that game and the puzzle's rating in one transaction, both rows
locked (on PostgreSQL) so that servers answering at once rate on top of each other.
Guests' answers are not stored and rate nobody.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from closingbell.puzzles.model import Puzzle, dumps
from closingbell.server.ratings import DEFAULT_MU, DEFAULT_SIGMA, MODEL, displayed
from closingbell.server.store.database import Database
from closingbell.server.store.records import aware, utc_now
from closingbell.server.store.schema import (
    puzzle_attempts_table,
    puzzle_ratings_table,
    puzzles_table,
)

CLOSEST = 12
"""How many unanswered puzzles nearest an account's rating one is picked from at random."""


@dataclass(frozen=True)
class PuzzleRow:
    """One stored puzzle with its rating and counts."""

    puzzle: Puzzle
    """The puzzle (with its position: never sent)."""
    mu: float
    """The puzzle's rating mean."""
    sigma: float
    """The puzzle's rating uncertainty."""
    tried: int
    """How many accounts answered it."""
    solved: int
    """How many of them found the best action."""


@dataclass(frozen=True)
class PuzzleRating:
    """An account's puzzle rating in one game."""

    mu: float
    """The mean."""
    sigma: float
    """The uncertainty."""
    tried: int
    """Puzzles answered."""
    solved: int
    """Puzzles solved at the first try."""

    @property
    def rating(self) -> float:
        """The rating shown (``mu - 3 sigma``, as games' ratings)."""
        return displayed(self.mu, self.sigma)


NEW_RATING = PuzzleRating(DEFAULT_MU, DEFAULT_SIGMA, 0, 0)
"""An account's puzzle rating before its first answer."""


@dataclass(frozen=True)
class Attempt:
    """What an account's answer did."""

    first: bool
    """Whether it was the account's first answer to the puzzle (only that one is rated)."""
    solved: bool
    """Whether the first answer found the best action."""
    before: PuzzleRating
    """The account's rating before the first answer."""
    after: PuzzleRating
    """The account's rating after it."""
    puzzle_mu: float
    """The puzzle's rating mean after the answer."""
    puzzle_sigma: float
    """The puzzle's rating uncertainty after the answer."""


def rate(
    player: tuple[float, float], puzzle: tuple[float, float], solved: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The new ``(mu, sigma)`` of a player and a puzzle after one answer.

    A two-team openskill game, the model of the games' ratings: the player beats the puzzle
    by solving it, and loses to it otherwise.
    """
    me = MODEL.rating(mu=player[0], sigma=player[1])
    it = MODEL.rating(mu=puzzle[0], sigma=puzzle[1])
    [[me2], [it2]] = MODEL.rate([[me], [it]], ranks=[0, 1] if solved else [1, 0])
    return (me2.mu, me2.sigma), (it2.mu, it2.sigma)


def _row(row: Any) -> PuzzleRow:
    data, mu, sigma, tried, solved = row
    return PuzzleRow(Puzzle.from_json(json.loads(data)), mu, sigma, int(tried), int(solved))


def _iso(value: dt.datetime) -> str:
    """A stored time as ISO 8601 text in UTC."""
    found = aware(value)
    assert found is not None
    return found.isoformat()


class PuzzleRepository:
    """The database's puzzles, answers and puzzle ratings."""

    def __init__(self, database: Database) -> None:
        self.database = database
        """The database written to."""

    async def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Store the puzzles the database has not got (by id); how many were added.

        Servers adding the same puzzles at once each add what the other has not: a puzzle
        already there is left as it is, with its rating.
        """
        now = utc_now()
        rows = {
            p.id: {
                "id": p.id,
                "game": p.game,
                "data": dumps(p),
                "themes": " ".join(p.themes),
                "mu": DEFAULT_MU,
                "sigma": DEFAULT_SIGMA,
                "tried": 0,
                "solved": 0,
                "added_at": now,
            }
            for p in puzzles
        }
        if not rows:
            return 0
        insert = postgresql.insert if self.database.shared else sqlite.insert
        async with self.database.writing("puzzles") as conn:
            have = set((await conn.execute(sa.select(puzzles_table.c.id))).scalars().all())
            new = [row for key, row in rows.items() if key not in have]
            if new:
                await conn.execute(insert(puzzles_table).on_conflict_do_nothing(), new)
        return len(new)

    async def ids(self) -> set[str]:
        """The ids of every stored puzzle."""
        async with self.database.engine.connect() as conn:
            return set((await conn.execute(sa.select(puzzles_table.c.id))).scalars().all())

    async def counts(self) -> dict[str, int]:
        """How many puzzles each game has."""
        async with self.database.engine.connect() as conn:
            result = await conn.execute(
                sa.select(puzzles_table.c.game, sa.func.count()).group_by(puzzles_table.c.game)
            )
            return {str(game): int(n) for game, n in result.all()}

    async def theme_counts(self) -> dict[tuple[str, str], int]:
        """How many puzzles each game has of each theme."""
        async with self.database.engine.connect() as conn:
            rows = (
                await conn.execute(sa.select(puzzles_table.c.game, puzzles_table.c.themes))
            ).all()
        out: dict[tuple[str, str], int] = {}
        for game, themes in rows:
            for theme in str(themes).split():
                out[(str(game), theme)] = out.get((str(game), theme), 0) + 1
        return out

    async def get(self, puzzle_id: str) -> PuzzleRow | None:
        """The puzzle ``puzzle_id``, or ``None``."""
        async with self.database.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(
                        puzzles_table.c.data,
                        puzzles_table.c.mu,
                        puzzles_table.c.sigma,
                        puzzles_table.c.tried,
                        puzzles_table.c.solved,
                    ).where(puzzles_table.c.id == puzzle_id)
                )
            ).first()
        return None if row is None else _row(row)

    async def pick(
        self,
        game: str,
        theme: str | None,
        user_id: str | None,
        skip: str | None,
        rng: random.Random,
    ) -> PuzzleRow | None:
        """A puzzle of ``game`` (with ``theme``) for an account or a guest, or ``None``.

        An account gets one it has not answered, among the :data:`CLOSEST` whose rating is
        nearest its own (any it answered when none is left); a guest any puzzle. ``skip``
        (the puzzle just shown) is not given again while there is another.
        """
        p = puzzles_table.c
        query = sa.select(p.id, p.mu).where(p.game == game)
        if theme is not None:
            # Themes are separated by spaces: match a whole name.
            query = query.where((" " + p.themes + " ").like(f"% {theme} %"))
        async with self.database.engine.connect() as conn:
            found = [(str(i), float(mu)) for i, mu in (await conn.execute(query)).all()]
            answered: set[str] = set()
            mu = DEFAULT_MU
            if user_id is not None:
                answered = set(
                    (
                        await conn.execute(
                            sa.select(puzzle_attempts_table.c.puzzle_id).where(
                                puzzle_attempts_table.c.user_id == user_id
                            )
                        )
                    )
                    .scalars()
                    .all()
                )
                mine = await self._rating(conn, user_id, game)
                mu = mine.mu
        choices = [f for f in found if f[0] != skip] or found
        fresh = [f for f in choices if f[0] not in answered] or choices
        if not fresh:
            return None
        if user_id is not None:
            fresh.sort(key=lambda f: (abs(f[1] - mu), f[0]))
            fresh = fresh[:CLOSEST]
        else:
            fresh.sort()
        return await self.get(rng.choice(fresh)[0])

    async def daily(self, game: str, day: dt.date) -> PuzzleRow | None:
        """The puzzle of the day: the same for everyone on ``day``, a new one each day."""
        async with self.database.engine.connect() as conn:
            ids = sorted(
                (
                    await conn.execute(
                        sa.select(puzzles_table.c.id).where(puzzles_table.c.game == game)
                    )
                )
                .scalars()
                .all()
            )
        if not ids:
            return None
        chosen = random.Random(f"{game} {day.isoformat()}").choice(ids)
        return await self.get(chosen)

    async def _rating(self, conn: AsyncConnection, user_id: str, game: str) -> PuzzleRating:
        r = puzzle_ratings_table.c
        row = (
            await conn.execute(
                sa.select(r.mu, r.sigma, r.tried, r.solved).where(
                    r.user_id == user_id, r.game == game
                )
            )
        ).first()
        return NEW_RATING if row is None else PuzzleRating(*row)

    async def rating(self, user_id: str, game: str) -> PuzzleRating:
        """The account's puzzle rating in ``game`` (the defaults before its first answer)."""
        async with self.database.engine.connect() as conn:
            return await self._rating(conn, user_id, game)

    async def ratings(self, user_id: str) -> dict[str, PuzzleRating]:
        """The account's puzzle ratings, by game (only games it answered puzzles of)."""
        r = puzzle_ratings_table.c
        async with self.database.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(r.game, r.mu, r.sigma, r.tried, r.solved).where(r.user_id == user_id)
                )
            ).all()
        return {
            str(g): PuzzleRating(mu, sigma, tried, solved) for g, mu, sigma, tried, solved in rows
        }

    async def history(self, user_id: str, limit: int) -> list[dict[str, Any]]:
        """The account's answers, newest first: ``limit`` of them."""
        a = puzzle_attempts_table.c
        p = puzzles_table.c
        async with self.database.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(a.puzzle_id, p.game, a.solved, a.rating_before, a.rating_after, a.at)
                    .select_from(puzzle_attempts_table.join(puzzles_table, p.id == a.puzzle_id))
                    .where(a.user_id == user_id)
                    .order_by(a.at.desc(), a.puzzle_id)
                    .limit(limit)
                )
            ).all()
        return [
            {
                "id": str(r.puzzle_id),
                "game": str(r.game),
                "solved": bool(r.solved),
                "rating_before": float(r.rating_before),
                "rating_after": float(r.rating_after),
                "at": _iso(r.at),
            }
            for r in rows
        ]

    async def answer(self, user_id: str, row: PuzzleRow, action: int) -> Attempt:
        """Store an account's answer ``action`` to the puzzle of ``row`` and rate it.

        Only the first answer is stored and rated; a later one changes nothing and tells
        what the first did.
        """
        puzzle = row.puzzle
        game = puzzle.game
        solved = action == puzzle.best
        now = utc_now()
        insert = postgresql.insert if self.database.shared else sqlite.insert
        a = puzzle_attempts_table.c
        async with self.database.writing("puzzles") as conn:
            earlier = (
                await conn.execute(
                    sa.select(a.solved).where(a.user_id == user_id, a.puzzle_id == puzzle.id)
                )
            ).first()
            if earlier is not None:
                mine = await self._rating(conn, user_id, game)
                return Attempt(False, bool(earlier[0]), mine, mine, row.mu, row.sigma)
            r = puzzle_ratings_table.c
            locked = (
                await conn.execute(
                    insert(puzzle_ratings_table)
                    .values(
                        user_id=user_id,
                        game=game,
                        mu=DEFAULT_MU,
                        sigma=DEFAULT_SIGMA,
                        tried=0,
                        solved=0,
                        updated_at=now,
                    )
                    .on_conflict_do_update(index_elements=[r.user_id, r.game], set_={"mu": r.mu})
                    .returning(r.mu, r.sigma, r.tried, r.solved)
                )
            ).one()
            before = PuzzleRating(*locked)
            p = puzzles_table.c
            query = sa.select(p.mu, p.sigma).where(p.id == puzzle.id)
            if self.database.shared:
                query = query.with_for_update()
            it_mu, it_sigma = (await conn.execute(query)).one()
            (mu, sigma), (pmu, psigma) = rate((before.mu, before.sigma), (it_mu, it_sigma), solved)
            after = PuzzleRating(mu, sigma, before.tried + 1, before.solved + solved)
            await conn.execute(
                puzzle_ratings_table.update()
                .where(r.user_id == user_id, r.game == game)
                .values(mu=mu, sigma=sigma, tried=after.tried, solved=after.solved, updated_at=now)
            )
            await conn.execute(
                puzzles_table.update()
                .where(p.id == puzzle.id)
                .values(
                    mu=pmu,
                    sigma=psigma,
                    tried=p.tried + 1,
                    solved=p.solved + (1 if solved else 0),
                )
            )
            await conn.execute(
                puzzle_attempts_table.insert().values(
                    user_id=user_id,
                    puzzle_id=puzzle.id,
                    action=action,
                    solved=solved,
                    rating_before=before.rating,
                    rating_after=after.rating,
                    at=now,
                )
            )
        return Attempt(True, solved, before, after, pmu, psigma)
