"""``closingbell analyze FILE --seat N``: review one seat's decisions in a game record.

For every decision of seat ``N`` (from 1) that had a choice, the analysis of
:mod:`closingbell.bots.analysis` values each legal action from that seat's view, with a
budget of worlds (not seconds: the same seed gives the same review on every machine). It
prints, decision by decision, the action taken, the one the analysis prefers, the seat's
chance of winning after each, and marks as a mistake an action whose cost is clearly
beyond chance. ``--json`` prints the same as one JSON object (docs/records.md, "Reviews");
``--plot FILE`` draws the seat's chance of winning through the game, mistakes marked, as
a PNG. A mistake comes with a sentence, from the game's narrator, that says in the game's
terms why the preferred action is better and what the choice cost (``--lang`` chooses
its language, as the labels'). Progress and the time left go to standard error. The review
itself is :func:`closingbell.text.review.review`, which the web server's reviews share.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from closingbell.core.errors import RecordError
from closingbell.core.records import GameRecord
from closingbell.text.i18n import LANGS
from closingbell.text.review import review

__all__ = ["add_parser", "review", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``analyze`` subcommand to the ``closingbell`` parser."""
    parser = subparsers.add_parser(
        "analyze",
        help="review one seat's decisions in a game record",
        description=(
            "Value every legal action of each decision of one seat in a game record "
            "(docs/records.md) from what that seat could see, and mark the mistakes."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the record file (.cbrec)")
    parser.add_argument("--seat", type=int, required=True, help="the seat to review, from 1")
    parser.add_argument(
        "--budget", type=int, default=64, metavar="WORLDS", help="worlds per decision (64)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the analysis's seed (0)")
    parser.add_argument(
        "--lang", choices=list(LANGS), default="en", help="language of the labels and reasons (en)"
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--plot", metavar="PNG", help="draw the chance of winning to this file")
    parser.set_defaults(run=run)


def _plot(found: dict[str, Any], path: str) -> None:
    import matplotlib  # noqa: PLC0415 (the sim extra)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    xs = list(range(1, len(found["decisions"]) + 1))
    ys = [d["taken"]["win"] for d in found["decisions"]]
    fig, ax = plt.subplots(figsize=(9, 3.5), dpi=100)
    ax.plot(xs, ys, color="#0b6e4f", label="chance of winning after the decision")
    marked = [(x, y) for x, y, d in zip(xs, ys, found["decisions"], strict=True) if d["mistake"]]
    if marked:
        ax.scatter(*zip(*marked, strict=True), color="#b3261e", zorder=3, label="mistake")
    ax.set_ylim(0, 1)
    ax.set_xlabel("decision")
    ax.set_ylabel("chance of winning")
    ax.set_title(f"{found['name']} (seat {found['seat']}), {found['game']}")
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _worth(value: dict[str, Any]) -> str:
    return f"margin {value['margin']:+.1f}, wins {value['win']:.0%}"


def run(args: argparse.Namespace) -> int:
    """Review ``args.file`` for ``args.seat``; 0 on success, 1 for a bad record, 2 bad use."""
    try:
        record = GameRecord.read(args.file)
        record.start()
    except RecordError as exc:
        print(f"closingbell analyze: {args.file}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(
            f"closingbell analyze: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr
        )
        return 1
    players = len(record.seats)
    if not 1 <= args.seat <= players:
        print(f"closingbell analyze: --seat is 1 to {players} for this game", file=sys.stderr)
        return 2
    if args.budget < 2:
        print(
            "closingbell analyze: --budget is at least 2 worlds (one world gives no interval)",
            file=sys.stderr,
        )
        return 2

    def progress(done: int, total: int, left: float) -> None:
        print(f"\rdecision {done}/{total}, about {left:.0f} s left ", end="", file=sys.stderr)

    if args.plot:
        try:
            import matplotlib  # noqa: F401, PLC0415 (the sim extra)
        except ImportError:
            print(
                "closingbell analyze: --plot needs matplotlib: install closingbell[sim]",
                file=sys.stderr,
            )
            return 2
    found = review(record, args.seat - 1, args.budget, args.seed, progress, lang=args.lang)
    print(file=sys.stderr)
    if args.plot:
        _plot(found, args.plot)
    if args.json:
        print(json.dumps(found, ensure_ascii=False))
        return 0
    print(f"{found['name']}, seat {found['seat']} of {found['game']}: {found['mistakes']} mistakes")
    for d in found["decisions"]:
        mark = "MISTAKE " if d["mistake"] else ""
        line = f"{d['index'] + 1:>4}. {mark}{d['taken']['label']} ({_worth(d['taken'])})"
        if d["best"]["action"] != d["taken"]["action"]:
            line += f"; preferred: {d['best']['label']} ({_worth(d['best'])})"
        print(line)
        if "reason" in d:
            print(f"      {d['reason']}")
    return 0
