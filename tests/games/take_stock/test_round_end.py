"""Ending a round, exercising options, scoring, the next round and the end of the game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.game import TakeStockState
from closingbell.games.take_stock.rules import limit

from .craft import assert_refused, card, cards, event, legal_names, play, position

EVENTS_BUT_CLOSED = Counter(k for k in C.EVENT_CARDS if k != C.MARKET_CLOSED)


def _ending(text: str = "", hands: str = "... / ...", **options: Any) -> TakeStockState:
    """Seat 0 to act, able to end the round at once by raising Tech from 7 to 11.

    ``text`` adds fields; ``hands`` gives the hands of seats 1 and 2.
    """
    fields = f"hands: Tech11 Corn2 / {hands}\n{text}"
    if "tech:" not in text:
        fields += "\ntech: 1 7"
    return position(fields, **options)


@pytest.mark.parametrize(
    ("moves", "reason", "text"),
    [
        (["market A", "discard Corn 2"], "market_closed", "events: MarketClosed ..."),
        (["raise Tech 11"], "high_card", ""),
        (["save Corn 2", "discard Tech 11"], "empty_hand", ""),
        (["raise Corn 2"], "no_cards", "draw: ?; discard: -; certs: - / - / ..."),
    ],
)
def test_the_ways_a_round_ends(moves: list[str], reason: str, text: str) -> None:
    st = _ending(f"tokens: 0 / 0 / 0; {text}")
    play(st, *moves)
    assert st.round_end_reasons() == [reason]
    assert st.round == 2 and st.decision == "action"
    round_end = [e for e in st.visible_events(None) if e["type"] == "round_end"]
    assert round_end == [{"type": "round_end", "round": 1, "reason": reason}]


# ---------------------------------------------------------------------- exercising options


def test_exercise_ignores_the_limit_rule_and_returns_tokens() -> None:
    st = _ending(
        """
        oil: 1 6
        gem: 1 4
        # Seat 1 is already at the Limit: the longest row has two cards.
        certs: - / Movie2 Movie3 / -
        tokens: 0 / 3 / 1
        """,
        hands="Oil2 Oil3 Oil4 Oil5 / Gem6 Gem9",
    )
    assert len(st.certs[1]) >= limit(st)  # seat 1 could not save on its own turn
    play(st, "raise Tech 11")
    assert st.end_reason == "high_card"
    # Seat 0 has no token left and is skipped; the others decide in turn order.
    assert (st.decision, st.current_player) == ("exercise", 1)
    assert legal_names(st) == [
        "exercise Oil 2",
        "exercise Oil 3",
        "exercise Oil 4",
        "exercise Oil 5",
        "exercise done",
    ]
    play(st, "exercise Oil 5", "exercise Oil 4", "exercise Oil 3")
    assert st.current_player == 2  # three tokens, three cards: no "done" needed
    play(st, "exercise Gem 9")
    assert st.round == 2
    assert st.tokens == [0, 0, 0] and st.supply == 30
    # Seat 1: two Movie shares at 1 and three Oil shares at 6; seat 2: two Gem shares at 4.
    assert st.round_results() == [[0, 2 + 3 * 6, 2 * 4]]
    reveal = [e for e in st.visible_events(None) if e["type"] == "exercise_reveal"]
    assert len(reveal) == 1
    shown = [list(used) for used in reveal[0]["cards"]]
    assert shown == [[], cards(["Oil 5", "Oil 4", "Oil 3"]), [card("Gem 9")]]


def test_exercise_starts_with_the_player_whose_turn_it_was() -> None:
    st = position(
        """
        turn: 2
        tech: 1 7
        hands: ... / ... / Tech11 Corn2 / ...
        tokens: 1 / 0 / 1 / 1
        """,
        4,
    )
    play(st, "raise Tech 11")
    order = []
    while st.round == 1:
        order.append(st.current_player)
        play(st, "exercise done")
    assert order == [2, 3, 0]


def test_exercised_cards_stay_hidden_until_everyone_chose() -> None:
    st = _ending("tokens: 0 / 2 / 2", hands="Oil2 Oil3 / Gem6 Gem9")
    play(st, "raise Tech 11")
    one, two = st.clone(), st.clone()
    play(one, "exercise Oil 2", "exercise done")
    play(two, "exercise Oil 3", "exercise done")
    assert one.current_player == two.current_player == 2
    for seat in (0, 2, None):
        assert one.view(seat).to_dict() == two.view(seat).to_dict()
        assert one.visible_events(seat) == two.visible_events(seat)
    view = one.view(2)
    assert view.certificates[1] == () and view.hand_sizes[1] == 2 and view.tokens[1] == 2
    assert one.view(1).own_hidden == (card("Oil 2"),)
    play(one, "exercise done")
    assert one.round_results() == [[0, 1, 0]]
    assert one.tokens == [0, 1, 2]


def test_how_many_cards_were_exercised_is_known_before_the_reveal() -> None:
    # The decision (docs/rules/take-stock.md, "What each seat may see"): the others see
    # how many cards a seat set aside, as at a real table, but not which. The view, the
    # log and the states sampled for search bots all say the same.
    import random

    st = _ending("tokens: 0 / 3 / 2", hands="Oil2 Oil3 Oil4 / Gem6 Gem9")
    play(st, "raise Tech 11", "exercise Oil 2", "exercise Oil 4", "exercise done")
    assert (st.decision, st.current_player) == ("exercise", 2)
    for seat in (0, 2, None):
        view = st.view(seat)
        assert view.hidden_counts == (0, 2, 0)
        assert view.hand_sizes[1] == 3  # the two set aside still count as held
        hidden = [e for e in st.visible_events(seat) if e["type"] == "exercise"]
        assert hidden == [{"type": "exercise", "seat": 1, "card": None}] * 2
        for salt in range(20):
            sampled = st.game.sample_state(view, random.Random(salt))
            assert len(sampled.hidden[1]) == 2
            assert sampled.view(seat) == view
    play(st, "exercise Gem 9")
    assert (st.decision, st.current_player) == ("exercise", 2)
    assert st.view(0).hidden_counts == (0, 2, 1)
    assert st.view(1).own_hidden == tuple(cards(["Oil 2", "Oil 4"]))


def test_leftover_hand_cards_are_discarded() -> None:
    st = _ending("tokens: 0 / 1 / 0", hands="Oil2 Oil3 / Gem6", rounds=1)
    before = set(st.discard)
    play(st, "raise Tech 11", "exercise Oil 3")
    assert st.is_terminal()
    assert st.hands == [[], [], []]
    assert set(st.discard) - before == set(cards(["Corn 2", "Oil 2", "Gem 6"]))
    assert st.certs[1] == [card("Oil 3")]


# ---------------------------------------------------------------------- preparing the next round


def test_after_market_closed_all_events_are_gathered_anew() -> None:
    st = position("""
        oil: 1 4 split split
        gem: 1 split
        tech: 1 freeze
        hands: Corn2 Corn3 / ... / ...
        saved: Audit / - / Upturn SplitMovie
        events: MarketClosed ...
        events_discard: CrashCorn NoChange
        tokens: 0 / 0 / 0
    """)
    play(st, "market B", "discard Corn 2")
    assert st.round_end_reasons() == ["market_closed"]
    assert st.round == 2
    assert len(st.ev_below) == 10 and len(st.ev_above) == 29
    assert Counter(st.ev_above + st.ev_below) == EVENTS_BUT_CLOSED
    assert st.ev_discard == [] and st.saved == [[], [], []]
    assert st.splits == [0] * 5 and st.frozen == [False] * 5 and st.rows == [[1]] * 5
    assert st.view(0).event_below_known == ()


def _ended_by_high_card(**options: Any) -> tuple[TakeStockState, list[int], list[int]]:
    st = _ending(
        """
        oil: 1 split
        gem: 1 freeze
        saved: - / Upturn / SplitMovie
        events_discard: NoChange Audit
        tokens: 0 / 0 / 0
        """,
        **options,
    )
    above, below = list(st.ev_above), list(st.ev_below)
    play(st, "raise Tech 11")
    assert st.round_end_reasons() == ["high_card"] and st.round == 2
    return st, above, below


def test_otherwise_old_events_go_under_the_pile_and_saved_ones_are_kept() -> None:
    st, above, below = _ended_by_high_card()
    assert st.ev_above == above  # untouched: Market Closed is that much nearer the top
    assert st.ev_below[len(st.ev_below) - len(below) :] == below
    gathered = st.ev_below[: len(st.ev_below) - len(below)]
    assert Counter(gathered) == Counter(
        [event("Split Oil"), event("Freeze"), event("Audit"), event("No Change")]
    )
    assert st.ev_discard == []
    assert st.saved == [[], [event("Upturn")], [event("Split Movie")]]
    assert st.splits == [0] * 5 and st.frozen == [False] * 5
    st.check_invariants()


def test_cards_gathered_from_the_market_stay_public_under_the_pile() -> None:
    st, _, _ = _ended_by_high_card()
    public = Counter([event("Split Oil"), event("Freeze"), event("Audit"), event("No Change")])
    for seat in (0, 1, 2, None):
        assert Counter(st.view(seat).event_below_known) == public, seat


def test_keep_saved_events_false_returns_them_under_the_pile() -> None:
    st, above, below = _ended_by_high_card(keep_saved_events=False)
    assert st.saved == [[], [], []]
    assert st.ev_above == above
    gathered = st.ev_below[: len(st.ev_below) - len(below)]
    assert Counter(gathered) == Counter(
        [event(k) for k in ("Split Oil", "Freeze", "Audit", "No Change", "Upturn", "Split Movie")]
    )
    # Each player still knows where the card it gave back went; the others do not.
    assert event("Upturn") in st.view(1).event_below_known
    assert event("Upturn") not in st.view(2).event_below_known
    assert event("Split Movie") in st.view(2).event_below_known
    assert event("Split Movie") not in st.view(1).event_below_known


# ---------------------------------------------------------------------- the next dealer


def _next_dealer(scores: list[int], dealer: int, seed: int = 1, **options: Any) -> TakeStockState:
    st = _ending(
        f"""
        seed: {seed}
        turn: 0
        dealer: {dealer}
        tokens: 0 / 0 / 0
        scores: {" / ".join(map(str, scores))}
        """,
        **options,
    )
    play(st, "raise Tech 11")
    assert st.round == 3
    assert st.scores() == scores  # nobody scored in round 2
    return st


def test_the_lowest_score_deals_next_round() -> None:
    st = _next_dealer([50, 20, 30], dealer=2)
    assert st.dealer == 1
    assert st.current_player == 2  # the player to the dealer's left starts and has drawn
    assert len(st.hands[2]) == 7 and len(st.hands[0]) == 6


@pytest.mark.parametrize(("previous", "expected"), [(2, 0), (0, 2), (1, 2)])
def test_dealer_tie_after_dealer(previous: int, expected: int) -> None:
    st = _next_dealer([20, 50, 20], dealer=previous)
    assert st.dealer == expected


def test_dealer_tie_random_draws_among_the_tied() -> None:
    dealers = {
        _next_dealer([20, 50, 20], dealer=2, seed=seed, dealer_tie="random").dealer
        for seed in range(20)
    }
    assert dealers == {0, 2}


# ---------------------------------------------------------------------- the end of the game


def test_the_game_ends_after_round_four() -> None:
    st = _ending("""
        scores: 100 0 0 / 150 0 0 / 120 0 0
        certs: - / - / Tech10
        tokens: 0 / 0 / 0
    """)
    play(st, "raise Tech 11")
    assert st.is_terminal()
    assert st.current_player is None and st.legal_actions() == [] and st.decision == "game_over"
    assert st.round_results()[-1] == [0, 0, 3 * 11]
    assert st.scores() == [100, 150, 153]
    assert st.winners() == [2]
    assert st.visible_events(1)[-1] == {
        "type": "game_over",
        "scores": [100, 150, 153],
        "winners": [2],
    }
    assert_refused(st, 0, "the game is over")


@pytest.mark.parametrize(("rounds", "round_played", "over"), [(2, 2, True), (2, 1, False)])
def test_rounds_option(rounds: int, round_played: int, over: bool) -> None:
    scores = "10 / 0 / 0" if round_played > 1 else "- / - / -"
    st = _ending(f"scores: {scores}; tokens: 0 / 0 / 0", rounds=rounds)
    play(st, "raise Tech 11")
    assert st.is_terminal() is over
    assert st.round == round_played + (0 if over else 1)


@pytest.mark.parametrize(
    ("final_tie", "tokens", "winners"),
    [
        ("shared", [3, 1, 0], [0, 1]),
        ("most_tokens", [1, 3, 0], [1]),
        ("most_tokens", [2, 2, 4], [0, 1]),
    ],
)
def test_final_tie(final_tie: str, tokens: list[int], winners: list[int]) -> None:
    st = _ending(
        f"""
        oil: 1 4
        gem: 1 4
        certs: Oil5 / Gem5 / -
        tokens: {" / ".join(map(str, tokens))}
        """,
        hands="Movie2 / Movie3",
        rounds=1,
        final_tie=final_tie,
    )
    play(st, "raise Tech 11")
    while not st.is_terminal():
        play(st, "exercise done")
    assert st.scores() == [4, 4, 0]
    assert st.winners() == winners


@pytest.mark.parametrize(("frozen_scoring", "points"), [("price", 2 * 6 + 3 * 4), ("zero", 2 * 6)])
def test_frozen_scoring(frozen_scoring: str, points: int) -> None:
    st = _ending(
        """
        oil: 1 6
        gem: 1 2 split freeze
        certs: - / Oil7 Gem11 / -
        tokens: 0 / 0 / 0
        """,
        frozen_scoring=frozen_scoring,
    )
    play(st, "raise Tech 11")
    assert st.round_results() == [[0, points, 0]]
