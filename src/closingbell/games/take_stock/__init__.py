"""Take Stock: the rules engine (cards, options, actions, rules, views and sampling)."""

from closingbell.games.take_stock.game import TakeStock
from closingbell.games.take_stock.options import TakeStockOptions
from closingbell.games.take_stock.state import TakeStockState

__all__ = ["TakeStock", "TakeStockOptions", "TakeStockState"]
