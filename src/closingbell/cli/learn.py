"""``closingbell learn``: a guided first game in the terminal (see docs/play.md)."""

from __future__ import annotations

import argparse
from typing import Any

from closingbell.cli.arguments import add_save_and_pace
from closingbell.cli.hints import closingbell_command
from closingbell.learn import available_tutorials
from closingbell.text.i18n import LANGS


def game_name(text: str) -> str:
    """A game with a guided first game, written ``take_stock`` or ``take-stock``."""
    name = text.strip().lower().replace("-", "_")
    if name not in available_tutorials():
        choices = ", ".join(n.replace("_", "-") for n in available_tutorials())
        raise argparse.ArgumentTypeError(f"no guided game of {text!r} (choose {choices})")
    return name


def language(text: str) -> str:
    """A language of :data:`~closingbell.text.i18n.LANGS`, or its catalog's folder (zh_Hant)."""
    for lang, folder in LANGS.items():
        if text in (lang, folder):
            return lang
    raise argparse.ArgumentTypeError(f"unknown language {text!r} (choose {', '.join(LANGS)})")


def add_parser(sub: Any) -> None:
    """Register the ``learn`` subcommand."""
    p = sub.add_parser(
        "learn",
        help="a guided first game, with lessons as you play",
        description="Play a guided first game in the terminal: a fixed deal against two "
        "medium bots, with a short lesson at each moment that matters (your first raise, "
        "the Limit rule, an event, the end of a round and its scoring; in Card Stock "
        "Market a purchase, a market change, a face card, the bank running short). You "
        "play as you like; lessons whose moment does not come are summed up at the end. "
        "The game is saved after every move; --resume goes on with it.",
    )
    p.add_argument(
        "--game",
        type=game_name,
        default="take_stock",
        metavar="GAME",
        help="take-stock or card-stock-market (default: take-stock)",
    )
    p.add_argument(
        "--lang",
        type=language,
        default="en",
        metavar="LANG",
        help="en (English) or zh-Hant (Traditional Chinese; zh_Hant works too); default: en",
    )
    p.add_argument("--resume", metavar="FILE", default=None, help="go on with a saved guided game")
    add_save_and_pace(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``closingbell learn``."""
    from closingbell.tui.learn import learn  # noqa: PLC0415 (Rich and Babel load only to play)

    return learn(
        game_name=args.game,
        lang=args.lang,
        resume=args.resume,
        save=args.save,
        pace=args.pace,
        program=closingbell_command(),
    )
