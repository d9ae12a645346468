"""The game's own doors make compiled states by default, equal to the reference's in everything."""

from __future__ import annotations

import pickle
import random

import pytest

import closingbell
from closingbell import native
from closingbell.core import engines
from closingbell.core.errors import PositionError, StateFormatError
from closingbell.native.differential import DOORS, door_pair, play_states, run
from tests.conftest import doors_on

GAMES = sorted(native.GAME_MODULES)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("door", DOORS)
def test_each_door_makes_a_compiled_state_that_plays_as_the_reference(name: str, door: str) -> None:
    rng = random.Random(f"front door {name} {door}")
    compiled = native.engine_module(name)
    for players in (2, 4, 6):
        game = closingbell.load_game(name, players=players)
        ref, nat = door_pair(game, door, rng.getrandbits(32), rng)
        tally = play_states(
            ref,
            nat,
            compiled,
            rng,
            f"{name} {players}p via {door}",
            views_every=7,
            illegal_every=5,
            clone_every=11,
            round_trip_every=13,
        )
        assert tally.games == 1 and tally.states > 1


@pytest.mark.parametrize("name", GAMES)
def test_the_differential_run_goes_through_every_door(name: str) -> None:
    tally = run(name, 3_000, views_every=20, illegal_every=10, clone_every=30, doors=True)
    assert tally.actions >= 3_000
    for door in DOORS:
        assert any(case.endswith(f"via {door}") for case in tally.cases)


@pytest.mark.parametrize("name", GAMES)
def test_the_default_door_is_the_compiled_engine_and_reference_is_asked_for(name: str) -> None:
    game = closingbell.load_game(name, players=4)
    state = game.new_game(5)
    assert native.engine_of(state) == "native"
    reference = game.new_game(5, engine="reference")
    assert native.engine_of(reference) == "reference"
    # Nothing but the speed tells them apart.
    assert state == reference and reference == state
    assert state.to_json() == reference.to_json()
    assert state.to_position() == reference.to_position()
    assert pickle.loads(pickle.dumps(state)) == reference
    assert native.engine_of(pickle.loads(pickle.dumps(state))) == "native"
    clone = state.clone()
    clone.apply(clone.legal_actions()[0])
    assert clone != state and state == reference
    for seat in (None, *range(4)):
        assert state.view(seat) == reference.view(seat)


@pytest.mark.parametrize("name", GAMES)
def test_both_engines_refuse_bad_input_at_every_door_alike(name: str) -> None:
    game = closingbell.load_game(name, players=3)
    other = closingbell.load_game(name, players=4)
    view = game.new_game(1).view(0)

    def outcome(engine: str, call: str) -> tuple[str, str]:
        try:
            if call == "seed":
                game.new_game(-1, engine=engine)
            elif call == "seed type":
                game.new_game("7", engine=engine)  # type: ignore[arg-type]
            elif call == "json":
                game.state_from_json('{"format": 1', engine=engine)
            elif call == "json of another game":
                game.state_from_json(other.new_game(1).to_json(), engine=engine)
            elif call == "position":
                game.state_from_position("not a position", engine=engine)
            elif call == "view type":
                game.sample_state({"seat": 0}, random.Random(1), engine=engine)  # type: ignore[arg-type]
            elif call == "view of another game":
                game.sample_state(other.new_game(1).view(0), random.Random(1), engine=engine)
            else:
                game.sample_state(view, random.Random(1), engine=engine)
                return "made", ""
        except (ValueError, TypeError, StateFormatError, PositionError) as exc:
            return type(exc).__name__, str(exc)
        return "made", ""

    calls = [
        "seed",
        "seed type",
        "json",
        "json of another game",
        "position",
        "view type",
        "view of another game",
        "a good view",
    ]
    for call in calls:
        assert outcome("native", call) == outcome("reference", call), call
    assert outcome("native", "a good view") == ("made", "")
    assert outcome("native", "seed")[0] == "ValueError"


def test_an_engine_that_is_not_one_is_refused() -> None:
    game = closingbell.load_game("take_stock", players=3)
    for door in (
        lambda: game.new_game(1, engine="fast"),
        lambda: game.state_from_json("{}", engine="C"),
        lambda: game.state_from_position("", engine="Native"),
        lambda: game.sample_state(game.new_game(1).view(0), random.Random(1), engine=""),
    ):
        with pytest.raises(ValueError, match="engine must be one of auto, native, reference"):
            door()


def test_the_doors_can_be_put_back_on_the_reference_for_a_whole_process() -> None:
    game = closingbell.load_game("card_stock_market", players=3)
    with doors_on("reference"):
        assert engines.default("card_stock_market") == "reference"
        assert native.engine_of(game.new_game(1)) == "reference"
        # Asking for the compiled engine still gives it, and closingbell.native's own
        # functions mean the compiled engine by auto.
        assert native.engine_of(game.new_game(1, engine="native")) == "native"
        assert native.engine_of(native.new_game(game, 1)) == "native"
    assert native.engine_of(game.new_game(1)) == "native"
    with pytest.raises(ValueError, match="'auto' or 'reference'"):
        engines.set_default("card_stock_market", "native")


def test_a_game_with_no_compiled_engine_is_made_on_the_reference_unless_native_is_asked() -> None:
    game = closingbell.load_game("take_stock", players=3)
    compiled = engines.registered("take_stock")
    assert compiled is not None
    engines.unregister("take_stock")
    try:
        assert native.engine_of(game.new_game(3)) == "reference"
        with pytest.raises(RuntimeError, match="compiled engine of Take Stock is not built"):
            game.new_game(3, engine="native")
    finally:
        engines.register("take_stock", compiled)
    assert native.engine_of(game.new_game(3)) == "native"
