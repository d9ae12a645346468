"""The compiled Card Stock Market engine against the reference rules, state for state.

Random games at every player count under every option set of the differential harness,
with views, illegal actions, clones and round trips at intervals; states from positions,
from sampling and from JSON played on both engines to the end; and the API around them
(pickling, invariants, positions, copies of fields, seeds). The benchmark
``benchmarks/bench_differential.py`` runs millions of actions of the same comparison.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import numpy as np
import pytest

import closingbell
from closingbell import IllegalActionError, native
from closingbell.core.game import State
from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState
from closingbell.native import _card_stock_market as engine
from closingbell.native.differential import (
    OPTION_SETS,
    Mismatch,
    compare_states,
    compare_views,
    play_pair,
    play_states,
)
from tests.conformance.common import random_step, walk

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference

NAME = "card_stock_market"
PLAYERS = range(2, 7)
CHECKS: dict[str, int] = {
    "views_every": 4,
    "illegal_every": 3,
    "clone_every": 5,
    "round_trip_every": 17,
}
"""How often the random games compare views, refusals, clones and round trips."""


def _game(players: int, **options: Any) -> CardStockMarket:
    game = closingbell.load_game(NAME, players=players, **options)
    assert isinstance(game, CardStockMarket)
    return game


def _played(game: CardStockMarket, seed: int, steps: int) -> CardStockMarketState:
    """A reference state ``steps`` random actions into the game dealt from ``seed``."""
    state = game.new_game(seed)
    for _ in walk(state, random.Random(seed), steps):
        pass
    return state


def _reshuffled(game: CardStockMarket, seed: int) -> CardStockMarketState:
    """A reference state a few actions after the draw pile was made anew."""
    state = game.new_game(seed)
    rng = random.Random(seed)
    after = 0
    while not state.is_terminal() and after < 6:
        random_step(state, rng)
        after += state.reshuffled
    assert state.reshuffled
    return state


def _play_both(ref: State, seed: int) -> None:
    """Carry ``ref`` over to the compiled engine and play both to the end."""
    nat = engine.from_state(ref)
    play_states(ref, nat, engine, random.Random(seed), f"{ref.game!r} from a state", **CHECKS)


# ---------------------------------------------------------------------- random games


@pytest.mark.parametrize("options", OPTION_SETS[NAME], ids=repr)
@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_are_the_references(players: int, options: dict[str, Any]) -> None:
    game = _game(players, **options)
    rng = random.Random(f"{players}/{options}")
    for seed in (players, 1000 + 7 * players):
        tally = play_pair(game, engine, seed, rng, **CHECKS)
        assert tally.games == 1 and tally.actions > 0 and tally.views > 0


def test_the_harness_notices_a_difference() -> None:
    game = _game(3)
    ref = _played(game, 5, 12)
    nat = engine.from_state(_played(game, 5, 13))
    with pytest.raises(Mismatch, match="field"):
        compare_states(ref, nat, "here")


def test_a_native_state_is_a_state_of_the_native_engine() -> None:
    game = _game(4)
    state = native.new_game(game, 3)
    assert isinstance(state, engine.State)
    assert isinstance(state, State)
    assert native.engine_of(state) == "native"
    assert native.available(NAME)
    assert type(native.to_reference(state)) is CardStockMarketState
    assert native.from_state(state) is state


# ---------------------------------------------------------------------- states from elsewhere

POSITIONS: list[tuple[int, dict[str, Any], str]] = [
    (2, {}, "seed: 8; cash: 150 / 250"),
    (3, {}, "seed: 5; jokers: draw"),
    (3, {}, "seed: 6; decide: 1 trading; bought: D; hands: 7D QD 2S ... / ... / ..."),
    (
        3,
        {},
        "seed: 6; decide: 2 market; changed: 1; market: 5C 4D 7D 2H JH 9S 6S; bankrupt: H; "
        "certs: - / 3H / 5H QS",
    ),
    (
        4,
        {"debt_repayment": "end_of_turn"},
        "seed: 9; cash: 20 / 30 / 0 / 400; debts: 100 / 0 / 50 / 0",
    ),
    (3, {}, "seed: 3; decide: 0 discarding; discarded: 3; discard: 4C 9H 2D ..."),
    (5, {"bank_money": None}, "seed: 11; bank: unlimited; certs: 10C / KD / - / AS 2S / -"),
    (
        6,
        {"phase_order": "trade_first"},
        "seed: 12; decide: 3 market; changed: 1; bought: S; certs: - / - / - / 9S / - / -; "
        "market: 5C 5D 5H 7S 8S",
    ),
    (
        2,
        {},
        "seed: 4; decide: game_over; turn: 1; jokers: drawn; changed: 1; market: 5C 5D 5H 5S 6S",
    ),
]


@pytest.mark.parametrize(("players", "options", "text"), POSITIONS)
def test_states_read_from_positions_play_as_the_references(
    players: int, options: dict[str, Any], text: str
) -> None:
    ref = _game(players, **options).state_from_position(text)
    nat = engine.from_state(ref)
    assert nat.to_position() == ref.to_position()
    assert not nat.from_deal and nat.history == [] and nat.log == []
    _play_both(ref, players)


@pytest.mark.parametrize("players", PLAYERS)
def test_sampled_states_play_as_the_references(players: int) -> None:
    game = _game(players)
    rng = random.Random(players)
    for source in (_played(game, players, 9), _reshuffled(game, players)):
        for seat in range(players):
            ref = game.sample_state(source.view(seat), rng)
            _play_both(ref, seat)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_states_read_from_json_play_as_the_references(players: int) -> None:
    game = _game(players, bank_money=10, starting_money=60, levy=30)
    for source in (_played(game, 21, 30), _reshuffled(game, 22)):
        ref = game.state_from_json(source.to_json())
        assert ref.from_deal
        nat = engine.from_state(ref)
        assert nat.to_json() == source.to_json()
        _play_both(ref, players)
        # A position read back from its JSON is not from the deal; it plays the same.
        ref = game.state_from_position(source.to_position())
        _play_both(game.state_from_json(ref.to_json()), players + 1)


# ---------------------------------------------------------------------- the API


def test_clones_that_go_different_ways_keep_their_own_logs() -> None:
    # A clone shares the log and history with its original until one of them writes.
    game = _game(3)
    ref = _played(game, 31, 20)
    nat = engine.new_game(game, 31)
    rng = random.Random(31)
    for _ in range(20):
        nat.apply(ref.history[len(nat.history)])
    refs = [ref.clone() for _ in range(3)]
    nats = [nat.clone() for _ in range(3)]
    for step in range(60):
        for i, (r, n) in enumerate(zip(refs, nats, strict=True)):
            if not r.is_terminal() and (step + i) % 2:
                action = rng.choice(r.legal_actions())
                r.apply(action)
                n.apply(action)
        for r, n in zip(refs, nats, strict=True):
            compare_states(r, n, f"step {step}")
    compare_states(ref, nat, "the original")


def test_views_are_the_references_frozen_and_hashable() -> None:
    game = _game(4, bank_money=None)
    ref = _reshuffled(game, 41)
    nat = engine.from_state(ref)
    compare_views(ref, nat, "after the reshuffle")
    for seat in (0, 3, None):
        a = ref.view(seat)
        b = nat.view(seat)
        assert hash(a) == hash(b) and {a: 1}[b] == 1
        assert b.to_dict() == a.to_dict()
        with pytest.raises(dataclasses.FrozenInstanceError):
            b.cash = ()  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            b.suits[0].price = 1  # type: ignore[misc]
    for seat in (-1, 4, True, 1.0, "0"):
        with pytest.raises(ValueError) as expected:
            ref.view(seat)  # type: ignore[arg-type]
        with pytest.raises(ValueError) as got:
            nat.view(seat)  # type: ignore[arg-type]
        assert str(got.value) == str(expected.value)


def test_numpy_integers_and_text_are_accepted() -> None:
    game = _game(3)
    ref = game.new_game(8)
    nat = engine.new_game(game, 8)
    for cast in (np.int64, np.int8, np.uint16):
        action = ref.legal_actions()[0]
        ref.apply(action)
        nat.apply(cast(action))  # type: ignore[arg-type]
    assert nat.history == ref.history and type(nat.history[0]) is int
    text = ref.action_to_string(ref.legal_actions()[-1])
    assert nat.apply_string(text) == ref.apply_string(text)
    compare_states(ref, nat, "after text")
    for words in ("buy 7S", "raise QH", "end turn"):
        assert nat.string_to_action(words) == ref.string_to_action(words)
    assert nat.action_to_string(220) == "done"


def test_illegal_actions_are_refused_with_the_references_message() -> None:
    game = _game(3, same_suit_trades=False)
    ref = _played(game, 50, 15)
    nat = engine.from_state(ref)
    legal = set(ref.legal_actions())
    for action in [*range(-3, 225), 2**70, -(2**70), np.int64(-1), 3.0, "3", None, True]:
        if type(action) is int and action in legal:
            continue
        with pytest.raises(IllegalActionError) as expected:
            ref.apply(action)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError) as got:
            nat.apply(action)  # type: ignore[arg-type]
        assert str(got.value) == str(expected.value)
    compare_states(ref, nat, "after the refusals")
    assert nat._explain_illegal(0) == ref._explain_illegal(0)


def test_the_reference_hooks_answer_alike() -> None:
    game = _game(5)
    ref = _played(game, 60, 25)
    nat = engine.from_state(ref)
    assert nat._compute_legal() == ref._compute_legal()
    action = ref.legal_actions()[-1]
    ref._legal = None
    ref._apply_legal(action)
    nat._apply_legal(action)
    compare_states(ref, nat, "after the unrecorded action")


def test_pickling_and_copying_give_equal_states_that_play_on() -> None:
    game = _game(4, strip="graded")
    ref = _reshuffled(game, 70)
    nat = engine.from_state(ref)
    # Pickled or deep-copied together, the two keep sharing one game object.
    pairs = [
        pickle.loads(pickle.dumps((ref, nat))),
        copy.deepcopy((ref, nat)),
        (ref.clone(), copy.copy(nat)),
    ]
    for ref_copy, other in pairs:
        assert type(other) is engine.State
        assert other == nat and other == ref
        play_states(ref_copy, other, engine, random.Random(70), "copied")
    compare_states(ref, nat, "the original after its copies played")


def test_invariants_positions_and_dicts_are_the_references() -> None:
    game = _game(6, debt_repayment="end_of_turn", bank_money=0)
    for steps in (0, 40, 400):
        ref = _played(game, 80, steps)
        nat = engine.from_state(ref)
        nat.check_invariants()
        assert nat.to_position() == ref.to_position()
        assert nat.to_dict() == ref.to_dict()
        assert nat.scores() == ref.scores() and nat.net_worth() == ref.net_worth()
        assert nat.winners() == ref.winners()
        assert nat == ref and ref == nat
    broken = _played(game, 81, 10)
    broken.cash[0] += 1
    with pytest.raises(AssertionError) as expected:
        broken.check_invariants()
    with pytest.raises(AssertionError) as got:
        engine.from_state(broken).check_invariants()
    assert str(got.value) == str(expected.value)
    assert engine.from_state(broken) != ref


@pytest.mark.parametrize("seed", [-1, 2**63, True, "3", 1.0, None])
def test_bad_seeds_are_refused_as_the_reference_refuses_them(seed: object) -> None:
    game = _game(3)
    with pytest.raises(ValueError) as expected:
        game.new_game(seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError) as got:
        engine.new_game(game, seed)  # type: ignore[arg-type]
    assert str(got.value) == str(expected.value)
    assert repr(engine.new_game(game, 2**63 - 1).seed) == repr(2**63 - 1)


def test_fields_are_fresh_copies() -> None:
    game = _game(3)
    nat = engine.from_state(_reshuffled(game, 90))
    before = nat.to_json()
    for name in CardStockMarketState.SHAPES:
        value = getattr(nat, name)
        assert getattr(nat, name) is not value or not isinstance(value, list)
        if isinstance(value, list):
            value.append(0)
            for item in value:
                if isinstance(item, list):
                    item.append(0)
    nat.hands[0].clear()
    nat.log.clear()
    assert nat.to_json() == before
    with pytest.raises(AttributeError):
        nat.cash = [0, 0, 0]  # type: ignore[misc]
    with pytest.raises(TypeError):
        engine.State()
    with pytest.raises(TypeError):
        hash(nat)
