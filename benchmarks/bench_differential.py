"""The full differential run: every compiled engine against the reference rules.

Usage: ``python benchmarks/bench_differential.py [ACTIONS] [GAME ...]`` (actions per game,
default 2,000,000; default games: every game with a compiled engine). Random games at every
player count and under every option set of ``closingbell.native.differential.OPTION_SETS``
are played on both engines, their first states made in turn through each of the game's
doors (``new_game``, ``state_from_json``, ``state_from_position``, ``sample_state``), every
state compared field by field, every seat's view, the
errors of illegal actions, clones and round trips compared at intervals. The test suite
runs a smaller share of the same (tests/native). Prints what was compared; a difference
stops the run with the game, seed, step and field.
"""

from __future__ import annotations

import sys

from closingbell import native
from closingbell.native.differential import run


def main(argv: list[str]) -> int:
    actions = int(argv[0].replace(",", "").replace("_", "")) if argv else 2_000_000
    names = argv[1:] or sorted(native.GAME_MODULES)
    if not names:
        print("no game has a compiled engine")
        return 1
    for name in names:
        if not native.available(name):
            print(f"{name}: the compiled engine is not built")
            return 1
        tally = run(
            name,
            actions,
            views_every=25,
            illegal_every=10,
            clone_every=50,
            round_trip_every=200,
            doors=True,
        )
        print(
            f"{name}: {tally.games:,} games, {tally.actions:,} actions, {tally.states:,} states "
            f"compared field by field, {tally.views:,} views, {tally.illegal:,} illegal "
            f"actions, {tally.clones:,} clones, {tally.round_trips:,} round trips; "
            f"{tally.seconds:,.0f} s; no difference"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
