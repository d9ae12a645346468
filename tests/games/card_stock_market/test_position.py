"""The position notation: every reachable state round-trips, and impossible ones are refused."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from closingbell import PositionError
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState
from closingbell.games.card_stock_market.state import PHASE_NAMES

from .craft import assert_refused, make_game, play
from .hidden import perturb_card_stock_market

# The fields the notation covers, as the state holds them.
COVERED = (
    "n",
    "seed",
    "dealer",
    "turn",
    "turns",
    "cur",
    "phase",
    "piles",
    "busted",
    "prices",
    "hands",
    "certs",
    "held",
    "cash",
    "debt",
    "bank",
    "levies",
    "draw",
    "discard",
    "jokers_out",
    "joker_by",
    "reshuffled",
    "trades",
    "sales",
    "changes",
    "discards",
    "bought",
    "sold",
)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"bank_money": None},
    {"debt_repayment": "end_of_turn", "bank_money": 0, "starting_money": 100},
    {"same_suit_trades": False, "bankrupt_buying": "forbidden"},
    {"face_raise_limited": True, "strip": [1, 1, 2, 2, 4, 4, 5, 5], "ace_at_setup": False},
    {"bank_money": 0, "starting_money": 100, "levy": 30},
]


def assert_same_position(s: CardStockMarketState, t: CardStockMarketState) -> None:
    """``t`` agrees with ``s`` on every field the notation covers and on what follows."""
    for name in COVERED:
        assert getattr(t, name) == getattr(s, name), f"field {name!r} differs"
    assert t.legal_actions() == s.legal_actions()
    assert t.current_player == s.current_player
    assert t.decision == s.decision
    assert t.scores() == s.scores()


def round_trip(game: CardStockMarket, s: CardStockMarketState) -> CardStockMarketState:
    """Write ``s``, read it back, and check the copy; return it."""
    text = s.to_position()
    t = game.state_from_position(text)
    assert t.to_position() == text
    assert_same_position(s, t)
    assert not t.from_deal and t.history == [] and t.log == []
    t.check_invariants()
    return t


def _play_on(
    game: CardStockMarket, s: CardStockMarketState, t: CardStockMarketState, rng: random.Random
) -> bool:
    """Apply the same random actions to both; return whether a reshuffle happened on the way."""
    crossed = False
    for _ in range(40):
        if s.is_terminal():
            break
        action = rng.choice(s.legal_actions())
        before = s.reshuffled
        s.apply(action)
        t.apply(action)
        t.check_invariants()
        crossed |= s.reshuffled and not before
        assert t.to_position() == s.to_position()
    return crossed


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_every_state_of_random_play_round_trips(players: int, options: dict[str, Any]) -> None:
    game = make_game(players, **options)
    rng = random.Random(players * 100 + len(options))
    crossed = 0
    seen: set[str] = set()
    for seed in range(2):
        s = game.new_game(seed)
        step = 0
        while True:
            t = round_trip(game, s)
            seen.add(s.decision)
            near_reshuffle = not s.reshuffled and len(s.draw) <= 6
            if step % 25 == 0 or (near_reshuffle and rng.random() < 0.3):
                crossed += _play_on(game, s.clone(), t, random.Random(step))
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
            step += 1
    assert crossed, "no continuation crossed the reshuffle"
    assert seen == set(PHASE_NAMES)


def test_fields_may_come_in_any_order_on_lines_of_their_own() -> None:
    game = make_game(4)
    rng = random.Random(8)
    for seed in range(10):
        st = _played(game, seed, rng.randrange(400))
        text = st.to_position()
        fields = text.split("; ")
        rng.shuffle(fields)
        lines = ["# a position, one field a line", *fields, ""]
        assert game.state_from_position("\n".join(lines)).to_position() == text


@pytest.mark.parametrize("repayment", ["immediate", "end_of_turn"])
def test_states_with_levies_and_debts_round_trip(repayment: str) -> None:
    game = make_game(4, bank_money=0, starting_money=100, debt_repayment=repayment)
    rng = random.Random(3)
    levied = owed = both = 0
    for seed in range(3):
        s = game.new_game(seed)
        while True:
            t = round_trip(game, s)
            levied += s.levies > 0
            owed += any(s.debt)
            both += any(d and c for d, c in zip(s.debt, s.cash, strict=True))
            if s.is_terminal():
                break
            if owed and rng.random() < 0.05:
                _play_on(game, s.clone(), t, random.Random(seed))
            legal = s.legal_actions()
            # Buy, push prices up with face cards, sell: the bank soon runs dry.
            raises = [a for a in legal if 104 <= a < 156 and (a - 104) % 13 >= 10]
            sells = [a for a in legal if 52 <= a < 104]
            buys = [a for a in legal if a < 52]
            if raises:
                action = rng.choice(raises)
            elif s.changes and sells:
                action = rng.choice(sells)
            else:
                action = rng.choice(buys or [a for a in legal if not 52 <= a < 104])
            s.apply(action)
    assert levied and owed
    assert both or repayment == "immediate"


def test_a_short_position_fills_in_the_rest() -> None:
    game = make_game(3)
    st = game.state_from_position("market: 9S; hands: 4S 6S JS QS KS 2S AS 10S / ... / ...")
    assert st.prices == [5, 5, 5, 9]
    assert st.current_player == 0 and st.dealer == 2 and st.decision == "turn"
    with pytest.raises(PositionError) as err:
        game.state_from_position("market: 9S 4S")
    assert err.value.field == "market"


# ---------------------------------------------------------------------- refused positions

H8 = "7D QD 2S 3S 10C AH KH 4C"
"""Eight cards for a hand."""
H7 = "QD 2S 3S 10C AH KH 4C"
"""Seven cards for a hand."""
OVER = f"decide: game_over; turn: 0; discarded: 1; hands: {H7} / ... / ...; draw: Joker ..."
"""A game that ended when seat 0 drew a joker after discarding one card."""

REFUSED: list[tuple[str, dict[str, Any], str | None, str]] = [
    # The grammar.
    ("market 9S", {}, None, "is not a field written 'name: value'"),
    ("colour: red", {}, "colour", "no such field"),
    ("seed: 1; seed: 2", {}, "seed", "the field is given twice"),
    ("seed: -1", {}, "seed", "is not a seed"),
    (f"seed: {2**63}", {}, "seed", "is not a seed"),
    # Whose turn, and the decision.
    ("turn_number: 0", {}, "turn_number", "0 is not from 1 to"),
    ("dealer: 3", {}, "dealer", "3 is not from 0 to 2"),
    ("dealer: 0; decide: 0 turn", {}, "dealer", "turn number 1 is seat 1's, not seat 0's"),
    ("decide: 0 buy", {}, "decide", "is neither a seat and a decision"),
    ("decide: 3 turn", {}, "decide", "3 is not from 0 to 2"),
    ("decide: 1 turn; turn: 0", {}, "turn", "seat 1 must decide, so it is seat 1's turn"),
    ("decide: game_over; jokers: drawn", {}, "turn", "the game is over: say whose turn"),
    ("jokers: drawn", {}, "jokers", "a drawn joker ends the game at once"),
    ("jokers: maybe", {}, "jokers", "is not 'aside'"),
    (OVER + "; jokers: draw", {}, "jokers", "once it is over the jokers are 'drawn'"),
    # What was done this turn.
    ("decide: 0 trading; bought: D D; sold: H", {}, "sold", "3 transactions"),
    ("decide: 0 trading; bought: X", {}, "bought", "'X' is not a suit letter"),
    ("decide: 0 market; changed: 3", {}, "changed", "3 is not from 0 to 2"),
    ("decide: 0 turn; bought: D", {}, "bought", "nothing is done yet"),
    ("decide: 0 trading", {}, "bought", "follows a purchase or a sale"),
    ("decide: 0 market", {}, "changed", "follows a market change"),
    ("decide: 0 discarding", {}, "discarded", "follows a discard"),
    ("decide: 0 discarding; discarded: 4", {}, "discarded", "ends the turn at once"),
    ("decide: 0 trading; bought: D; discarded: 1", {}, "discarded", "neither trades nor"),
    ("decide: 0 trading; bought: D C; changed: 1", {}, "changed", "end the turn at once"),
    ("decide: 0 market; changed: 2; sold: D", {}, "changed", "end the turn at once"),
    (
        "decide: 0 trading; bought: H; sold: H",
        {"same_suit_trades": False},
        "sold",
        "Hearts was both bought and sold this turn",
    ),
    (
        f"decide: game_over; turn: 0; hands: {H7} / ... / ...; draw: Joker ...",
        {},
        "decide",
        "the last turn played a card",
    ),
    # The market.
    ("market: 9S 4S", {}, "market", "so 4S cannot follow 9S in its pile"),
    ("market: 5S 9S", {}, "market", "so 9S cannot follow 5S in its pile"),
    ("market: 5S 7S", {"strip": [3, 3, 3, 3, 3, 3, 1, 3]}, "market", "rise by at most $1"),
    ("market: QS", {}, "market", "the Spades pile starts with QS"),
    ("market: AS", {"ace_at_setup": False}, "market", "a number card from 2 to 10"),
    ("market: Joker", {}, "market", "a joker is never played to the market"),
    ("market: 7X", {}, "market", "'7X' is not a card"),
    ("market: 5S ...", {}, "market", "may not end this list"),
    ("market: ?", {}, "market", "may not stand for a card"),
    ("market: 9S; bankrupt: S", {}, "bankrupt", "only a face card on top bankrupts"),
    ("bankrupt: Q", {}, "bankrupt", "'Q' is not a suit letter"),
    ("market: 5S KS", {"face_raise_limited": True}, "bankrupt", "cannot be a raise there"),
    ("prices: 5 5 5", {}, "prices", "four prices"),
    ("market: 9S; prices: 5 5 5 8", {}, "prices", "Spades stands at $9 (its top card is 9S)"),
    ("market: 5S JS; prices: 5 5 5 0", {}, "prices", "Spades stands at $11"),
    ("market: 5S JS; bankrupt: S; prices: 5 5 5 11", {}, "prices", "stands at $0 (bankrupt)"),
    ("prices: 5 5 5 14", {}, "prices", "14 is not from 0 to 13"),
    # The cards.
    ("hands: 7D 7D 7D QD 2S 3S 10C AH / ... / ...", {}, "hands", "a third 7D"),
    ("market: 7D; hands: 7D 7D ... / ... / ...", {}, "hands", "a third 7D"),
    ("certs: 5H / 5H / 5H", {}, "certs", "a third 5H"),
    ("draw: 5H 5H 5H ...", {}, "draw", "a third 5H"),
    ("hands: Joker ... / ... / ...", {}, "hands", "a joker is set aside until the reshuffle"),
    ("certs: Joker / - / -", {}, "certs", "a joker is set aside"),
    ("discard: Joker ...", {}, "discard", "a joker is set aside"),
    ("hands: 7D QD / ... / ...", {}, "hands", "seat 0 must hold 8 cards (its turn has just"),
    ("hands: ... / 7D QD / ...", {}, "hands", "seat 1 must hold 8 cards (every turn ends"),
    (
        f"decide: 0 trading; bought: D; hands: {H8} / ... / ...",
        {},
        "hands",
        "seat 0 must hold 7 cards (8 less the 1 played from its hand this turn), not 8",
    ),
    (
        f"decide: 0 trading; sold: D; hands: {H7} / ... / ...; discard: 7D ...",
        {},
        "hands",
        "seat 0 must hold 8 cards (its turn has just begun), not 7",
    ),
    (f"hands: {H8} 9S ... / ... / ...", {}, "hands", "seat 0 must hold 8 cards, and 9 are named"),
    ("hands: 5C 5C ... / ... / ...", {}, "market", "Clubs has no pile named, and both 5C"),
    ("draw: -", {}, "draw", "the draw pile is empty"),
    ("jokers: draw; draw: 5D 6D", {}, "draw", "it names 0 of the jokers, but with 'jokers: draw'"),
    ("jokers: aside; draw: Joker ...", {}, "draw", "it names 1 of the jokers"),
    ("draw: Joker Joker Joker ...", {}, "draw", "a third Joker"),
    ("draw: 5D; discard: -", {}, "discard", "cards are not placed"),
    ("draw: 5D ? 6D; discard: 7D ? ?", {}, "discard", "cards are not placed"),
    ("certs: 10S 3S / - / -", {}, "certs", "seat 0 holds 13 shares of Spades"),
    ("certs: - / JS QS KS / -", {}, "certs", "seat 1 holds 15 shares of Spades"),
    (
        "market: 5H QH; bankrupt: H; certs: 5H / - / -",
        {"bankrupt_buying": "forbidden"},
        "certs",
        "seat 0 holds Hearts, which is bankrupt",
    ),
    (OVER + "; certs: 5H / - / -", {}, "certs", "all stock has been sold"),
    (
        f"decide: game_over; turn: 0; discarded: 1; hands: {H8} / ... / ...; draw: Joker ...",
        {},
        "hands",
        "seat 0 drew the joker while drawing back up to 8",
    ),
    (
        "decide: 0 discarding; discarded: 2; hands: QD 2S 3S 10C AH KH / ... / ...; discard: -",
        {},
        "discard",
        "2 cards went to the discard pile this turn, but it holds 0",
    ),
    # Money.
    ("cash: 200 / 200", {}, "cash", "3 seats need 3 parts"),
    ("cash: -5 / 200 / 200", {}, "cash", "-5 is not from 0"),
    ("cash: 2000 / 200 / 200", {}, "cash", "the seats hold $2,400, more than the game's $1,840"),
    ("bank: 100", {}, "bank", "cash $600 and the bank's $100 make $700, not the game's $1,840"),
    ("bank: unlimited", {}, "bank", "this game's bank holds money"),
    ("bank: 5", {"bank_money": None}, "bank", "this game's bank is unlimited"),
    ("debts: 5 / 0 / 0", {"bank_money": None}, "debts", "an unlimited bank never levies"),
    ("levies: 1", {"bank_money": None}, "levies", "an unlimited bank never levies"),
    (
        "cash: 0 / 200 / 200; debts: 250 / 0 / 0; levies: 2",
        {},
        "debts",
        "seat 0 owes $250, more than 2 levies of $100 could leave unpaid",
    ),
    ("cash: 10 / 200 / 200; debts: 5 / 0 / 0", {}, "debts", "money received repays a debt first"),
    (
        "cash: 200 / 10 / 200; debts: 0 / 5 / 0",
        {"debt_repayment": "end_of_turn"},
        "debts",
        "only the seat whose turn it is can hold both",
    ),
    ("debts: x / 0 / 0", {}, "debts", "'x' is not a whole number"),
    ("levies: many", {}, "levies", "'many' is not a whole number"),
]


@pytest.mark.parametrize(("text", "options", "field", "reason"), REFUSED)
def test_an_impossible_position_is_refused_with_its_field_and_reason(
    text: str, options: dict[str, Any], field: str | None, reason: str
) -> None:
    game = make_game(3, **options)
    with pytest.raises(PositionError) as caught:
        game.state_from_position(text)
    assert caught.value.field == field, str(caught.value)
    assert reason in caught.value.reason, str(caught.value)


# ---------------------------------------------------------------------- short positions


def test_an_empty_position_is_a_fresh_table() -> None:
    st = make_game(3).state_from_position("")
    assert st.seed == 0 and st.turns == 1 and st.dealer == 2 and st.current_player == 0
    assert st.decision == "turn" and st.trades == st.changes == st.discards == 0
    assert st.piles == [[C.kind(s, 5)] for s in range(4)] and st.prices == [5, 5, 5, 5]
    assert [len(h) for h in st.hands] == [8, 8, 8] and st.certs == [[], [], []]
    assert st.cash == [200] * 3 and st.debt == [0] * 3 and st.bank == 1240 and st.levies == 0
    assert len(st.draw) == 104 - 4 - 24 and st.discard == [] and st.jokers_out == 2
    assert not st.reshuffled and not st.from_deal and st.history == [] and st.log == []
    again = make_game(3).state_from_position("seed: 0")
    assert again.to_position() == st.to_position()
    other = make_game(3).state_from_position("seed: 1")
    assert other.hands != st.hands  # the seed orders the unnamed cards


@pytest.mark.parametrize(
    ("text", "seat", "dealer", "number"),
    [
        ("", 0, 2, 1),
        ("dealer: 0", 1, 0, 1),
        ("turn: 2", 2, 1, 1),
        ("decide: 1 turn", 1, 0, 1),
        ("turn_number: 5; turn: 1", 1, 2, 5),
        ("turn_number: 4; dealer: 0", 1, 0, 4),
    ],
)
def test_whose_turn_follows_from_what_is_given(
    text: str, seat: int, dealer: int, number: int
) -> None:
    st = make_game(3).state_from_position(text)
    assert (st.current_player, st.turn, st.dealer, st.turns) == (seat, seat, dealer, number)


def test_the_first_dealer_option_is_the_default_dealer() -> None:
    game = make_game(3, first_dealer=1)
    st = game.state_from_position("")
    assert st.dealer == 1 and st.current_player == 2
    st = game.state_from_position("turn: 0")
    assert st.dealer == 2 and st.current_player == 0


def test_unnamed_cards_fill_the_open_places() -> None:
    game = make_game(2)
    # '?' is one unnamed card; '...' fills a hand to its size or takes the rest of the cards.
    st = game.state_from_position("hands: 7D ? ? ... / ...; draw: ? 5D ? ...")
    assert len(st.hands[0]) == 8 and C.parse_card("7D") in st.hands[0]
    top = st.draw[::-1]
    assert top[1] == C.parse_card("5D") and len(st.draw) == 104 - 4 - 16
    # With the draw pile named in full, the rest goes under the discard pile.
    st = game.state_from_position("draw: 5D 6D; discard: 8C ...")
    assert st.draw == [C.parse_card("6D"), C.parse_card("5D")]
    assert st.discard[-1] == C.parse_card("8C") and len(st.discard) == 104 - 4 - 16 - 2
    # After the reshuffle, the jokers not named go to the bottom of an open draw pile.
    st = game.state_from_position("jokers: draw")
    assert st.reshuffled and st.draw[:2] == [C.JOKER, C.JOKER] and st.jokers_out == 0


def test_money_defaults_keep_every_dollar() -> None:
    st = make_game(3).state_from_position("cash: 100 / 300 / 0")
    assert st.bank == 1240 + 200 * 3 - 400
    st = make_game(3).state_from_position("cash: 0 / 200 / 200; debts: 250 / 0 / 0")
    assert st.levies == 3  # the fewest levies that leave $250 unpaid
    st = make_game(3, bank_money=None).state_from_position("cash: 500 / 0 / 0")
    assert st.bank == 600 - 500 and "bank: unlimited" in st.to_position()


def test_a_debtor_may_hold_cash_during_its_own_turn_under_end_of_turn_repayment() -> None:
    game = make_game(3, debt_repayment="end_of_turn")
    st = game.state_from_position("cash: 48 / 200 / 200; debts: 70 / 0 / 0")
    assert st.cash[0] == 48 and st.debt[0] == 70
    st.apply_string("done")
    assert st.cash[0] == 0 and st.debt[0] == 22


def test_every_accepted_short_position_writes_a_full_one_that_reads_back() -> None:
    game = make_game(4, same_suit_trades=False)
    texts = [
        "",
        "market: 2H JH 9S; bankrupt: H; certs: 5H / - / - / -",
        "decide: 2 market; changed: 1; bought: -; hands: ... / ... / ? ? ? ? ? ? ? / ...",
        "decide: 1 trading; bought: C; sold: D; hands: ... / ... / ... / ...; discard: 2D ...",
        "jokers: draw; draw: 5D Joker ...",
        f"decide: game_over; turn: 0; discarded: 1; hands: {H7} / ... / ... / ...; draw: Joker ...",
    ]
    for text in texts:
        st = game.state_from_position(text)
        st.check_invariants()
        full = st.to_position()
        assert game.state_from_position(full).to_position() == full


# ---------------------------------------------------------------------- views and sampling


def _played(game: CardStockMarket, seed: int, steps: int) -> CardStockMarketState:
    st = game.new_game(seed)
    rng = random.Random(seed * 7 + steps)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


@pytest.mark.reference  # crafts a state by changing its fields
def test_views_and_sampling_work_on_positions_after_the_reshuffle() -> None:
    checked = over = 0
    for players in (2, 4, 6):
        game = make_game(players)
        rng = random.Random(players)
        for seed in range(3):
            s = game.new_game(seed)
            while not s.is_terminal():
                s.apply(rng.choice(s.legal_actions()))
                if not s.reshuffled or (rng.random() > 0.15 and not s.is_terminal()):
                    continue
                t = game.state_from_position(s.to_position())
                for _ in range(rng.randrange(12)):  # the position's game goes on
                    if t.is_terminal():
                        break
                    t.apply(rng.choice(t.legal_actions()))
                over += t.is_terminal()
                for seat in [*range(players), None]:
                    view = t.view(seat)
                    # The table knows which cards are hidden, not where: the new pile held
                    # every card now hidden, and each seat drew all the cards it holds.
                    assert view.reshuffle_hand_sizes == (0,) * players
                    for _ in range(2):
                        sample = game.sample_state(view, rng)
                        assert sample.view(seat) == view
                        sample.check_invariants()
                    # A sampled state (with its fresh 63-bit seed) is a position too.
                    round_trip(game, sample)
                    changed = perturb_card_stock_market(t, seat, rng)
                    assert changed.view(seat) == view
                    checked += 1
    assert checked > 100 and over > 0


def _swap_hidden(st: CardStockMarketState, seat: int, rng: random.Random) -> CardStockMarketState:
    """A copy with one card of ``seat``'s hand swapped for another from the draw pile."""
    new = st.clone()
    hand = new.hands[seat]
    choices = [(i, j) for i, a in enumerate(hand) for j, b in enumerate(new.draw) if a != b]
    choices = [(i, j) for i, j in choices if new.draw[j] != C.JOKER]
    i, j = rng.choice(choices)
    hand[i], new.draw[j] = new.draw[j], hand[i]
    hand.sort()
    new.seed = rng.getrandbits(40)
    rng.shuffle(new.draw)
    return new


@pytest.mark.reference  # crafts a state by changing its fields
@pytest.mark.parametrize("players", [2, 3, 5])
def test_what_a_position_hides_from_a_seat_never_reaches_its_view(players: int) -> None:
    game = make_game(players)
    rng = random.Random(players)
    noticed = 0
    for seed in range(6):
        # Within a game's usual length (a 5-player game takes about 80 actions).
        s = _played(game, seed, rng.randrange(0, 80))
        if s.is_terminal():
            continue
        for viewer in [*range(players), None]:
            holder = rng.choice([q for q in range(players) if q != viewer])
            t1 = game.state_from_position(s.to_position())
            t2 = game.state_from_position(_swap_hidden(s, holder, rng).to_position())
            assert t1.to_position() != t2.to_position()
            assert t1.view(viewer) == t2.view(viewer)
            noticed += t1.view(holder) != t2.view(holder)
    assert noticed > 0


# ---------------------------------------------------------------------- any text at all

TOKENS = [
    "7D",
    "KS",
    "Joker",
    "...",
    "?",
    "-",
    "/",
    "0",
    "1",
    "2",
    "13",
    "200",
    "99999",
    "S",
    "game_over",
    "trading",
    "aside",
    "draw",
    "drawn",
    "unlimited",
]


def _read_mangled(
    game: CardStockMarket,
    st: CardStockMarketState,
    drops: set[int],
    edits: list[tuple[int, int, str]],
) -> bool:
    """Mangle ``st``'s position and read it: refused, or sound. Return whether it was read."""
    fields = [part.split(": ", 1) for part in st.to_position().split("; ")]
    for field, at, token in edits:
        name, value = fields[field % len(fields)]
        tokens = value.split(" ")
        tokens[at % len(tokens)] = token
        fields[field % len(fields)] = [name, " ".join(tokens)]
    kept = [f"{name}: {value}" for i, (name, value) in enumerate(fields) if i not in drops]
    try:
        t = game.state_from_position("\n".join(kept))
    except PositionError:
        return False
    t.check_invariants()
    full = t.to_position()
    assert game.state_from_position(full).to_position() == full
    rng = random.Random(len(full))
    for seat in [*range(game.players), None]:
        assert game.sample_state(t.view(seat), rng).view(seat) == t.view(seat)
    return True


@settings(max_examples=200, deadline=None)
@given(
    players=hs.integers(2, 6),
    options=hs.sampled_from(OPTION_SETS),
    seed=hs.integers(0, 1000),
    steps=hs.integers(0, 400),
    mangling=hs.tuples(
        hs.sets(hs.integers(0, 30), max_size=4),
        hs.lists(hs.tuples(hs.integers(0, 30), hs.integers(0, 200), hs.sampled_from(TOKENS))),
    ),
)
def test_a_mangled_position_is_refused_or_sound(
    players: int,
    options: dict[str, Any],
    seed: int,
    steps: int,
    mangling: tuple[set[int], list[tuple[int, int, str]]],
) -> None:
    game = make_game(players, **options)
    _read_mangled(game, _played(game, seed, steps), *mangling)


def test_mangled_positions_are_both_refused_and_accepted() -> None:
    rng = random.Random(0)
    outcomes: Counter[bool] = Counter()
    for _ in range(300):
        game = make_game(rng.randrange(2, 7), **rng.choice(OPTION_SETS))
        st = _played(game, rng.randrange(1000), rng.randrange(400))
        drops = {rng.randrange(21) for _ in range(rng.randrange(3))}
        edits = [
            (rng.randrange(21), rng.randrange(200), rng.choice(TOKENS))
            for _ in range(rng.randrange(3))
        ]
        outcomes[_read_mangled(game, st, drops, edits)] += 1
    assert outcomes[True] > 30 and outcomes[False] > 30, outcomes


# ---------------------------------------------------------------------- the docs' examples

DOCS = Path(__file__).resolve().parents[3] / "docs"


def _examples(path: Path, heading: str) -> list[str]:
    """The ``text`` code blocks of the section of ``path`` that starts with ``heading``."""
    text = "\n" + path.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end >= 0 else len(text)]
    return re.findall(r"```text\n(.*?)```", section, re.DOTALL)


def test_the_positions_doc_examples_read_and_the_full_one_round_trips() -> None:
    game = make_game(3)
    examples = _examples(DOCS / "positions.md", "## Card Stock Market")
    assert len(examples) >= 7
    full = [e.strip() for e in examples if "\n" not in e.strip()]
    assert len(full) == 1 and game.state_from_position(full[0]).to_position() == full[0]
    for example in examples:
        game.state_from_position(example).check_invariants()


def test_the_rules_doc_figures_as_positions() -> None:
    game = make_game(3)
    buying, strip, face = _examples(
        DOCS / "rules" / "card-stock-market.md", "## Worked examples as positions"
    )
    st = game.state_from_position(buying)
    play(st, "buy 7D")
    assert st.cash[0] == 200 - 28 and st.bank == 1240 + 28 and st.held[0][1] == 7
    assert "decide: 0 trading; bought: D;" in st.to_position()
    st = game.state_from_position(strip)
    assert_refused(
        st, "market 4S", "Spades may fall by at most $3 a card; 4S would lower it from $9 to $4"
    )
    play(st, "market 6S")
    assert st.prices[3] == 6
    st = game.state_from_position(face)
    play(st, "market QS")
    assert st.prices[3] == 12
    st = game.state_from_position(face)
    play(st, "bankrupt QS")
    assert st.held[1] == [0, 0, 0, 0] and st.discard[-1] == C.parse_card("10S")
    assert "bankrupt: S; prices: 5 5 5 0;" in st.to_position()
