"""A study's figures as a report a player can read (``report.md``) and PNG charts.

Both read only the data :func:`closingbell.sim.study.analyze` returns (``study.json``), so a
report can be written again from a saved ``study.json`` without playing a game.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from closingbell.sim.plots import error_bars, figure_of

CHARTS = ("first_player.png", "skill.png", "length.png", "facts.png", "options.png")
"""The charts :func:`plot_study` writes."""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci_pct(ci: Sequence[float] | None) -> str:
    return "" if ci is None else f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _num(x: float, places: int = 1) -> str:
    return f"{x:,.{places}f}"


def _ci_num(ci: Sequence[float] | None, places: int = 1) -> str:
    return "" if ci is None else f"[{ci[0]:,.{places}f}, {ci[1]:,.{places}f}]"


def _signed(x: float, places: int = 1) -> str:
    return f"{x:+,.{places}f}"


def _place(i: int) -> str:
    return {0: "1st", 1: "2nd", 2: "3rd"}.get(i, f"{i + 1}th")


def _money(doc: dict[str, Any], x: float, places: int = 1) -> str:
    return f"${x:,.{places}f}" if doc["unit"] == "dollars" else f"{x:,.{places}f} points"


def _sure(ci: Sequence[float] | None) -> bool:
    """Whether a difference's interval leaves out zero."""
    return ci is not None and (ci[0] > 0 or ci[1] < 0)


def headlines(doc: dict[str, Any]) -> list[str]:
    """The study's main findings, one paragraph each."""
    out = []
    fields = doc["field"]
    shares = []
    edges = []
    for n, f in fields.items():
        place = f["by_place"][0]
        low, high = place["ci95"]
        shares.append(f"{n} players {_pct(place['rate'])} {_ci_pct(place['ci95'])}")
        if low > f["even"]:
            edges.append(f"an edge at {n} players (fair: {_pct(f['even'])})")
        elif high < f["even"]:
            edges.append(f"a handicap at {n} players (fair: {_pct(f['even'])})")
    verdict = (
        "Going first is " + " and ".join(edges)
        if edges
        else "No table size shows a clear edge or handicap for going first"
    )
    out.append(
        "**Going first.** The first player's share of the wins: "
        + ", ".join(shares)
        + f". {verdict}."
    )
    strong = doc["field_bot"]
    parts = []
    for level in reversed(doc["weaker"]):
        rates = [f"{_pct(levels[level]['rate'])} at {n}" for n, levels in doc["skill"].items()]
        parts.append(f"among `{level}` bots {', '.join(rates)}")
    fair = ", ".join(
        f"{_pct(levels[doc['weaker'][0]]['fair'])} at {n}" for n, levels in doc["skill"].items()
    )
    out.append(
        f"**Skill against luck.** One `{strong}` bot wins "
        + "; ".join(parts)
        + f" players (a fair share: {fair}). The closer the other bots' skill, the more the "
        "cards decide."
    )
    lengths = [f"{n}: {_num(f['length']['mean'], 0)}" for n, f in fields.items()]
    margins = [f"{n}: {_money(doc, f['winning_margin']['mean'])}" for n, f in fields.items()]
    out.append(
        "**Length and closeness.** Decisions in a game, by number of players: "
        + ", ".join(lengths)
        + ". The winner's mean lead over the second: "
        + ", ".join(margins)
        + "."
    )
    for name, fact in next(iter(fields.values()))["facts"].items():
        shown = _pct if fact["share"] else _num
        by = [f"{n}: {shown(f['facts'][name]['mean'])}" for n, f in fields.items()]
        out.append(f"**{fact['label'].capitalize()}.** " + ", ".join(by) + ".")
    moved = []
    for item in doc["options_compared"]:
        sure = [m for m in item["metrics"].values() if _sure(m["ci95"])]
        if sure:
            moved.append(f"`{item['option']}={json.dumps(item['value'])}`")
    if doc["options_compared"]:
        out.append(
            f"**Rules options.** Of {len(doc['options_compared'])} option changes at "
            f"{doc['option_players']} players, "
            + (
                f"{len(moved)} clearly change something measured: " + ", ".join(moved)
                if moved
                else "none clearly changes anything measured"
            )
            + "."
        )
    return out


def report_markdown(doc: dict[str, Any], command: str | None = None) -> str:
    """The report of a study, as Markdown."""
    title = doc["title"]
    lines = [f"# What {title} is like: a study", ""]
    if command:
        lines += ["Made with:", "", "```", command, "```", ""]
    held = ", ".join(f"`{k}={json.dumps(v)}`" for k, v in doc["options"].items())
    lines += [
        f"{doc['games']:,} games a measurement, seed {doc['seed']}, the rulebook's options"
        + (f" but {held}" if held else "")
        + ". Every figure has its 95% interval in brackets. The bots never see a hidden card.",
        "",
        "## In short",
        "",
        *(f"- {h}" for h in headlines(doc)),
        "",
        "## Who goes first",
        "",
        f"`{doc['field_bot']}` bots at every seat, so nothing but the place in the turn order "
        "sets the seats apart. Places count from the player who makes the game's first "
        "decision. Each cell is that place's share of the wins (a shared win counts its share).",
        "",
    ]
    sizes = list(doc["field"])
    most = max(int(n) for n in sizes)
    lines += [
        "| players | games | " + " | ".join(_place(i) for i in range(most)) + " | fair share |",
        "|---|---|" + "---|" * most + "---|",
    ]
    for n, f in doc["field"].items():
        cells = [f"{_pct(p['rate'])} {_ci_pct(p['ci95'])}" for p in f["by_place"]]
        cells += [""] * (most - len(cells))
        lines.append(f"| {n} | {f['games']:,} | " + " | ".join(cells) + f" | {_pct(f['even'])} |")
    weaker = doc["weaker"]
    lines += [
        "",
        "## How much skill decides",
        "",
        f"One `{doc['field_bot']}` bot among bots of a weaker level, seats rotated over every "
        "deal. `random` plays any legal move; `easy` and `medium` play the rule-based bot's "
        "choice but for a random move half and 15% of the time. The further the stronger "
        "bot's share lies above the fair share, the more skill decides and the less the "
        "cards do.",
        "",
        "| players | " + " | ".join(f"against `{w}`" for w in weaker) + " | fair share |",
        "|---|" + "---|" * len(weaker) + "---|",
    ]
    for n, levels in doc["skill"].items():
        cells = [f"{_pct(levels[w]['rate'])} {_ci_pct(levels[w]['ci95'])}" for w in weaker]
        fair = levels[weaker[0]]["fair"]
        lines.append(f"| {n} | " + " | ".join(cells) + f" | {_pct(fair)} |")
    unit = "$" if doc["unit"] == "dollars" else "points"
    lines += [
        "",
        "## How long a game lasts, and how close it ends",
        "",
        "Decisions are every choice any player makes. The winning margin is the winner's "
        "score less the second best; the spread is the best score less the worst "
        f"({unit}). Quantiles are the 10th, 50th and 90th percentiles.",
        "",
        "| players | decisions, mean | decisions 10% / 50% / 90% | winning margin, mean | "
        "margin 10% / 50% / 90% | spread, mean |",
        "|---|---|---|---|---|---|",
    ]
    for n, f in doc["field"].items():
        length, margin, spread = f["length"], f["winning_margin"], f["spread"]
        lq, mq = length["quantiles"], margin["quantiles"]
        lines.append(
            f"| {n} | {_num(length['mean'])} {_ci_num(length['ci95'])} | "
            f"{lq[0]:.0f} / {lq[2]:.0f} / {lq[4]:.0f} | "
            f"{_num(margin['mean'])} {_ci_num(margin['ci95'])} | "
            f"{mq[0]:.0f} / {mq[2]:.0f} / {mq[4]:.0f} | "
            f"{_num(spread['mean'])} {_ci_num(spread['ci95'])} |"
        )
    facts = next(iter(doc["field"].values()))["facts"]
    if facts:
        lines += [
            "",
            "## What happens in a game",
            "",
            "| players | " + " | ".join(f["label"] for f in facts.values()) + " |",
            "|---|" + "---|" * len(facts),
        ]
        for n, f in doc["field"].items():
            cells = [
                f"{_pct(x['mean'])} {_ci_pct(x['ci95'])}"
                if x["share"]
                else f"{_num(x['mean'])} {_ci_num(x['ci95'])}"
                for x in (f["facts"][k] for k in facts)
            ]
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
    if doc["options_compared"]:
        first = doc["options_compared"][0]["metrics"]
        lines += [
            "",
            "## What each rules option changes",
            "",
            f"The field at {doc['option_players']} players with one option changed, on the "
            "same deals as with the rulebook's options, compared deal by deal. Each cell is "
            "the change and its interval; **bold** where the interval leaves out zero. "
            "Shares are in percentage points.",
            "",
            "| option | " + " | ".join(m["label"] for m in first.values()) + " |",
            "|---|" + "---|" * len(first),
        ]
        for item in doc["options_compared"]:
            cells = []
            for m in item["metrics"].values():
                scale = 100.0 if m["share"] else 1.0
                ci = None if m["ci95"] is None else [scale * m["ci95"][0], scale * m["ci95"][1]]
                text = f"{_signed(scale * m['difference'])} {_ci_num(ci)}"
                cells.append(f"**{text}**" if _sure(m["ci95"]) else text)
            name = f"`{item['option']}={json.dumps(item['value'])}`"
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "## Charts", ""]
    lines += [f"![{c[:-4].replace('_', ' ')}]({c})" for c in CHARTS if c != "options.png"]
    if doc["options_compared"]:
        lines.append("![options](options.png)")
    return "\n".join(lines) + "\n"


def plot_study(doc: dict[str, Any], directory: str | os.PathLike[str]) -> list[Path]:
    """Write the study's charts in ``directory``; returns the paths written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    title = doc["title"]
    sizes = list(doc["field"])
    paths = []

    figure = figure_of(8.0, 4.5)
    axes = figure.add_subplot()
    width = 0.8 / max(int(n) for n in sizes)
    for i, n in enumerate(sizes):
        f = doc["field"][n]
        rates = [p["rate"] for p in f["by_place"]]
        xs = [i + (k - (len(rates) - 1) / 2) * width for k in range(len(rates))]
        axes.bar(xs, rates, width * 0.9, yerr=error_bars(rates, [p["ci95"] for p in f["by_place"]]))
        axes.hlines(f["even"], i - 0.45, i + 0.45, colors="grey", linestyles="--")
    axes.set_xticks(range(len(sizes)), [f"{n} players" for n in sizes])
    axes.set_ylabel("share of the wins (95% interval)")
    axes.set_title(f"{title}: wins by place in the turn order, 1st place leftmost (dashed: fair)")
    paths.append(out / CHARTS[0])
    figure.savefig(paths[-1])

    figure = figure_of()
    axes = figure.add_subplot()
    xs = [int(n) for n in sizes]
    for level in doc["weaker"]:
        rates = [doc["skill"][n][level]["rate"] for n in sizes]
        cis = [doc["skill"][n][level]["ci95"] for n in sizes]
        axes.errorbar(xs, rates, yerr=error_bars(rates, cis), marker="o", capsize=3, label=level)
    axes.plot(xs, [1 / x for x in xs], color="grey", linestyle="--", label="fair share")
    axes.set_xticks(xs)
    axes.set_xlabel("players")
    axes.set_ylabel(f"{doc['field_bot']} bot's share of the wins")
    axes.set_title(f"{title}: one {doc['field_bot']} bot against weaker bots")
    axes.legend()
    paths.append(out / CHARTS[1])
    figure.savefig(paths[-1])

    figure = figure_of(8.0, 4.0)
    left, right = figure.subplots(1, 2)
    for axes, key, label in (
        (left, "length", "decisions in a game"),
        (right, "winning_margin", "winner's lead over the second"),
    ):
        quantiles = [doc["field"][n][key]["quantiles"] for n in sizes]
        axes.bxp(
            [
                {"whislo": q[0], "q1": q[1], "med": q[2], "q3": q[3], "whishi": q[4], "fliers": []}
                for q in quantiles
            ],
            showfliers=False,
        )
        axes.set_xticks(range(1, len(sizes) + 1), sizes)
        axes.set_xlabel("players")
        axes.set_title(f"{label} (10/25/50/75/90%)", fontsize=10)
    unit = "dollars" if doc["unit"] == "dollars" else "points"
    figure.suptitle(f"{title}: how long a game lasts, and the winning margin in {unit}")
    paths.append(out / CHARTS[2])
    figure.savefig(paths[-1])

    facts = {k: f for k, f in next(iter(doc["field"].values()))["facts"].items() if f["share"]}
    figure = figure_of()
    axes = figure.add_subplot()
    for name, fact in facts.items():
        rates = [doc["field"][n]["facts"][name]["mean"] for n in sizes]
        cis = [
            doc["field"][n]["facts"][name]["ci95"] or [r, r]
            for n, r in zip(sizes, rates, strict=True)
        ]
        axes.errorbar(
            xs, rates, yerr=error_bars(rates, cis), marker="o", capsize=3, label=fact["label"]
        )
    axes.set_xticks(xs)
    axes.set_xlabel("players")
    axes.set_ylabel("share")
    axes.set_title(f"{title}: what happens in a game")
    if facts:
        axes.legend()
    paths.append(out / CHARTS[3])
    figure.savefig(paths[-1])

    compared = doc["options_compared"]
    if compared:
        metrics = list(compared[0]["metrics"])
        cols = min(3, len(metrics))
        rows = math.ceil(len(metrics) / cols)
        figure = figure_of(4.2 * cols, rows * (0.32 * len(compared) + 1.2) + 0.6)
        grid = figure.subplots(rows, cols, sharey=True, squeeze=False)
        names = [f"{c['option']}={json.dumps(c['value'])}" for c in compared]
        for k, axes in enumerate(grid.flat):
            if k >= len(metrics):
                axes.set_visible(False)
                continue
            first = compared[0]["metrics"][metrics[k]]
            scale = 100.0 if first["share"] else 1.0
            values = [scale * c["metrics"][metrics[k]]["difference"] for c in compared]
            cis = [
                [scale * x for x in c["metrics"][metrics[k]]["ci95"] or [v / scale] * 2]
                for c, v in zip(compared, values, strict=True)
            ]
            axes.errorbar(
                values, range(len(names)), xerr=error_bars(values, cis), fmt="o", capsize=3
            )
            axes.axvline(0, color="grey", linestyle="--")
            unit = " (percentage points)" if first["share"] else ""
            axes.set_title(first["label"] + unit, fontsize=9)
            axes.set_yticks(range(len(names)), names, fontsize=8)
        grid[0][0].invert_yaxis()
        figure.suptitle(f"{title}: change with each option at {doc['option_players']} players")
        paths.append(out / CHARTS[4])
        figure.savefig(paths[-1])
    return paths


def write_study(
    doc: dict[str, Any], directory: str | os.PathLike[str], command: str | None
) -> list[Path]:
    """Write ``study.json``, ``report.md`` and the charts in ``directory``; returns the paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    data = out / "study.json"
    data.write_text(json.dumps({**doc, "command": command}, indent=2) + "\n", encoding="utf-8")
    report = out / "report.md"
    report.write_text(report_markdown(doc, command), encoding="utf-8")
    return [data, report, *plot_study(doc, out)]
