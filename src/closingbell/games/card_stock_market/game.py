"""The Card Stock Market game object and its states, binding the rules, views and positions.

This module is the top of the package: :class:`CardStockMarketState` is the state's fields
(:mod:`.state`) with the methods of the ``State`` protocol, each handed to the module that
holds it, and :class:`CardStockMarket` is the factory that makes such states.
"""

from __future__ import annotations

import random

from closingbell.core.rng import check_seed
from closingbell.core.view import View
from closingbell.games.card_stock_market import position, rules, views
from closingbell.games.card_stock_market.ruleset import CardStockMarketRuleset
from closingbell.games.card_stock_market.state import CardStockMarketFields
from closingbell.games.card_stock_market.views import CardStockMarketView


class CardStockMarketState(CardStockMarketFields):
    """One position of a Card Stock Market game (use the public API; fields are internal)."""

    __slots__ = ()

    def _compute_legal(self) -> list[int]:
        return rules.legal_actions(self)

    def _apply_legal(self, action: int) -> None:
        rules.apply_action(self, action)

    def _explain_illegal(self, action: int) -> str:
        return rules.explain_illegal(self, action)

    def scores(self) -> list[int]:
        """Each seat's money less its debt (final once the game is over)."""
        return [c - d for c, d in zip(self.cash, self.debt, strict=True)]

    def winners(self) -> list[int]:
        """The seats with the most money (several share a tie)."""
        scores = self.scores()
        best = max(scores)
        return [p for p in range(self.n) if scores[p] == best]

    def net_worth(self) -> list[int]:
        """Each seat's money less debt plus its shares at the current prices."""
        prices = self.prices
        return [
            self.cash[p]
            - self.debt[p]
            + sum(h * pr for h, pr in zip(self.held[p], prices, strict=True))
            for p in range(self.n)
        ]

    def view(self, player: int | None) -> CardStockMarketView:
        """What ``player`` may see; ``None`` gives a spectator's view."""
        return views.build_view(self, player)

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if cards, money or bookkeeping are inconsistent."""
        rules.check_invariants(self)

    def to_position(self) -> str:
        """The position's text (see ``docs/positions.md``): every field, in order, one line."""
        return position.write_position(self)


class CardStockMarket(CardStockMarketRuleset):
    """Card Stock Market (Sid Sackson) for 2 to 6 players, with validated rules options."""

    state_class = CardStockMarketState
    view_class = CardStockMarketView

    def _deal(self, seed: int) -> CardStockMarketState:
        """Set up a new game whose every shuffle follows from ``seed``."""
        return rules.new_state(CardStockMarketState, self, check_seed(seed))

    def _read_position(self, text: str) -> CardStockMarketState:
        """The state a position's text describes (see ``docs/positions.md``).

        Raises :class:`~closingbell.core.errors.PositionError`, naming the field and the
        reason, when the text is malformed or the position impossible. The state starts a
        history of its own (``from_deal`` is false; history and log are empty), and its
        seed is the position's ``seed`` field, so options, position and actions replay it.
        """
        return position.read_position(CardStockMarketState, self, text)

    def _sample(self, view: View, rng: random.Random) -> CardStockMarketState:
        """A full state giving ``view`` to its seat; hidden cards are dealt with ``rng``."""
        if not isinstance(view, CardStockMarketView):
            raise TypeError("sample_state needs a Card Stock Market view")
        return views.sample_state(CardStockMarketState, self, view, rng)
