"""Hints at practice tables: a seat's decision analysed from its view, in the bots' helpers."""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy.exc import SQLAlchemyError

from closingbell.bots.analysis import ActionValue, DecisionAnalysis
from closingbell.bots.hints import hint
from closingbell.core.view import View
from closingbell.server import tableview
from closingbell.server.client import Connection
from closingbell.server.errors import WebError
from closingbell.server.logs import TABLES_LOG, table_context
from closingbell.server.protocol import AskHint, ErrorCode, HintMessage, HintValue
from closingbell.server.tablebase import TableBase
from closingbell.text.hints import hint_reason

log = logging.getLogger(TABLES_LOG)


class Hints:
    """Hints at a practice table: the analysis of the seat's decision, worked out once."""

    def __init__(self, table: TableBase) -> None:
        self.table = table
        """The table."""
        self._hint: tuple[int, asyncio.Task[DecisionAnalysis]] | None = None
        """The hint being worked out or last worked out, with the version it is for."""

    def practice(self, seat: int) -> bool:
        """Whether this is a practice table for ``seat``: unrated, and every other seat a bot's.

        A rated table is never one, even against bots only: a hint there would help a result
        that counts for ratings.
        """
        if self.table.rated:
            return False
        return all(s.kind == "bot" for p, s in enumerate(self.table.seats) if p != seat)

    async def ask(self, conn: Connection, message: AskHint) -> None:
        """Send ``conn`` the analysis of its seat's decision; raise :class:`WebError` if refused.

        Only at a practice table (:meth:`practice`, never a rated one), for the seat to
        decide, at the version the message names. The analysis
        (:func:`closingbell.bots.hints.hint`) reads that seat's view only, in the bots' helper
        processes, seeded by the table's seed and the version: asked again for the same
        decision, the same hint is sent without being worked out again. Before it is sent,
        the table records for good that hints were used (``hints_used``, stored first): its
        result changes no rating.
        """
        table = self.table
        async with table.lock:
            seat = conn.seat
            if seat is None:
                raise WebError(ErrorCode.SPECTATOR, "spectators are given no hints")
            if not self.practice(seat):
                raise WebError(
                    ErrorCode.NOT_PRACTICE,
                    "hints are given only at practice tables: unrated, and every other seat a "
                    "bot's",
                )
            await table.check_turn(seat, message.version)
            version = table.version
            view = table.state.view(seat)
            working = self._work(version, view)
        try:
            # Shielded: a connection that leaves does not stop the work others may share.
            found = await asyncio.shield(working)
        except Exception:
            log.exception("table %s: a hint could not be worked out", table.id)
            raise WebError(
                ErrorCode.SERVER_ERROR, "the hint could not be worked out (the log says why)"
            ) from None
        async with table.lock:
            if table.version != version:
                raise WebError(
                    ErrorCode.STALE_VERSION,
                    f"the game moved on to version {table.version} while the hint was worked out",
                )
            if not table.hints_used:
                try:
                    await table.hub.store.tables.use_hints(table.id)
                except SQLAlchemyError as exc:
                    log.exception("table %s: the use of hints was not stored", table.id)
                    raise WebError(
                        ErrorCode.SERVER_ERROR, f"no hint: its use could not be stored: {exc}"
                    ) from None
                table.hints_used = True
            conn.send(self.message(conn, view, found, version))

    def _work(self, version: int, view: View) -> asyncio.Task[DecisionAnalysis]:
        """The analysis of ``version``'s decision: the one under way or done, else a new one."""
        if self._hint is not None and self._hint[0] == version:
            task = self._hint[1]
            if not task.done() or (not task.cancelled() and task.exception() is None):
                return task
        task = asyncio.get_running_loop().create_task(
            self._work_out(view, version), context=table_context(self.table.id)
        )
        # Its failure is logged by whoever awaits it; none may be left (their connection
        # closed), so it is marked as seen here.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        self._hint = (version, task)
        return task

    async def _work_out(self, view: View, version: int) -> DecisionAnalysis:
        table = self.table
        started = time.perf_counter()
        found = await table.hub.bots.run(
            hint, table.game, view, table.seed, version, asker=table.asker
        )
        table.hub.metrics.hinted(table.game.info.name, time.perf_counter() - started)
        return found

    def message(
        self, conn: Connection, view: View, found: DecisionAnalysis, version: int
    ) -> HintMessage:
        """The ``hint`` message of ``found`` (the analysis of ``view``) in ``conn``'s words.

        Figures are rounded as ``closingbell analyze --json`` rounds them: margins to 3
        decimals, chances of winning to 4, their intervals kept within 0 and 1.
        """
        narrator = tableview.narrator_of(self.table, conn)

        def value(v: ActionValue) -> HintValue:
            return HintValue(
                id=v.action,
                text=self.table.game.action_to_string(v.action),
                label=None if narrator is None else narrator.describe_action(view, v.action),
                margin=round(v.margin.mean, 3),
                margin_interval=[round(v.margin.low, 3), round(v.margin.high, 3)],
                win=round(v.win.mean, 4),
                win_interval=[round(max(0.0, v.win.low), 4), round(min(1.0, v.win.high), 4)],
                behind=round(v.behind.mean, 3),
                behind_interval=[round(v.behind.low, 3), round(v.behind.high, 3)],
            )

        values = [value(v) for v in found.actions]
        return HintMessage(
            version=version,
            seat=found.seat,
            worlds=found.worlds,
            best=values[0],
            reason=None if narrator is None else hint_reason(narrator, view, found),
            actions=values,
        )

    def heard(self) -> None:
        """Another server recorded that a hint was taken here."""
        self.table.hints_used = True
