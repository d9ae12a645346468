"""Random games at every player count: invariants, JSON, views and sampling at every step."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from closingbell import StateFormatError

from .craft import make_game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_play(players: int) -> None:
    game = make_game(players)
    rng = random.Random(players)
    for seed in range(2):
        st = game.new_game(seed)
        while True:
            # After every action: invariants, JSON round trip, views and sampling.
            st.check_invariants()
            text = st.to_json()
            back = game.state_from_json(text)
            assert back == st and back.to_json() == text
            for seat in [*range(players), None]:
                view = st.view(seat)
                assert game.sample_state(view, rng).view(seat) == view
            if st.is_terminal():
                break
            legal = st.legal_actions()
            assert legal == sorted(set(legal)) and legal
            assert list(st.view(st.current_player).legal_actions) == legal
            st.apply(rng.choice(legal))
        assert st.reshuffled and st.joker_by >= 0
        assert sum(st.cash) + st.bank == 1240 + 200 * players
        assert st.winners() and max(st.scores()) == st.scores()[st.winners()[0]]


def test_same_seed_and_actions_give_the_same_game() -> None:
    game = make_game(4)
    rng = random.Random(5)
    st = game.new_game(77)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    again = game.new_game(77)
    for a in st.history:
        again.apply(a)
    assert again.to_json() == st.to_json()
    assert again.visible_events(None) == st.visible_events(None)


@pytest.mark.parametrize(
    "options",
    [
        {"same_suit_trades": False, "bankrupt_buying": "forbidden"},
        {"face_raise_limited": True, "strip": [1, 1, 2, 2, 4, 4, 5, 5]},
        {"debt_repayment": "end_of_turn", "bank_money": 0, "starting_money": 100},
        {"bank_money": None, "ace_at_setup": False, "first_dealer": 1},
    ],
)
def test_random_play_under_options(options: dict[str, object]) -> None:
    game = make_game(3, **options)
    rng = random.Random(1)
    for seed in range(3):
        st = game.new_game(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
            st.check_invariants()
        view = st.view(0)
        assert game.sample_state(view, rng).view(0) == view


def test_levies_happen_when_money_is_tight() -> None:
    game = make_game(4, bank_money=0, starting_money=100)
    rng = random.Random(3)
    levied = owed = 0
    for seed in range(4):
        st = game.new_game(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            # Buy, push prices up with face cards, sell: the bank soon runs dry.
            raises = [a for a in legal if 104 <= a < 156 and (a - 104) % 13 >= 10]
            sells = [a for a in legal if 52 <= a < 104]
            buys = [a for a in legal if a < 52]
            if raises:
                action = rng.choice(raises)
            elif st.changes and sells:
                action = rng.choice(sells)
            else:
                action = rng.choice(buys or [a for a in legal if not 52 <= a < 104])
            st.apply(action)
            st.check_invariants()
            owed = max(owed, *st.debt)
        levied += st.levies
    assert levied > 0 and owed > 0


def test_inconsistent_states_are_refused() -> None:
    game = make_game(3)
    st = game.new_game(4)
    data = json.loads(st.to_json())
    for change in (
        lambda d: d["cash"].__setitem__(0, 199),
        lambda d: d["hands"][0].pop(),
        lambda d: d["piles"][0].append(d["hands"][1][0]),
        lambda d: d.__setitem__("format", "other"),
        lambda d: d.__setitem__("reshuffled", 1),
        lambda d: d["options"].__setitem__("levy", 50),
        lambda d: d.pop("bank"),
    ):
        bad = json.loads(json.dumps(data))
        change(bad)
        with pytest.raises(StateFormatError):
            game.state_from_json(json.dumps(bad))
    with pytest.raises(StateFormatError):
        game.state_from_json("{not json")


def _after_the_reshuffle(players: int) -> dict[str, Any]:
    """A position of a random game some turns after its draw pile was made anew."""
    game = make_game(players)
    for seed in range(50):
        st = game.new_game(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.reshuffled and any(st.re_drawn) and any(st.re_hands) and st.decision == "turn":
                data: dict[str, Any] = json.loads(st.to_json())
                data["from_deal"] = False
                return data
            st.apply(rng.choice(st.legal_actions()))
    raise AssertionError("no reshuffle in 50 games")


def _moved_from_the_pile(d: dict[str, Any]) -> None:
    # The hand keeps its size; the card it gains came from nowhere since the reshuffle.
    seat = next(q for q, drawn in enumerate(d["re_drawn"]) if drawn)
    d["re_drawn"][seat][0] = next(c for c in range(52) if c not in d["re_drawn"][seat])


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["re_pile"].pop(), "'re_pile'"),
        (lambda d: d["re_pile"].append(d["re_pile"][0]), "'re_pile'"),
        (lambda d: d["re_events"][0].append(-1), "'re_events'[0]"),
        (lambda d: d["re_hands"][1].append(d["re_hands"][1][0]), "'hands'[1]"),
        (_moved_from_the_pile, "'hands'["),
    ],
)
def test_the_record_since_the_reshuffle_must_explain_every_hand(
    players: int, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    game = make_game(players)
    data = _after_the_reshuffle(players)
    game.state_from_json(json.dumps(data))  # untouched, it is read back
    change(data)
    with pytest.raises(StateFormatError, match=re.escape(field)):
        game.state_from_json(json.dumps(data))
