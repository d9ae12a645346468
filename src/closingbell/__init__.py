"""closingbell: Take Stock and Card Stock Market, their rules engines and the tools around them.

>>> import closingbell
>>> game = closingbell.load_game("take_stock", players=3)
>>> state = game.new_game(seed=7)
>>> state.current_player is not None
True

Importing the package registers the compiled engines (:mod:`closingbell.native`), so that
``new_game`` and the other doors that make states give compiled states where they are built;
``engine="reference"`` asks for the readable Python rules.
"""

from closingbell import native as _native  # noqa: F401 (registers the compiled engines)
from closingbell.bots import available_bots, make_bot
from closingbell.core.errors import (
    ClosingbellError,
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    RulesVersionError,
    StateFormatError,
    UnknownGameError,
)
from closingbell.core.game import Game, State
from closingbell.core.info import GameInfo
from closingbell.core.registry import available_games, load_game, register_game
from closingbell.core.view import View

__version__ = "0.1.0"

__all__ = [
    "ClosingbellError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "PositionError",
    "RecordError",
    "RulesVersionError",
    "State",
    "StateFormatError",
    "UnknownGameError",
    "View",
    "__version__",
    "available_bots",
    "available_games",
    "load_game",
    "make_bot",
    "register_game",
]
