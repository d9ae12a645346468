"""What one simulated game is: its task (who sits where, with which seeds) and its result.

A :class:`Plan` numbers the games of a match or tournament. Games are dealt in *deals*: each
deal is played once per table and, at each table, once per rotation of the table's seat
list, all with the same deal seed, so that seat advantage and the luck of the cards cancel
between the bots. Game ``index`` is deal-major::

    index = (deal * tables + table) * rotations + rotation

so the numbering never depends on how many games are asked for, and a run can be extended
or resumed. The deal seed follows from (seed, deal) only and each seat's bot seed from
(seed, index, seat) only: results never depend on the workers or the backend that played them.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import closingbell
from closingbell import native
from closingbell.bots import Bot
from closingbell.core.game import Game
from closingbell.core.rng import derive_rng, fresh_seed
from closingbell.sim.specs import parse_spec


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a run seeded ``seed``."""
    return fresh_seed(derive_rng(seed, "sim-deal", deal))


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in game ``index`` of a run seeded ``seed``."""
    return fresh_seed(derive_rng(seed, "sim-bot", index, seat))


def options_key(options: Mapping[str, Any]) -> str:
    """The rules options (besides ``players``) as compact, sorted JSON."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game; plain, picklable data."""

    index: int
    """The game's number in its run."""
    game: str
    """The registered name of the game."""
    options: str
    """The rules options besides ``players``, as JSON (see :func:`options_key`)."""
    table: int
    """The table (bot combination) of a tournament; 0 in a match."""
    deal: int
    """The deal number; the rotations of a deal share its seed."""
    rotation: int
    """The rotation of the table's seat list: its bot ``i`` sits at seat ``i + rotation``."""
    deal_seed: int
    """The seed the game is dealt from."""
    bots: tuple[str, ...]
    """The bot spec at each seat."""
    bot_seeds: tuple[int, ...]
    """The seed of each seat's bot."""
    engine: str = "auto"
    """The engine the game and the bots run on (``closingbell.native``); every engine
    plays the same game, so the result never depends on it."""


@dataclass(frozen=True)
class GameResult:
    """How one game ended, and what it took."""

    index: int
    """The game's number in its run."""
    game: str
    """The registered name of the game."""
    options: str
    """The rules options besides ``players``, as JSON."""
    table: int
    """The table of a tournament; 0 in a match."""
    deal: int
    """The deal number."""
    rotation: int
    """How far the table's seat list was rotated."""
    deal_seed: int
    """The seed the game was dealt from."""
    bots: tuple[str, ...]
    """The bot spec at each seat."""
    scores: tuple[int, ...]
    """Each seat's final score."""
    wins: tuple[float, ...]
    """Each seat's share of the win: 1 for a sole winner, 1/k for each of k sharing first place."""
    rounds: int = 0
    """Rounds played (Take Stock); 0 for a game without rounds."""
    length: int = 0
    """Decisions taken in the game."""
    duration: float = field(default=0.0, compare=False)
    """Wall-clock seconds the game took (never compared: it depends on the machine)."""
    facts: str = ""
    """What happened in the game, as compact JSON (:func:`game_facts`); empty when the
    results file that held the game was written before facts were recorded."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.bots)


@functools.lru_cache(maxsize=16)
def _load(name: str, players: int, options: str) -> Game:
    return closingbell.load_game(name, players=players, **json.loads(options))


@functools.lru_cache(maxsize=64)
def _spec(text: str) -> Any:
    return parse_spec(text)


def win_shares(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """Each seat's share of the win when ``winners`` share first place."""
    share = 1.0 / len(winners) if winners else 0.0
    return tuple(share if seat in winners else 0.0 for seat in range(players))


def game_facts(state: Any, first: int | None) -> dict[str, int]:
    """What happened in a finished game, counted from its log: plain data for studies.

    Each kind of logged event is counted under its name (``"levy"``, ``"bankrupt"``,
    ``"round_end"``...). An event with a ``reason`` field is also counted under
    ``"<kind>:<reason>"`` (``"round_end:market_closed"``). ``"first_seat"`` is the seat that
    made the game's first decision.
    """
    fields: Mapping[str, Sequence[str]] = getattr(state, "EVENT_FIELDS", {})
    reasons = {
        kind: names.index("reason") + 1 for kind, names in fields.items() if "reason" in names
    }
    counts: dict[str, int] = {}
    for entry in state.log:
        event = entry[1]
        kind = event[0]
        counts[kind] = counts.get(kind, 0) + 1
        at = reasons.get(kind)
        if at is not None:
            key = f"{kind}:{event[at]}"
            counts[key] = counts.get(key, 0) + 1
    counts["first_seat"] = -1 if first is None else first
    return dict(sorted(counts.items()))


def facts_of(result: GameResult) -> dict[str, int]:
    """A result's :attr:`GameResult.facts` as a dict (empty when it holds none)."""
    if not result.facts:
        return {}
    data: dict[str, int] = json.loads(result.facts)
    return data


def play_game(task: GameTask) -> GameResult:
    """Play ``task`` to the end with fresh bots and return its result."""
    start = time.perf_counter()
    players = len(task.bots)
    game = _load(task.game, players, task.options)
    bots = [
        _spec(text).make(game, seed, task.engine)
        for text, seed in zip(task.bots, task.bot_seeds, strict=True)
    ]
    state = native.new_game(game, task.deal_seed, task.engine)
    first = play_to_end(state, bots)
    return result_of(task, state, first, time.perf_counter() - start)


def play_to_end(state: Any, bots: Sequence[Bot]) -> int | None:
    """Let each seat's bot decide from its view until the game ends; the first to decide."""
    first: int | None = state.current_player
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat)))
    return first


def result_of(task: GameTask, state: Any, first: int | None, seconds: float) -> GameResult:
    """The result of ``task``, played to its end in ``state`` in ``seconds``.

    ``first`` is the seat that made the game's first decision.
    """
    players = len(task.bots)
    round_results = getattr(state, "round_results", None)
    return GameResult(
        index=task.index,
        game=task.game,
        options=task.options,
        table=task.table,
        deal=task.deal,
        rotation=task.rotation,
        deal_seed=task.deal_seed,
        bots=task.bots,
        scores=tuple(state.scores()),
        wins=win_shares(state.winners(), players),
        rounds=len(round_results()) if callable(round_results) else 0,
        length=len(state.history),
        duration=seconds,
        facts=json.dumps(game_facts(state, first), separators=(",", ":")),
    )


def play_batch(tasks: Sequence[GameTask]) -> list[GameResult]:
    """Play several tasks in order (one unit of work for a worker process or a Ray task)."""
    return [play_game(task) for task in tasks]


@dataclass(frozen=True)
class Plan:
    """The games of a match or tournament: tables, rotations, deals and seeds."""

    game: str
    """The registered name of the game."""
    options: str
    """The rules options besides ``players``, as JSON."""
    tables: tuple[tuple[str, ...], ...]
    """Each table's seat list of bot specs (one table in a match)."""
    seed: int
    """The run's seed, from which every deal and bot seed is derived."""
    deals: int
    """How many deals are played at every table."""
    rotate: bool = True
    """Whether each deal is played once per rotation of the seat list. A table of one
    bot at every seat plays each deal once: its rotations would be the same game."""

    @property
    def players(self) -> int:
        """Seats at every table."""
        return len(self.tables[0])

    @property
    def rotations(self) -> int:
        """Rotations of the seat list played per deal and table."""
        return self.players if self.rotate else 1

    @property
    def games(self) -> int:
        """Games in the whole plan."""
        return self.deals * len(self.tables) * self.rotations

    def task(self, index: int) -> GameTask:
        """The task of game ``index``."""
        rotations = self.rotations
        deal, rest = divmod(index, len(self.tables) * rotations)
        table, rotation = divmod(rest, rotations)
        seats = self.tables[table]
        n = len(seats)
        bots = tuple(seats[(seat - rotation) % n] for seat in range(n))
        return GameTask(
            index=index,
            game=self.game,
            options=self.options,
            table=table,
            deal=deal,
            rotation=rotation,
            deal_seed=deal_seed(self.seed, deal),
            bots=bots,
            bot_seeds=tuple(bot_seed(self.seed, index, seat) for seat in range(n)),
        )
