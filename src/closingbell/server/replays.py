"""Finished games' replays and records: worked out off the event loop, then kept.

A whole replay replays the game through the rules engine and turns a view into a dict at
every step: tens of milliseconds of CPU for a Take Stock game, which in the event loop
would hold up every other table for as long. The work runs in the bots' helper processes
(:class:`~closingbell.server.thinking.BotPool`; a thread when there are none), and its
result is kept as JSON text, one piece per step, in a cache bounded in bytes: a finished
game never changes, so asking again costs a lookup and a join. Requests for a replay
being worked out wait for that work instead of starting it again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from closingbell.core.game import Game, State
from closingbell.core.records import GameRecord, start_from_position
from closingbell.core.registry import load_game
from closingbell.text.games import narrator_for
from closingbell.text.names import seat_name

T = TypeVar("T")


@dataclass(frozen=True)
class FinishedGame:
    """What a finished game's replay and record are made from: plain data, sent to a helper."""

    table_id: str
    """The table's id."""
    game: str
    """The registered name of the game."""
    options: dict[str, Any]
    """Every rules option."""
    seed: int
    """The deal's seed."""
    history: tuple[int, ...]
    """The action ids, in order."""
    names: tuple[str | None, ...]
    """Each person's display name (``None`` for a bot's seat)."""
    seats: tuple[str, ...]
    """Each seat's name as the record gives it."""
    bots: tuple[str | None, ...] = ()
    """Each bot's level (``None`` for a person's seat), for its name in each language."""
    position: str | None = None
    """The position the game started from (its canonical text), or ``None``: the deal."""
    hinted: bool = False
    """Whether its player took a hint (the table's ``hints_used``)."""
    bot_accounts: tuple[bool, ...] = ()
    """Whether each seat's account is a bot account (its name is then marked)."""

    def start(self, played: Game) -> State:
        """The game's first state under ``played`` (its rules): the deal or the position."""
        if self.position is None:
            return played.new_game(self.seed)
        return start_from_position(played, self.position)

    def names_in(self, lang: str) -> list[str]:
        """Each seat's name in ``lang``.

        A person's own, a bot's level and seat ("Medium 2"), a bot account's marked ("BOT ana").
        """
        bots = self.bots or (None,) * len(self.names)
        marked = self.bot_accounts or (False,) * len(self.names)
        return [
            seat_name(p, lang, name=name, bot=bot, bot_account=mark)
            for p, (name, bot, mark) in enumerate(zip(self.names, bots, marked, strict=True))
        ]


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON text, as the web app answers."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def replay_steps(game: FinishedGame, lang: str | None, seat: int | None = None) -> list[bytes]:
    """Every step of the game as the public saw it (or ``seat``), each as JSON.

    Step 0 is the deal, or the position the game started from. With ``lang``, each step
    also has ``lines`` (its events in words) and its action a ``label``, in that language.
    With ``seat``, each step has that seat's view and the log entries it could read: the
    game is over, and its record, which holds every card, is public.
    """
    played = load_game(game.game, **game.options)
    narrator = None if lang is None else narrator_for(played, game.names_in(lang), lang)
    state = game.start(played)
    steps = []
    log_pos = 0
    for index in range(len(game.history) + 1):
        action: dict[str, Any] | None = None
        if index > 0:
            actor = state.current_player
            chosen = game.history[index - 1]
            action = {"seat": actor, "id": chosen, "text": state.action_to_string(chosen)}
            if narrator is not None and actor is not None:
                action["label"] = narrator.describe_action(state.view(actor), chosen)
            state.apply(chosen)
        events = state.visible_events(seat, log_pos)
        log_pos = len(state.log)
        step: dict[str, Any] = {
            "index": index,
            "action": action,
            "view": state.view(seat).to_dict(),
            "events": events,
        }
        if narrator is not None:
            step["lines"] = [narrator.describe_event(e) for e in events]
        steps.append(dumps(step))
    return steps


def replay_page(table_id: str, steps: list[bytes], start: int, limit: int) -> bytes:
    """The ``/replay`` answer for ``steps[start:start + limit]``, as JSON text."""
    head = dumps({"table_id": table_id, "total": len(steps), "start": start})
    return head[:-1] + b',"steps":[' + b",".join(steps[start : start + limit]) + b"]}"


def _played_out(game: FinishedGame) -> tuple[Game, State, list[dict[str, Any]]]:
    """``game`` replayed through the rules engine: its rules, final state and actions."""
    played = load_game(game.game, **game.options)
    state = game.start(played)
    actions = []
    for action in game.history:
        actions.append(
            {"seat": state.current_player, "id": action, "text": state.action_to_string(action)}
        )
        state.apply(action)
    return played, state, actions


def record_json(game: FinishedGame) -> bytes:
    """The ``/record`` answer: the record file's text and the same as data, as JSON text."""
    played, state, actions = _played_out(game)
    return dumps(
        {
            "game": played.info.name,
            "version": played.info.version,
            "options": played.options_dict(),
            "seed": game.seed,
            "position": game.position,
            "seats": list(game.seats),
            "actions": actions,
            "result": {"scores": state.scores(), "winners": state.winners()},
            "hinted": game.hinted,
            "record": _record(game, state).dumps(),
        }
    )


def record_text(game: FinishedGame) -> bytes:
    """The ``/record.cbrec`` answer: the record file itself (docs/records.md), UTF-8 text."""
    _, state, _ = _played_out(game)
    return _record(game, state).dumps().encode()


def _record(game: FinishedGame, state: State) -> GameRecord:
    """The record of ``game``, whose final state is ``state``."""
    record = GameRecord.from_state(state, seats=list(game.seats), position=game.position)
    return dataclasses.replace(record, hinted=game.hinted)


Runner = Callable[..., Any]
"""Runs ``work(*args)`` away from the event loop and returns its result (awaitable); an
``asker`` keyword (``server.thinking.Asker``) says whose work it is."""


class ReplayCache:
    """Finished games' replays and records, worked out by ``run`` and kept.

    At most ``limit`` bytes are kept; the least recently asked for go first.
    """

    def __init__(self, run: Runner, limit: int) -> None:
        self.limit = limit
        """The most bytes kept."""
        self.size = 0
        """Bytes kept now."""
        self._run = run
        self._kept: OrderedDict[tuple[str, ...], tuple[Any, int]] = OrderedDict()
        self._working: dict[tuple[str, ...], asyncio.Future[Any]] = {}

    async def steps(
        self, game: FinishedGame, lang: str | None, seat: int | None = None
    ) -> list[bytes]:
        """Every step of ``game``'s replay as JSON text (:func:`replay_steps`)."""
        key = (game.table_id, "replay", lang or "", "" if seat is None else str(seat))
        steps: list[bytes] = await self._get(key, replay_steps, game, lang, seat)
        return steps

    async def record(self, game: FinishedGame) -> bytes:
        """``game``'s record as JSON text (:func:`record_json`)."""
        record: bytes = await self._get((game.table_id, "record"), record_json, game)
        return record

    async def record_file(self, game: FinishedGame) -> bytes:
        """``game``'s record file as UTF-8 text (:func:`record_text`)."""
        text: bytes = await self._get((game.table_id, "cbrec"), record_text, game)
        return text

    def __len__(self) -> int:
        return len(self._kept)

    async def _get(self, key: tuple[str, ...], work: Callable[..., T], *args: Any) -> T:
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            value: T = kept[0]
            return value
        working = self._working.get(key)
        if working is None:
            working = asyncio.ensure_future(self._work(key, work, *args))
            self._working[key] = working
        # Shielded: one client giving up must not cancel the work others wait for.
        return await asyncio.shield(working)

    async def _work(self, key: tuple[str, ...], work: Callable[..., T], *args: Any) -> T:
        try:
            value: T = await self._run(work, *args)
        finally:
            del self._working[key]
        self._keep(key, value)
        return value

    def _keep(self, key: tuple[str, ...], value: Any) -> None:
        size = sum(map(len, value)) if isinstance(value, list) else len(value)
        if size > self.limit:
            return
        self._kept[key] = (value, size)
        self.size += size
        while self.size > self.limit:
            _, (_, dropped) = self._kept.popitem(last=False)
            self.size -= dropped
