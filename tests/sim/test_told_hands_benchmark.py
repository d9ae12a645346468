"""``benchmarks/told_hands.py``: a search bot told the hands deals its worlds from the truth."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from closingbell import sim
from closingbell.bots.ismcts import ISMCTSBot
from tests import benchmarks

TOLD = "ismcts:iterations=3:candidates=2:playout=heuristic:max_playout=6"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    benchmarks.load("bot_strength")
    return benchmarks.load("told_hands")  # finds bot_strength, loaded first


@pytest.mark.parametrize("name", ["card_stock_market", "take_stock"])
def test_the_told_bots_worlds_hold_every_hand_and_only_the_piles_order_differs(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    plan = sim.match_plan(name, [TOLD, "hard", "hard"], games=3, seed=5)
    task = plan.task(1)
    original = bench.play_to_end
    checked: list[int] = []

    def play_to_end(state: Any, bots: list[Any]) -> int | None:
        told = next(b for b in bots if isinstance(b, ISMCTSBot))
        seat = state.current_player
        for k in range(3):
            world = told.worlds.sample(state.view(seat), random.Random(k))
            assert [list(h) for h in world.hands] == [list(h) for h in state.hands]
            assert Counter(world.draw) == Counter(state.draw)
            assert list(world.draw) != list(state.draw)  # the pile's order is not told
            if name == "take_stock":
                assert list(world.saved) == list(state.saved)
                assert Counter(world.ev_above) == Counter(state.ev_above)
            checked.append(k)
        return original(state, bots)

    monkeypatch.setattr(bench, "play_to_end", play_to_end)
    result = bench.told_game(task)
    assert checked == [0, 1, 2]
    assert result.index == 1 and result.bots == task.bots
    assert len(result.scores) == 3 and sum(result.wins) == pytest.approx(1.0)


def test_figures_and_the_difference_against_the_bot_as_it_plays(
    bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    out = tmp_path / "told"
    usual = tmp_path / "usual.csv"
    sim.run_match("card_stock_market", [TOLD, "hard"], games=4, seed=3, workers=1, out=usual)
    monkeypatch.setattr(
        "sys.argv",
        [
            "told_hands.py",
            "--game=card_stock_market",
            "--players=2",
            "--games=4",
            "--seed=3",
            f"--bot={TOLD}",
            f"--out={out}",
            f"--against={usual}",
        ],
    )
    bench.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("told the hands: 4 games, wins ")
    assert lines[1].startswith("as it plays: 4 games, wins ")
    assert lines[2].startswith("told less as it plays, over 4 games: margin ")
    told = bench.figures(out / "card_stock_market-2p.csv", TOLD)
    assert sorted(told) == [0, 1, 2, 3]
    assert sum(w for w, _ in told.values()) == pytest.approx(
        sum(r.wins[r.bots.index(TOLD)] for r in sim.read_results(out / "card_stock_market-2p.csv"))
    )
    # The same deals as bot_strength's: the games start alike.
    for r, u in zip(
        sim.read_results(out / "card_stock_market-2p.csv"), sim.read_results(usual), strict=True
    ):
        assert (r.index, r.deal_seed, r.bots) == (u.index, u.deal_seed, u.bots)
