"""The queries (the Limit, scoring prices, crashes, audits, worth) agree with the rules.

Bots, the narrator and the page ask :mod:`closingbell.games.take_stock.queries` and the
views what a rule would do instead of working it out again; these tests hold the answers to
what the rules then do to the state, over random positions and the options that change them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import events, queries, rules, scoring
from closingbell.games.take_stock.game import TakeStockState

from .craft import make_game, position

OPTIONS: list[dict[str, Any]] = [
    {},
    {"frozen_scoring": "zero", "limit_counts_freeze": True, "crash_counts_one": False},
]


def positions(options: dict[str, Any], games: int = 3) -> Iterator[TakeStockState]:
    """Every position of a few random games under ``options``, at 2 to 4 seats."""
    for seed in range(games):
        game = make_game(2 + seed % 3, **options)
        st = game.new_game(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            yield st
            st.apply(rng.choice(st.legal_actions()))


@pytest.mark.parametrize("options", OPTIONS)
def test_every_view_carries_the_limit_the_scoring_prices_and_the_worth(
    options: dict[str, Any],
) -> None:
    for st in positions(options):
        prices = scoring.scoring_prices(st)
        for seat in (*range(st.n), None):
            view = st.view(seat)
            assert view.limit == rules.limit(st)
            assert list(view.scoring_prices) == prices
            assert list(view.worth) == scoring.score_round(st)
        for s in range(C.NUM_STOCKS):
            zero = st.frozen[s] and options.get("frozen_scoring") == "zero"
            assert prices[s] == (0 if zero else st.prices()[s])


@pytest.mark.parametrize("options", OPTIONS)
def test_the_limit_and_the_raises_written_out_for_speed_agree_with_their_rules(
    options: dict[str, Any],
) -> None:
    for st in positions(options):
        game_options = st.game.options
        counts = [
            queries.row_count(len(st.rows[s]), st.splits[s], st.frozen[s], game_options)
            for s in range(C.NUM_STOCKS)
        ]
        assert queries.limit(st.rows, st.splits, st.frozen, game_options) == max(counts)
        now = st.prices()
        each = [
            queries.scoring_price(now[s], st.frozen[s], game_options) for s in range(C.NUM_STOCKS)
        ]
        assert queries.scoring_prices(now, st.frozen, game_options) == each
        for hand in st.hands:
            laid = [
                c
                for c in hand
                if queries.can_raise(
                    st.rows[c // C.VALUES][-1], st.frozen[c // C.VALUES], c % C.VALUES + 1
                )
            ]
            assert queries.raisable(hand, st.rows, st.frozen) == laid


@pytest.mark.reference  # crafts a state by changing its fields
@pytest.mark.parametrize("options", OPTIONS)
def test_a_crash_and_an_audit_do_what_the_queries_say(options: dict[str, Any]) -> None:
    for i, st in enumerate(positions(options, games=2)):
        if i % 5:
            continue
        opts = st.game.options
        for s in range(C.NUM_STOCKS):
            row, splits = st.rows[s], st.splits[s]
            crashed = st.clone()
            events._crash(crashed, s)
            assert queries.crashed(row, splits, opts) == (crashed.rows[s][-1], crashed.splits[s])
            assert len(crashed.rows[s]) == queries.crash_keeps(len(row), opts)
            assert not crashed.frozen[s]
            by_card, by_split = queries.audits(row, splits)
            if by_card is not None:
                audited = st.clone()
                events._audit_card(audited, 0, s)
                assert by_card == (audited.rows[s][-1], audited.splits[s])
            if by_split is not None:
                audited = st.clone()
                events._audit_split(audited, 0, s)
                assert by_split == (audited.rows[s][-1], audited.splits[s])


def test_the_limit_counts_a_freeze_only_under_its_option() -> None:
    text = "oil: 1 3 7 split freeze; gem: 1 2 3 4"
    assert position(text).view(0).limit == 4
    assert position(text, limit_counts_freeze=True).view(0).limit == 5


def test_a_frozen_stock_scores_nothing_under_frozen_scoring_zero() -> None:
    text = "oil: 1 3 7 freeze; certs: Oil5 / - / -"
    shares = position(text).game.shares[5]
    assert position(text).view(1).worth == (7 * shares, 0, 0)
    zero = position(text, frozen_scoring="zero").view(1)
    assert zero.scoring_prices[C.STOCKS.index("Oil")] == 0 and zero.worth == (0, 0, 0)
