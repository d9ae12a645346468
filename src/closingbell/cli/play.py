"""``closingbell play``: a game of Take Stock in the terminal against bots (or hot-seat)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

import closingbell
from closingbell.bots import available_bots, make_bot
from closingbell.core.errors import ClosingbellError
from closingbell.games.take_stock import TakeStock
from closingbell.games.take_stock.views import TakeStockView
from closingbell.tui import take_stock_text as T

BOTS = tuple(available_bots())
"""Seat kinds other than ``you`` that ``--seats`` accepts."""


def add_parser(sub: Any) -> None:
    """Register the ``play`` subcommand."""
    p = sub.add_parser("play", help="play Take Stock in the terminal against bots")
    p.add_argument(
        "--seats",
        default="you,medium,medium",
        help="comma-separated seats: 'you' for a person at this terminal, or a bot "
        f"({', '.join(BOTS)}); 2 to 6 seats (default: you,medium,medium)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")
    p.set_defaults(run=run)


def _parse_seats(text: str) -> list[str]:
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    for s in seats:
        if s != "you" and s not in BOTS:
            raise ValueError(f"unknown seat {s!r}: use 'you' or one of {', '.join(BOTS)}")
    if not 2 <= len(seats) <= 6:
        raise ValueError("Take Stock needs 2 to 6 seats")
    return seats


def _names(seats: list[str]) -> list[str]:
    humans = seats.count("you")
    names = []
    for q, kind in enumerate(seats):
        if kind == "you":
            names.append(f"Player {q + 1}" + (" (you)" if humans == 1 else ""))
        else:
            names.append(f"{kind.title()} {q + 1}")
    return names


def _ask(view: TakeStockView, out: TextIO, inp: TextIO) -> int | None:
    """Show the menu of legal choices and read one; ``None`` when the player quits."""
    legal = list(view.legal_actions)
    out.write(T.DECISIONS[view.decision] + "\n")
    for i, a in enumerate(legal, 1):
        out.write(f"  {i:>2}. {T.describe_action(view, a)}   [{closingbell_text(a)}]\n")
    while True:
        out.write("Your choice (number or text, ? for help, q to quit): ")
        out.flush()
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            return None
        if text == "?":
            out.write(T.HELP.get(view.decision, T.DECISIONS[view.decision]) + "\n")
            continue
        if text.isdigit():
            i = int(text)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            out.write(f"Please choose a number from 1 to {len(legal)}.\n")
            continue
        try:
            action = _GAME_TEXT.string_to_action(text)
        except ClosingbellError as exc:
            out.write(f"{exc}\n")
            continue
        if action in legal:
            return action
        out.write("That is not one of the choices listed.\n")


_GAME_TEXT = TakeStock(players=2)


def closingbell_text(action: int) -> str:
    """The text notation of ``action``."""
    return _GAME_TEXT.action_to_string(action)


def play(seats: list[str], seed: int, out: TextIO, inp: TextIO) -> int:
    """Play one game with ``seats`` at this terminal; return the exit code."""
    game = closingbell.load_game("take_stock", players=len(seats))
    assert isinstance(game, TakeStock)
    state = game.new_game(seed)
    names = _names(seats)
    bots = {
        q: make_bot(kind, game, seed=seed * 31 + q) for q, kind in enumerate(seats) if kind != "you"
    }
    humans = [q for q, kind in enumerate(seats) if kind == "you"]
    watcher = humans[0] if len(humans) == 1 else None
    shown = 0
    out.write(f"Take Stock, seed {seed}. Seats: {', '.join(names)}.\n")
    while not state.is_terminal():
        p = state.current_player
        assert p is not None
        for event in state.visible_events(watcher, shown):
            text = T.describe_event(event, names)
            if text:
                out.write(f"  * {text}\n")
        shown = len(state.log)
        view = state.view(p)
        if p in bots:
            action = bots[p].choose(view)
            state.apply(action)
            continue
        if len(humans) > 1:
            out.write(f"\n--- {names[p]}, your decision (others, look away) ---\n")
        out.write("\n" + T.render(view, game.shares, names) + "\n")
        choice = _ask(view, out, inp)
        if choice is None:
            out.write("Game abandoned.\n")
            return 0
        state.apply(choice)
    for event in state.visible_events(watcher, shown):
        text = T.describe_event(event, names)
        if text:
            out.write(f"  * {text}\n")
    out.write("\nFinal scores:\n")
    for q, name in enumerate(names):
        rounds = " + ".join(str(r[q]) for r in state.round_results())
        out.write(f"  {name:<10} {state.scores()[q]:>5}  ({rounds})\n")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``closingbell play``."""
    try:
        seats = _parse_seats(args.seats)
    except ValueError as exc:
        print(f"closingbell play: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    return play(seats, seed, sys.stdout, sys.stdin)
