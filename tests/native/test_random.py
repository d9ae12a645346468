"""The C generator of the compiled engines against Python's own ``random.Random``."""

from __future__ import annotations

import random

import pytest

from closingbell.core.rng import derive_rng
from closingbell.native import _random

TEXTS = [
    "0/shares/1",
    "9223372036854775807/reshuffle/4/17",
    "7/events/3",
    "1/first-dealer",
    "x",
    "é/ü/漢字",  # UTF-8 bytes beyond ASCII
    "a" * 64,  # text and digest make an exact number of words
    "b" * 511,
    "0" * 512,
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_bits_are_pythons(text: str) -> None:
    ours = _random.TextRandom(text)
    theirs = random.Random(text)
    for k in (32, 1, 7, 31, 0, 16, 32, 5, 63, 33, 64, 40) * 200:
        assert ours.getrandbits(k) == theirs.getrandbits(k)


@pytest.mark.parametrize("text", TEXTS)
def test_shuffles_and_ranges_are_pythons(text: str) -> None:
    ours = _random.TextRandom(text)
    theirs = random.Random(text)
    for size in (0, 1, 2, 5, 39, 55, 104, 700):
        a = list(range(size))
        b = list(range(size))
        ours.shuffle(a)
        theirs.shuffle(b)
        assert a == b
        for n in (1, 2, 3, 6, 7, 64, 65, 1000, 2**31 + 5, 2**32 - 1):
            assert ours.randrange(n) == theirs.randrange(n)


def test_derived_generators_are_the_rules_own() -> None:
    rng = random.Random(5)
    for _ in range(300):
        seed = rng.getrandbits(63) >> rng.randrange(63)
        labels = rng.choice(
            [("shares", 1), ("reshuffle", 3, 12), ("deck",), ("deck", "after-setup")]
        )
        a = list(range(55))
        b = list(range(55))
        _random.derive(seed, *labels).shuffle(a)
        derive_rng(seed, *labels).shuffle(b)
        assert a == b


@pytest.mark.parametrize("text", ["", "c" * 513])
def test_texts_out_of_range_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="1 to 512"):
        _random.TextRandom(text)


def test_generators_seeded_together_are_the_rules_own() -> None:
    rng = random.Random(9)
    labels = [("shares", 1), ("events", 12), ("first-dealer",), ("reshuffle", 3, 17), ()]
    for _ in range(150):
        seed = rng.getrandbits(64) >> rng.randrange(64)
        groups = [rng.choice(labels) for _ in range(rng.randint(1, 4))]
        for ours, group in zip(_random.derive_many(seed, *groups), groups, strict=True):
            theirs = derive_rng(seed, *group)
            a = list(range(55))
            b = list(range(55))
            ours.shuffle(a)
            theirs.shuffle(b)
            assert a == b
            assert [ours.getrandbits(32) for _ in range(700)] == [
                theirs.getrandbits(32) for _ in range(700)
            ]


@pytest.mark.parametrize("groups", [[], [("a",)] * 5, [("x" * 600,)]])
def test_seeding_together_refuses_what_it_cannot_seed(groups: list[tuple[str]]) -> None:
    with pytest.raises(ValueError):
        _random.derive_many(1, *groups)


def test_a_python_generator_is_read_in_place_on_this_python() -> None:
    # CPython lays random.Random out as pyrandom_object.h expects; if a later Python did
    # not, the samplers would only be slower (they leave the generator to Python).
    assert _random.in_place_agrees()
    rng = random.Random(3)
    state = rng.getstate()
    _random.in_place_agrees()
    assert rng.getstate() == state
