"""Settings shared by the whole suite, and the engine each test's states are made on.

``closingbell.load_game(...).new_game(seed)`` and the game's other doors make states on the
compiled engine where it is built, as users get them. Two marks change that for a test:

- ``@pytest.mark.reference``: the doors make the Python rules' states. Tests that craft a
  position by changing a state's fields need them (a compiled state's fields are read-only
  copies), and so do the compiled engine's own tests, where the doors stand for the
  reference the engine is held to.
- the ``each_engine`` fixture (``pytest.mark.usefixtures("each_engine")``): the test runs
  once on each engine, the compiled one and the reference.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import settings

from closingbell import native
from closingbell.core import engines

# Property tests check behaviour, not speed (speed lives in benchmarks/): on a busy
# machine an example may take longer than Hypothesis's default 200 ms deadline, which
# would then fail a correct test as "flaky".
settings.register_profile("closingbell", deadline=None)
settings.load_profile("closingbell")

GAMES = tuple(native.GAME_MODULES)
"""The games that have a compiled engine."""


@contextmanager
def doors_on(engine: str) -> Iterator[None]:
    """Make every game's states on ``engine`` by default while inside."""
    before = {name: engines.default(name) for name in GAMES}
    for name in GAMES:
        native.front_door(name, engine)
    try:
        yield
    finally:
        for name, default in before.items():
            engines.set_default(name, default)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Run a test marked ``reference`` (its fixtures too) on the Python rules."""
    if item.get_closest_marker("reference") is None:
        yield
        return
    with doors_on("reference"):
        yield


@pytest.fixture(params=["native", "reference"])
def each_engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test on the compiled engine, then on the reference; gives the engine's name."""
    with doors_on(request.param):
        yield request.param
