"""The compiled sampler deals the reference's worlds, drawing the same numbers.

``_take_stock.sample_state(game, view, rng)`` must give a state equal in every field to
``from_state(game.sample_state(view, rng))`` and leave ``rng`` as the reference leaves it,
and refuse what the reference refuses with the same error. Where the test says the world
is dealt in C, ``TakeStock.sample_state`` is made to fail, so that a view the compiled
sampler handed to the reference would show.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from closingbell.games.take_stock import views as reference
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.state import PHASE_NAMES
from closingbell.games.take_stock.views import TakeStockView
from closingbell.native import _random
from closingbell.native import _take_stock as T
from closingbell.native.differential import OPTION_SETS, compare_states
from tests.games.take_stock.craft import craft, make_game, play
from tests.native.test_take_stock_engine import POSITIONS

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = [
    pytest.mark.reference,
    pytest.mark.skipif(
        not _random.in_place_agrees(), reason="this Python's random.Random is not read in place"
    ),
]


@pytest.fixture
def in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the reference sampler behind ``game.sample_state`` unreachable."""

    def refused(self: TakeStock, view: object, rng: object) -> None:
        raise AssertionError("the compiled sampler handed this view to the reference")

    monkeypatch.setattr(TakeStock, "sample_state", refused)


def states_of_games(players: int, games: int, seed: int) -> Iterator[TakeStockState]:
    """Every few states of random games under the differential option sets."""
    rng = random.Random(f"sampler/{players}/{seed}")
    for g in range(games):
        options = OPTION_SETS["take_stock"][(players + g) % len(OPTION_SETS["take_stock"])]
        game = make_game(players, **options)
        state = game.new_game(seed * 100 + g)
        step = 0
        while not state.is_terminal():
            if step % 5 == 0:
                yield state
            state.apply(rng.choice(state.legal_actions()))
            step += 1
        yield state


def views_of(state: TakeStockState) -> Iterator[TakeStockView]:
    """Every seat's view and the spectator's, from the reference and the compiled engine."""
    compiled = T.from_state(state)
    for seat in (*range(state.n), None):
        yield state.view(seat)
        yield compiled.view(seat)


def check_dealt_alike(game: TakeStock, view: TakeStockView, seed: int) -> T.State:
    """The compiled sample of ``view`` is the reference's, and draws the same numbers."""
    ours = random.Random(seed)
    theirs = random.Random(seed)
    world = T.sample_state(game, view, ours)
    expected = T.from_state(reference.sample_state(TakeStockState, game, view, theirs))
    compare_states(expected, world, f"seat {view.seat}, {view.decision}")
    assert ours.getstate() == theirs.getstate()
    return world


@pytest.mark.parametrize("players", range(2, 7))
def test_views_of_random_games_are_dealt_alike_in_c(players: int, in_c: None) -> None:
    decisions = set()
    count = 0
    for state in states_of_games(players, 4, seed=players):
        for view in views_of(state):
            check_dealt_alike(state.game, view, count)
            decisions.add(view.decision)
            count += 1
    assert count > 300
    assert {"action", "discard", "exercise", "game_over"} <= decisions


def test_the_rarer_decisions_are_dealt_alike_in_c(in_c: None) -> None:
    seen: set[str] = set()
    for players in (2, 3, 4):
        for state in states_of_games(players, 12, seed=50 + players):
            if state.decision not in ("action", "discard"):
                for view in views_of(state):
                    check_dealt_alike(state.game, view, len(seen))
                seen.add(state.decision)
    assert seen == set(PHASE_NAMES) - {"action", "discard"}


def crafted() -> Iterator[TakeStockState]:
    """States read from positions, with some moves played on from them."""
    for text in POSITIONS:
        yield make_game(3).state_from_position(text)
    yield craft(make_game(3), rows={"Oil": [1, 3, 7]}, hands={0: ["Corn 9", "Tech 10"]})
    state = craft(
        make_game(2, insider_order="take_first"),
        rows={"Oil": [1, 3, 5]},
        certs={0: ["Oil 10"]},
        saved={0: ["Insider Oil"]},
        discard=["Oil 12", "Oil 2", "Oil 7", "Oil 9"],
        hands={0: ["Corn 2", "Gem 12", "Tech 11", "Movie 10"]},
    )
    yield state.clone()
    play(state, "play Insider Oil", "discard Corn 2", "retrieve Oil 7")
    yield state
    state = craft(
        make_game(2),
        rows={"Oil": [1, 3], "Movie": [1, 3]},
        saved={0: ["Downturn"]},
        hands={0: ["Corn 12", "Oil 6", "Gem 12", "Movie 2"], 1: ["Tech 2", "Tech 4"]},
    )
    play(state, "play Downturn", "discard Corn 12", "discard Oil 6")
    yield state
    state = craft(
        make_game(4, frozen_scoring="zero"),
        round=3,
        scores=[40, 55, 30, 20],
        rows={"Oil": [1, 3, 5], "Gem": [1, 2, 6, 9]},
        splits={"Gem": 1},
        frozen=["Oil"],
        saved={0: ["Freeze"], 2: ["Audit", "Split Oil"]},
        hands={0: ["Corn 12", "Oil 6", "Gem 12", "Movie 2"], 1: ["Tech 2"]},
        tokens=[2, 0, 3, 1],
    )
    yield state


def test_positions_and_samples_of_samples_are_dealt_alike_in_c(in_c: None) -> None:
    rng = random.Random(7)
    count = 0
    for state in crafted():
        worlds = [state]
        for _ in range(3):
            # A world sampled from a world sampled from ...: fresh pools, fresh knowledge.
            source = worlds[-1]
            view = source.view(rng.choice([*range(source.n), None]))
            worlds.append(check_dealt_alike(state.game, view, count).to_reference())
            count += 1
        for world in worlds:
            rest = world.clone()
            for _ in range(rng.randrange(1, 30)):
                if rest.is_terminal():
                    break
                rest.apply(rng.choice(rest.legal_actions()))
            for view in views_of(rest):
                check_dealt_alike(state.game, view, count)
                count += 1
    assert count > 500


# ---------------------------------------------------------------------- refusals


Sampler = Callable[[TakeStock, Any, random.Random], Any]


def by_reference(game: TakeStock, view: Any, rng: random.Random) -> T.State:
    """The reference's world carried over: what the compiled sampler must equal."""
    return T.from_state(game.sample_state(view, rng))


def outcome(sample: Sampler, game: TakeStock, view: Any, seed: int) -> tuple[str, str, object]:
    """What ``sample`` gives with ``Random(seed)``: the state's JSON or the error raised, and
    the generator's state after."""
    rng = random.Random(seed)
    try:
        result = sample(game, view, rng)
    except Exception as exc:  # the two samplers must raise alike, whatever they raise
        return type(exc).__name__, str(exc), rng.getstate()
    return "dealt", result.to_json(), rng.getstate()


def variants(value: object, rng: random.Random) -> list[object]:
    """Values a view's field could be given instead of ``value``: near ones and odd ones."""
    if isinstance(value, bool):
        return [not value, int(value)]
    if isinstance(value, int):
        return [value + 1, value - 1, value + rng.choice([-3, 2, 5]), None, float(value)]
    if value is None:
        return [0, 1, "x"]
    if isinstance(value, str):
        return [value + "x", None, rng.choice(["action", "discard", "exercise", "save"])]
    if isinstance(value, tuple):
        out: list[object] = [value[:-1], (*value, value[-1]) if value else (0,), list(value)]
        if len(value) > 1:
            i = rng.randrange(len(value))
            j = rng.randrange(len(value))
            swapped = list(value)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            out.append(tuple(swapped))
        if value:
            i = rng.randrange(len(value))
            for item in variants(value[i], rng)[:2]:
                out.append((*value[:i], item, *value[i + 1 :]))
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = []
        for f in dataclasses.fields(value):
            for new in variants(getattr(value, f.name), rng)[:2]:
                out.append(dataclasses.replace(value, **{f.name: new}))
        return out
    return []


def mutated(view: TakeStockView, rng: random.Random) -> Iterator[TakeStockView]:
    """``view`` with one field changed, every field in turn."""
    for f in dataclasses.fields(view):
        for new in variants(getattr(view, f.name), rng):
            changed: dict[str, Any] = {f.name: new}
            yield dataclasses.replace(view, **changed)


def test_what_the_reference_refuses_is_refused_alike() -> None:
    rng = random.Random(11)
    tried = refused = dealt = 0
    for players in (2, 3, 5):
        states = list(states_of_games(players, 2, seed=90 + players))
        for state in rng.sample(states, 12):
            game = state.game
            for view in mutated(state.view(rng.choice([*range(players), None])), rng):
                expected = outcome(by_reference, game, view, tried)
                assert outcome(T.sample_state, game, view, tried) == expected
                tried += 1
                refused += expected[0] != "dealt"
                dealt += expected[0] == "dealt"
    # Both kinds come up often: a changed field is often one no check looks at.
    assert refused > 1000 and dealt > 300


def test_other_generators_games_and_views_are_left_to_the_reference() -> None:
    class Generator(random.Random):
        """A subclass that draws differently, as a search may pass."""

        def getrandbits(self, k: int) -> int:
            return super().getrandbits(k) ^ 1 if k < 32 else super().getrandbits(k)

    game = make_game(3)
    view = next(views_of(game.new_game(4)))
    for make in (Generator, random.Random):
        ours = make(5)
        theirs = make(5)
        world = T.sample_state(game, view, ours)
        compare_states(by_reference(game, view, theirs), world, make.__name__)
        assert ours.getstate() == theirs.getstate()
    with pytest.raises(TypeError, match="sample_state needs a Take Stock view"):
        T.sample_state(game, object(), random.Random(1))  # type: ignore[arg-type]
    other = make_game(4)
    assert outcome(T.sample_state, other, view, 3) == outcome(by_reference, other, view, 3)
