"""The Take Stock game object and its states, binding the rules, views and positions.

This module is the top of the package: :class:`TakeStockState` is the state's fields
(:mod:`.state`) with the methods of the ``State`` protocol, each handed to the module that
holds it, and :class:`TakeStock` is the factory that makes such states.
"""

from __future__ import annotations

import random

from closingbell.core.rng import check_seed
from closingbell.core.view import View
from closingbell.games.take_stock import (
    invariants,
    position,
    position_reader,
    rules,
    scoring,
    views,
)
from closingbell.games.take_stock.ruleset import TakeStockRuleset
from closingbell.games.take_stock.state import TakeStockFields
from closingbell.games.take_stock.views import TakeStockView


class TakeStockState(TakeStockFields):
    """One position of a Take Stock game (use the public API; fields are internal)."""

    __slots__ = ()

    def _compute_legal(self) -> list[int]:
        return rules.legal_actions(self)

    def _apply_legal(self, action: int) -> None:
        rules.apply_action(self, action)

    def _explain_illegal(self, action: int) -> str:
        return rules.explain_illegal(self, action)

    def scores(self) -> list[int]:
        """Each seat's total over the rounds scored so far."""
        return list(self.totals)

    def round_results(self) -> list[list[int]]:
        """Each scored round's points per seat, in round order."""
        return [list(r) for r in self.round_scores]

    def round_end_reasons(self) -> list[str]:
        """Why each scored round ended (see ``ROUND_END_REASONS``)."""
        return list(self.round_reasons)

    def winners(self) -> list[int]:
        """The seats in first place under the ``final_tie`` option."""
        best = max(self.totals)
        top = [p for p in range(self.n) if self.totals[p] == best]
        if len(top) > 1 and self.game.options.final_tie == "most_tokens":
            most = max(self.tokens[p] for p in top)
            top = [p for p in top if self.tokens[p] == most]
        return top

    def prices(self) -> list[int]:
        """The current price of each stock (top card times the split multiplier)."""
        return scoring.prices(self)

    def view(self, player: int | None) -> TakeStockView:
        """What ``player`` may see; ``None`` gives a spectator's view."""
        return views.build_view(self, player)

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if cards, tokens or bookkeeping are inconsistent."""
        invariants.check_invariants(self)

    def to_position(self) -> str:
        """The canonical one-line position of this state (``docs/positions.md``)."""
        return position.write_position(self)


class TakeStock(TakeStockRuleset):
    """Take Stock (Simon Hunt, 2006) for 2 to 6 players, with validated rules options."""

    state_class = TakeStockState
    view_class = TakeStockView

    def _deal(self, seed: int) -> TakeStockState:
        """Deal a new game whose every shuffle follows from ``seed``."""
        return rules.new_state(TakeStockState, self, check_seed(seed))

    def _read_position(self, text: str) -> TakeStockState:
        """The state a position describes (``docs/positions.md``); raises ``PositionError``.

        Fields left out take their defaults. The state has an empty history and log and
        ``from_deal`` false; later shuffles follow from its ``seed`` field.
        """
        return position_reader.read_position(TakeStockState, self, text)

    def _sample(self, view: View, rng: random.Random) -> TakeStockState:
        """A full state giving ``view`` to its seat; hidden cards are drawn with ``rng``."""
        if not isinstance(view, TakeStockView):
            raise TypeError("sample_state needs a Take Stock view")
        return views.sample_state(TakeStockState, self, view, rng)
