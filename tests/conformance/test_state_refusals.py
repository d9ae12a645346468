"""Impossible states are refused when read back, each with a message naming the field.

Every case is tried on a game dealt by ``new_game`` (``from_deal``: its history is replayed)
and on the same state read as a position (``from_deal`` false: it must stand on its own),
so that each refusal comes from the checks of the field itself, not only from the replay.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

import closingbell
from closingbell import State, StateFormatError
from tests.conformance.common import case_params, get_game, move_rng

# Every test here runs on the compiled engine and on the reference (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

Data = dict[str, Any]


@cache
def state_where(name: str, players: int, wanted: Callable[[State], bool], seed: int = 3) -> State:
    """The first state of seeded random games of ``name`` for which ``wanted`` holds.

    Cached: the tests change its JSON, never the state itself.
    """
    game = get_game(name, players)
    for attempt in range(200):
        state = game.new_game(seed + attempt)
        rng = move_rng(seed + attempt)
        while not state.is_terminal():
            if wanted(state):
                return state
            state.apply(rng.choice(state.legal_actions()))
        if wanted(state):
            return state
    raise AssertionError("no such state in 200 games")


def refused(state: State, change: Callable[[Data], None], from_deal: bool) -> str:
    """Apply ``change`` to ``state``'s JSON and return the refusal's message."""
    data = json.loads(state.to_json())
    data["from_deal"] = from_deal
    state.game.state_from_json(json.dumps(data))  # untouched, it is read back
    change(data)
    with pytest.raises(StateFormatError) as info:
        state.game.state_from_json(json.dumps(data))
    return str(info.value)


from_deal_or_not = pytest.mark.parametrize("from_deal", [True, False], ids=["dealt", "position"])


def mid_round(state: State) -> bool:
    """Well into the game, at the first decision of a turn."""
    return len(state.history) > 30 and state.decision in ("action", "turn")


def later_round(state: State) -> bool:
    return mid_round(state) and getattr(state, "round", 0) >= 2 and any(state.scores())


# ---------------------------------------------------------------------- every game


@from_deal_or_not
@pytest.mark.parametrize(("name", "players"), case_params())
@pytest.mark.parametrize("seed", [-5, -(2**70), 10**40, 2**63])
def test_seed_out_of_range(name: str, players: int, seed: object, from_deal: bool) -> None:
    state = state_where(name, players, mid_round)

    def change(d: Data) -> None:
        d["seed"] = seed

    assert "'seed'" in refused(state, change, from_deal)


@from_deal_or_not
@pytest.mark.parametrize(("name", "players"), case_params())
def test_forged_game_over_entry(name: str, players: int, from_deal: bool) -> None:
    state = state_where(name, players, mid_round)

    def change(d: Data) -> None:
        d["log"].append([None, ["game_over", state.scores(), state.winners()], None])

    assert "'log' entry" in refused(state, change, from_deal)


@from_deal_or_not
@pytest.mark.parametrize(("name", "players"), case_params())
@pytest.mark.parametrize(
    "entry",
    [
        [None, ["no_such_event", 1], None],
        [None, [], None],
        [None, "game_over", None],
        # (``discard`` is a seat and a card in both games.)
        [None, ["discard", 0], None],  # too few values
        [7, ["discard", 0, 5], ["discard", 0, None]],  # not a seat
        [None, ["discard", 0, 5], ["discard", 0, None]],  # public, yet redacted
        [0, ["discard", 0, 5], ["turn", 0, 1]],  # redacted as another kind
        [0, ["discard", 0, 5], ["discard", 0, 6]],  # redacted, yet another card
        [None, ["discard", "zero", 5], None],
        [None, ["discard", 0, 10**9], None],
        [None, ["discard", 0, 5], None, "extra"],
    ],
)
def test_malformed_log_entry(name: str, players: int, entry: list[Any], from_deal: bool) -> None:
    state = state_where(name, players, mid_round)

    def change(d: Data) -> None:
        d["log"].insert(len(d["log"]) // 2, entry)

    assert "'log' entry" in refused(state, change, from_deal)


@from_deal_or_not
@pytest.mark.parametrize(("name", "players"), case_params())
def test_a_redacted_form_only_puts_null_in_place_of_values(
    name: str, players: int, from_deal: bool
) -> None:
    # Another reader sees the owner's values or null, never a value of its own: a field
    # keeps one type whoever reads it (docs/api.md, "Log fields").
    state = state_where(name, players, mid_round)

    def change(d: Data) -> None:
        # The first private entry (a deal or a draw), told to the others as another seat's.
        owner, full, redacted = next(e for e in d["log"] if e[2] is not None)
        assert full[1] == redacted[1] == owner
        redacted[1] = (owner + 1) % players

    message = refused(state, change, from_deal)
    assert "'log' entry" in message and "neither the full form's value nor null" in message


@from_deal_or_not
@pytest.mark.parametrize(("name", "players"), case_params())
@pytest.mark.parametrize("action", [-1, 10**6, 10**40])
def test_history_ids_out_of_range(name: str, players: int, action: int, from_deal: bool) -> None:
    state = state_where(name, players, mid_round)

    def change(d: Data) -> None:
        d["history"][3] = action

    assert "'history'" in refused(state, change, from_deal)


@pytest.mark.parametrize(("name", "players"), case_params())
def test_dealt_history_must_replay(name: str, players: int) -> None:
    state = state_where(name, players, mid_round)
    game = state.game
    fresh = game.new_game(state.seed)
    illegal = next(
        a for a in range(game.info.num_distinct_actions) if a not in fresh.legal_actions()
    )

    def bad_first_action(d: Data) -> None:
        d["history"][0] = illegal

    assert "'history' entry 0 cannot be replayed" in refused(state, bad_first_action, True)

    def other_seed(d: Data) -> None:
        d["seed"] += 1

    refused(state, other_seed, True)
    dealt = game.new_game(state.seed)  # no history: the deal itself must match the seed
    assert "is not what the 'seed' and the 'history' make" in refused(dealt, other_seed, True)

    def one_action_more(d: Data) -> None:
        d["history"].append(d["history"][-1])

    refused(state, one_action_more, True)


@pytest.mark.parametrize(("name", "players"), case_params())
def test_unknown_and_missing_keys(name: str, players: int) -> None:
    state = state_where(name, players, mid_round)

    def unknown(d: Data) -> None:
        d["cheat"] = 1

    assert "unknown key 'cheat'" in refused(state, unknown, True)

    def no_marker(d: Data) -> None:
        del d["from_deal"]

    assert "'from_deal'" in refused(state, no_marker, True)


@pytest.mark.parametrize(("name", "players"), case_params())
def test_numbers_beyond_what_a_page_can_read(name: str, players: int) -> None:
    state = state_where(name, players, mid_round)

    def huge(d: Data) -> None:
        d["turn"] = 2**53

    assert "'turn' must be an integer from" in refused(state, huge, False)


@pytest.mark.parametrize("depth", [65, 990, 100_000])
def test_deep_nesting_is_a_format_error(depth: int) -> None:
    game = get_game("take_stock", 3)
    for text in ("[" * depth + "]" * depth, '{"log":' * depth + "1" + "}" * depth):
        with pytest.raises(StateFormatError, match="nest deeper"):
            game.state_from_json(text)
    state = game.new_game(1)
    data = json.loads(state.to_json())
    data["log"].append(json.loads("[" * 60 + "]" * 60))
    with pytest.raises(StateFormatError):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize(("name", "players"), case_params())
def test_positions_with_no_past_still_load(name: str, players: int) -> None:
    # A sampled state has a fresh seed and an empty history: it is read as a position,
    # and so is one played on from there.
    state = state_where(name, players, mid_round)
    game = state.game
    rng = random.Random(players)
    sampled = game.sample_state(state.view(0), rng)
    assert not sampled.from_deal
    for _ in range(20):
        text = sampled.to_json()
        assert game.state_from_json(text).to_json() == text
        if sampled.is_terminal():
            break
        sampled.apply(rng.choice(sampled.legal_actions()))


def test_checks_survive_python_dash_o() -> None:
    # The checks are plain code: ``python -O`` drops assert statements, not these.
    state = state_where("take_stock", 3, mid_round)
    data = json.loads(state.to_json())
    data["from_deal"] = False
    data["tokens"][0] += 1  # 31 option tokens
    code = (
        "import sys, closingbell\n"
        "game = closingbell.load_game('take_stock', players=3)\n"
        "try:\n"
        "    game.state_from_json(sys.stdin.read())\n"
        "except closingbell.StateFormatError as exc:\n"
        "    print('refused:', exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-O", "-c", code],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.startswith("refused:") and "'tokens'" in out.stdout


# ---------------------------------------------------------------------- Take Stock


@from_deal_or_not
@pytest.mark.parametrize("players", [2, 4, 6])
def test_take_stock_totals_that_no_round_scored(players: int, from_deal: bool) -> None:
    first = state_where("take_stock", players, mid_round)
    later = state_where("take_stock", players, later_round)

    def points_before_any_round(d: Data) -> None:
        d["totals"][0] = 5

    def negative_totals(d: Data) -> None:
        # The totals still add up: the round's points are what is out of range.
        change = -(10**12) - d["totals"][0]
        d["totals"][0] += change
        d["round_scores"][0][0] += change

    assert "'totals'" in refused(first, points_before_any_round, from_deal)
    assert "'round_scores'" in refused(later, negative_totals, from_deal)

    def round_scored_twice(d: Data) -> None:
        d["round_scores"].append(d["round_scores"][0])
        d["round_reasons"].append(d["round_reasons"][0])

    assert "'round_scores'" in refused(later, round_scored_twice, from_deal)


def _take_from_below(d: Data) -> None:
    # The 40 event cards stay in the game: nine of them lie under Market Closed.
    while len(d["ev_below"]) > 9:
        d["ev_above"].append(d["ev_below"].pop())
        d["ev_below_mask"].pop()


def _empty_hand(d: Data) -> None:
    # The cards stay in the game (on the discard pile), only the hand is empty.
    d["discard"] += d["hands"][1]
    for card in d["hands"][1]:
        d["pool_of"][card] = -1
    d["hands"][1] = []


TAKE_STOCK_CASES: list[tuple[str, Callable[[Data], None], str]] = [
    ("negative reshuffles", lambda d: d.update(reshuffles=-1), "'reshuffles'"),
    ("negative turn", lambda d: d.update(turn=-1), "'turn'"),
    ("round zero", lambda d: d.update(round=0), "'round'"),
    ("a thirteenth round", lambda d: d.update(round=13), "'round'"),
    ("negative supply", lambda d: d.update(supply=-1), "'supply'"),
    ("tokens overflow", lambda d: d["tokens"].__setitem__(0, 10**40), "'tokens'"),
    ("nine cards under Market Closed", _take_from_below, "'ev_below'"),
    ("an empty hand mid-round", _empty_hand, "'hands'[1]"),
    ("a seat too many", lambda d: d["hands"].append([]), "'hands'"),
    ("a card 60", lambda d: d["draw"].append(60), "'draw'"),
    ("Market Closed saved", lambda d: d["saved"][0].append(23), "'saved'"),
    ("event kind -1", lambda d: d["ev_discard"].append(-1), "'ev_discard'"),
    ("a pool that does not exist", lambda d: d["pool_of"].__setitem__(0, 99), "'pool_of'"),
    ("a twelve mid-round", lambda d: d["rows"][0].append(12), "'rows'"),
    ("an unknown round end", lambda d: d["round_reasons"].append("boredom"), "'round_reasons'"),
]


# ---------------------------------------------------------------------- Card Stock Market


CARD_STOCK_MARKET_CASES: list[tuple[str, Callable[[Data], None], str]] = [
    ("negative levies", lambda d: d.update(levies=-1), "'levies'"),
    ("negative turn count", lambda d: d.update(turns=-3), "'turns'"),
    ("turn count overflow", lambda d: d.update(turns=10**40), "'turns'"),
    ("negative turn", lambda d: d.update(turn=-1), "'turn'"),
    ("negative cash", lambda d: d["cash"].__setitem__(0, -(10**12)), "'cash'"),
    ("a debt without a levy", lambda d: d["debt"].__setitem__(1, 100), "'debt'"),
    ("three trades", lambda d: d.update(trades=3), "'trades'"),
    ("a joker in the discard pile", lambda d: d["discard"].append(52), "'discard'"),
    ("a suit bought twice", lambda d: d.update(bought=16), "'bought'"),
    ("a price of 14", lambda d: d["prices"].__setitem__(0, 14), "'prices'"),
    ("one joker out", lambda d: d.update(jokers_out=1), "'jokers_out'"),
]


@from_deal_or_not
@pytest.mark.parametrize(
    ("name", "change", "field"),
    [
        *(pytest.param("take_stock", c, f, id=i) for i, c, f in TAKE_STOCK_CASES),
        *(pytest.param("card_stock_market", c, f, id=i) for i, c, f in CARD_STOCK_MARKET_CASES),
    ],
)
def test_field_out_of_range(
    name: str, change: Callable[[Data], None], field: str, from_deal: bool
) -> None:
    state = state_where(name, 4, mid_round)
    assert field in refused(state, change, from_deal)


def test_the_public_api_reads_states_of_every_game() -> None:
    # The marker is part of every state's JSON, and from_dict takes the same data.
    for name in closingbell.available_games():
        game = closingbell.load_game(name, players=3)
        data = game.new_game(2).to_dict()
        assert data["from_deal"] is True
        assert game.state_class.from_dict(game, data).to_dict() == data
