"""Take Stock: the rules engine (cards, options, actions, rules, views and sampling)."""

from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.options import TakeStockOptions

__all__ = ["TakeStock", "TakeStockOptions", "TakeStockState"]
