"""The text notation round-trips; rules options are validated."""

from __future__ import annotations

import pytest

import closingbell
from closingbell import NotationError, OptionError
from closingbell.core.options import describe_options
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market.options import CardStockMarketOptions

from .craft import make_game


def test_every_action_round_trips() -> None:
    game = make_game(3)
    assert game.info.num_distinct_actions == A.NUM_ACTIONS == 221
    names = set()
    for a in range(A.NUM_ACTIONS):
        text = game.action_to_string(a)
        names.add(text)
        assert game.string_to_action(text) == a
        assert game.string_to_action(f"  {text.upper()} ") == a
    assert len(names) == A.NUM_ACTIONS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("buy 7s", "buy 7S"),
        ("BUY 7\u2660", "buy 7S"),
        ("sell t\u2665", "sell 10H"),
        ("market 10 h", "market 10H"),
        ("buy 11s", "buy JS"),
        ("raise QS", "market QS"),
        ("bust kc", "bankrupt KC"),
        ("discard a\u2663", "discard AC"),
        ("end turn", "done"),
        ("pass", "done"),
    ],
)
def test_the_parser_is_forgiving(text: str, expected: str | None) -> None:
    game = make_game(3)
    if expected is None:
        with pytest.raises(NotationError):
            game.string_to_action(text)
    else:
        assert game.action_to_string(game.string_to_action(text)) == expected


@pytest.mark.parametrize(
    "text", ["", "buy", "buy 14S", "buy 0S", "buy 7X", "bankrupt 7S", "buy joker", "hold 7S"]
)
def test_bad_text_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        make_game(3).string_to_action(text)


@pytest.mark.parametrize("action", [-1, 221, True, "0"])
def test_bad_ids_are_refused(action: object) -> None:
    with pytest.raises(NotationError):
        make_game(3).action_to_string(action)  # type: ignore[arg-type]


def test_registered_and_defaults_follow_the_rulebook() -> None:
    assert "card_stock_market" in closingbell.available_games()
    opts = closingbell.load_game("card_stock_market", players=5).options
    assert isinstance(opts, CardStockMarketOptions)
    assert opts.starting_money == 200 and opts.bank_money == 1240 and opts.levy == 100
    assert opts.strip[7] == 3  # the spades' fall, the one figure the rulebook gives
    assert len(describe_options(CardStockMarketOptions)) == 12


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "'players' must be an integer from 2 to 6"),
        ({"players": 7}, "'players' must be an integer from 2 to 6"),
        ({"players": 3, "strip": [3] * 7}, "'strip' must be a list of 8 integers"),
        ({"players": 3, "strip": [3] * 7 + [14]}, "'strip' must be a list of 8 integers"),
        ({"players": 3, "bank_money": -1}, "'bank_money'"),
        ({"players": 3, "levy": 0}, "'levy'"),
        ({"players": 3, "same_suit_trades": "yes"}, "must be true or false"),
        ({"players": 3, "bankrupt_buying": "cheap"}, "'free', 'forbidden'"),
        ({"players": 3, "debt_repayment": "never"}, "'immediate', 'end_of_turn'"),
        ({"players": 3, "first_dealer": 3}, "seat from 0 to 2"),
        ({"players": 2, "bank_money": 0, "starting_money": 60}, "at least $130"),
        ({"players": 3, "bank_mony": 5}, "did you mean 'bank_money'"),
        ({}, "'players' is required"),
    ],
)
def test_options_are_validated(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("$", r"\$").replace("(", r"\(")):
        closingbell.load_game("card_stock_market", **options)


def test_options_round_trip_as_data() -> None:
    game = make_game(4, strip=[1, 2, 3, 4, 5, 6, 7, 8], bank_money=None, first_dealer=1)
    again = closingbell.load_game("card_stock_market", **game.options_dict())
    assert again.options == game.options
    assert repr(game).startswith("load_game('card_stock_market'")
