"""Fixtures of the web tests: a server on a temporary SQLite file, and storage backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from closingbell.bots import LEVELS
from tests.server.helpers import client_for, database, sqlite_database

STORAGE = ["sqlite", "postgresql"]
"""Every database the storage tests run against."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A server on a fresh SQLite file: bots move at once, seeds may be chosen."""
    with client_for(sqlite_database(tmp_path / "web.db")) as test_client:
        yield test_client


@pytest.fixture(params=STORAGE)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each kind in turn (PostgreSQL from CLOSINGBELL_TEST_POSTGRES),
    at the newest migration."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture(params=STORAGE)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each kind in turn with no table at all: a new SQLite file's
    path, an empty PostgreSQL database."""
    with database(request.param, tmp_path, empty=True) as url:
        yield url


QUICK_EXPERT = 0.1
"""Seconds the ``expert`` level thinks a decision under :func:`quick_expert`."""


@pytest.fixture
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``expert`` level, made by the servers these tests run in their own process, thinks
    a tenth of its second a decision: the tests that use it check where and when it thinks,
    not how well, and a bot is sent to a helper process with its settings."""
    kind, settings = LEVELS["expert"]
    monkeypatch.setitem(LEVELS, "expert", (kind, {**settings, "seconds": QUICK_EXPERT}))
