"""A puzzle's themes come from its view and its two best actions."""

from __future__ import annotations

import closingbell
from closingbell.puzzles.themes import THEMES, themes_of
from tests.puzzles.test_finder import SELL_CLUBS


def _themes(name: str, players: int, position: str, best: str, runner_up: str) -> tuple[str, ...]:
    game = closingbell.load_game(name, players=players)
    state = game.state_from_position(position)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    found = themes_of(name, view, game.string_to_action(best), game.string_to_action(runner_up))
    assert set(found) <= set(THEMES[name])
    return found


LIMIT = (
    "oil: 1 3 7 split split; hands: Movie5 Movie9 / ... / ...; "
    "certs: Corn2 Corn3 Corn4 Corn5 / - / -"
)


def test_take_stock_themes_name_the_limit_and_the_kinds_of_action() -> None:
    # Four certificates under a Limit of five: one more save reaches it.
    assert _themes("take_stock", 3, LIMIT, "save Movie 9", "raise Movie 5") == (
        "limit",
        "raise",
        "save",
    )
    assert _themes("take_stock", 3, LIMIT, "market A", "raise Movie 5") == ("market", "raise")
    fewer = LIMIT.replace("Corn2 Corn3 Corn4 Corn5", "Corn2")
    assert "limit" not in _themes("take_stock", 3, fewer, "save Movie 9", "market B")


def test_card_stock_market_themes_name_sales_bankruptcies_and_the_bank() -> None:
    assert _themes("card_stock_market", 4, SELL_CLUBS, "sell 10C", "sell 9D") == ("sell",)
    # With $100 in the bank, a sale worth $110 makes it levy every player.
    short = SELL_CLUBS.replace("bank: 972", "bank: 100").replace("cash: 387", "cash: 1259")
    assert _themes("card_stock_market", 4, short, "sell 10C", "sell 9D") == ("bank_short", "sell")
    assert _themes("card_stock_market", 4, SELL_CLUBS, "sell 10C", "done") == ("sell",)
