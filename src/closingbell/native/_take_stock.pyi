"""Type stub of the compiled ``closingbell.native._take_stock`` (see ``_take_stock.pyx``).

The compiled state is registered as a virtual subclass of
:class:`closingbell.core.game.State`; the stub says so by deriving from it.
"""

import random
from typing import Any

from closingbell.core.game import Game
from closingbell.core.game import State as _BaseState
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.views import TakeStockView

class State(_BaseState):
    """One position of a Take Stock game, held in C; the reference's API and results."""

    game: TakeStock
    shares: tuple[int, ...]
    round: int
    dealer: int
    turn: int
    supply: int
    ev_active: int
    follow: int
    ev_stock: int
    owed: int
    reshuffles: int
    end_reason: str | None
    rows: list[list[int]]
    splits: list[int]
    frozen: list[bool]
    hands: list[list[int]]
    certs: list[list[int]]
    tokens: list[int]
    draw: list[int]
    discard: list[int]
    ev_above: list[int]
    ev_below: list[int]
    ev_below_mask: list[int]
    ev_discard: list[int]
    ev_discard_mask: list[int]
    saved: list[list[int]]
    totals: list[int]
    round_scores: list[list[int]]
    round_reasons: list[str]
    pool_of: list[int]
    hand_pool: list[list[int]]
    known: list[list[int]]
    pair: list[int]
    retrieved: list[int]
    queue: list[int]
    hidden: list[list[int]]

    def _compute_legal(self) -> list[int]: ...
    def _apply_legal(self, action: int) -> None: ...
    def _explain_illegal(self, action: int) -> str: ...
    def scores(self) -> list[int]:
        """Each seat's total over the rounds scored so far."""

    def winners(self) -> list[int]:
        """The seats in first place under the ``final_tie`` option."""

    def round_results(self) -> list[list[int]]:
        """Each scored round's points per seat, in round order."""

    def round_end_reasons(self) -> list[str]:
        """Why each scored round ended."""

    def prices(self) -> list[int]:
        """The current price of each stock."""

    def clone(self) -> State:
        """An independent copy."""

    def view(self, player: int | None) -> TakeStockView:
        """What ``player`` may see; ``None`` gives a spectator's view."""

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if cards, tokens or bookkeeping are inconsistent."""

    def to_position(self) -> str:
        """The canonical one-line position of this state."""

    def to_reference(self) -> TakeStockState:
        """The equal reference state, sharing nothing with this one."""

    def __reduce__(self) -> tuple[Any, ...]: ...

def new_game(game: Game, seed: int) -> State:
    """Deal ``game`` from ``seed``: the same game as ``game.new_game(seed)``."""

def from_state(reference: _BaseState) -> State:
    """A native state equal to ``reference`` (a Take Stock reference state)."""

def sample_state(game: Game, view: TakeStockView, rng: random.Random) -> State:
    """A world dealt from ``view`` with ``rng``: ``from_state(game.sample_state(view, rng))``."""
