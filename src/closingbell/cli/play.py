"""``closingbell play``: a game in the terminal against bots, or hot-seat (see docs/play.md)."""

from __future__ import annotations

import argparse
from typing import Any

from closingbell.bots import available_bots
from closingbell.cli.arguments import add_save_and_pace, option_pair, seed
from closingbell.cli.hints import closingbell_command
from closingbell.core.registry import available_games
from closingbell.text.i18n import LANGS


def add_parser(sub: Any) -> None:
    """Register the ``play`` subcommand."""
    p = sub.add_parser(
        "play",
        help="play in the terminal against bots (or hot-seat)",
        description="Play a game in the terminal. With no options: Take Stock against two "
        "medium bots. The game is saved after every move; --resume goes on with it. "
        "--position starts from a position (docs/positions.md) instead of a deal.",
    )
    p.add_argument(
        "--game",
        choices=available_games(),
        default=None,
        help="the game to play (default: take_stock)",
    )
    p.add_argument(
        "--seats",
        default=None,
        help="comma-separated seats: 'you' for a person at this terminal (several make a "
        f"hot-seat game), or a bot ({', '.join(available_bots())}); default: you,medium,medium",
    )
    p.add_argument("--seed", type=seed, default=None, help="seed of the deal (default: random)")
    p.add_argument(
        "--option",
        action="append",
        type=option_pair,
        default=[],
        metavar="KEY=VALUE",
        help="a rules option of the game, e.g. rounds=2 (repeatable; the value is JSON or "
        "text); the number of players is the number of seats",
    )
    p.add_argument(
        "--position",
        metavar="TEXT",
        default=None,
        help="start from this position instead of a deal (docs/positions.md): its text, "
        "quoted, with fields separated by ';', or @FILE to read it from a file; it names "
        "its own seed, so leave out --seed; --game, --seats and --option still apply",
    )
    p.add_argument(
        "--lang", choices=list(LANGS), default="en", help="language of the game (default: en)"
    )
    p.add_argument("--resume", metavar="FILE", default=None, help="go on with a saved game")
    add_save_and_pace(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``closingbell play``."""
    from closingbell.tui.app import play  # noqa: PLC0415 (Rich and Babel load only to play)

    return play(
        game_name=args.game or "take_stock",
        game_given=args.game is not None,
        seats=args.seats,
        seed=args.seed,
        lang=args.lang,
        resume=args.resume,
        save=args.save,
        pace=args.pace,
        program=closingbell_command(),
        options=dict(args.option),
        position=args.position,
    )
