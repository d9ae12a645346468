"""Hints: the analysis's preferred action at one decision, on a fixed budget.

A hint is :class:`~closingbell.bots.analysis.Analyst`'s analysis of the deciding seat's
view with :data:`HINT_WORLDS` worlds and a seed made from the game's seed and the
decision's number (:func:`hint_seed`): the same hint for the same decision, on every
machine, in the browser and in the terminal alike. It reads only the view, so the cards
hidden from the seat never change it.

The budget is a number of worlds, not seconds. 32 worlds keep the longest decisions
(Card Stock Market's first purchases, some 33 legal actions, each played out from every
world) well under two seconds on a 2-core machine; ``benchmarks/bench_hints.py`` measures
it, and docs/web.md gives the figures.
"""

from __future__ import annotations

from closingbell.bots.analysis import Analyst, DecisionAnalysis
from closingbell.core.game import Game
from closingbell.core.rng import digest_seed
from closingbell.core.view import View

HINT_WORLDS = 32
"""Worlds dealt for one hint: each legal action is played out from each of them."""


def hint_seed(seed: int, decision: int) -> int:
    """The analysis's seed for a hint of the game dealt with ``seed``.

    ``decision`` is the number of actions played before the decision. The seed is a
    SHA-256 digest: the hint's worlds tell nothing of the game's own shuffles, even when
    the game's seed is secret (a table's on the web server).
    """
    return digest_seed("hint", seed, decision)


def hint(game: Game, view: View, seed: int, decision: int) -> DecisionAnalysis:
    """The hint for the seat of ``view``: every legal action valued, the preferred first.

    ``seed`` is the game's seed and ``decision`` the number of actions played so far. A
    module-level function, so that the web server can send it to its bots' helper
    processes. Raises ``ValueError`` for a view with no decision to make.
    """
    return Analyst(game, worlds=HINT_WORLDS, seed=hint_seed(seed, decision)).analyze(view)
