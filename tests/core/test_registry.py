"""The registry of games: names, classes and default player counts."""

from __future__ import annotations

import pytest

from closingbell.core.errors import UnknownGameError
from closingbell.core.registry import default_players


def test_default_players_are_the_options_defaults() -> None:
    assert default_players("take_stock") == 3
    assert default_players("card_stock_market") == 4
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        default_players("chess")
