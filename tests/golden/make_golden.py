"""Write the golden records: complete games of every game, played with seeded random moves.

Usage, from the repository root::

    .venv/bin/python tests/golden/make_golden.py           # rewrite tests/golden/*.cbrec
    .venv/bin/python tests/golden/make_golden.py --check   # only say whether they are current

Each game in ``GAMES`` is dealt with its seed and played to the end; at every decision a
generator seeded from the game's file name picks one of the legal actions uniformly. The
record, result included, is written as ``<name>.cbrec`` next to this script.
``test_golden.py`` replays every file to its recorded result, so the files guard against
any change of the rules. Regenerate them only after an intended rules change, and bump
the game's ``GameInfo.version`` with it (old records then say which rules they need);
move the records of the old version to ``older/`` first, where ``test_golden.py`` keeps
replaying them under the options that version played by.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import closingbell
from closingbell.core.records import EXTENSION, GameRecord

HERE = Path(__file__).resolve().parent
"""The folder the golden records live in."""

GAMES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "take_stock_2p": ("take_stock", 11, {"players": 2}),
    "take_stock_3p": ("take_stock", 7, {"players": 3}),
    "take_stock_4p": ("take_stock", 42, {"players": 4}),
    "take_stock_5p": ("take_stock", 2006, {"players": 5}),
    "take_stock_6p": ("take_stock", 2**63 - 1, {"players": 6}),
    "take_stock_3p_chinese": (
        "take_stock",
        31,
        {"players": 3, "insider_order": "take_first", "empty_draw": "next_draw"},
    ),
    "take_stock_4p_variants": (
        "take_stock",
        41,
        {
            "players": 4,
            "limit_counts_freeze": True,
            "frozen_scoring": "zero",
            "option_shortage": "nobody",
            "keep_saved_events": False,
            "crash_counts_one": False,
            "dealer_tie": "random",
            "final_tie": "most_tokens",
        },
    ),
    "take_stock_2p_long": (
        "take_stock",
        21,
        {
            "players": 2,
            "rounds": 6,
            "shares_table": [1, 1, 2, 2, 2, 3, 3, 3, 2, 1, 1],
            "first_dealer": 1,
        },
    ),
    "card_stock_market_2p": ("card_stock_market", 5, {"players": 2}),
    "card_stock_market_3p": ("card_stock_market", 1981, {"players": 3}),
    "card_stock_market_4p": ("card_stock_market", 104, {"players": 4}),
    "card_stock_market_5p": ("card_stock_market", 77, {"players": 5}),
    "card_stock_market_6p": ("card_stock_market", 2**62, {"players": 6}),
    "card_stock_market_4p_variants": (
        "card_stock_market",
        9,
        {
            "players": 4,
            "bank_money": 300,
            "same_suit_trades": False,
            "face_raise_limited": True,
            "bankrupt_buying": "forbidden",
            "ace_at_setup": False,
            "debt_repayment": "end_of_turn",
            "phase_order": "trade_first",
            "strip": "graded",
        },
    ),
}
"""Each golden record's file name (without extension): game, seed and options."""


def play(name: str) -> GameRecord:
    """Play the golden game ``name`` to its end and return its record."""
    game_name, seed, options = GAMES[name]
    game = closingbell.load_game(game_name, **options)
    state = game.new_game(seed)
    rng = random.Random(f"golden/{name}")
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return GameRecord.from_state(state, ["random"] * game.players)


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every golden record; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write to")
    args = parser.parse_args(argv)
    stale = 0
    for name in GAMES:
        path = args.out / f"{name}{EXTENSION}"
        text = play(name).dumps()
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            print(f"{path}: {'current' if same else 'DIFFERS'}")
            stale += not same
        else:
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
