"""Who sits with whom in a tournament, and what a game is worth: pure functions, no storage.

Entrants are named by keys (``user:<id>`` or ``bot:<level>:<n>``). A table seats 2 to 6.

- **Table sizes.** A round seats its entrants at tables of the tournament's size where it
  can, the tables' sizes as even as possible (10 entrants at tables of 4: 4, 3 and 3); at
  tables of 2, an odd one out sits out the round with a bye.
- **Swiss.** Entrants are ranked by score (then rating, then key) and seated from the top,
  each table with the best-ranked entrants left who have not met at a table before: a
  search finds tables with no repeat when there are any (a search bounded in steps; past
  it, and when every way repeats, the fewest repeats found).
- **Arena.** Whoever waits is seated as soon as a table can be made, by score, avoiding the
  last opponents where it can.
- **Points.** A game gives each seat its share of the others it finished ahead of (a tie
  counts half): 1 for first of any table, 0 for last, between for the rest; an arena doubles
  that, and doubles it again for an entrant on a streak of two wins or more.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

SEARCH_STEPS = 20_000
"""The most seatings the Swiss search tries before taking the best found."""

BYE_POINTS = 1.0
"""A Swiss bye's points: a whole game's, as a win (the odd one out is not to blame)."""

STREAK = 2
"""Arena wins in a row after which a win counts double."""


@dataclass(frozen=True)
class Entrant:
    """An entrant as pairing sees it."""

    key: str
    """Its key."""
    score: float = 0.0
    """Its points so far."""
    rating: float = 0.0
    """Its displayed rating in the game (orders entrants with equal scores)."""


def table_sizes(count: int, size: int) -> list[int]:
    """The sizes of the tables for ``count`` entrants at tables of ``size`` (largest first).

    At tables of 2 the odd one out is not seated (:func:`swiss_round` gives a bye).
    """
    if not 2 <= size <= 6:
        raise ValueError(f"a table seats 2 to 6, not {size}")
    if count < 2:
        return []
    if size == 2:
        return [2] * (count // 2)
    tables = math.ceil(count / size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def ranked(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Best first: by score, then rating, then key (so the order never depends on chance)."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.key))


def pairs(tables: Iterable[Sequence[str]]) -> set[frozenset[str]]:
    """Every two entrants who sat at one of ``tables``."""
    return {frozenset(p) for table in tables for p in combinations(table, 2)}


@dataclass(frozen=True)
class Round:
    """A round's seating."""

    tables: list[list[str]]
    """Each table's entrants, in seat order."""
    bye: str | None
    """The entrant who sits the round out with a bye (tables of 2, an odd number)."""
    repeats: int
    """Pairs of entrants seated together who had met before (0 when it could be avoided)."""


def swiss_round(
    entrants: Sequence[Entrant], size: int, met: set[frozenset[str]], byes: set[str]
) -> Round:
    """The next Swiss round of ``entrants`` (those playing it) at tables of ``size``.

    ``met`` holds every two entrants who have shared a table, ``byes`` those who have had
    a bye: the bye goes to the lowest-ranked entrant without one.
    """
    order = ranked(entrants)
    bye = None
    if size == 2 and len(order) % 2 == 1:
        bye = next((e.key for e in reversed(order) if e.key not in byes), order[-1].key)
        order = [e for e in order if e.key != bye]
    sizes = table_sizes(len(order), size)
    keys = [e.key for e in order]
    best = _seat(keys, sizes, met)
    return Round(tables=best[1], bye=bye, repeats=best[0])


def _seat(
    keys: list[str], sizes: list[int], met: set[frozenset[str]]
) -> tuple[int, list[list[str]]]:
    """Tables of ``sizes`` for ``keys`` (best first) with the fewest repeats: (repeats, tables)."""
    best: tuple[int, list[list[str]]] | None = None
    steps = 0

    def clash(key: str, table: list[str]) -> int:
        return sum(1 for other in table if frozenset((key, other)) in met)

    def fill(left: list[str], t: int, table: list[str], done: list[list[str]], cost: int) -> bool:
        """Depth first, best-ranked first; True once a seating with no repeat is found."""
        nonlocal best, steps
        steps += 1
        if best is not None and cost >= best[0]:
            return False
        if t == len(sizes):
            best = (cost, [list(x) for x in done])
            return cost == 0
        if len(table) == sizes[t]:
            return fill(left, t + 1, [], [*done, table], cost)
        if steps > SEARCH_STEPS and best is not None:
            return True  # enough looking: keep the best found
        # A table starts with the best-ranked entrant left; then the candidates who met
        # nobody there yet, in rank order, before the others.
        if not table:
            tries = [(0, 0, left[0])]
        else:
            tries = sorted((clash(key, table), i, key) for i, key in enumerate(left))
        for extra, i, key in tries:
            if fill(left[:i] + left[i + 1 :], t, [*table, key], done, cost + extra):
                return True
        return False

    fill(keys, 0, [], [], 0)
    assert best is not None
    return best


def arena_tables(
    waiting: Sequence[Entrant], size: int, last: dict[str, set[str]]
) -> list[list[str]]:
    """Tables for the arena entrants ``waiting`` now: full tables of ``size`` only, by score.

    ``last`` holds each entrant's opponents of its last game, not seated with it again
    where another waiting entrant can take the place. Those left over wait for others.
    """
    order = [e.key for e in ranked(waiting)]
    tables: list[list[str]] = []
    while len(order) >= size:
        table = [order.pop(0)]
        while len(table) < size:
            fresh = next(
                (k for k in order if not any(k in last.get(t, set()) for t in table)), order[0]
            )
            order.remove(fresh)
            table.append(fresh)
        tables.append(table)
    return tables


def place_points(ranks: Sequence[int]) -> list[float]:
    """Each seat's share of the others it finished ahead of (ties half): from 0 to 1.

    ``ranks`` are the seats' places (0 first; seats tied share a place), as
    :func:`closingbell.server.ratings.ranks` gives them.
    """
    n = len(ranks)
    if n < 2:
        return [1.0] * n
    out = []
    for p, mine in enumerate(ranks):
        ahead = sum(1 for q, other in enumerate(ranks) if q != p and other > mine)
        tied = sum(1 for q, other in enumerate(ranks) if q != p and other == mine)
        out.append((ahead + tied / 2) / (n - 1))
    return out


def arena_points(points: float, won: bool, streak: int) -> tuple[float, int]:
    """An arena game's points from its place points, and the entrant's streak after it.

    ``streak`` counts the entrant's wins in a row before this game; a win on a streak of
    :data:`STREAK` or more counts double.
    """
    scored = 2 * points
    if won and streak >= STREAK:
        scored *= 2
    return scored, (streak + 1 if won else 0)
