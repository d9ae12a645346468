"""The position notation round-trips every state random play reaches, and plays on alike."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import closingbell
from closingbell import PositionError
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.position import FIELDS

COVERED = (
    "seed",
    "round",
    "dealer",
    "turn",
    "cur",
    "phase",
    "rows",
    "splits",
    "frozen",
    "hands",
    "certs",
    "tokens",
    "supply",
    "draw",
    "discard",
    "ev_above",
    "ev_below",
    "ev_discard",
    "ev_active",
    "saved",
    "totals",
    "round_scores",
    "round_reasons",
    "end_reason",
    "known",
    "follow",
    "pair",
    "ev_stock",
    "retrieved",
    "owed",
    "queue",
    "hidden",
    "reshuffles",
)
"""The state fields the notation covers; the rest is bookkeeping derived from them."""

VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "variants": {
        "rounds": 2,
        "insider_order": "take_first",
        "empty_draw": "next_draw",
        "keep_saved_events": False,
        "limit_counts_freeze": True,
        "frozen_scoring": "zero",
        "option_shortage": "nobody",
        "dealer_tie": "random",
        "final_tie": "most_tokens",
        "shares_table": (1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3),
    },
}


_EDIT_WORDS = (
    "Oil5",
    "Gem12",
    "Tech2",
    "?",
    "...",
    "-",
    "/",
    "0",
    "1",
    "3",
    "11",
    "split",
    "freeze",
    "MarketClosed",
    "Audit",
    "SplitOil",
    "exercise",
    "action",
    "waiting",
    "took",
    "owe",
    "discard",
    "market_closed",
    "high_card",
    "game_over",
)
"""Words an edit may put into a position: cards, numbers and the notation's own words."""


def _game(players: int, variant: str) -> TakeStock:
    game = closingbell.load_game("take_stock", players=players, **VARIANTS[variant])
    assert isinstance(game, TakeStock)
    return game


def assert_same_position(s: TakeStockState, t: TakeStockState) -> None:
    """``t`` equals ``s`` in every field the notation covers, and plays the same."""
    for name in COVERED:
        assert getattr(t, name) == getattr(s, name), f"field {name!r} differs"
    assert t.legal_actions() == s.legal_actions()
    assert t.current_player == s.current_player
    assert t.decision == s.decision
    assert t.scores() == s.scores()
    assert t.from_deal is False and t.history == [] and t.log == []


def _round_trip(game: TakeStock, s: TakeStockState) -> TakeStockState:
    text = s.to_position()
    assert "\n" not in text
    t = game.state_from_position(text)
    assert t.to_position() == text
    assert_same_position(s, t)
    t.check_invariants()
    return t


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_state_of_random_games_round_trips(players: int, variant: str) -> None:
    game = _game(players, variant)
    decisions: set[str] = set()
    for seed in range(2):
        s = game.new_game(seed)
        rng = random.Random(f"position/{players}/{variant}/{seed}")
        while True:
            _round_trip(game, s)
            decisions.add(s.decision)
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
    assert {"action", "discard", "choose_event", "exercise", "game_over"} <= decisions


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_game_from_a_position_plays_on_like_the_original(players: int, variant: str) -> None:
    game = _game(players, variant)
    rng = random.Random(f"plays-on/{players}/{variant}")
    rounds_crossed = reshuffles_crossed = 0
    for seed in range(6):
        s = game.new_game(seed)
        while not s.is_terminal():
            if rng.random() < 0.04:
                original, copy = s.clone(), _round_trip(game, s)
                start = (original.round, original.reshuffles)
                for _ in range(60):
                    if original.is_terminal():
                        break
                    action = rng.choice(original.legal_actions())
                    original.apply(action)
                    copy.apply(action)
                    assert copy.to_position() == original.to_position()
                    assert copy.legal_actions() == original.legal_actions()
                copy.check_invariants()
                rounds_crossed += original.round != start[0]
                reshuffles_crossed += original.round == start[0] and original.reshuffles > start[1]
            s.apply(rng.choice(s.legal_actions()))
    assert rounds_crossed > 0
    assert reshuffles_crossed > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=hs.integers(2, 6),
    variant=hs.sampled_from(sorted(VARIANTS)),
    seed=hs.integers(0, 2**63 - 1),
    steps=hs.integers(0, 600),
)
def test_round_trip_at_any_point(players: int, variant: str, seed: int, steps: int) -> None:
    game = _game(players, variant)
    s = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    _round_trip(game, s)


@pytest.mark.reference  # crafts a state by changing its fields
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_sampled_state_round_trips(players: int) -> None:
    game = _game(players, "default")
    s = game.new_game(players)
    rng = random.Random(players)
    for _ in range(80):
        s.apply(rng.choice(s.legal_actions()))
    sampled = game.sample_state(s.view(0), rng)
    assert isinstance(sampled, TakeStockState)
    _round_trip(game, sampled)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 7, 2**63 - 1])
@pytest.mark.parametrize("first_dealer", [None, 0])
def test_a_position_that_names_only_the_seed_is_the_deal(
    players: int, seed: int, first_dealer: int | None
) -> None:
    """The first_dealer option's seat deals; without it the last seat does, so seat 0 opens."""
    reading = closingbell.load_game("take_stock", players=players, first_dealer=first_dealer)
    dealer = players - 1 if first_dealer is None else first_dealer
    dealing = closingbell.load_game("take_stock", players=players, first_dealer=dealer)
    assert isinstance(reading, TakeStock) and isinstance(dealing, TakeStock)
    dealt = dealing.new_game(seed)
    made = reading.state_from_position(f"seed: {seed}")
    assert made.to_position() == dealt.to_position()
    assert_same_position(dealt, made)


def test_the_canonical_text_lists_every_field_in_order() -> None:
    text = _game(3, "default").new_game(1).to_position()
    names = [part.split(":")[0] for part in text.split("; ")]
    assert names == list(FIELDS)


def test_reading_accepts_any_order_lines_and_comments() -> None:
    game = _game(3, "default")
    text = game.new_game(4).to_position()
    parts = text.split("; ")
    shuffled = "# a position\n" + "\n".join(reversed(parts)) + "\n"
    assert game.state_from_position(shuffled).to_position() == text


# ---------------------------------------------------------------------- refused positions

_EXERCISE = "decide: 0 exercise; ended: market_closed"

REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    # Share cards: each once, the 1s in the market, every card somewhere.
    ("hands: Oil5 Oil5 / ... / ...", {}, "hands", "Oil5 is named twice"),
    ("hands: Oil5 Gem2 / ... / ...; certs: - / Oil5 / -", {}, "certs", "also in seat 0's hand"),
    ("oil: 1 5; discard: Oil5", {}, "discard", "also in the Oil row"),
    ("hands: Oil5 ... / ... / ...; draw: Oil5 ...", {}, "draw", "Oil5 is named twice"),
    ("hands: Oil1 Oil2 / ... / ...", {}, "hands", "a starter card"),
    ("hands: Pork5 ... / ... / ...", {}, "hands", "'Pork5' is not a share card"),
    ("draw: Oil5; discard: Oil6", {}, "draw", "share cards are not placed"),
    ("certs: ... / ... / -", {}, "certs", "only one list may end with '...'"),
    ("draw: Oil5 ...; discard: Oil6 ...", {}, "discard", "only one list may end with '...'"),
    ("hands: Oil5 ... Oil6 / ... / ...", {}, "hands", "'...' may only end a list"),
    (
        "hands: " + "? " * 10 + "/ ... / ...; draw: " + "? " * 34,
        {},
        "draw",
        "no unnamed share card is left",
    ),
    # Event cards: the deck's forty, Market Closed never held.
    ("oil: 1 split split split; saved: SplitOil / - / -", {}, "saved", "only 3 SplitOil"),
    ("events_discard: NoChange NoChange NoChange", {}, "events_discard", "only 2 NoChange"),
    ("saved: Upturn / Upturn / -", {}, "saved", "has one Upturn card"),
    ("oil: 1 3 freeze freeze", {}, "oil", "one freeze card at most"),
    ("tech: 1 split split split split", {}, "tech", "4 splits"),
    ("saved: MarketClosed / - / -", {}, "saved", "never saved"),
    ("saved: ... / - / -", {}, "saved", "named, or '?' for each"),
    # Market Closed: at least ten cards under it, on top of the discards once drawn.
    ("events: MarketClosed Audit Audit Audit Audit", {}, "events", "has 4 cards under it"),
    ("events: Audit Freeze MarketClosed ? ? ? ? ? ? ? ? ?", {}, "events", "has 9 cards under"),
    ("events: ? ?", {}, "events", "lies on 10 cards or more"),
    ("events_discard: MarketClosed", {}, "events_discard", "the round has ended"),
    (
        "decide: 0 exercise; events_discard: Audit MarketClosed",
        {},
        "events_discard",
        "it can only be the top card",
    ),
    (f"{_EXERCISE}; events: MarketClosed ...", {}, "events", "belongs on top"),
    (
        f"{_EXERCISE}; events: Audit Audit; events_discard: MarketClosed ...",
        {},
        "events",
        "lay under Market Closed stay in the pile",
    ),
    # Hands: never empty while a round runs; the active player has drawn.
    ("hands: - / ... / ...", {}, "hands", "seat 0's hand is empty in the middle of a round"),
    ("hands: ... / - / ...; decide: 0 discard for market B", {}, "hands", "seat 1's hand is empty"),
    ("hands: Oil5 / ... / ...", {}, "hands", "has just drawn"),
    ("decide: game_over; hands: Oil5 / - / -", {}, "hands", "empty once the game is over"),
    ("shown: Oil5 / - / -; hands: Gem2 Gem3 / ... / ...", {}, "shown", "not in seat 0's hand"),
    ("draw: -", {}, "draw", "never empty while a round runs"),
    # Tokens: thirty in all.
    ("tokens: 20 / 20 / 0", {}, "tokens", "40 tokens held"),
    ("tokens: 4 / 4 / 4; supply: 10", {}, "supply", "make 22, not the 30"),
    ("tokens: 31 / 0 / 0", {}, "tokens", "31 is not from 0 to 30"),
    ("tokens: 4 / 4", {}, "tokens", "3 seats need 3 parts"),
    # Decisions that cannot be pending in the position.
    ("decide: 0 choose_event drew Audit MarketClosed", {}, "decide", "it is never chosen"),
    ("decide: 0 choose_event drew Audit", {}, "decide", "names the two events drawn"),
    ("decide: 0 audit_what Oil", {}, "decide", "a card and a split to remove"),
    ("decide: 0 retrieve Oil", {}, "decide", "nothing more to take"),
    ("decide: 0 retrieve Oil took Gem5; discard: Oil6", {}, "decide", "Gem5 is not Oil"),
    (
        "decide: 0 retrieve Oil took Oil2 Oil3 Oil4; discard: Oil6",
        {},
        "decide",
        "nothing more to take",
    ),
    ("decide: 0 insider_discard Oil owe 2", {}, "decide", "one discard per card retrieved"),
    (
        "decide: 0 insider_discard Oil took Oil5 owe 1; discard: Oil6",
        {"insider_order": "take_first"},
        "decide",
        "already in the hand",
    ),
    ("decide: 1 exercise; ended: market_closed; tokens: 4 / 0 / 4", {}, "decide", "seat 1 waits"),
    ("decide: 1 action; turn: 0", {}, "decide", "cannot decide 'action' on seat 0's turn"),
    ("decide: 0 discard", {}, "decide", "says what it pays for"),
    ("decide: 0 discard for save", {}, "decide", "seat 0 has none"),
    ("decide: 0 discard for play MarketClosed", {}, "decide", "never played"),
    ("decide: 0 downturn_discard waiting 1 2", {}, "decide", "the first seat waiting is 1"),
    ("decide: 0 downturn_discard; aside: - / Oil5 Oil6 / -", {}, "aside", "one from each seat"),
    ("decide: 0 downturn_discard; aside: ? / - / -", {}, "aside", "named one by one"),
    ("aside: Oil5 / - / -", {}, "aside", "only while the seats answer a Downturn"),
    ("decide: 0 freeze_stock; oil: freeze; gem: freeze; tech: freeze", {}, "decide", "3 Freeze"),
    ("oil: 1 11", {}, "oil", "so the round has ended: 'action' cannot be pending"),
    ("oil: 1 11 12", {}, "oil", "it can only be on top"),
    ("decide: 0 exercise; oil: 1 11; movie: 1 12", {}, "movie", "only one row"),
    ("decide: 0 exercise; ended: high_card", {}, "ended", "no row has one"),
    (f"{_EXERCISE}; oil: 1 11", {}, "ended", "'high_card'"),
    ("decide: 2 fly", {}, "decide", "'fly' is not a decision"),
    ("decide: 0 action extra", {}, "decide", "takes no 'extra'"),
    ("decide: 1 game_over", {}, "decide", "nobody decides"),
    # Rounds and scores.
    ("round: 5", {}, "round", "5 is not from 1 to 4"),
    ("round: 2; scores: 1 2 / 3 / 4", {}, "scores", "one number per round"),
    ("scores: 10 / 20 / 30; round: 3", {}, "scores", "after 2 scored rounds, not 1"),
    ("scores: 1 1 1 1 / 1 1 1 1 / 1 1 1 1", {}, "scores", "decide: game_over"),
    ("decide: game_over; round: 3", {}, "round", "only after round 4"),
    ("ended: high_card", {}, "ended", "one reason per round scored"),
    ("scores: 1 / 2 / 3; ended: sunshine", {}, "ended", "'sunshine' is not a reason"),
    # The grammar.
    ("nosuch: 1", {}, "nosuch", "no such field"),
    ("seed: abc", {}, "seed", "not a seed"),
    ("seed: 1; seed: 2", {}, "seed", "given twice"),
    ("turn: 7", {}, "turn", "7 is not from 0 to 2"),
    ("reshuffles: -1", {}, "reshuffles", "-1 is not from 0"),
    ("oil: 1 5 3", {}, "oil", "values rise"),
]


@pytest.mark.parametrize(
    ("text", "options", "field", "reason"),
    [pytest.param(*case, id=f"{case[2]}:{case[3]}") for case in REFUSED],
)
def test_an_impossible_position_is_refused_with_its_field_and_reason(
    text: str, options: dict[str, Any], field: str, reason: str
) -> None:
    game = closingbell.load_game("take_stock", players=3, **options)
    with pytest.raises(PositionError) as info:
        game.state_from_position(text)
    assert info.value.field == field
    assert reason in info.value.reason
    assert str(info.value).startswith(f"position field {field!r}: ")


@pytest.mark.parametrize("players", [2, 6])
def test_per_seat_fields_need_one_part_per_seat(players: int) -> None:
    game = _game(players, "default")
    with pytest.raises(PositionError) as info:
        game.state_from_position("hands: ... / ... / ...")
    assert info.value.field == "hands"
    assert f"{players} seats need {players} parts" in info.value.reason


def test_a_position_is_text() -> None:
    with pytest.raises(PositionError) as info:
        _game(3, "default").state_from_position(b"seed: 1")  # type: ignore[arg-type]
    assert info.value.field is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=hs.integers(2, 6),
    seed=hs.integers(0, 10_000),
    steps=hs.integers(0, 400),
    edits=hs.lists(
        hs.tuples(hs.integers(0, 10_000), hs.sampled_from(_EDIT_WORDS)), min_size=1, max_size=3
    ),
)
def test_an_edited_position_is_read_or_refused_with_a_field(
    players: int, seed: int, steps: int, edits: list[tuple[int, str]]
) -> None:
    """Changing words of a real position gives a playable state or a PositionError."""
    game = _game(players, "default")
    s = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    words = s.to_position().split(" ")
    for at, word in edits:
        at %= len(words)
        if not words[at].endswith(":"):
            words[at] = word + (";" if words[at].endswith(";") else "")
    try:
        t = game.state_from_position(" ".join(words))
    except PositionError as exc:
        assert exc.field in FIELDS
        return
    t.check_invariants()
    assert game.state_from_position(t.to_position()).to_position() == t.to_position()
