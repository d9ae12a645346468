"""Type stub of the compiled ``closingbell.native._take_stock_bot`` (see its ``.pyx``)."""

from collections.abc import Mapping, Sequence

from closingbell.games.take_stock.views import TakeStockView
from closingbell.native._take_stock import State

WEIGHTS: tuple[str, ...]
"""The names of the numbers of ``TakeStockWeights``, in the order the C struct holds them."""
WEIGHT_LIMIT: float
"""The largest size of a weight the compiled bot takes."""
SUM_AGREES: bool
"""Whether the compiled bot adds floats as this Python's ``sum`` does."""

def unsupported(weights: Mapping[str, float]) -> str | None:
    """Why the compiled bot cannot reproduce the reference with ``weights``, or ``None``."""

def python_sum(values: Sequence[float]) -> float:
    """``sum(values)`` of floats as the compiled bot computes it (for tests)."""

def read_view(view: TakeStockView) -> None:
    """Read ``view`` as ``pick`` does, and nothing more (for benchmarks)."""

def view_record(view: TakeStockView) -> bytes:
    """The bytes of the struct the bot fills from ``view``, zeroed first (for tests)."""

def state_record(state: State, seat: int) -> bytes:
    """The bytes of the struct the bot fills from ``state`` for ``seat`` (for tests)."""

def leaf_values(world: State, token_value: float, saved_value: float) -> list[float]:
    """Each seat's standing in ``world`` as the search scores a play-out's end, in C."""

def playout(procedure: TakeStockBot, world: State, max_steps: int, horizon_round: int) -> int:
    """Play the rule-based bot for every seat of ``world`` in place; the steps played."""

class TakeStockBot:
    """The rule-based Take Stock bot's ``pick`` and ``evaluate``, compiled."""

    def __init__(
        self,
        shares: Sequence[int],
        weights: Mapping[str, float],
        *,
        zero_frozen: bool = False,
        limit_counts_freeze: bool = False,
        take_first: bool = False,
        crash_counts_one: bool = True,
    ) -> None: ...
    def pick(self, view: TakeStockView, legal: Sequence[int]) -> int:
        """The best of the actions ``legal`` for the seat of ``view``, as the reference's."""

    def scores(self, view: TakeStockView, legal: Sequence[int]) -> list[float]:
        """The score of each action where ``pick`` takes the best-scored one (for tests)."""

    def evaluate(self, view: TakeStockView) -> float:
        """The seat's expected end-of-round standing against its opponents, by the model."""
