"""The compiled Take Stock engine against the reference rules, state by state.

Random games on both engines at every player count and under every option set, and games
played on from states read from positions, sampled from views and read from JSON; then the
rest of the public API: pickling, invariants, positions, dicts, views, refusals, seeds and
the independence of the values the native state hands out.
"""

from __future__ import annotations

import dataclasses
import pickle
import random

import numpy as np
import pytest

import closingbell
from closingbell import IllegalActionError, NotationError, native
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.state import SHAPES
from closingbell.games.take_stock.views import TakeStockView
from closingbell.native import _take_stock as T
from closingbell.native.differential import (
    ODD_ACTIONS,
    OPTION_SETS,
    compare_states,
    compare_views,
    play_pair,
    play_states,
)

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference

PLAYERS = range(2, 7)


def make_game(players: int = 3, **options: object) -> TakeStock:
    """Take Stock with ``players`` seats and ``options``."""
    game = closingbell.load_game("take_stock", players=players, **options)
    assert isinstance(game, TakeStock)
    return game


def played(game: TakeStock, seed: int, steps: int) -> tuple[TakeStockState, T.State]:
    """A reference and a native state after the same ``steps`` random actions (or the end)."""
    ref = game.new_game(seed)
    nat = T.new_game(game, seed)
    rng = random.Random(f"played/{seed}")
    for _ in range(steps):
        if ref.is_terminal():
            break
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        nat.apply(action)
    return ref, nat


def play_on(ref: TakeStockState, rng: random.Random, label: str, **every: int) -> None:
    """Carry ``ref`` over to the native engine and play both on, compared at ``every``."""
    tally = play_states(ref, T.from_state(ref), T, rng, label, **every)
    assert tally.states > tally.actions


# ---------------------------------------------------------------------- random games


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_agree_at_every_player_count(players: int) -> None:
    game = make_game(players)
    for seed in (0, 1, 2**63 - 1):
        tally = play_pair(
            game,
            T,
            seed,
            random.Random(seed),
            views_every=6,
            illegal_every=3,
            clone_every=7,
            round_trip_every=19,
        )
        assert tally.games == 1 and tally.actions > 50
        assert tally.views and tally.illegal and tally.clones and tally.round_trips


@pytest.mark.parametrize("players", [2, 6])
def test_views_agree_after_every_action(players: int) -> None:
    # Views share their market rows until the market changes: any stale row would show.
    game = make_game(players, rounds=2)
    tally = play_pair(game, T, 40 + players, random.Random(players), views_every=1)
    assert tally.views == tally.states * (players + 1)


def _option_id(options: dict[str, object]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


@pytest.mark.parametrize("options", OPTION_SETS["take_stock"][1:], ids=_option_id)
def test_random_games_agree_under_every_option_set(options: dict[str, object]) -> None:
    for players in PLAYERS:
        game = make_game(players, **options)
        rng = random.Random(f"{players}/{options}")
        tally = play_pair(
            game,
            T,
            rng.getrandbits(40),
            rng,
            views_every=25,
            illegal_every=7,
            clone_every=15,
            round_trip_every=40,
        )
        assert tally.games == 1


def test_every_option_is_compared_away_from_its_default() -> None:
    defaults = make_game().options_dict()
    changed = {name for options in OPTION_SETS["take_stock"] for name in options}
    assert changed == set(defaults) - {"players"}


def test_clones_sharing_a_past_go_their_own_ways() -> None:
    game = make_game(4)
    ref, nat = played(game, 8, 120)
    rng = random.Random(5)
    pairs = [(ref.clone(), nat.clone()) for _ in range(6)]
    for step in range(60):
        for i, (r, n) in enumerate(pairs):
            if not r.is_terminal():
                action = rng.choice(r.legal_actions())
                r.apply(action)
                n.apply(action)
            if step % 7 == i:
                compare_states(r, n, f"clone {i} step {step}")
        compare_states(ref, nat, f"the original at step {step}")
        if step % 20 == 0:
            pairs.append((pairs[0][0].clone(), pairs[0][1].clone()))
    for i, (r, n) in enumerate(pairs):
        compare_states(r, n, f"clone {i} at the end")


def test_a_state_that_parts_from_its_clones_again_and_again_keeps_going() -> None:
    # Each time the original moves on after a clone has written, it copies its log and
    # history; their room must follow their length, not double at every parting.
    game = make_game(3)
    ref, nat = played(game, 6, 0)
    rng = random.Random(6)
    for step in range(200):
        if ref.is_terminal():
            ref, nat = played(game, step, 0)
        clone = nat.clone()
        action = rng.choice(ref.legal_actions())
        clone.apply(action)
        ref.apply(action)
        nat.apply(action)
        compare_states(ref, nat, f"step {step}")


# ---------------------------------------------------------------------- states from elsewhere

POSITIONS = [
    "",
    "seed: 5; reshuffles: 3",
    "decide: 0 discard for play SplitOil; oil: 1 4",
    "decide: 0 discard for market A",
    "decide: 0 choose_event drew Audit Upturn",
    "decide: 0 choose_event drew Audit Audit",
    "decide: 0 insider_discard Oil took Oil9 owe 1; discard: Oil6",
    "turn: 1; decide: 1 insider_discard Oil took Oil8 owe 1; hands: ... / Corn2 Gem5 / ...; "
    "discard: Oil6",
    "decide: 2 audit_what Gem; gem: 1 5 split",
    "decide: freeze_stock; oil: 1 3 freeze",
    "decide: 1 exercise; ended: high_card; tech: 1 7 11; tokens: 2 / 1 / 0",
    "decide: 0 exercise; ended: market_closed",
    "decide: 1 downturn_discard; turn: 0; hands: Corn2 / Gem2 Gem3 / Oil2; aside: Tech4 / - / -",
    "decide: 2 exercise; ended: market_closed; corn: 1 4 7 split split; gem: 1 4 8; "
    "oil: 1 4 8 10 split; tech: 1 4 split split split; movie: 1 2; "
    "hands: Oil12 Tech9 Gem2 / Gem5 Tech6 / Movie3; certs: Corn10 Corn8 / Gem12 / Movie6",
    "oil: 1 3 7 split split; hands: Movie5 Movie9 / ... / ...; "
    "certs: Corn2 Corn3 Corn4 Corn5 / - / -",
    "round: 3; scores: 10 20 / 5 5 / 0 40; decide: 1 action; turn: 1",
    "decide: game_over; scores: 10 0 0 0 / 5 5 5 15 / 30 0 0 0; tokens: 0 / 1 / 3",
]


@pytest.mark.parametrize("text", POSITIONS)
@pytest.mark.parametrize("options", [{}, {"final_tie": "most_tokens", "empty_draw": "next_draw"}])
def test_states_read_from_positions_play_on_alike(text: str, options: dict[str, str]) -> None:
    game = make_game(3, **options)
    ref = game.state_from_position(text)
    assert T.from_state(ref).to_position() == ref.to_position()
    rng = random.Random(text)
    label = f"position {text!r} {options}"
    # The first steps from the position are checked closely, the rest of the game more
    # loosely (carried over anew: the harness's round trips replace its native state).
    every = {"views_every": 3, "illegal_every": 2, "clone_every": 4, "round_trip_every": 5}
    play_on(ref, rng, label, max_steps=12, **every)
    play_on(ref, rng, label + ", on", **{name: 15 * n for name, n in every.items()})


def test_a_position_of_two_seats_plays_on_alike() -> None:
    game = make_game(2)
    ref = game.state_from_position("seed: 9; decide: 1 action; turn: 1; hands: Oil5 ... / ...")
    play_on(ref, random.Random(2), "two seats", views_every=4)


@pytest.mark.parametrize("players", PLAYERS)
def test_sampled_states_play_on_alike(players: int) -> None:
    game = make_game(players)
    rng = random.Random(players)
    for seed in range(3):
        ref, _ = played(game, seed, rng.randrange(20, 300))
        for seat in (ref.current_player, None):
            sample = game.sample_state(ref.view(seat), rng)
            label = f"sampled for seat {seat} from seed {seed}"
            play_on(sample, rng, label, views_every=40, illegal_every=13, clone_every=30)


def test_native_views_sample_the_same_worlds() -> None:
    game = make_game(4)
    for seed in range(4):
        ref, nat = played(game, seed, 40 + 50 * seed)
        for seat in (*range(4), None):
            ours = game.sample_state(nat.view(seat), random.Random(seed))
            theirs = game.sample_state(ref.view(seat), random.Random(seed))
            assert ours.to_json() == theirs.to_json()


def test_states_read_from_json_play_on_alike() -> None:
    game = make_game(5, keep_saved_events=False)
    rng = random.Random(3)
    for seed in range(3):
        ref, nat = played(game, seed, 90 * seed + 30)
        text = nat.to_json()
        assert text == ref.to_json()
        back = game.state_from_json(text)
        assert back.from_deal
        play_on(back, rng, f"from JSON, seed {seed}", views_every=40, round_trip_every=50)
        sample = game.sample_state(ref.view(None), rng)
        read = game.state_from_json(sample.to_json())
        play_on(read, rng, "a sample from JSON", clone_every=30)


# ---------------------------------------------------------------------- the rest of the API


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickled_states_come_back_equal_and_play_alike(protocol: int) -> None:
    game = make_game(3)
    _, nat = played(game, 4, 150)
    back = pickle.loads(pickle.dumps(nat, protocol))
    assert type(back) is T.State
    assert back.to_json() == nat.to_json()
    assert repr(back.log) == repr(nat.log) and back.history == nat.history
    rng = random.Random(protocol)
    while not nat.is_terminal():
        action = rng.choice(nat.legal_actions())
        nat.apply(action)
        back.apply(action)
    assert back.to_json() == nat.to_json()


def test_invariants_positions_dicts_and_equality_agree() -> None:
    game = make_game(3, frozen_scoring="zero")
    ref = game.new_game(12)
    nat = T.new_game(game, 12)
    rng = random.Random(12)
    step = 0
    while not ref.is_terminal():
        if step % 10 == 0:
            nat.check_invariants()
            assert nat.to_position() == ref.to_position()
            assert nat.to_dict() == ref.to_dict()
            assert nat == ref and ref == nat and (nat != ref) is False
            assert nat.round_results() == ref.round_results()
            assert nat.round_end_reasons() == ref.round_end_reasons()
            assert nat.prices() == ref.prices()
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        nat.apply(action)
        step += 1
    assert nat.winners() == ref.winners() and nat.scores() == ref.scores()
    assert nat.round_results() == ref.round_results()
    assert nat != T.new_game(game, 12)


def test_native_states_are_states_but_not_hashable() -> None:
    nat = T.new_game(make_game(), 1)
    assert isinstance(nat, closingbell.State)
    with pytest.raises(TypeError):
        hash(nat)
    with pytest.raises(TypeError, match="new_game"):
        T.State()


@pytest.mark.parametrize("seed", [-1, 2**63, True, "3", 1.5, None, 2**70])
def test_bad_seeds_are_refused_as_the_reference_refuses_them(seed: object) -> None:
    game = make_game()
    with pytest.raises(ValueError) as theirs:
        game.new_game(seed)
    with pytest.raises(ValueError) as ours:
        T.new_game(game, seed)
    assert str(ours.value) == str(theirs.value)


def test_other_games_are_refused() -> None:
    other = closingbell.load_game("card_stock_market", players=3)
    with pytest.raises(TypeError, match="Take Stock games only"):
        T.new_game(other, 1)
    with pytest.raises(TypeError, match="needs a Take Stock state"):
        T.from_state(other.new_game(1))


def test_inconsistent_reference_states_are_refused() -> None:
    game = make_game()
    cases = [
        ("hands", lambda st: st.hands[0].append(st.hands[1][0]), "share cards"),
        ("round", lambda st: setattr(st, "round", True), "'round'"),
        ("saved", lambda st: st.saved[0].append(st.ev_above.pop()) or st.ev_above.pop(), "event"),
        ("hand_pool", lambda st: st.hand_pool[0].__setitem__(0, 99), "'hand_pool'"),
        ("rows", lambda st: st.rows[0].extend(range(2, 14)), "'rows'"),
    ]
    for name, tamper, words in cases:
        ref = game.new_game(3)
        tamper(ref)
        with pytest.raises(ValueError, match=words):
            T.from_state(ref)
        assert name


def test_fields_read_are_copies() -> None:
    game = make_game(4)
    _, nat = played(game, 6, 100)
    before = nat.to_json()
    log = nat.log
    for name in (*SHAPES, "log"):
        value = getattr(nat, name)
        if isinstance(value, list):
            if value and isinstance(value[0], list):
                value[0].append(7)
            value.append(7)
            assert getattr(nat, name) != value
    log.clear()
    assert nat.to_json() == before
    assert repr(nat.log) == repr(game.state_from_json(before).log)


def test_actions_are_coerced_and_refused_as_the_reference_does() -> None:
    game = make_game()
    ref, nat = played(game, 2, 10)
    for wrapped in (np.int64, np.int32, np.uint16):
        action = ref.legal_actions()[-1]
        ref.apply(wrapped(action))
        nat.apply(wrapped(action))
        compare_states(ref, nat, f"after a {wrapped.__name__}")
    for odd in (*ODD_ACTIONS, np.int64(-3), np.int8(100), 363, 10**30):
        with pytest.raises(IllegalActionError) as theirs:
            ref.apply(odd)
        with pytest.raises(IllegalActionError) as ours:
            nat.apply(odd)
        assert str(ours.value) == str(theirs.value)
    compare_states(ref, nat, "after the refusals")


def test_notation_agrees() -> None:
    game = make_game()
    ref, nat = played(game, 3, 5)
    text = ref.action_to_string(ref.legal_actions()[0])
    assert nat.string_to_action(text) == ref.string_to_action(text)
    assert nat.apply_string(text) == ref.apply_string(text)
    compare_states(ref, nat, "after apply_string")
    for bad in ("fly", 3):
        with pytest.raises(NotationError) as theirs:
            ref.string_to_action(bad)
        with pytest.raises(NotationError) as ours:
            nat.string_to_action(bad)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(IllegalActionError) as theirs_illegal:
        ref.apply_string("exercise done")
    with pytest.raises(IllegalActionError) as ours_illegal:
        nat.apply_string("exercise done")
    assert str(ours_illegal.value) == str(theirs_illegal.value)


def test_views_are_the_reference_dataclass() -> None:
    game = make_game(3)
    ref, nat = played(game, 7, 200)
    compare_views(ref, nat, "mid-game")
    for seat in (0, 1, 2, None):
        view = nat.view(seat)
        theirs = ref.view(seat)
        assert type(view) is TakeStockView and view == theirs
        assert hash(view) == hash(theirs) and view.to_dict() == theirs.to_dict()
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.round = 9
    for bad in (True, 3, -1, "0", np.int64(0)):
        with pytest.raises(ValueError) as theirs_error:
            ref.view(bad)
        with pytest.raises(ValueError) as ours_error:
            nat.view(bad)
        assert str(ours_error.value) == str(theirs_error.value)


def test_visible_events_from_any_start_agree() -> None:
    game = make_game(3)
    ref, nat = played(game, 9, 250)
    length = len(ref.log)
    for start in (0, 1, length // 2, length - 1, length, length + 5):
        for seat in (0, 1, 2, None):
            assert repr(nat.visible_events(seat, start)) == repr(ref.visible_events(seat, start))
    with pytest.raises(ValueError) as theirs:
        ref.visible_events(3)
    with pytest.raises(ValueError) as ours:
        nat.visible_events(3)
    assert str(ours.value) == str(theirs.value)


def test_the_native_package_deals_compiled_states() -> None:
    game = make_game()
    state = native.new_game(game, 1)
    assert type(state) is T.State and native.engine_of(state) == "native"
    reference = native.to_reference(state)
    assert type(reference) is TakeStockState and reference == state
    assert type(native.from_state(reference)) is T.State
    assert native.from_state(state) is state
