"""Card Stock Market: the rules engine (cards, options, actions, rules, views and sampling)."""

from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState
from closingbell.games.card_stock_market.options import CardStockMarketOptions

__all__ = ["CardStockMarket", "CardStockMarketOptions", "CardStockMarketState"]
