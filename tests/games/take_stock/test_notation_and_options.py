"""The text notation of actions, and the validation of rules options."""

from __future__ import annotations

from typing import Any

import pytest

import closingbell
from closingbell import NotationError, OptionError
from closingbell.games.take_stock import actions as A

from .craft import make_game


def test_every_action_id_round_trips() -> None:
    game = make_game(3)
    texts = set()
    for action in range(game.info.num_distinct_actions):
        text = game.action_to_string(action)
        assert game.string_to_action(text) == action
        texts.add(text)
    assert len(texts) == A.NUM_ACTIONS == 364


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("raise Oil 7", "raise Oil 7"),
        ("  RAISE   oil\t7 ", "raise Oil 7"),
        ("Save CORN 9", "save Corn 9"),
        ("market a", "market A"),
        ("play split tech", "play Split Tech"),
        ("play Split-Tech", "play Split Tech"),
        ("choose  market   crash", "choose Market Crash"),
        ("AUDIT SPLIT", "audit split"),
        ("thaw Movie", "freeze Movie"),
        ("Retrieve Done", "retrieve done"),
        ("exercise gem 12", "exercise Gem 12"),
    ],
)
def test_case_and_spacing_do_not_matter(text: str, expected: str) -> None:
    game = make_game(3)
    assert game.action_to_string(game.string_to_action(text)) == expected


@pytest.mark.parametrize(
    "text", ["", "raise Oil", "raise Oil 13", "raise Pork 5", "buy Oil 5", "market C", "audit"]
)
def test_bad_text_is_refused_with_examples(text: str) -> None:
    game = make_game(3)
    with pytest.raises(NotationError) as info:
        game.string_to_action(text)
    message = str(info.value)
    assert repr(text) in message and "raise Oil 5" in message and "market A" in message


@pytest.mark.parametrize("action", [-1, 364, 10**6, True, "raise Oil 5", 2.0])
def test_bad_ids_have_no_text(action: Any) -> None:
    with pytest.raises(NotationError, match=r"not a Take Stock action id|must be"):
        make_game(3).action_to_string(action)


def test_notation_from_the_state() -> None:
    st = make_game(3).new_game(seed=4)
    for action in st.legal_actions():
        assert st.string_to_action(st.action_to_string(action)) == action
    text = st.action_to_string(st.legal_actions()[-1])
    clone = st.clone()
    assert st.apply_string(text.upper()) == clone.string_to_action(text)
    clone.apply(clone.string_to_action(text))
    assert st.to_json() == clone.to_json()


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"limit_count_freeze": True}, "limit_count_freeze"),
        ({"colour": "red"}, "colour"),
        ({"players": 1}, "players"),
        ({"players": 7}, "players"),
        ({"players": "3"}, "players"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"shares_table": [1] * 10}, "shares_table"),
        ({"shares_table": [1] * 10 + [4]}, "shares_table"),
        ({"limit_counts_freeze": "yes"}, "limit_counts_freeze"),
        ({"frozen_scoring": "none"}, "frozen_scoring"),
        ({"option_shortage": "random"}, "option_shortage"),
        ({"insider_order": "both"}, "insider_order"),
        ({"empty_draw": "never"}, "empty_draw"),
        ({"keep_saved_events": 1}, "keep_saved_events"),
        ({"first_dealer": 3}, "first_dealer"),
        ({"first_dealer": -1}, "first_dealer"),
        ({"dealer_tie": "youngest"}, "dealer_tie"),
        ({"final_tie": "coin"}, "final_tie"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, Any], name: str) -> None:
    settings = {"players": 3, **options}
    with pytest.raises(OptionError, match=f"'{name}'"):
        closingbell.load_game("take_stock", **settings)


def test_unknown_option_suggests_the_closest() -> None:
    with pytest.raises(OptionError, match="did you mean 'limit_counts_freeze'"):
        closingbell.load_game("take_stock", players=3, limit_count_freeze=True)


def test_players_is_required() -> None:
    with pytest.raises(OptionError, match="'players' is required"):
        closingbell.load_game("take_stock")


def test_good_options_are_kept() -> None:
    game = make_game(
        5,
        rounds=2,
        shares_table=[1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3],
        first_dealer=4,
        final_tie="most_tokens",
    )
    assert game.options.players == 5 and game.options.rounds == 2
    assert game.options.shares_table == (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3)
    assert game.new_game(seed=1).dealer == 4
