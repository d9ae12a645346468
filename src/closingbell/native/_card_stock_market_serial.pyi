"""Type stub of the compiled ``closingbell.native._card_stock_market_serial`` (see its ``.pyx``)."""

from collections.abc import Sequence

from closingbell.core.game import Game, State
from closingbell.core.replay import Replay
from closingbell.native._card_stock_market import State as NativeState

def replay(game: Game, seed: int, history: Sequence[int]) -> NativeState:
    """Deal ``game`` from ``seed`` and apply ``history`` on the compiled engine."""

class Codec:
    """Card Stock Market's compiled writer and reader of states."""

    def __init__(self, own_replay: Replay) -> None: ...
    def write(self, state: State) -> str | None:
        """``to_json`` of a Card Stock Market state, or ``None`` to leave it to the plain code."""

    def read(self, game: Game, text: object) -> State | None:
        """``game.state_from_json(text)``, or ``None`` to leave it to the plain code."""
