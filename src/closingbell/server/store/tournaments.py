"""Tournaments as stored: the tournament, its entrants, its tables and who directs it.

Every change a round makes is one transaction (a round planned with its byes and absences,
a game scored with its entrants' points), so a server that takes a tournament over finds
it whole: at most the planned tables still to make (a game whose table has no status).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from closingbell.server.store.database import Database
from closingbell.server.store.records import aware, utc_now
from closingbell.server.store.schema import (
    actions_table,
    ratings_table,
    results_table,
    tables_table,
    tournament_entries_table,
    tournament_games_table,
    tournaments_table,
    users_table,
)


@dataclass
class TournamentRow:
    """A tournament as stored."""

    id: str
    kind: str
    """``swiss`` or ``arena``."""
    name: str
    game: str
    options: dict[str, Any]
    """The rules options of its tables (``players`` is each table's size)."""
    table_size: int
    rounds: int | None
    """A Swiss tournament's rounds."""
    minutes: float | None
    """An arena's length."""
    clock: float
    """Seconds a turn at its tables (then a bot decides)."""
    rated: bool
    bots: list[str]
    """The built-in bots entered, by level."""
    bot_accounts: bool
    """Whether bot accounts may enter."""
    created_by: str
    created_at: dt.datetime
    starts_at: dt.datetime
    status: str = "open"
    """``open``, ``running``, ``finished`` or ``cancelled``."""
    round: int = 0
    round_at: dt.datetime | None = None
    ends_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None


@dataclass
class EntryRow:
    """An entrant as stored."""

    entrant: str
    """``user:<id>`` or ``bot:<level>:<n>``."""
    name: str
    user_id: str | None = None
    bot: str | None = None
    bot_account: bool = False
    """Whether its account is a bot account (read with the entry)."""
    withdrawn: bool = False
    paused: bool = False
    score: float = 0.0
    games: int = 0
    streak: int = 0
    byes: int = 0
    absences: int = 0
    place: int | None = None
    joined_at: dt.datetime = field(default_factory=utc_now)


@dataclass
class GameRow:
    """A tournament's table as stored, with the table's status (``None``: not made yet)."""

    table_id: str
    round: int
    seats: list[str]
    points: list[float] | None
    status: str | None


@dataclass
class Change:
    """What a game or a round changes of one entrant."""

    entrant: str
    score: float = 0.0
    games: int = 0
    streak: int | None = None
    """The new streak (``None``: unchanged)."""
    byes: int = 0
    absences: int = 0
    paused: bool | None = None


def _tournament(r: Any) -> TournamentRow:
    return TournamentRow(
        id=r.id,
        kind=r.kind,
        name=r.name,
        game=r.game,
        options=json.loads(r.options),
        table_size=int(r.table_size),
        rounds=r.rounds,
        minutes=r.minutes,
        clock=float(r.clock),
        rated=bool(r.rated),
        bots=list(json.loads(r.bots)),
        bot_accounts=bool(r.bot_accounts),
        created_by=r.created_by,
        created_at=aware(r.created_at) or utc_now(),
        starts_at=aware(r.starts_at) or utc_now(),
        status=r.status,
        round=int(r.round),
        round_at=aware(r.round_at),
        ends_at=aware(r.ends_at),
        finished_at=aware(r.finished_at),
    )


class TournamentRepository:
    """The database's tournaments."""

    def __init__(self, database: Database) -> None:
        self.database = database
        """The database written to."""

    async def create(self, row: TournamentRow, entries: list[EntryRow]) -> None:
        """Store a new tournament with its first entrants (its bots)."""
        t = tournaments_table
        async with self.database.writing("tournament") as conn:
            await conn.execute(
                t.insert().values(
                    id=row.id,
                    kind=row.kind,
                    name=row.name,
                    game=row.game,
                    options=json.dumps(row.options, sort_keys=True),
                    table_size=row.table_size,
                    rounds=row.rounds,
                    minutes=row.minutes,
                    clock=row.clock,
                    rated=row.rated,
                    bots=json.dumps(row.bots),
                    bot_accounts=row.bot_accounts,
                    created_by=row.created_by,
                    created_at=row.created_at,
                    starts_at=row.starts_at,
                    ends_at=row.ends_at,
                    status=row.status,
                    round=row.round,
                )
            )
            for entry in entries:
                await conn.execute(self._entry_values(row.id, entry))

    @staticmethod
    def _entry_values(tournament_id: str, entry: EntryRow) -> Any:
        return tournament_entries_table.insert().values(
            tournament_id=tournament_id,
            entrant=entry.entrant,
            user_id=entry.user_id,
            bot=entry.bot,
            name=entry.name,
            joined_at=entry.joined_at,
            withdrawn=False,
            paused=False,
            score=0.0,
            games=0,
            streak=0,
            byes=0,
            absences=0,
        )

    async def get(self, tournament_id: str) -> TournamentRow | None:
        """The tournament ``tournament_id``, or ``None``."""
        async with self.database.engine.connect() as conn:
            r = (
                await conn.execute(
                    sa.select(tournaments_table).where(tournaments_table.c.id == tournament_id)
                )
            ).first()
        return None if r is None else _tournament(r)

    async def listing(self, limit: int) -> list[TournamentRow]:
        """Tournaments to come and being played (soonest first), then the latest over."""
        t = tournaments_table
        live = t.c.status.in_(("open", "running"))
        async with self.database.engine.connect() as conn:
            now = (await conn.execute(sa.select(t).where(live).order_by(t.c.starts_at))).all()
            over = (
                await conn.execute(
                    sa.select(t).where(~live).order_by(t.c.starts_at.desc()).limit(limit)
                )
            ).all()
        return [_tournament(r) for r in [*now, *over]][: max(limit, len(now))]

    async def entries(self, tournament_id: str) -> list[EntryRow]:
        """The tournament's entrants, with whether each account is a bot account."""
        e = tournament_entries_table
        async with self.database.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(e, users_table.c.bot.label("bot_account"))
                    .select_from(e.outerjoin(users_table, users_table.c.id == e.c.user_id))
                    .where(e.c.tournament_id == tournament_id)
                    .order_by(e.c.joined_at, e.c.entrant)
                )
            ).all()
        return [
            EntryRow(
                entrant=r.entrant,
                name=r.name,
                user_id=r.user_id,
                bot=r.bot,
                bot_account=bool(r.bot_account),
                withdrawn=bool(r.withdrawn),
                paused=bool(r.paused),
                score=float(r.score),
                games=int(r.games),
                streak=int(r.streak),
                byes=int(r.byes),
                absences=int(r.absences),
                place=r.place,
                joined_at=aware(r.joined_at) or utc_now(),
            )
            for r in rows
        ]

    async def games(self, tournament_id: str) -> list[GameRow]:
        """The tournament's tables, by round, with each table's status."""
        g = tournament_games_table
        async with self.database.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(g, tables_table.c.status)
                    .select_from(g.outerjoin(tables_table, tables_table.c.id == g.c.table_id))
                    .where(g.c.tournament_id == tournament_id)
                    .order_by(g.c.round, g.c.created_at, g.c.table_id)
                )
            ).all()
        return [
            GameRow(
                table_id=r.table_id,
                round=int(r.round),
                seats=list(json.loads(r.seats)),
                points=None if r.points is None else list(json.loads(r.points)),
                status=r.status,
            )
            for r in rows
        ]

    async def enter(self, tournament_id: str, entry: EntryRow) -> bool:
        """Enter ``entry``, or bring it back (withdrawn or paused); whether it was new."""
        e = tournament_entries_table
        async with self.database.writing("tournament entry") as conn:
            back = await conn.execute(
                e.update()
                .where(e.c.tournament_id == tournament_id, e.c.entrant == entry.entrant)
                .values(withdrawn=False, paused=False)
            )
            if back.rowcount:
                return False
            await conn.execute(self._entry_values(tournament_id, entry))
        return True

    async def withdraw(self, tournament_id: str, entrant: str) -> bool:
        """Withdraw ``entrant``; whether it was entered (and not withdrawn already)."""
        e = tournament_entries_table
        async with self.database.writing("tournament entry") as conn:
            done = await conn.execute(
                e.update()
                .where(
                    e.c.tournament_id == tournament_id,
                    e.c.entrant == entrant,
                    e.c.withdrawn.is_(False),
                )
                .values(withdrawn=True)
            )
        return bool(done.rowcount)

    async def due(self, now: dt.datetime) -> list[str]:
        """Tournaments to direct: running ones, and open ones whose start has come."""
        t = tournaments_table
        async with self.database.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.c.id).where(
                    sa.or_(
                        t.c.status == "running", sa.and_(t.c.status == "open", t.c.starts_at <= now)
                    )
                )
            )
            return [str(r) for (r,) in rows.all()]

    async def claim(self, tournament_id: str, server: str, ttl: float) -> bool:
        """Take or keep the right to direct the tournament; whether this server has it.

        A server has it while it says so every tick: another takes it once ``ttl`` seconds
        passed without a word (the holder stopped or died).
        """
        t = tournaments_table
        now = utc_now()
        stale = now - dt.timedelta(seconds=ttl)
        async with self.database.writing("tournament lease") as conn:
            done = await conn.execute(
                t.update()
                .where(
                    t.c.id == tournament_id,
                    sa.or_(t.c.server.is_(None), t.c.server == server, t.c.lease_at < stale),
                )
                .values(server=server, lease_at=now)
            )
        return bool(done.rowcount)

    async def release(self, server: str) -> None:
        """Give up every tournament ``server`` directs (it is stopping)."""
        t = tournaments_table
        async with self.database.writing("tournament lease") as conn:
            await conn.execute(t.update().where(t.c.server == server).values(server=None))

    async def update(self, tournament_id: str, **values: Any) -> None:
        """Set fields of the tournament (its status, ends, finish)."""
        t = tournaments_table
        async with self.database.writing("tournament") as conn:
            await conn.execute(t.update().where(t.c.id == tournament_id).values(**values))

    async def plan_round(
        self,
        tournament_id: str,
        number: int,
        tables: list[tuple[str, list[str]]],
        changes: list[Change],
        at: dt.datetime,
    ) -> None:
        """Record round ``number``'s tables (id and entrants), and its byes and absences."""
        async with self.database.writing("tournament round") as conn:
            for table_id, seats in tables:
                await conn.execute(
                    tournament_games_table.insert().values(
                        table_id=table_id,
                        tournament_id=tournament_id,
                        round=number,
                        seats=json.dumps(seats),
                        created_at=at,
                    )
                )
            await self._apply(conn, tournament_id, changes)
            await conn.execute(
                tournaments_table.update()
                .where(tournaments_table.c.id == tournament_id)
                .values(round=number, round_at=at)
            )

    async def score(
        self, tournament_id: str, table_id: str, points: list[float], changes: list[Change]
    ) -> bool:
        """Record a game's points and its entrants' changes, once; whether this did."""
        g = tournament_games_table
        async with self.database.writing("tournament score") as conn:
            done = await conn.execute(
                g.update()
                .where(g.c.table_id == table_id, g.c.points.is_(None))
                .values(points=json.dumps(points))
            )
            if not done.rowcount:
                return False
            await self._apply(conn, tournament_id, changes)
        return True

    async def _apply(self, conn: Any, tournament_id: str, changes: list[Change]) -> None:
        e = tournament_entries_table
        for c in changes:
            values: dict[str, Any] = {
                "score": e.c.score + c.score,
                "games": e.c.games + c.games,
                "byes": e.c.byes + c.byes,
                "absences": e.c.absences + c.absences,
            }
            if c.streak is not None:
                values["streak"] = c.streak
            if c.paused is not None:
                values["paused"] = c.paused
            await conn.execute(
                e.update()
                .where(e.c.tournament_id == tournament_id, e.c.entrant == c.entrant)
                .values(**values)
            )

    async def finish(self, tournament_id: str, places: dict[str, int], at: dt.datetime) -> None:
        """The tournament is over: each entrant's final place."""
        e = tournament_entries_table
        async with self.database.writing("tournament") as conn:
            for entrant, place in places.items():
                await conn.execute(
                    e.update()
                    .where(e.c.tournament_id == tournament_id, e.c.entrant == entrant)
                    .values(place=place)
                )
            await conn.execute(
                tournaments_table.update()
                .where(tournaments_table.c.id == tournament_id)
                .values(status="finished", finished_at=at, server=None)
            )

    async def of_user(self, user_id: str, limit: int) -> list[tuple[TournamentRow, EntryRow, int]]:
        """The finished tournaments ``user_id`` entered, newest first.

        Each with the account's entry and how many entrants the tournament had.
        """
        e = tournament_entries_table
        t = tournaments_table
        count = (
            sa.select(sa.func.count())
            .select_from(tournament_entries_table.alias("all_entries"))
            .where(sa.literal_column("all_entries.tournament_id") == t.c.id)
            .scalar_subquery()
        )
        async with self.database.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(
                        t,
                        e.c.entrant,
                        e.c.name.label("entry_name"),
                        e.c.score,
                        e.c.place,
                        count.label("entrants"),
                    )
                    .select_from(t.join(e, e.c.tournament_id == t.c.id))
                    .where(e.c.user_id == user_id, t.c.status == "finished")
                    .order_by(t.c.finished_at.desc())
                    .limit(limit)
                )
            ).all()
        return [
            (
                _tournament(r),
                EntryRow(entrant=r.entrant, name=r.entry_name, score=float(r.score), place=r.place),
                int(r.entrants),
            )
            for r in rows
        ]


async def table_outcome(database: Database, table_id: str) -> tuple[list[int], set[int]]:
    """A finished table's places by seat, and the seats that decided for themselves.

    The places come from its results (empty: none stored); a seat decided for itself when
    one of its actions was its own, not a bot's made for it.
    """
    async with database.engine.connect() as conn:
        ranks = (
            await conn.execute(
                sa.select(results_table.c.seat, results_table.c.rank)
                .where(results_table.c.table_id == table_id)
                .order_by(results_table.c.seat)
            )
        ).all()
        own = (
            await conn.execute(
                sa.select(actions_table.c.seat)
                .where(actions_table.c.table_id == table_id, actions_table.c.by == "player")
                .distinct()
            )
        ).all()
    return [int(r) for _, r in ranks], {int(s) for (s,) in own}


async def displayed_ratings(database: Database, game: str, players: list[str]) -> dict[str, float]:
    """The displayed ratings (mu - 3 sigma) of ``players`` (``user:<id>``, ``bot:<level>``)."""
    if not players:
        return {}
    async with database.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(ratings_table.c.player, ratings_table.c.mu, ratings_table.c.sigma).where(
                ratings_table.c.game == game, ratings_table.c.player.in_(players)
            )
        )
        return {str(p): float(mu) - 3 * float(sigma) for p, mu, sigma in rows.all()}
