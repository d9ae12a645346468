"""The figures the rulebook works through, each written as a short position and played out.

The positions are the ones docs/rules/take-stock.md shows beside each example; every field
they leave out takes its default (seat 0 to act, four tokens each, unnamed cards dealt).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from closingbell.games.take_stock import cards as C

from .craft import card, event, legal_names, play, position

CORN, GEM, OIL, TECH, MOVIE = range(5)

SPLIT = """
    corn: 1 2 3 5 7 split
    hands: Gem2 Gem3 / Gem4 Gem5 / ...
    saved: SplitCorn / SplitCorn / -
"""

CRASH = """
    gem: 1 3 4 7 8 split
    hands: Oil2 Oil3 / Gem5 Gem6 Tech9 / ...
    saved: CrashGem / - / -
"""

LIMIT = """
    oil: 1 3 7 split split
    hands: Movie5 Movie9 / ... / ...
    certs: Corn2 Corn3 Corn4 Corn5 / - / -
"""

ROUND_END = """
    # Shoana (seat 0), Kris (1) and Dave (2): Dave has drawn Market Closed.
    decide: 2 exercise
    ended: market_closed
    corn: 1 4 7 split split
    gem: 1 4 8
    oil: 1 4 8 10 split
    tech: 1 4 split split split
    movie: 1 2
    hands: Oil12 Tech9 Gem2 / Gem5 Tech6 / Movie3
    certs: Corn10 Corn8 / Gem12 / Movie6
"""


def test_split_example_corn_14_then_15_then_12() -> None:
    st = position(SPLIT)
    assert st.prices()[CORN] == 14  # 7 x 2

    play(st, "play Split Corn", "discard Gem 2")
    assert st.rows[CORN] == [1, 2, 3, 5]
    assert st.splits[CORN] == 2
    assert st.prices()[CORN] == 15  # 5 x 3: the 7 went to the discard pile
    assert st.discard[-1] == card("Corn 7")

    assert st.current_player == 1
    play(st, "play Split Corn", "discard Gem 4")
    assert st.rows[CORN] == [1, 2, 3]
    assert st.splits[CORN] == 3
    assert st.prices()[CORN] == 12  # 3 x 4: the 5 went too
    assert st.discard[-1] == card("Corn 5")


def test_crash_example_gem_16_to_4() -> None:
    st = position(CRASH)
    assert st.prices()[GEM] == 16
    play(st, "play Crash Gem", "discard Oil 2")
    assert st.rows[GEM] == [1, 3, 4]
    assert st.splits[GEM] == 0
    assert st.prices()[GEM] == 4
    assert st.discard[-2:] == [card("Gem 8"), card("Gem 7")]
    assert st.ev_discard.count(event("Split Gem")) == 1
    # The 5 and the 6, too low before the crash, may now raise Gem.
    assert st.current_player == 1
    assert {"raise Gem 5", "raise Gem 6"} <= set(legal_names(st))


def test_limit_example_four_certificates_may_save() -> None:
    st = position(LIMIT)
    assert {"save Movie 5", "save Movie 9"} <= set(legal_names(st))


def test_limit_example_five_certificates_may_not() -> None:
    st = position(LIMIT.replace("Corn5 /", "Corn5 Corn6 /"))
    assert not [a for a in legal_names(st) if a.startswith("save")]


def test_round_end_example_shoana_scores_197() -> None:
    st = position(ROUND_END)
    assert st.prices() == [21, 8, 20, 16, 2]
    assert st.end_reason == "market_closed"
    assert st.ev_discard[-1] == C.MARKET_CLOSED

    # Dave, then Shoana and Kris, in turn order from the player whose turn it was.
    play(st, "exercise done")
    assert st.current_player == 0
    play(st, "exercise Oil 12", "exercise Tech 9", "exercise done")
    assert st.current_player == 1
    play(st, "exercise done")

    shoana = 3 * 20 + 2 * 16 + 5 * 21
    assert shoana == 197
    assert st.round_results() == [[197, 3 * 8, 2 * 2]]
    assert st.round_end_reasons() == ["market_closed"]
    assert st.scores() == [197, 24, 4]
    assert st.tokens == [2, 4, 4]
    assert C.TOTAL_TOKENS - sum(st.tokens) == st.supply == 20
    assert st.round == 2 and st.decision == "action"


def test_round_end_example_dave_draws_market_closed() -> None:
    """The moment before: Dave plays the market and the next event card is Market Closed."""
    st = position(
        ROUND_END.replace("decide: 2 exercise", "turn: 2")
        .replace("ended: market_closed", "events: MarketClosed ...")
        .replace("/ Movie3", "/ Corn3 Movie3")
    )
    play(st, "market B", "discard Corn 3")
    assert st.end_reason == "market_closed"
    assert (st.current_player, st.decision) == (2, "exercise")
    after = position(ROUND_END)
    for name in ("rows", "splits", "hands", "certs", "tokens", "queue", "end_reason"):
        assert getattr(st, name) == getattr(after, name), name


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


@pytest.mark.parametrize(
    "example", [SPLIT, CRASH, LIMIT, ROUND_END], ids=["split", "crash", "limit", "round-end"]
)
def test_the_rules_document_shows_each_example_as_this_position(example: str) -> None:
    doc = Path(__file__).parents[3] / "docs" / "rules" / "take-stock.md"
    blocks = re.findall(r"```text\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert _lines(example) in [_lines(b) for b in blocks]


def test_the_positions_document_examples_are_read() -> None:
    doc = Path(__file__).parents[3] / "docs" / "positions.md"
    section = doc.read_text(encoding="utf-8").split("\n## Take Stock")[1].split("\n## ")[0]
    blocks = re.findall(r"```text\n(.*?)```", section, re.S)
    assert len(blocks) == 4
    for block in blocks:
        if "; " in block:  # a canonical text, broken over lines for reading
            text = " ".join(block.split())
            players = text.split("hands: ")[1].split(";")[0].count("/") + 1
            assert position(text, players).to_position() == text
        else:
            position(block).check_invariants()
