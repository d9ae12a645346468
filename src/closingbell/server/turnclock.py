"""The turn clock of a real-time live table: armed while the person to move is away."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from closingbell.server.logs import table_context
from closingbell.server.tablebase import TableBase


class TurnClock:
    """A real-time table's turn clock: a bot stands in for a player away too long."""

    def __init__(self, table: TableBase, ran_out: Callable[[], None]) -> None:
        self.table = table
        """The table."""
        self.ran_out = ran_out
        """Called when the clock runs out (disarmed by then)."""
        self.timer: asyncio.TimerHandle | None = None
        """The armed clock, if any."""

    def disarm(self) -> None:
        """Stop the clock."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def arm(self) -> None:
        """Arm the clock for the seat to move if it is a person away, disarming it first."""
        table = self.table
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if table.clock is None or table.status != "playing":
            return
        seat = table.state.current_player
        if seat is None:
            return
        s = table.seats[seat]
        if s.kind != "human" or s.present > 0 or s.stand_in:
            return
        deadline = max(s.away_since, table.turn_since) + table.clock
        self.timer = asyncio.get_running_loop().call_at(
            deadline, self._ran_out, context=table_context(table.id)
        )

    def _ran_out(self) -> None:
        self.timer = None
        self.ran_out()
