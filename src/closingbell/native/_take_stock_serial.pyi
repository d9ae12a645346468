"""Type stub of the compiled ``closingbell.native._take_stock_serial`` (see its ``.pyx``)."""

from collections.abc import Sequence

from closingbell.core.game import Game, State
from closingbell.core.replay import Replay
from closingbell.native._take_stock import State as NativeState

def replay(game: Game, seed: int, history: Sequence[int]) -> NativeState:
    """Deal ``game`` from ``seed`` and apply ``history`` on the compiled engine."""

class Codec:
    """Take Stock's compiled writer and reader of states."""

    def __init__(self, own_replay: Replay) -> None: ...
    def write(self, state: State) -> str | None:
        """``to_json`` of a Take Stock state, or ``None`` to leave it to the plain code."""

    def read(self, game: Game, text: object) -> State | None:
        """``game.state_from_json(text)``, or ``None`` to leave it to the plain code."""
