"""Final rewards of a finished game, the same for every adapter.

``"win"`` (the default): 1 for a sole winner, ``1 / k`` to each of ``k`` seats sharing
first place, 0 for everyone else; the rewards of a game add up to 1.

``"margin"``: the seat's score less the best score among the other seats, divided by the
sum of their absolute values (0 when both are 0), so it lies in ``[-1, 1]``: positive for
a winner, negative for the others, and larger the wider the gap.
"""

from __future__ import annotations

from closingbell.core.game import State

REWARD_KINDS = ("win", "margin")
"""The reward schemes an adapter accepts."""


def check_reward_kind(kind: str) -> str:
    """Return ``kind`` if it names a reward scheme, else raise ``ValueError``."""
    if kind not in REWARD_KINDS:
        raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}, not {kind!r}")
    return kind


def final_rewards(state: State, kind: str = "win") -> list[float]:
    """Each seat's reward for the finished game ``state`` under scheme ``kind``."""
    n = state.n
    if kind == "win":
        winners = state.winners()
        share = 1.0 / len(winners)
        return [share if q in winners else 0.0 for q in range(n)]
    check_reward_kind(kind)
    scores = state.scores()
    out = []
    for q in range(n):
        best_other = max(scores[p] for p in range(n) if p != q)
        scale = abs(scores[q]) + abs(best_other)
        out.append((scores[q] - best_other) / scale if scale else 0.0)
    return out
