"""Tournaments run by the server: Swiss rounds and arenas, directed by one server at a time.

Every server looks every ``Settings.tournament_tick`` seconds for the tournaments to direct
(running ones, and open ones whose start has come). For each, it takes the right to direct
it (the tournament's lease: held while its server renews it every tick, taken by another
once ``Settings.lease_seconds`` pass without, as a table's bots and clock) and, holding it:

- **starts** it at its time: cancelled with fewer than two entrants, else running;
- **scores** each of its tables once over (:mod:`closingbell.server.pairing`'s points);
  an account's seat that made no decision of its own (a bot played every turn for it) is
  counted absent and paused: it is not seated again until it comes back (enters again);
- **seats** the next round once a Swiss round is over (every active entrant not paused,
  at tables made and started at once, each account in its seat: it enters it from any
  page or program with ``hello``'s ``account``), and in an arena whoever waits, as soon as
  a table can be made, until its time is up;
- **finishes** it: final places by points, then the points of the entrants each met.

A round is planned in the database before its tables are made, so that a server taking a
tournament over mid-round makes the tables still missing and goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from closingbell.core.game import Game
from closingbell.core.registry import load_game
from closingbell.server.errors import WebError
from closingbell.server.pairing import (
    BYE_POINTS,
    Entrant,
    arena_points,
    arena_tables,
    pairs,
    place_points,
    swiss_round,
)
from closingbell.server.ratings import bot_player, user_player
from closingbell.server.settings import Settings
from closingbell.server.store import Store, hash_token
from closingbell.server.store.records import SeatRow, TableRow
from closingbell.server.store.tournaments import (
    Change,
    EntryRow,
    GameRow,
    TournamentRow,
    displayed_ratings,
    table_outcome,
)

log = logging.getLogger(__name__)

OVER = ("finished", "abandoned")
"""A table's statuses once its game is over."""

Open = Callable[[TableRow, Game], Awaitable[object]]
"""Stores a new table and opens it on this server (``Hub.open``)."""
Load = Callable[[str], Awaitable[object]]
"""A table by its id, loaded on this server if not in memory (``Hub.get``)."""


def player_of(entry: EntryRow) -> str:
    """The ratings' name of an entrant: ``user:<id>`` or ``bot:<level>``."""
    if entry.user_id is not None:
        return user_player(entry.user_id)
    assert entry.bot is not None
    return bot_player(entry.bot)


@dataclass(frozen=True)
class Standing:
    """An entrant's line of the standings."""

    entry: EntryRow
    place: int
    """From 1."""
    tiebreak: float
    """The points of the entrants it met, one count per game (Buchholz)."""


def standings(entries: Sequence[EntryRow], games: Sequence[GameRow]) -> list[Standing]:
    """The entrants best first: by points, then the points of those they met, then name."""
    score = {e.entrant: e.score for e in entries}
    met: dict[str, float] = dict.fromkeys(score, 0.0)
    for g in games:
        if g.points is None:
            continue
        for key in g.seats:
            met[key] = met.get(key, 0.0) + sum(score.get(o, 0.0) for o in g.seats if o != key)
    order = sorted(entries, key=lambda e: (-e.score, -met.get(e.entrant, 0.0), e.name.lower()))
    return [Standing(e, i + 1, met.get(e.entrant, 0.0)) for i, e in enumerate(order)]


class Director:
    """Directs the tournaments whose lease this server holds (see the module)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], dt.datetime],
        open_table: Open,
        load_table: Load,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.open_table = open_table
        self.load_table = load_table
        self.server_id = secrets.token_hex(8)
        """This server's name in the tournaments' leases."""
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def start(self) -> None:
        """Look every tick until :meth:`stop`."""
        self._task = asyncio.create_task(self._forever())

    async def stop(self) -> None:
        """Stop directing and hand the tournaments over to the other servers."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await self.store.tournaments.release(self.server_id)

    async def _forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tournament_tick)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away for a while: look again later
                log.exception("the tournaments could not be directed")

    async def tick(self) -> None:
        """Direct every tournament due whose lease this server holds or can take."""
        async with self._lock:
            repo = self.store.tournaments
            for tournament_id in await repo.due(self.clock()):
                if await repo.claim(tournament_id, self.server_id, self.settings.lease_seconds):
                    tournament = await repo.get(tournament_id)
                    if tournament is not None:
                        await self.direct(tournament)

    async def direct(self, t: TournamentRow) -> None:
        """One step of tournament ``t``: start it, score its games, seat, finish."""
        if t.status == "open":
            await self._begin(t)
            return
        games = await self.store.tournaments.games(t.id)
        for g in games:
            if g.status is None:  # planned by a server that stopped before making it
                await self._make_table(t, g.table_id, g.seats, await self._entries(t))
            elif g.status not in OVER:
                # Made by a server that stopped before it ran it (nobody holds its lease):
                # loaded here, it is run here; one in memory or run elsewhere is left so.
                with contextlib.suppress(WebError):
                    await self.load_table(g.table_id)
        entries = await self._entries(t)
        for g in games:
            if g.points is None and g.status in OVER:
                await self._score(t, g, entries)
        games = await self.store.tournaments.games(t.id)
        entries = await self._entries(t)
        if t.kind == "swiss":
            await self._swiss(t, games, entries)
        else:
            await self._arena(t, games, entries)

    async def _entries(self, t: TournamentRow) -> dict[str, EntryRow]:
        return {e.entrant: e for e in await self.store.tournaments.entries(t.id)}

    async def _begin(self, t: TournamentRow) -> None:
        entries = [e for e in await self.store.tournaments.entries(t.id) if not e.withdrawn]
        if len(entries) < 2:
            await self.store.tournaments.update(t.id, status="cancelled", server=None)
            log.info("tournament %s cancelled: %d entrants", t.id, len(entries))
            return
        now = self.clock()
        ends = None if t.minutes is None else now + dt.timedelta(minutes=t.minutes)
        await self.store.tournaments.update(t.id, status="running", ends_at=ends)
        t.status, t.ends_at = "running", ends
        await self.direct(t)

    # ------------------------------------------------------------------ Swiss

    async def _swiss(
        self, t: TournamentRow, games: list[GameRow], entries: dict[str, EntryRow]
    ) -> None:
        if any(g.round == t.round and g.points is None for g in games):
            return  # the round is being played
        assert t.rounds is not None
        active = [e for e in entries.values() if not e.withdrawn]
        playing = [e for e in active if not e.paused]
        if t.round >= t.rounds or len(playing) < 2:
            await self._finish(t, games, entries)
            return
        ratings = await displayed_ratings(self.store, t.game, [player_of(e) for e in playing])
        met = pairs(g.seats for g in games)
        byes = {e.entrant for e in entries.values() if e.byes}
        seating = swiss_round(
            [Entrant(e.entrant, e.score, ratings.get(player_of(e), 0.0)) for e in playing],
            t.table_size,
            met,
            byes,
        )
        changes = [Change(e.entrant, absences=1) for e in active if e.paused]
        if seating.bye is not None:
            changes.append(Change(seating.bye, score=BYE_POINTS, byes=1))
        await self._seat(t, t.round + 1, seating.tables, changes, entries)

    async def _seat(
        self,
        t: TournamentRow,
        number: int,
        tables: list[list[str]],
        changes: list[Change],
        entries: dict[str, EntryRow],
    ) -> None:
        planned = [(secrets.token_urlsafe(9), seats) for seats in tables]
        await self.store.tournaments.plan_round(t.id, number, planned, changes, self.clock())
        t.round = number
        for table_id, seats in planned:
            await self._make_table(t, table_id, seats, entries)

    async def _make_table(
        self, t: TournamentRow, table_id: str, seats: list[str], entries: dict[str, EntryRow]
    ) -> None:
        """Make and start a tournament table with its entrants in their seats."""
        game = load_game(t.game, **{**t.options, "players": len(seats)})
        rows = []
        for p, key in enumerate(seats):
            e = entries[key]
            if e.bot is not None:
                rows.append(SeatRow(seat=p, kind="bot", bot=e.bot))
            else:
                rows.append(
                    SeatRow(
                        seat=p,
                        kind="human",
                        name=e.name,
                        token_hash=hash_token(secrets.token_urlsafe(24)),
                        user_id=e.user_id,
                        bot_account=e.bot_account,
                    )
                )
        now = self.clock()
        row = TableRow(
            id=table_id,
            game=game.info.name,
            options=game.options_dict(),
            seed=secrets.randbits(63),
            clock=t.clock,
            status="playing",
            rules_version=game.info.version,
            seats=rows,
            rated=t.rated,
            turn_at=now,
        )
        await self.open_table(row, game)

    async def _score(self, t: TournamentRow, g: GameRow, entries: dict[str, EntryRow]) -> None:
        """Score a table over: its entrants' points, games, streaks and absences."""
        ranks, own = await table_outcome(self.store, g.table_id)
        points = place_points(ranks) if len(ranks) == len(g.seats) else [0.0] * len(g.seats)
        changes = []
        scored = []
        for p, key in enumerate(g.seats):
            e = entries[key]
            absent = e.user_id is not None and p not in own
            got = points[p]
            streak: int | None = None
            if t.kind == "arena":
                won = bool(ranks) and ranks[p] == 0
                got, streak = arena_points(got, won, e.streak)
            scored.append(got)
            changes.append(
                Change(
                    key,
                    score=got,
                    games=1,
                    streak=streak,
                    absences=1 if absent else 0,
                    paused=True if absent else None,
                )
            )
        await self.store.tournaments.score(t.id, g.table_id, scored, changes)

    # ------------------------------------------------------------------ arena

    async def _arena(
        self, t: TournamentRow, games: list[GameRow], entries: dict[str, EntryRow]
    ) -> None:
        busy = {key for g in games if g.points is None for key in g.seats}
        over = t.ends_at is not None and self.clock() >= t.ends_at
        if over:
            if not busy:
                await self._finish(t, games, entries)
            return
        waiting = [
            Entrant(e.entrant, e.score)
            for e in entries.values()
            if not e.withdrawn and not e.paused and e.entrant not in busy
        ]
        last: dict[str, set[str]] = {}
        for g in games:  # in the order played: each entrant's latest game wins
            for key in g.seats:
                last[key] = set(g.seats) - {key}
        tables = arena_tables(waiting, t.table_size, last)
        if tables:
            await self._seat(t, t.round + 1, tables, [], entries)

    # ------------------------------------------------------------------ the end

    async def _finish(
        self, t: TournamentRow, games: list[GameRow], entries: dict[str, EntryRow]
    ) -> None:
        places = {s.entry.entrant: s.place for s in standings(list(entries.values()), games)}
        await self.store.tournaments.finish(t.id, places, self.clock())
        log.info("tournament %s finished after %d rounds", t.id, t.round)


def summary(t: TournamentRow, entrants: int) -> dict[str, Any]:
    """A tournament as lists show it."""
    return {
        "id": t.id,
        "kind": t.kind,
        "name": t.name,
        "game": t.game,
        "options": t.options,
        "table_size": t.table_size,
        "rounds": t.rounds,
        "minutes": t.minutes,
        "clock": t.clock,
        "rated": t.rated,
        "bots": t.bots,
        "bot_accounts": t.bot_accounts,
        "status": t.status,
        "round": t.round,
        "starts_at": t.starts_at.isoformat(),
        "round_at": None if t.round_at is None else t.round_at.isoformat(),
        "ends_at": None if t.ends_at is None else t.ends_at.isoformat(),
        "finished_at": None if t.finished_at is None else t.finished_at.isoformat(),
        "entrants": entrants,
    }
