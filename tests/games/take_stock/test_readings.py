"""Readings the texts leave open (docs/rules/take-stock.md): whether a crash's half counts
the row's 1, and what "reaching 11 or 12" means for the end of a round."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import closingbell
from closingbell.core.options import option_infos
from closingbell.games.take_stock.game import TakeStockState
from closingbell.games.take_stock.options import TakeStockOptions

from .craft import card, craft, make_game, play

CORN, GEM = 0, 1


def _crash_gem(row: list[int], splits: int = 0, **options: object) -> TakeStockState:
    """Seat 0 plays a saved Crash Gem on a Gem row (discarding Oil 2)."""
    st = craft(
        make_game(3, **options),
        current=0,
        rows={"Gem": row},
        splits={"Gem": splits},
        hands={0: ["Oil 2", "Oil 3"]},
        saved={0: ["Crash Gem"]},
    )
    play(st, "play Crash Gem", "discard Oil 2")
    return st


def test_by_default_a_crash_counts_the_1_so_a_row_of_1_and_5_loses_the_5() -> None:
    st = _crash_gem([1, 5])
    assert st.rows[GEM] == [1]
    assert st.prices()[GEM] == 1
    assert card("Gem 5") in st.discard


def test_without_the_1_counted_a_row_of_1_and_5_keeps_the_5() -> None:
    st = _crash_gem([1, 5], crash_counts_one=False)
    assert st.rows[GEM] == [1, 5]
    assert st.prices()[GEM] == 5
    assert card("Gem 5") not in st.discard


@pytest.mark.parametrize("counts_one", [True, False])
def test_the_worked_gem_example_is_the_same_under_both_readings(counts_one: bool) -> None:
    """Gem 1, 3, 4, 7, 8 with one split (16) crashes to 4 either way: five cards with the 1
    lose two, and so do four without it."""
    st = _crash_gem([1, 3, 4, 7, 8], splits=1, crash_counts_one=counts_one)
    assert st.rows[GEM] == [1, 3, 4]
    assert st.splits[GEM] == 0
    assert st.prices()[GEM] == 4


@pytest.mark.parametrize(
    ("row", "with_one", "without_one"),
    [
        ([1], [1], [1]),
        ([1, 5], [1], [1, 5]),
        ([1, 3, 5], [1, 3], [1, 3]),
        ([1, 3, 5, 7], [1, 3], [1, 3, 5]),
        ([1, 2, 4, 6, 8, 10], [1, 2, 4], [1, 2, 4, 6]),
    ],
)
def test_the_two_readings_differ_only_for_rows_of_even_length(
    row: list[int], with_one: list[int], without_one: list[int]
) -> None:
    assert _crash_gem(row).rows[GEM] == with_one
    assert _crash_gem(row, crash_counts_one=False).rows[GEM] == without_one


def test_a_market_crash_follows_the_option_for_every_stock() -> None:
    st = craft(
        make_game(3, crash_counts_one=False),
        current=0,
        rows={"Corn": [1, 4], "Gem": [1, 3, 5, 7]},
        hands={0: ["Oil 2", "Oil 3"]},
        saved={0: ["Market Crash"]},
    )
    play(st, "play Market Crash", "discard Oil 2")
    assert st.rows[CORN] == [1, 4] and st.rows[GEM] == [1, 3, 5]


def test_the_option_is_declared_with_the_chinese_figures_default() -> None:
    opts = closingbell.load_game("take_stock", players=3).options
    assert isinstance(opts, TakeStockOptions) and opts.crash_counts_one is True
    info = next(o for o in option_infos(TakeStockOptions) if o.name == "crash_counts_one")
    assert info.check.describe()["kind"] == "boolean"


# ---------------------------------------------------------------------- 11 or 12


def test_a_price_of_12_reached_by_a_split_does_not_end_the_round() -> None:
    """The Chinese "Increase" section speaks of a stock's value reaching 11 or 12; the
    engine ends the round only when an 11 or a 12 card is placed (its round-end list)."""
    st = craft(
        make_game(3),
        current=0,
        rows={"Corn": [1, 2, 6, 8]},
        hands={0: ["Oil 2", "Oil 3"]},
        saved={0: ["Split Corn"]},
    )
    play(st, "play Split Corn", "discard Oil 2")
    assert st.rows[CORN] == [1, 2, 6] and st.splits[CORN] == 1
    assert st.prices()[CORN] == 12  # 6 x 2
    assert st.end_reason is None and st.round == 1
    assert (st.current_player, st.decision) == (1, "action")


def test_a_price_above_12_by_splits_does_not_end_the_round_either() -> None:
    st = craft(
        make_game(3),
        current=0,
        rows={"Gem": [1, 3, 4, 7, 8]},
        splits={"Gem": 1},
        hands={0: ["Oil 2", "Oil 3"]},
        saved={0: ["Split Gem"]},
    )
    play(st, "play Split Gem", "discard Oil 2")
    assert st.prices()[GEM] == 21  # 7 x 3
    assert st.end_reason is None and st.decision == "action"


def test_placing_an_11_card_ends_the_round() -> None:
    st = craft(
        make_game(3),
        current=0,
        rows={"Corn": [1, 2, 6, 8]},
        hands={0: ["Corn 11", "Oil 3"]},
    )
    play(st, "raise Corn 11")
    assert st.end_reason == "high_card"


def test_the_rules_documents_row_of_1_and_5() -> None:
    doc = Path(__file__).resolve().parents[3] / "docs" / "rules" / "take-stock.md"
    text = doc.read_text(encoding="utf-8")
    start = text.index("**Does the crash's \"half\" count the row's 1?**")
    section = text[start : text.index("\n**", start + 1)]
    (block,) = re.findall(r"```text\n(.*?)```", section, re.S)
    for counts_one, price in ((True, 1), (False, 5)):
        st = make_game(3, crash_counts_one=counts_one).state_from_position(block)
        play(st, "play Crash Gem", "discard Oil 2")
        assert st.prices()[GEM] == price
