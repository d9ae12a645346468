"""The crafted-state helper itself: it arranges what it is told and stays consistent."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from closingbell.games.take_stock import cards as C

from .craft import card, cards, craft, event, make_game


def test_craft_places_every_named_thing() -> None:
    game = make_game(3)
    st = craft(
        game,
        current=1,
        rows={"Oil": [1, 3, 7], "corn": [2]},
        splits={"Oil": 2},
        frozen={"Gem"},
        hands={1: ["Oil 5", "Corn 9", "Tech 2"]},
        certs={2: ["Movie 12"]},
        discard=["Gem 4"],
        draw_top=["Tech 3", "Tech 4"],
        saved={0: ["Audit"], 1: ["Split Oil"]},
        event_top=["Freeze", "Upturn"],
        tokens={0: 2},
    )
    assert st.rows[2] == [1, 3, 7] and st.rows[0] == [1, 2]
    assert st.splits == [0, 0, 2, 0, 0]
    assert st.frozen == [False, True, False, False, False]
    assert st.hands[1] == sorted(cards(["Oil 5", "Corn 9", "Tech 2"]))
    assert [len(h) for h in st.hands] == [6, 3, 6]
    assert st.certs[2] == [card("Movie 12")]
    assert card("Gem 4") in st.discard
    assert st.draw[-2:] == [card("Tech 4"), card("Tech 3")]  # the top is drawn first
    assert st.saved == [[event("Audit")], [event("Split Oil")], []]
    assert st.ev_above[-2:] == [event("Upturn"), event("Freeze")]
    assert len(st.ev_below) == 10
    assert st.tokens == [2, 4, 4] and st.supply == 20
    assert (st.current_player, st.decision, st.turn, st.dealer) == (1, "action", 1, 0)
    st.check_invariants()


def test_crafted_state_survives_json() -> None:
    game = make_game(4)
    st = craft(game, current=3, rows={"Gem": [1, 5]}, saved={3: ["Freeze"]}, tokens=[0, 1, 2, 3])
    again = game.state_from_json(st.to_json())
    assert again.to_json() == st.to_json()
    assert again.legal_actions() == st.legal_actions()


def test_craft_keeps_all_cards_and_events() -> None:
    st = craft(make_game(4), rows={"Tech": [1, 5]}, splits={"Tech": 3}, frozen={"Oil", "Gem"})
    events = st.ev_above + st.ev_below + st.ev_discard + [k for s in st.saved for k in s]
    events += [C.SPLIT + 3] * 3 + [C.FREEZE] * 2 + [C.MARKET_CLOSED]
    assert Counter(events) == Counter(C.EVENT_CARDS)
    assert len(st.draw) + sum(map(len, st.hands)) + len(st.discard) == 54


def test_craft_sizes_the_piles() -> None:
    st = craft(make_game(3), draw_size=2, draw_top=["Oil 4"], events_above=1, event_top=["Audit"])
    assert len(st.draw) == 2 and st.draw[-1] == card("Oil 4")
    assert len(st.discard) == 55 - 19 - 2
    assert st.ev_above == [event("Audit")] and len(st.ev_below) == 38


def test_craft_can_empty_both_piles_under_next_draw() -> None:
    st = craft(make_game(3, empty_draw="next_draw"), draw_size=0, spare_to_certs=1)
    assert st.draw == [] and st.discard == []
    assert len(st.certs[1]) == 55 - 19


def test_craft_known_cards_are_public_and_released_when_played() -> None:
    st = craft(
        make_game(3), current=0, hands={0: ["Oil 5", "Corn 9", "Gem 2"]}, known={0: ["Oil 5"]}
    )
    assert st.view(1).known_in_hands == ((card("Oil 5"),), (), ())
    assert st.view(1).hand_pools[0] == (2,)
    st.apply_string("raise Oil 5")
    st.check_invariants()
    assert st.view(2).known_in_hands == ((), (), ())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": {0: ["Oil 5", "Oil 5"]}}, "placed twice"),
        ({"hands": {0: ["Oil 5", "Oil 6"]}, "certs": {1: ["Oil 6"]}}, "placed twice"),
        ({"rows": {"Oil": [1, 11]}}, "below 11"),
        ({"rows": {"Oil": [1, 5, 3]}}, "must rise"),
        ({"hands": {0: ["Oil 1", "Oil 2"]}}, "never leaves"),
        ({"saved": {0: ["Market Closed"]}}, "Market Closed"),
        ({"splits": {"Oil": 3}, "saved": {0: ["Split Oil"]}}, "too many"),
        ({"tokens": [20, 20, 0]}, "30 option tokens"),
        ({"hands": {0: ["Oil 5"]}}, "too small"),
        ({"draw_size": 0}, "never empty"),
        ({"events_above": 30}, "ten cards stay under it"),
        ({"event_top": ["Audit", "Audit"], "events_above": 1}, "cards above Market Closed"),
        ({"event_discard": ["No Change"] * 2, "saved": {0: ["Upturn"] * 2}}, "too many"),
        ({"hands": {0: ["Pork 5", "Oil 3"]}}, "not a share card"),
    ],
)
def test_craft_refuses_impossible_positions(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        craft(make_game(3), **kwargs)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_engine_plays_on_from_a_crafted_state(players: int) -> None:
    game = make_game(players)
    st = craft(
        game,
        current=players - 1,
        rows={"Oil": [1, 3, 7], "Gem": [1, 4]},
        splits={"Oil": 2, "Movie": 1},
        frozen={"Tech"},
        saved={0: ["Audit", "Freeze"], players - 1: ["Insider Oil"]},
        discard=["Oil 9", "Oil 10"],
        draw_size=3,
        event_top=["Downturn", "Upturn"],
    )
    rng = random.Random(players)
    rounds_seen = 0
    for _ in range(3000):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
        st.check_invariants()
        rounds_seen = len(st.round_results())
    assert rounds_seen >= 1
    again = game.state_from_json(st.to_json())
    assert again.to_json() == st.to_json()
