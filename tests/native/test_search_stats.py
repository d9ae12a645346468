"""The paired search's statistics in C give the Python statistics' numbers, bit for bit."""

from __future__ import annotations

import math
import pickle
import random
import struct

import pytest

from closingbell.bots.ismcts import _Paired
from closingbell.native import _search


def _bits(pair: tuple[float, float]) -> tuple[bytes, bytes]:
    return struct.pack("<d", pair[0]), struct.pack("<d", pair[1])


def _worlds(rng: random.Random, kind: str, count: int, candidates: int) -> list[list[float]]:
    if kind == "uniform":
        return [[rng.random() for _ in range(candidates)] for _ in range(count)]
    if kind == "ties":  # rewards from a few values: zero leads and equal worlds
        return [
            [rng.choice((0.0, 0.25, 0.5, 1.0)) for _ in range(candidates)] for _ in range(count)
        ]
    if kind == "same":
        return [[r] * candidates for r in (rng.random() for _ in range(count))]
    # Tiny and huge magnitudes, where the order of additions shows in the last bits.
    return [
        [rng.uniform(-1, 1) * 10.0 ** rng.randint(-12, 12) for _ in range(candidates)]
        for _ in range(count)
    ]


@pytest.mark.parametrize("kind", ["uniform", "ties", "same", "magnitudes"])
@pytest.mark.parametrize("candidates", [1, 2, 3, 5])
def test_leads_and_settling_are_the_pythons(kind: str, candidates: int) -> None:
    rng = random.Random(f"paired/{kind}/{candidates}")
    python = _Paired(list(range(candidates)), "reference")
    compiled = _Paired(list(range(candidates)), "native")
    assert python.stats is None and compiled.stats is not None
    for world in _worlds(rng, kind, 300, candidates):
        for i in range(candidates):
            assert _bits(compiled.lead(i)) == _bits(python.lead(i))
        for z in (0.5, 1.5, 3.0):
            assert compiled.settled(z) == python.settled(z)
        python.add(world)
        compiled.add(world)
    assert compiled.stats.worlds == 300
    for confidence in (None, 0.0, 1.5):
        assert compiled.choice(confidence) == python.choice(confidence)


def test_the_first_worlds_and_bad_input() -> None:
    stats = _search.PairedStats(2)
    assert stats.lead(1) == (0.0, 0.0)
    stats.add([0.25, 0.75])
    assert stats.lead(1) == (0.5, math.inf)
    with pytest.raises(ValueError, match="one reward per candidate: 2, not 3"):
        stats.add([0.1, 0.2, 0.3])
    with pytest.raises(IndexError, match="no candidate 2"):
        stats.lead(2)
    with pytest.raises(ValueError, match="at least one candidate"):
        _search.PairedStats(0)
    with pytest.raises(TypeError):
        stats.add(["a", "b"])
    assert stats.worlds == 1


def test_statistics_travel_by_pickle_with_their_worlds() -> None:
    stats = _search.PairedStats(3)
    rng = random.Random("paired/pickle")
    for world in _worlds(rng, "magnitudes", 100, 3):
        stats.add(world)
    copy = pickle.loads(pickle.dumps(stats))
    assert copy.worlds == 100
    assert copy.rewards_of_worlds() == stats.rewards_of_worlds()
    for i in range(3):
        assert _bits(copy.lead(i)) == _bits(stats.lead(i))
    copy.add([1.0, 2.0, 3.0])
    assert copy.worlds == 101 and stats.worlds == 100
