"""The summary of a match or tournament as text tables for people."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def align_table(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows aligned in columns: the first left-aligned, the rest right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(interval: Sequence[float] | None, fmt: str) -> str:
    if interval is None:
        return "-"
    low, high = interval
    return f"[{fmt.format(low)}, {fmt.format(high)}]"


def _wins(w: float) -> str:
    return f"{w:,.0f}" if float(w).is_integer() else f"{w:,.2f}"


def format_summary(summary: dict[str, Any], heading: str | None = None) -> str:
    """The summary from :func:`closingbell.sim.summarize` as text (no trailing newline)."""
    lines = [] if heading is None else [heading, ""]
    bot_rows = [["bot", "games", "wins", "win rate", "95% CI", "mean score", "95% CI", "rating"]]
    for name, b in summary["bots"].items():
        rating = b.get("rating")
        bot_rows.append(
            [
                name,
                f"{b['games']:,}",
                _wins(b["wins"]),
                _pct(b["win_rate"]),
                _ci([100 * x for x in b["ci95"]], "{:.1f}"),
                f"{b['mean_score']:.1f}",
                _ci(b.get("score_ci95"), "{:.1f}"),
                f"{rating['mu']:.1f} +/- {rating['sigma']:.1f}" if rating else "-",
            ]
        )
    lines += align_table(bot_rows)
    lines += ["", f"Advantage by seat (an even share is {_pct(summary['even_win_rate'])}):"]
    seat_rows = [["seat", "games", "wins", "win rate", "95% CI", "mean score"]]
    for s in summary["seats"]:
        seat_rows.append(
            [
                f"seat {s['seat']}",
                f"{s['games']:,}",
                _wins(s["wins"]),
                _pct(s["win_rate"]),
                _ci([100 * x for x in s["ci95"]], "{:.1f}"),
                f"{s['mean_score']:.1f}",
            ]
        )
    lines += align_table(seat_rows)
    for t in summary.get("tables", []):
        if t is summary["tables"][0]:
            lines += ["", "Win rate at each table:"]
        shares = ", ".join(f"{bot} {_pct(r)}" for bot, r in t["win_rate"].items())
        lines.append(f"  {' v '.join(t['bots'])} ({t['games']:,} games): {shares}")
    length = summary["length"]
    rounds = f", {length['mean_rounds']:.2f} rounds" if length["mean_rounds"] else ""
    lines += [
        "",
        f"Game length: {length['mean']:.1f} decisions on average (min {length['min']}, "
        f"max {length['max']}){rounds}; {1000 * length['mean_seconds']:.1f} ms per game.",
        f"Ratings: openskill Plackett-Luce mu +/- sigma. {summary['intervals']}.",
    ]
    return "\n".join(lines)
