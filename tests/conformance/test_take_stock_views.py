"""Take Stock's own no-leak checks, comparing views with the full state's hidden parts."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from closingbell.games.take_stock.game import TakeStockState
from tests.conformance.common import MAX_STEPS, Position, seeds

# These tests look into reference states' fields (tests/conftest.py).
pytestmark = pytest.mark.reference

ts_positions = st.builds(
    Position,
    name=st.just("take_stock"),
    players=st.integers(2, 6),
    seed=seeds,
    steps=st.integers(0, MAX_STEPS),
)


NOT_CARDS = frozenset(
    {
        "drawn_events",
        "event_below_known",
        "event_below_public",
        "event_discard_known",
        "event_discard_public",
        "hand_pools",
        "hand_sizes",
        "legal_actions",
        "pools",
        "round_scores",
        "saved_counts",
        "saved_events",
        "scores",
        "scoring_prices",
        "stocks",
        "tokens",
        "waiting",
        "worth",
    }
)
"""View fields whose numbers are counts, values, seats or event kinds, not share cards:
a small hand could equal one of them by chance. ``pools`` holds share cards, but it is the
same for every seat (checked below), so it cannot carry any seat's secret."""


def lists_in(value: Any) -> list[list[Any]]:
    """Every list anywhere inside ``value`` (a view's ``to_dict``) outside ``NOT_CARDS``."""
    out: list[list[Any]] = []
    if isinstance(value, list):
        out.append(value)
        for item in value:
            out += lists_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_CARDS:
                out += lists_in(item)
    return out


def hand_is_deducible(state: TakeStockState, seat: int | None, q: int) -> bool:
    """Whether ``seat`` can work out ``q``'s hidden cards from what it knows.

    That is so when, in every pool, ``q`` holds none or all of the cards ``seat`` cannot
    see (every card of a pool is accounted for by the pool counts everyone sees).
    """
    mine = set() if seat is None else {*state.hands[seat], *state.hidden[seat]}
    for k, count in enumerate(state.hand_pool[q]):
        unseen = [c for c, pool in enumerate(state.pool_of) if pool == k and c not in mine]
        if count not in (0, len(unseen)):
            return False
    return True


def build(position: Position) -> TakeStockState:
    state = position.build()
    assert isinstance(state, TakeStockState)
    return state


@settings(max_examples=60, deadline=None)
@given(position=ts_positions)
def test_a_view_never_holds_another_seats_hand(position: Position) -> None:
    state = build(position)
    for seat in position.seats:
        data = state.view(seat).to_dict()
        assert json.loads(json.dumps(data)) == data
        assert data["hand"] == ([] if seat is None else state.hands[seat])
        assert data["pools"] == state.view(None).to_dict()["pools"], "pools are public"
        found = lists_in(data)
        for q in range(position.players):
            if q == seat or hand_is_deducible(state, seat, q):
                continue
            if state.hands[q] and not set(state.hands[q]) <= set(state.known[q]):
                assert state.hands[q] not in found, f"seat {seat}'s view holds seat {q}'s hand"
            if state.hidden[q] and not set(state.hidden[q]) <= set(state.known[q]):
                # (cards shown by Insider Trading are public wherever they are held)
                assert sorted(state.hidden[q]) not in found, f"{seat} sees {q}'s set-aside cards"


@settings(max_examples=40, deadline=None)
@given(position=ts_positions)
def test_the_log_hides_other_seats_cards(position: Position) -> None:
    state = build(position)
    for seat in position.seats:
        for event in state.visible_events(seat):
            who = event.get("seat")
            if who is None or who == seat:
                continue
            kind = event["type"]
            if kind in ("draw", "downturn_discard", "exercise"):
                assert event["card"] is None, f"seat {seat} read seat {who}'s {kind}"
            elif kind == "event_discard":
                assert event["event"] is None, f"seat {seat} read seat {who}'s set-aside event"
            elif kind == "drew_events":
                assert event["events"] is None, f"seat {seat} read seat {who}'s event cards"


@settings(max_examples=60, deadline=None)
@given(position=ts_positions)
def test_a_seat_knows_every_event_card_a_spectator_knows(position: Position) -> None:
    # Anything shown to the whole table is known to each seat as well as to onlookers.
    state = build(position)
    public = state.view(None)
    for seat in range(position.players):
        view = state.view(seat)
        for field in ("event_below_known", "event_discard_known"):
            seen_by_all = Counter(getattr(public, field))
            seen_by_seat = Counter(getattr(view, field))
            assert not seen_by_all - seen_by_seat, f"seat {seat} forgot public cards ({field})"


@settings(max_examples=40, deadline=None)
@given(position=ts_positions, sample_seed=seeds)
def test_a_sampled_state_keeps_what_the_whole_table_knows(
    position: Position, sample_seed: int
) -> None:
    # A seat's possible world must show onlookers what the real one shows them, so that
    # search bots simulating other seats never hand them knowledge they lack or forget.
    state = build(position)
    rng = random.Random(sample_seed)
    for seat in [None, *range(position.players)]:
        sampled = state.game.sample_state(state.view(seat), rng)
        assert sampled.view(None) == state.view(None)


@pytest.mark.parametrize("players", range(2, 7))
def test_own_view_shows_own_cards(players: int) -> None:
    state = build(Position("take_stock", players, 21, 90))
    for seat in range(players):
        view = state.view(seat)
        assert list(view.hand) == state.hands[seat]
        assert sorted(view.saved_events) == sorted(state.saved[seat])
        assert view.hand_sizes == tuple(
            len(state.hands[q]) + len(state.hidden[q]) for q in range(players)
        )
    assert state.view(None).hand == () and state.view(None).saved_events == ()
