"""Summary maths on hand-made results: Wilson intervals, fractional wins, seats, ratings."""

from __future__ import annotations

import math

import pytest

from closingbell import sim
from tests.sim.helpers import result


def test_wilson_interval_matches_textbook_values() -> None:
    low, high = sim.wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    assert sim.wilson_interval(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert sim.wilson_interval(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    assert sim.wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_takes_fractional_wins() -> None:
    low, high = sim.wilson_interval(7.5, 10)
    # p = 0.75, n = 10, z = 1.96: (p + z^2/2n) / (1 + z^2/n) +/- ...
    z = 1.959963984540054
    centre = (0.75 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.75 * 0.25 / 10 + z * z / 400) / (1 + z * z / 10)
    assert (low, high) == (pytest.approx(centre - half), pytest.approx(centre + half))
    seven, eight = sim.wilson_interval(7, 10), sim.wilson_interval(8, 10)
    assert seven[0] < low < eight[0] and seven[1] < high < eight[1]


def test_intervals_narrow_with_more_games() -> None:
    intervals = [sim.wilson_interval(n / 2, n) for n in (10, 100, 1000)]
    widths = [high - low for low, high in intervals]
    assert widths[0] > widths[1] > widths[2]
    assert widths[2] == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 1000), rel=1e-2)


def test_mean_interval_is_normal_approximation() -> None:
    values = [1.0, 2.0, 3.0, 4.0]
    low, high = sim.mean_interval(values) or (0, 0)
    sd = math.sqrt(sum((v - 2.5) ** 2 for v in values) / 3)
    assert low == pytest.approx(2.5 - 1.959964 * sd / 2)
    assert high == pytest.approx(2.5 + 1.959964 * sd / 2)
    assert sim.mean_interval([5.0]) is None


GAMES = [
    result(0, ("a", "b"), (10, 5), (1.0, 0.0), length=10),
    result(1, ("b", "a"), (7, 7), (0.5, 0.5), length=20),  # a shared first place
    result(2, ("a", "b"), (3, 9), (0.0, 1.0), length=30),
    result(3, ("b", "a"), (2, 8), (0.0, 1.0), length=40, rounds=2),
]


def test_summary_counts_fractional_wins_per_bot() -> None:
    summary = sim.summarize(GAMES)
    assert summary["games"] == 4
    assert summary["players"] == 2
    assert summary["even_win_rate"] == 0.5
    assert list(summary["bots"]) == ["a", "b"], "best win rate first"
    a, b = summary["bots"]["a"], summary["bots"]["b"]
    assert (a["games"], a["wins"], a["win_rate"]) == (4, 2.5, 0.625)
    assert (b["games"], b["wins"], b["win_rate"]) == (4, 1.5, 0.375)
    assert a["ci95"] == pytest.approx(list(sim.wilson_interval(2.5, 4)))
    assert a["mean_score"] == 7.0
    assert b["mean_score"] == 5.75
    assert a["score_ci95"] == pytest.approx(list(sim.mean_interval([10, 7, 3, 8]) or []))
    assert "Wilson" in summary["intervals"]


def test_summary_win_rate_by_seat_and_length() -> None:
    summary = sim.summarize(GAMES)
    seats = summary["seats"]
    assert [s["seat"] for s in seats] == [0, 1]
    assert [s["wins"] for s in seats] == [1.5, 2.5]
    assert [s["win_rate"] for s in seats] == [0.375, 0.625]
    assert seats[0]["mean_score"] == (10 + 7 + 3 + 2) / 4
    length = summary["length"]
    assert (length["mean"], length["min"], length["max"]) == (25, 10, 40)
    assert length["mean_rounds"] == (4 + 4 + 4 + 2) / 4


def test_a_bot_seated_twice_counts_twice() -> None:
    games = [
        result(0, ("r", "r", "h"), (1, 2, 3), (0.0, 0.0, 1.0)),
        result(1, ("h", "r", "r"), (5, 5, 1), (0.5, 0.5, 0.0)),
    ]
    bots = sim.summarize(games)["bots"]
    assert bots["r"]["games"] == 4 and bots["r"]["wins"] == 0.5
    assert bots["h"]["games"] == 2 and bots["h"]["wins"] == 1.5
    assert sum(b["wins"] for b in bots.values()) == len(games)


def test_ratings_put_the_stronger_bot_first() -> None:
    games = [
        result(
            i,
            ("strong", "weak") if i % 2 == 0 else ("weak", "strong"),
            (9, 1) if i % 2 == 0 else (1, 9),
            (1.0, 0.0) if i % 2 == 0 else (0.0, 1.0),
        )
        for i in range(20)
    ]
    rated = sim.ratings(games)
    assert rated["strong"]["mu"] > 25 > rated["weak"]["mu"]
    assert rated["strong"]["sigma"] < 25 / 3
    summary = sim.summarize(games)
    assert summary["bots"]["strong"]["rating"] == rated["strong"]
    assert summary["bots"]["strong"]["ci95"][0] > 0.8
    assert "rating" not in sim.summarize(games, rate=False)["bots"]["strong"]


def test_ratings_treat_a_shared_first_place_as_a_tie() -> None:
    games = [result(i, ("a", "b"), (5, 5), (0.5, 0.5)) for i in range(6)]
    rated = sim.ratings(games)
    assert rated["a"]["mu"] == pytest.approx(rated["b"]["mu"])


def test_format_summary_shows_every_bot_and_seat() -> None:
    summary = sim.summarize(GAMES)
    text = sim.format_summary(summary, heading="a v b")
    lines = text.splitlines()
    assert lines[0] == "a v b"
    assert any(line.startswith("a ") and "62.5%" in line for line in lines)
    assert any(line.startswith("b ") and "37.5%" in line for line in lines)
    assert any(line.startswith("seat 1") and "62.5%" in line for line in lines)
    assert "Wilson" in text and "Plackett-Luce" in text
