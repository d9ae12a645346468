"""Type stub of the compiled ``closingbell.native._card_stock_market_bot`` (see its ``.pyx``)."""

from collections.abc import Sequence
from typing import Any

from closingbell.core.game import State
from closingbell.core.view import View

class Planner:
    """The rule-based bot's decisions with fixed rules options and weights."""

    def __init__(
        self,
        *,
        rise: Sequence[int],
        fall: Sequence[int],
        limited: bool,
        free: bool,
        same_suit: bool,
        levy: int,
        immediate: bool,
        trade_first: bool,
        same_price: bool,
        mean_price: float,
        drift: float,
        face_drift: float,
        hazard: float,
        hand_weight: float,
        spare: float,
        leader_weight: float,
        debt_penalty: float,
        progress: float,
        beam: int,
        rate: float,
    ) -> None: ...
    def pick(self, view: View, legal: Sequence[int]) -> int:
        """The reference's ``pick(view, legal)``: the next action of the best plan."""

    def read(self, view: View) -> None:
        """Only read ``view`` as ``pick`` does, deciding nothing: for timing the two apart."""

    def explain(self, view: View) -> dict[str, Any]:
        """The numbers behind a decision, as the reference's planner holds them."""

def playout(procedure: Planner, world: State, max_steps: int, horizon_round: int) -> int:
    """Play the rule-based bot for every seat of the compiled ``world``; the steps played."""

def reading(source: View | State, seat: int | None = None) -> bytes:
    """The bytes of what the bot reads of a view, or of a compiled state for ``seat``."""
