"""closingbell.core.view: building views field by field."""

from __future__ import annotations

import dataclasses

import pytest

from closingbell.core.view import View, build


@dataclasses.dataclass(frozen=True)
class Seen(View):
    """A small view for the tests."""

    cards: tuple[int, ...]
    price: int


def test_build_makes_what_the_constructor_makes() -> None:
    made = build(Seen, game="g", seat=1, cards=(3, 4), price=7)
    plain = Seen(game="g", seat=1, cards=(3, 4), price=7)
    assert made == plain and hash(made) == hash(plain)
    assert (
        made.to_dict() == plain.to_dict() == {"game": "g", "seat": 1, "cards": [3, 4], "price": 7}
    )
    assert repr(made) == repr(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.price = 8  # type: ignore[misc]


def test_build_refuses_a_missing_or_an_unknown_field() -> None:
    with pytest.raises(TypeError, match=r"missing \['price'\], unknown \[\]"):
        build(Seen, game="g", seat=1, cards=())
    with pytest.raises(TypeError, match=r"missing \[\], unknown \['colour'\]"):
        build(Seen, game="g", seat=1, cards=(), price=1, colour="red")


def test_every_take_stock_view_equals_the_constructors() -> None:
    import closingbell
    from closingbell.games.take_stock.views import TakeStockView
    from closingbell.sim.bench import sample_positions

    game = closingbell.load_game("take_stock", players=4)
    for state in sample_positions(game, 15, seed=1):
        for seat in (None, *range(4)):
            view = state.view(seat)
            again = TakeStockView(
                **{f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
            )
            assert view == again and view.to_dict() == again.to_dict()


@pytest.mark.parametrize(("name", "players"), [("take_stock", 4), ("card_stock_market", 3)])
def test_a_view_read_back_from_its_json_equals_it(name: str, players: int) -> None:
    """Every seat's view and a spectator's, at every step of a random game, survive JSON."""
    import json
    import random

    import closingbell

    game = closingbell.load_game(name, players=players)
    rng = random.Random(5)
    state = game.new_game(11)
    steps = 0
    while not state.is_terminal():
        for seat in (None, *range(players)):
            view = state.view(seat)
            data = json.loads(json.dumps(view.to_dict()))
            assert game.view_from_dict(data) == view
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 50


def test_a_view_that_does_not_fit_is_refused_with_where() -> None:
    import closingbell
    from closingbell.core.errors import ViewFormatError

    game = closingbell.load_game("take_stock", players=3)
    data = game.new_game(1).view(0).to_dict()
    cases = {
        "hand\\[1\\]: a whole number was expected, not text": {**data, "hand": [1, "x"]},
        "hand\\[0\\]: a whole number was expected, not true or false": {**data, "hand": [True]},
        "missing \\['hand'\\]": {k: v for k, v in data.items() if k != "hand"},
        "unknown \\['extra'\\]": {**data, "extra": 1},
        "stocks\\[0\\]: fields missing": {**data, "stocks": [{}]},
        "current_player: text is none of": {**data, "current_player": "a"},
        "not a view of take_stock": {**data, "game": "card_stock_market"},
    }
    for message, bad in cases.items():
        with pytest.raises(ViewFormatError, match=message):
            game.view_from_dict(bad)
    with pytest.raises(ViewFormatError, match="not a view"):
        game.view_from_dict([])
