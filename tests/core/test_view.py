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
