"""A seat's review: decisions analysed one at a time give the same review as all at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from closingbell.bots.analysis import Analyst
from closingbell.core.records import GameRecord
from closingbell.text.review import analyze_decision, decisions_of, review, review_data

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _history(record: GameRecord) -> list[int]:
    state = record.start()
    out = []
    for recorded in record.actions:
        out.append(state.string_to_action(recorded.text))
        state.apply(out[-1])
    return out


@pytest.mark.parametrize(
    ("name", "seat"), [("take_stock_2p.cbrec", 0), ("card_stock_market_2p.cbrec", 1)]
)
def test_a_review_made_piece_by_piece_is_the_whole_review(name: str, seat: int) -> None:
    record = GameRecord.read(GOLDEN / name)
    start = record.start()
    history = _history(record)
    indices = decisions_of(start, history, seat)
    state = start.clone()
    for index, action in enumerate(history):
        chose = state.current_player == seat and len(state.legal_actions()) > 1
        assert chose == (index in indices)
        state.apply(action)
    analyst = Analyst(start.game, worlds=3, seed=5)
    # Out of order, each from a fresh replay: as a server's helper processes work.
    analyses = {i: analyze_decision(start, history, i, analyst) for i in reversed(indices)}
    told: list[tuple[int, int]] = []
    whole = review(record, seat, 3, 5, lambda done, total, left: told.append((done, total)))
    assert told == [(k + 1, len(indices)) for k in range(len(indices))]
    for lang in ("en", "zh-Hant"):
        pieces = review_data(
            start, history, seat, analyses, names=record.seats, budget=3, seed=5, lang=lang
        )
        if lang == "en":
            assert pieces == whole
        assert [d["index"] for d in pieces["decisions"]] == indices
        assert pieces["mistakes"] == sum(d["mistake"] for d in pieces["decisions"])


def test_an_analysis_must_be_of_the_seats_own_decision() -> None:
    record = GameRecord.read(GOLDEN / "take_stock_2p.cbrec")
    start = record.start()
    history = _history(record)
    mine = decisions_of(start, history, 0)
    other = decisions_of(start, history, 1)[0]
    analyst = Analyst(start.game, worlds=2, seed=1)
    found = {other: analyze_decision(start, history, other, analyst)}
    with pytest.raises(ValueError, match="not seat 1's decision"):
        review_data(start, history, 0, found, names=record.seats, budget=2, seed=1)
    assert other not in mine
    with pytest.raises(ValueError, match="nobody decides"):
        analyze_decision(start, history, len(history), analyst)
