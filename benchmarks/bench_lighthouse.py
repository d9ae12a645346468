"""Lighthouse's scores of the web pages: the lobby and a table mid-game.

Usage: ``python benchmarks/bench_lighthouse.py [--preset mobile|desktop|both] [--moves N]
[--json]``

Installs Lighthouse 12.2.3 with ``npm ci`` from ``benchmarks/lighthouse/package-lock.json``
(Debian's Node; once, into ``benchmarks/lighthouse/node_modules``), starts a real
``closingbell serve`` on a free loopback port with a temporary SQLite database, opens a
Take Stock table of one person and two bots, plays the person's first ``--moves`` turns
over the WebSocket (the bots answer), and runs Lighthouse with Debian's Chromium on the
lobby and on that table's page. Lighthouse's browser holds no seat token, so it sees the
table as a visitor does: the board and the seats, no hand. For each page it prints the
performance, accessibility and best-practices scores (0 to 100), the bytes transferred,
the requests, and the first and largest contentful paints. ``mobile`` is Lighthouse's
default (a phone's screen, a slow 4G network and a slowed CPU, simulated); ``desktop`` is
its desktop preset. A benchmark, not a test: the figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from closingbell.server.loadtest.processes import server_process
from closingbell.server.loadtest.wire import http_request

FOLDER = Path(__file__).resolve().parent / "lighthouse"
"""Where ``package.json`` and ``package-lock.json`` pin Lighthouse."""
LIGHTHOUSE = FOLDER / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-background-networking"
CATEGORIES = ("performance", "accessibility", "best-practices")


def install() -> None:
    """``npm ci`` in ``FOLDER`` unless the pinned Lighthouse is there already."""
    wanted = json.loads((FOLDER / "package.json").read_text())["dependencies"]["lighthouse"]
    installed = FOLDER / "node_modules" / "lighthouse" / "package.json"
    if installed.exists() and json.loads(installed.read_text())["version"] == wanted:
        return
    print(f"installing Lighthouse {wanted} (npm ci in {FOLDER})", file=sys.stderr)
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"], cwd=FOLDER, check=True, stdout=sys.stderr
    )


async def wait_until_up(base: str) -> None:
    """Wait for the server to answer ``/api/health``."""
    deadline = time.monotonic() + 60
    while True:
        try:
            status, _ = await http_request(base, "GET", "/api/health")
            if status == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not answer /api/health within 60 s")
        await asyncio.sleep(0.1)


async def table_mid_game(base: str, moves: int) -> str:
    """A Take Stock table of one person and two bots, the person's first ``moves`` turns
    played; its id."""
    await wait_until_up(base)
    status, answer = await http_request(
        base, "POST", "/api/tables", {"game": "take_stock", "seats": ["open", "easy", "medium"]}
    )
    assert status == 201, answer
    table_id = answer["table"]["id"]
    status, joined = await http_request(
        base, "POST", f"/api/tables/{table_id}/join", {"name": "Ana"}
    )
    assert status == 200, joined
    async with connect(f"ws://{base}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": joined["token"], "lang": "en"}))
        played = 0
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] != "state" or not message["legal"]:
                continue
            if played == moves or message["status"] == "finished":
                break
            choice = message["legal"][0]["id"]
            body = {"type": "action", "version": message["version"], "action": choice}
            await ws.send(json.dumps(body))
            played += 1
    return str(table_id)


def lighthouse(url: str, preset: str) -> dict[str, Any]:
    """Lighthouse's figures for ``url`` with ``preset`` (``mobile`` or ``desktop``)."""
    with tempfile.TemporaryDirectory(prefix="closingbell-lighthouse-") as folder:
        out = Path(folder) / "report.json"
        command = [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={CHROME_FLAGS}",
        ]
        if preset == "desktop":
            command.append("--preset=desktop")
        env = {**os.environ, "CHROME_PATH": CHROMIUM}
        subprocess.run(command, env=env, check=True, timeout=300)
        report = json.loads(out.read_text())
    audits = report["audits"]
    scores = {
        name: None if (score := report["categories"][name]["score"]) is None else round(score * 100)
        for name in CATEGORIES
    }
    return {
        "url": url,
        "preset": preset,
        "scores": scores,
        "bytes": audits["total-byte-weight"]["numericValue"],
        "requests": len(audits["network-requests"]["details"]["items"]),
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "lighthouse": report["lighthouseVersion"],
        "short_of": short_of(report),
        "warnings": report.get("runWarnings", []),
    }


def short_of(report: dict[str, Any]) -> dict[str, list[str]]:
    """Per category, the weighed audits that score below 90: what costs the page points."""
    audits = report["audits"]
    found = {}
    for name in CATEGORIES:
        low = [
            f"{ref['id']} ({round(score * 100)})"
            for ref in report["categories"][name]["auditRefs"]
            if ref["weight"] > 0
            and (score := audits[ref["id"]]["score"]) is not None
            and score < 0.9
        ]
        if low:
            found[name] = low
    return found


def print_row(row: dict[str, Any]) -> None:
    """One run's figures as a line of the table, then what costs the page points."""
    s = row["scores"]
    print(
        f"{row['page']:6}  {row['preset']:7}  {s['performance']!s:>4}  "
        f"{s['accessibility']!s:>4}  {s['best-practices']!s:>4}  "
        f"{row['bytes'] / 1024:7.1f}  {row['requests']:8}  "
        f"{row['fcp_ms']:6.0f}  {row['lcp_ms']:6.0f}",
        flush=True,
    )
    for name, low in row["short_of"].items():
        print(f"        {name}: {', '.join(low)}", flush=True)
    for warning in row["warnings"]:
        print(f"        warning: {warning}", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=["mobile", "desktop", "both"], default="both")
    parser.add_argument("--moves", type=int, default=12, help="the person's turns played")
    parser.add_argument("--json", action="store_true", help="print one JSON object per run")
    args = parser.parse_args(argv)
    install()
    presets = ["mobile", "desktop"] if args.preset == "both" else [args.preset]
    with (
        tempfile.TemporaryDirectory(prefix="closingbell-lighthouse-db-") as folder,
        server_process(f"sqlite:///{Path(folder) / 'web.db'}") as server,
    ):
        table_id = asyncio.run(table_mid_game(server.base, args.moves))
        pages = {"lobby": "/", "table": f"/t/{table_id}"}
        if not args.json:
            print("page    preset   perf  a11y  best  KB sent  requests  FCP ms  LCP ms")
        for preset in presets:
            for page, path in pages.items():
                row = {"page": page, **lighthouse(f"http://{server.base}{path}", preset)}
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    print_row(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
