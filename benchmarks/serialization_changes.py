"""The compiled state reader against the plain one on every changed input, every case.

Usage: ``python benchmarks/serialization_changes.py [GAME ...]`` (default: every game with
a compiled codec), from the repository's root (it uses the test suite's inputs).

``tests/native/test_serialization.py`` checks that the compiled reader reads every input the
plain code reads to an equal state and refuses every input it refuses; its inputs are the
states of the conformance kit changed as the conformance tests and a forger change them
(fields dropped or replaced, log entries changed value by value, numbers nudged, cards
moved). The suite checks about half of them (``changed_inputs(..., share=True)``), at 2
and 5 players; this run checks every one, at every player count. Printed for each case:
the inputs checked, what the plain code did with them, the time taken, and the reasons for
a refusal (the plain code's messages, the values they quote left out) met by the whole
run and by the suite's share: a compiled reader that missed one check would take an input
refused for that reason, so the share finds such a fault wherever it meets the reason. A
difference stops the run.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conformance.common import CASES
from tests.native.test_serialization import (
    assert_read_alike,
    changed_inputs,
    plain_read,
)

from closingbell import native


def reason(refusal: str) -> str:
    """A refusal's message without the values it quotes: the check that refused."""
    refusal = re.sub(r" not .*$", " not X", refusal)
    refusal = re.sub(r" has .* for ", " has X for ", refusal)
    refusal = re.sub(r"illegal action '.*$", "illegal action X", refusal)
    refusal = re.sub(r"rules version .* is unknown", "rules version X is unknown", refusal)
    return re.sub(r"-?\d+(\.\d+)?", "N", refusal)


def main(argv: list[str]) -> int:
    names = argv or sorted(native.SERIAL_MODULES)
    for name in names:
        # The states changed are the Python rules' (as under the suite's ``reference`` mark):
        # the plain reader they are held to reads into them.
        native.front_door(name, "reference")
        for game_name, players in CASES:
            if game_name != name:
                continue
            started = time.perf_counter()
            outcomes: Counter[str] = Counter()
            reasons: set[str] = set()
            shared: set[str] = set()
            for game, text in changed_inputs(name, players):
                outcome = assert_read_alike(game, text, canonical=True)
                outcomes[outcome] += 1
                if outcome == "refused":
                    reasons.add(reason(str(plain_read(game, text))))
            seconds = time.perf_counter() - started
            suite = list(changed_inputs(name, players, share=True))
            for game, text in suite:
                refusal = plain_read(game, text)
                if isinstance(refusal, str):
                    shared.add(reason(refusal))
            share = (
                f"the suite's share ({len(suite):,} inputs) meets {len(shared)}"
                + (f", missing: {sorted(reasons - shared)}" if reasons - shared else "")
                if players in (2, 5)
                else "not in the suite"
            )
            print(
                f"{name} at {players}: {sum(outcomes.values()):,} inputs "
                f"({outcomes['read']:,} read, {outcomes['refused']:,} refused, "
                f"{outcomes['left']:,} left to the plain code), {seconds:,.1f} s; no "
                f"difference; {len(reasons)} reasons for a refusal, {share}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
