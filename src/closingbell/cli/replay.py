"""``closingbell replay FILE``: check a game record action by action and show its scores.

Every action is replayed through the rules engine, which checks that the right seat
acts and that the action is legal; a recorded result is compared with the replay's.
The scores are printed round by round as the replay reaches the end of each round. A
bad record prints ``FILE:LINE: reason`` on standard error and exits with status 1; so
does one past the limits of ``docs/records.md`` (size, line length, nesting), which is
refused at the first line past them without being read whole. A record that starts from
a position is replayed from it, and the position is shown.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from closingbell.core.errors import RecordError
from closingbell.core.game import State
from closingbell.core.records import GameRecord, replay_iter, round_end_reasons, round_results


def add_parser(subparsers: Any) -> None:
    """Add the ``replay`` subcommand to the ``closingbell`` parser."""
    parser = subparsers.add_parser(
        "replay",
        help="check a game record and print its scores round by round",
        description=(
            "Replay a game record (docs/records.md), checking every action, and print "
            "each round's points, the running totals and the final result. A record that "
            "starts from a position (docs/positions.md) is replayed from that position."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the record file (.cbrec)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing unless the record is bad"
    )
    shown.add_argument(
        "--json", action="store_true", help="print the result as one JSON object instead"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file``; return 0 if every action and the result check out, else 1."""
    path: str = args.file
    try:
        record = GameRecord.read(path)
    except RecordError as exc:
        return _fail(path, exc)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        print(f"closingbell replay: cannot read {path}: {reason}", file=sys.stderr)
        return 1
    table = None if args.quiet or args.json else _Table(record)
    if table is not None:
        table.start()
    state: State | None = None
    try:
        for step in replay_iter(record):
            state = step.state
            if table is not None:
                table.update(state)
        if state is None:
            state = record.start()
    except RecordError as exc:
        sys.stdout.flush()
        return _fail(path, exc)
    if table is not None:
        table.finish(state)
    elif args.json:
        print(json.dumps(_summary(path, record, state), ensure_ascii=False))
    return 0


def _fail(path: str, exc: RecordError) -> int:
    where = path if exc.line is None else f"{path}:{exc.line}"
    print(f"{where}: {exc.reason}", file=sys.stderr)
    return 1


def _rounds(state: State) -> list[dict[str, Any]]:
    """Each scored round as ``{round, reason, points, totals}`` (empty without rounds)."""
    results = round_results(state) or []
    reasons = round_end_reasons(state) or []
    totals = [0] * state.game.players
    rows = []
    for number, points in enumerate(results, 1):
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        reason = reasons[number - 1] if number <= len(reasons) else None
        rows.append({"round": number, "reason": reason, "points": points, "totals": totals})
    return rows


def _summary(path: str, record: GameRecord, state: State) -> dict[str, Any]:
    over = state.is_terminal()
    return {
        "file": path,
        "game": record.game,
        "version": record.version,
        "seed": record.seed,
        "position": record.position,
        "seats": list(record.seats),
        "actions": len(record.actions),
        "over": over,
        "rounds": _rounds(state),
        "scores": state.scores(),
        "winners": state.winners() if over else None,
        "result_checked": record.result is not None,
    }


class _Table:
    """Prints the round-by-round table as the replay reaches the end of each round."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.printed = 0
        # Seats are numbered from 1 for people (the record's SEAT column counts from 0).
        self.heads = [f"{p + 1} {name}" for p, name in enumerate(record.seats)]
        self.width = max(13, *(len(h) for h in self.heads))

    def start(self) -> None:
        record = self.record
        n = len(record.seats)
        start = "from a position, seed" if record.position is not None else "seed"
        print(
            f"{record.game} (rules version {record.version}), {start} {record.seed}, "
            f"{n} seats, {len(record.actions)} actions"
        )
        if record.position is not None:
            print(f"position: {record.position}")

    def _row(self, first: str, second: str, cells: Sequence[str]) -> None:
        line = f"{first:>5}  {second:<14}" + "".join(f"  {c:>{self.width}}" for c in cells)
        print(line.rstrip())

    def update(self, state: State) -> None:
        results = round_results(state)
        if results is None or len(results) == self.printed:
            return
        if self.printed == 0:
            print()
            print("each cell: the round's points (running total)")
            self._row("round", "ended by", self.heads)
        for row in _rounds(state)[self.printed :]:
            reason = "-" if row["reason"] is None else str(row["reason"]).replace("_", " ")
            cells = [f"{p} ({t})" for p, t in zip(row["points"], row["totals"], strict=True)]
            self._row(str(row["round"]), reason, cells)
        self.printed = len(results)

    def finish(self, state: State) -> None:
        record = self.record
        seats = record.seats
        scores = state.scores()
        print()
        if not state.is_terminal():
            print(f"unfinished: the game is not over after {len(record.actions)} actions")
            shown = ", ".join(f"{seats[p]} {s}" for p, s in enumerate(scores))
            print(f"scores so far: {shown}")
            print("every action is legal")
            return
        shown = ", ".join(f"{seats[p]} {s}" for p, s in enumerate(scores))
        print(f"final scores: {shown}")
        winners = [f"{seats[p]} (seat {p + 1})" for p in state.winners()]
        label = "winner" if len(winners) == 1 else "winners (shared)"
        print(f"{label}: {', '.join(winners)}")
        if record.result is None:
            print("every action is legal; the record holds no result to compare")
        else:
            print("every action is legal and the recorded result matches")
