"""The rating maths: openskill's Plackett-Luce model over finished rated games.

Pure functions and plain data, used both by the live update (``server.store.ratings``, in
the transaction that stores a game's last action) and by ``closingbell ratings --rebuild``, so
that the two can never drift apart: the rebuild replays the stored results through the same
:class:`Ladder` the live updates went through, and gives the same figures to the last bit.

A player is ``user:<id>`` (an account), ``bot:<level>`` (a bot, by its level or kind) or
``None`` (a guest, never rated). Each rated player has one rating per game, starting at the
model's defaults (mu 25, sigma 25/3). A rated game needs two different rated players.

A bot that plays several seats of one table (two Medium bots) is entered once per seat,
each seat its own team with the level's rating as it was before the game; the level's new
rating is the mean of its seats' new ratings, and counts as one game (the way
``closingbell simulate`` rates bots, ``closingbell.sim.stats.ratings``). Rating only its
first seat would throw away what the other seats showed; the mean keeps them all and
leaves a bot that beat itself where it was, only surer.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The rating model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""

DEFAULT_MU: float = MODEL.mu
"""A new player's mu."""
DEFAULT_SIGMA: float = MODEL.sigma
"""A new player's sigma."""

PROVISIONAL_SIGMA = 7.0
"""A rating is provisional while its sigma is above this: about a player's first five rated
games (a new player's sigma is 25/3, about 8.3, and shrinks by some 0.2 a game)."""

STEP = dt.timedelta(microseconds=1)
"""How much later than a player's previous rated game a game is dated, at the least."""

Key = tuple[str, str]
"""A rating's key: (player, game)."""


def user_player(user_id: str) -> str:
    """The player of an account: ``user:<id>``."""
    return f"user:{user_id}"


def bot_player(level: str) -> str:
    """The player of a bot level or kind: ``bot:<level>``."""
    return f"bot:{level}"


def displayed(mu: float, sigma: float) -> float:
    """The rating shown to people and ranked by: ``mu - 3 * sigma`` (openskill's ordinal).

    It starts at 0 and rises as a player both wins and becomes better known.
    """
    return mu - 3 * sigma


def provisional(sigma: float) -> bool:
    """Whether a rating is still provisional: too unsure to be shown as a figure.

    Its displayed value (:func:`displayed`) starts at 0 and mostly falls below it after a
    first loss, which reads like a penalty; pages show such a rating as provisional.
    """
    return sigma > PROVISIONAL_SIGMA


def ranks(scores: Sequence[float], winners: Iterable[int]) -> list[int]:
    """Each seat's place (0: first): the winners first, then by score; ties share the better.

    Competition ranking: two seats tied for second both rank 1, the next ranks 3. The
    winners are the game's own (a tie-break such as Take Stock's ``final_tie`` may make a
    sole winner of two equal scores).
    """
    won = set(winners)
    keys = [(0 if seat in won else 1, -score) for seat, score in enumerate(scores)]
    return [sum(other < key for other in keys) for key in keys]


@dataclass(frozen=True)
class Finish:
    """What a game's last action leaves to store: each seat's result, and whether it rates."""

    game: str
    """The registered name of the game."""
    rated: bool
    """Whether the table counts for ratings."""
    players: tuple[str | None, ...]
    """Each seat's player (``user:<id>``, ``bot:<level>``, or ``None`` for a guest)."""
    scores: tuple[float, ...]
    """Each seat's final score."""
    ranks: tuple[int, ...]
    """Each seat's place (:func:`ranks`)."""

    def entries(self) -> list[tuple[str, int]]:
        """The (player, rank) of each rated seat, or nothing if the game changes no rating."""
        if not self.rated:
            return []
        return rated_entries(zip(self.players, self.ranks, strict=True))


def rated_entries(seats: Iterable[tuple[str | None, int]]) -> list[tuple[str, int]]:
    """The seats that are rated: those with a player, if there are two players at least."""
    found = [(player, rank) for player, rank in seats if player is not None]
    return found if len({player for player, _ in found}) >= 2 else []


@dataclass
class Standing:
    """A player's rating in one game."""

    mu: float
    """The mean of the skill's estimate."""
    sigma: float
    """Its standard deviation."""
    games: int = 0
    """Rated games played."""
    updated_at: dt.datetime | None = None
    """When the last of them ended (``None``: never rated)."""


@dataclass(frozen=True)
class Change:
    """A rating after a rated game (a ``rating_changes`` row)."""

    table_id: str
    """The table."""
    player: str
    """The player."""
    game: str
    """The game."""
    mu: float
    """Mu after the game."""
    sigma: float
    """Sigma after the game."""
    at: dt.datetime
    """When the game ended."""


class Ladder:
    """Ratings as they stand, changed game by game in the order the games are played.

    The live update fills it with the (locked) rows of the players of the games it stores;
    the rebuild starts it empty and plays every stored rated game in order.
    """

    def __init__(self, standings: Mapping[Key, Standing] | None = None) -> None:
        self.standings: dict[Key, Standing] = dict(standings or {})
        """Each (player, game)'s rating; missing players start at the defaults."""
        self.touched: set[Key] = set()
        """The ratings that changed."""

    def get(self, player: str, game: str) -> Standing:
        """The rating of ``player`` in ``game`` (the defaults for a new player)."""
        return self.standings.get((player, game)) or Standing(DEFAULT_MU, DEFAULT_SIGMA)

    def when(self, game: str, at: dt.datetime, players: Iterable[str]) -> dt.datetime:
        """When a game of ``players`` that ended at ``at`` is dated: after their last games.

        A game is never dated before (or with) an earlier rated game of one of its players,
        so that replaying the games by date (then table id) replays them in the order they
        were rated, whatever the servers' clocks did.
        """
        for player in players:
            last = self.get(player, game).updated_at
            if last is not None and at <= last:
                at = last + STEP
        return at

    def play(
        self, table_id: str, game: str, at: dt.datetime, entries: Sequence[tuple[str, int]]
    ) -> list[Change]:
        """Rate one game: ``entries`` are (player, rank) per rated seat; the changes made.

        ``at`` must come from :meth:`when`. Each seat is a team of one; a player seated
        several times takes the mean of its seats' new ratings (module docstring).
        """
        if not entries:
            return []
        teams = [[self._rating(player, game)] for player, _ in entries]
        rated = MODEL.rate(teams, ranks=[float(rank) for _, rank in entries])
        new: dict[str, list[tuple[float, float]]] = {}
        for (player, _), (rating,) in zip(entries, rated, strict=True):
            new.setdefault(player, []).append((rating.mu, rating.sigma))
        changes = []
        for player, values in new.items():
            before = self.get(player, game)
            mu = statistics.fmean(m for m, _ in values)
            sigma = statistics.fmean(s for _, s in values)
            self.standings[(player, game)] = Standing(mu, sigma, before.games + 1, at)
            self.touched.add((player, game))
            changes.append(Change(table_id, player, game, mu, sigma, at))
        return changes

    def _rating(self, player: str, game: str) -> Any:
        standing = self.get(player, game)
        return MODEL.rating(mu=standing.mu, sigma=standing.sigma)
