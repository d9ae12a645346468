"""The bots of a live table: who plays for a seat, their pace, and the task that plays them.

Only the server that runs the table (its lease holder) plays them; a bot thinks during its
pause, in the bots' helper processes (``server.thinking``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Literal

from closingbell.bots import Bot, make_bot
from closingbell.core.rng import digest_seed
from closingbell.core.view import View
from closingbell.server.errors import WebError
from closingbell.server.logs import TABLES_LOG, table_context
from closingbell.server.protocol import ErrorCode
from closingbell.server.settings import Settings
from closingbell.server.tablebase import TableBase

log = logging.getLogger(TABLES_LOG)


STAND_IN_BOT = "medium"
"""The bot that plays for a player whose turn clock ran out while away, and that decides
once for a seat of a game over days whose time per move ran out."""


def bot_seed(seed: int, seat: int, role: str = "bot") -> int:
    """The seed of the bot in ``seat`` (a ``role``) at a table dealt with ``seed``.

    Used only by servers that take seeds (``Settings.allow_seed``): a SHA-256 digest, so
    the bots' own draws say nothing of the deal's shuffles.
    """
    return digest_seed(role, seed, seat)


def bot_pause(settings: Settings, first: bool, elapsed: float) -> float:
    """Seconds a bot waits before a decision, thinking meanwhile.

    ``first``: the decision begins the bot's turn, which waits ``bot_delay``; a following
    decision of the same turn waits ``bot_step_delay``, at most half of what is left of
    ``bot_turn`` after ``elapsed`` seconds of the turn, so that however many decisions a
    turn has, each is seen and the whole turn takes ``bot_turn`` at most.
    """
    if first:
        return max(0.0, settings.bot_delay)
    left = max(0.0, settings.bot_turn - elapsed)
    return max(0.0, min(settings.bot_step_delay, settings.bot_delay, left / 2))


class BotDriver:
    """Plays the bots' moves at a table (and stand-ins' for absent players)."""

    def __init__(self, table: TableBase) -> None:
        self.table = table
        """The table."""
        self.bots: dict[int, Bot] = (
            table.tutor.bots
            if table.tutor is not None
            else {
                p: make_bot(s.bot or "", table.game, seed=self.seed_for(p))
                for p, s in enumerate(table.seats)
                if s.kind == "bot"
            }
        )
        """The seated bots, by seat (a guided first game's are its tutor's)."""
        self.stand_ins: dict[int, Bot] = {}
        """The bots standing in for absent players, by seat, made on first use."""
        self.task: asyncio.Task[None] | None = None
        """The task playing the bots' moves, if one was started."""

    @property
    def running(self) -> bool:
        """Whether the bots' moves are being played."""
        return self.task is not None and not self.task.done()

    def wake(self) -> None:
        """Start playing the bots' moves if a bot must move and none are being played."""
        table = self.table
        bot_moves = self.controller(table.state.current_player) is not None
        if table.status == "playing" and bot_moves and not self.running:
            # In a context of the table's own: its log lines carry the table, not the
            # request that happened to wake the bot.
            self.task = asyncio.create_task(self._drive(), context=table_context(table.id))

    def seed_for(self, seat: int, role: str = "bot") -> int:
        """The seed of the bot in ``seat``: random, or from the deal if the server takes seeds."""
        if self.table.hub.settings.allow_seed:
            return bot_seed(self.table.seed, seat, role)
        return secrets.randbits(63)

    def controller(self, seat: int | None) -> tuple[Bot, Literal["bot", "stand_in"]] | None:
        """The bot that decides for ``seat`` now, and as what; ``None`` when a person does."""
        table = self.table
        if seat is None:
            return None
        if seat in self.bots:
            return self.bots[seat], "bot"
        if table.seats[seat].stand_in or (seat == table.state.current_player and table.overdue()):
            bot = self.stand_ins.get(seat)
            if bot is None:
                bot = make_bot(STAND_IN_BOT, table.game, seed=self.seed_for(seat, "stand-in"))
                self.stand_ins[seat] = bot
            return bot, "stand_in"
        return None

    def _keep(self, seat: int, before: Bot, after: Bot) -> None:
        """Put ``after`` (the bot as a helper process left it) where ``before`` was."""
        for bots in (self.bots, self.stand_ins):
            if bots.get(seat) is before:
                bots[seat] = after

    async def _drive(self) -> None:
        """Play bots' moves (and stand-ins') until a person must decide."""
        table = self.table
        while True:
            async with table.lock:
                seat = table.state.current_player
                playing = table.status == "playing" and table.owner
                found = self.controller(seat) if playing else None
                if found is None or seat is None:
                    return
                bot, by = found
                if by == "bot" and table.tutor is not None:
                    bot = table.tutor.ready(seat, table.version)  # as the tutorial's bots choose
                view = table.state.view(seat)
                version = table.version
                # A decision long overdue is made at once: the player coming back finds it.
                pause = 0.0
                if not table.overdue():
                    first = table.last_action is None or table.last_action.seat != seat
                    elapsed = asyncio.get_running_loop().time() - table.turn_since
                    pause = bot_pause(table.hub.settings, first, elapsed)
            # The bot thinks during the pause: a search that takes longer adds no pause.
            thinking = asyncio.ensure_future(self._think(bot, view))
            try:
                if pause > 0:
                    await table.hub.sleep(pause)
                action, thought, took = await thinking
            except asyncio.CancelledError:
                thinking.cancel()
                raise
            except Exception:
                log.exception("table %s: bot of seat %s failed", table.id, seat)
                return
            name = table.seats[seat].bot if by == "bot" else STAND_IN_BOT
            table.hub.metrics.thought(name or "", took)
            async with table.lock:
                self._keep(seat, bot, thought)
                if table.version != version or self.controller(seat) is None:
                    continue
                try:
                    await table.commit(seat, action, by)
                except WebError as exc:
                    if exc.code == ErrorCode.STALE_VERSION:
                        continue  # another server's action came first: think again
                    log.error("table %s: bot move refused: %s", table.id, exc.message)
                    return

    async def _think(self, bot: Bot, view: View) -> tuple[int, Bot, float]:
        """The bot's action, the bot to keep, and the seconds it took to choose."""
        started = time.perf_counter()
        action, thought = await self.table.hub.bots.choose(bot, view, self.table.asker)
        return action, thought, time.perf_counter() - started
