"""Type stub of the compiled ``closingbell.native._card_stock_market`` (see its ``.pyx``).

At run time :class:`State` is a virtual subclass of ``closingbell.core.game.State``
(registered, not inherited); the stub declares it a subclass so that type checkers treat
it as one. Its fields are read-only: each read returns a fresh copy.
"""

import random
from typing import Any, ClassVar

from closingbell.core.errors import IllegalActionError
from closingbell.core.events import Entry
from closingbell.core.game import Game
from closingbell.core.game import State as _BaseState
from closingbell.core.view import View
from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState
from closingbell.games.card_stock_market.views import CardStockMarketView

class State(_BaseState):
    """One position of a Card Stock Market game, compiled; the reference's equal."""

    SECRET_DECISIONS: ClassVar[frozenset[str]]
    game: CardStockMarket
    history: list[int]
    seed: int
    from_deal: bool
    n: int
    cur: int | None
    phase: int
    log: list[Entry]

    def _compute_legal(self) -> list[int]: ...
    def _apply_legal(self, action: int) -> None: ...
    def _explain_illegal(self, action: int) -> str: ...
    def legal_actions(self) -> list[int]:
        """The sorted action ids legal for the pending decision (a new list each call)."""

    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises ``IllegalActionError``."""

    def scores(self) -> list[int]:
        """Each seat's money less its debt."""

    def winners(self) -> list[int]:
        """The seats with the most money."""

    def net_worth(self) -> list[int]:
        """Each seat's money less debt plus its shares at the current prices."""

    def clone(self) -> State:
        """An independent copy."""

    def view(self, player: int | None) -> CardStockMarketView:
        """What ``player`` may see; ``None`` gives a spectator's view."""

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if cards, money or bookkeeping are inconsistent."""

    def to_position(self) -> str:
        """The position's text."""

    def refuse(self, action: object, reason: str) -> IllegalActionError:
        """Build the error for an illegal ``action``."""

    def to_reference(self) -> CardStockMarketState:
        """The equal reference state."""

    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def dealer(self) -> int:
        """The dealer and banker."""

    @property
    def turn(self) -> int:
        """Whose turn it is."""

    @property
    def turns(self) -> int:
        """Turns begun so far."""

    @property
    def bank(self) -> int:
        """The bank's money."""

    @property
    def levies(self) -> int:
        """Levies made so far."""

    @property
    def jokers_out(self) -> int:
        """Jokers waiting outside the game for the reshuffle."""

    @property
    def joker_by(self) -> int:
        """The seat that drew a joker, -1 while the game goes on."""

    @property
    def trades(self) -> int:
        """Transactions made this turn."""

    @property
    def sales(self) -> int:
        """How many of them were sales."""

    @property
    def changes(self) -> int:
        """Market changes made this turn."""

    @property
    def discards(self) -> int:
        """Cards discarded this turn."""

    @property
    def bought(self) -> int:
        """The suits bought this turn, a bit each."""

    @property
    def sold(self) -> int:
        """The suits sold this turn, a bit each."""

    @property
    def reshuffled(self) -> bool:
        """Whether the draw pile has been made anew."""

    @property
    def prices(self) -> list[int]:
        """Each suit's price."""

    @property
    def busted(self) -> list[bool]:
        """Whether each suit is bankrupt."""

    @property
    def cash(self) -> list[int]:
        """Each seat's money."""

    @property
    def debt(self) -> list[int]:
        """What each seat owes the bank."""

    @property
    def draw(self) -> list[int]:
        """The draw pile, its top card last."""

    @property
    def discard(self) -> list[int]:
        """The discard pile, in the order discarded."""

    @property
    def re_pile(self) -> list[int]:
        """The new draw pile at the reshuffle, sorted."""

    @property
    def piles(self) -> list[list[int]]:
        """The four market piles, bottom first."""

    @property
    def hands(self) -> list[list[int]]:
        """Each seat's sorted hand."""

    @property
    def certs(self) -> list[list[int]]:
        """Each seat's sorted certificates."""

    @property
    def held(self) -> list[list[int]]:
        """Each seat's shares per suit."""

    @property
    def re_hands(self) -> list[list[int]]:
        """Each seat's hand at the reshuffle (empty before it)."""

    @property
    def re_drawn(self) -> list[list[int]]:
        """The cards each seat drew since the reshuffle (empty before it)."""

    @property
    def re_events(self) -> list[list[int]]:
        """Each seat's public record since the reshuffle (empty before it)."""

def new_game(game: Game, seed: int) -> State:
    """Set up a new game of ``game`` as ``game.new_game(seed)`` does."""

def from_state(state: _BaseState) -> State:
    """A native state equal to the reference ``state``."""

def sample_state(game: Game, view: View, rng: random.Random) -> State:
    """A world dealt from ``view`` as ``game.sample_state(view, rng)`` deals it, compiled."""
