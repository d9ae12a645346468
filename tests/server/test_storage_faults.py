"""Damaged, foreign and shared databases, each built for real: what the server does with them.

A database the server will not use is refused at start with one clear line (a typed
:class:`UnusableDatabaseError` in Python, one line on stderr and a non-zero exit from
``closingbell serve``) and is left as it was; a table whose stored game cannot be rebuilt
is logged once and listed as ``unavailable`` while every other table plays on; a second
server on a database in use is refused, and a killed server leaves no lock behind.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

import closingbell
from closingbell.server import filelock
from closingbell.server.app import create_app
from closingbell.server.filelock import LOCKS_APART
from closingbell.server.hub import Hub
from closingbell.server.settings import Settings
from closingbell.server.store import (
    DatabaseInUseError,
    EmptyDatabaseFileError,
    ForeignDatabaseError,
    Store,
    UnknownSchemaError,
    UnusableDatabaseError,
)
from tests.server.helpers import (
    HTTP,
    act,
    client_for,
    create,
    expect,
    expect_error,
    hello,
    join,
    postgres_database,
    receive,
    run_sql,
    wait_state,
)
from tests.server.test_serve import free_port, server

# ---------------------------------------------------------------- helpers


SCHEMA_TABLES = [
    "actions",
    "alembic_version",
    "api_tokens",
    "chat",
    "leases",
    "puzzle_attempts",
    "puzzle_ratings",
    "puzzles",
    "rating_changes",
    "ratings",
    "rematch_votes",
    "results",
    "seats",
    "servers",
    "sessions",
    "tables",
    "tournament_entries",
    "tournament_games",
    "tournaments",
    "users",
]
"""The tables of a closingbell database, sorted."""
SCHEMA_HEAD = "0010"
"""The newest migration, which a database made or upgraded by a server is at."""


def table_names(url: str) -> list[str]:
    async def run() -> list[str]:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                return sorted(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))
        finally:
            await store.close()

    return asyncio.run(run())


def start(url: str) -> None:
    """Start (and stop) a server on ``url`` in this process, through ``create_app``."""
    with client_for(url) as client:
        assert client.get("/api/health").status_code == 200


def made(url: str) -> str:
    """``url`` after a server has set it up (and stopped)."""
    start(url)
    return url


def sqlite_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


def serve_refused(database: str, tmp_path: Path) -> tuple[int, str]:
    """Run ``closingbell serve`` on ``database``; it must exit: its status and stderr."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    command = [sys.executable, "-m", "closingbell.cli.main", "serve"]
    done = subprocess.run(
        [*command, "--port", str(free_port()), "--database", database],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stderr


def assert_one_line(stderr: str, *words: str) -> None:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("closingbell serve: "), stderr
    assert "Traceback" not in stderr
    for word in words:
        assert word in lines[0], (word, stderr)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


# ---------------------------------------------------------------- databases refused at start


def test_a_zero_byte_file_is_refused_and_left_as_it_was(sqlite_url: str) -> None:
    path = sqlite_path(sqlite_url)
    path.touch()
    with pytest.raises(EmptyDatabaseFileError, match="0 bytes"), TestClient(create_app(sqlite_url)):
        pass
    assert path.stat().st_size == 0
    assert not path.with_name(path.name + "-wal").exists()


def test_a_zero_byte_file_is_refused_even_with_its_write_ahead_log_beside_it(
    sqlite_url: str,
) -> None:
    path = sqlite_path(sqlite_url)
    wal = path.with_name(path.name + "-wal")
    with client_for(sqlite_url) as client:
        create(client, "take_stock", ["open", "open"])
        log = wal.read_bytes()  # the table, not yet copied into the file
    path.write_bytes(b"")
    wal.write_bytes(log)
    with pytest.raises(EmptyDatabaseFileError, match=r"keep games\.db-wal"):
        start(sqlite_url)
    assert path.stat().st_size == 0
    assert wal.read_bytes() == log


def test_a_missing_file_is_a_new_database(sqlite_url: str) -> None:
    path = sqlite_path(sqlite_url)
    start(sqlite_url)
    assert path.stat().st_size > 0
    start(sqlite_url)  # ... and is found again, with its schema, the next time


def test_a_zero_byte_file_is_refused_by_serve_in_one_line(sqlite_url: str, tmp_path: Path) -> None:
    sqlite_path(sqlite_url).touch()
    code, stderr = serve_refused(sqlite_url, tmp_path)
    assert code != 0
    assert_one_line(stderr, str(sqlite_path(sqlite_url)), "0 bytes", "delete the file")


@pytest.mark.parametrize(
    "content",
    [os.urandom(8192), b'{"game": "take_stock", "seed": 3}\n' * 40],
    ids=["random-bytes", "a-json-file"],
)
def test_a_file_that_is_not_sqlite_is_refused(
    sqlite_url: str, tmp_path: Path, content: bytes
) -> None:
    path = sqlite_path(sqlite_url)
    path.write_bytes(content)
    with pytest.raises(ForeignDatabaseError, match="not an SQLite database"):
        start(sqlite_url)
    assert path.read_bytes() == content
    code, stderr = serve_refused(sqlite_url, tmp_path)
    assert code != 0
    assert_one_line(stderr, "not an SQLite database")
    assert path.read_bytes() == content


def test_another_applications_sqlite_database_is_refused_untouched(
    sqlite_url: str, tmp_path: Path
) -> None:
    path = sqlite_path(sqlite_url)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
        conn.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)")
        conn.execute("INSERT INTO users (email) VALUES ('ana@example.org')")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(ForeignDatabaseError, match="orders, users"):
        start(sqlite_url)
    code, stderr = serve_refused(sqlite_url, tmp_path)
    assert code != 0
    assert_one_line(stderr, "not a closingbell database", "orders, users")
    assert path.read_bytes() == before  # not even switched to write-ahead logging
    assert not path.with_name(path.name + "-wal").exists()


def test_a_postgresql_database_with_other_tables_is_refused_untouched(tmp_path: Path) -> None:
    with postgres_database(empty=True) as url:
        run_sql(url, "CREATE TABLE invoices (id serial PRIMARY KEY, total numeric)")
        with pytest.raises(ForeignDatabaseError, match="invoices"):
            start(url)
        assert table_names(url) == ["invoices"]
        code, stderr = serve_refused(url, tmp_path)
        assert code != 0
        assert_one_line(stderr, "not a closingbell database", "invoices")
        assert "closingbell_test:closingbell_test@" not in stderr  # the password is hidden
        assert table_names(url) == ["invoices"]


def test_an_empty_postgresql_database_is_set_up() -> None:
    with postgres_database(empty=True) as url:
        start(url)
        assert table_names(url) == SCHEMA_TABLES


def test_an_empty_sqlite_database_is_set_up(sqlite_url: str) -> None:
    with sqlite3.connect(sqlite_path(sqlite_url)) as conn:
        conn.execute("PRAGMA user_version = 0")
        conn.execute("VACUUM")  # a valid database file with no table in it
    conn.close()
    start(sqlite_url)
    assert table_names(sqlite_url) == SCHEMA_TABLES


def test_a_schema_at_an_unknown_migration_is_refused(database_url: str, tmp_path: Path) -> None:
    made(database_url)
    run_sql(database_url, "UPDATE alembic_version SET version_num = '9f3e1a2b7c4d'")
    with pytest.raises(UnknownSchemaError, match="9f3e1a2b7c4d"):
        start(database_url)
    code, stderr = serve_refused(database_url, tmp_path)
    assert code != 0
    assert_one_line(stderr, "9f3e1a2b7c4d", "upgrade closingbell")


def test_a_schema_with_two_migrations_recorded_is_refused(database_url: str) -> None:
    made(database_url)
    run_sql(database_url, "INSERT INTO alembic_version (version_num) VALUES ('0001x')")
    with pytest.raises(UnknownSchemaError):
        start(database_url)
    run_sql(database_url, "DELETE FROM alembic_version WHERE version_num = '0001x'")
    run_sql(database_url, "DELETE FROM alembic_version")
    with pytest.raises(UnknownSchemaError, match="0 migrations"):
        start(database_url)


@pytest.mark.parametrize(
    ("damage", "match"),
    [
        ("DROP TABLE seats", "table 'seats' is missing"),
        ("ALTER TABLE tables DROP COLUMN clock", "misses the columns clock"),
    ],
    ids=["missing-table", "missing-column"],
)
def test_a_schema_missing_a_part_is_refused(database_url: str, damage: str, match: str) -> None:
    made(database_url)
    run_sql(database_url, damage)
    with pytest.raises(UnknownSchemaError, match=match):
        start(database_url)


def test_a_database_that_cannot_be_reached_is_refused_in_one_line(tmp_path: Path) -> None:
    unreachable = f"postgresql://nobody:secret@127.0.0.1:{free_port()}/nothing"
    with pytest.raises(UnusableDatabaseError, match="cannot use"):
        start(unreachable)
    code, stderr = serve_refused(unreachable, tmp_path)
    assert code != 0
    assert_one_line(stderr, "cannot use")
    assert "secret" not in stderr
    missing = str(tmp_path / "no such folder" / "games.db")
    code, stderr = serve_refused(missing, tmp_path)
    assert code != 0
    assert_one_line(stderr, "cannot use", "no such folder")


def test_hub_start_raises_the_typed_error_too(sqlite_url: str) -> None:
    sqlite_path(sqlite_url).touch()

    async def run() -> None:
        hub = Hub(Store(sqlite_url), Settings())
        with pytest.raises(EmptyDatabaseFileError):
            await hub.start()

    asyncio.run(run())


# ---------------------------------------------------------------- one server per database


def test_a_second_server_on_the_same_sqlite_file_is_refused(sqlite_url: str) -> None:
    with client_for(sqlite_url) as first:
        table = create(first, "take_stock", ["open", "open"], seed=3)
        with pytest.raises(DatabaseInUseError, match="in use by another closingbell server"):
            start(sqlite_url)
        assert first.get(f"/api/tables/{table['id']}").status_code == 200
    start(sqlite_url)  # the lock ends with the first server


def test_a_refused_start_leaves_no_lock(sqlite_url: str) -> None:
    path = sqlite_path(sqlite_url)
    path.touch()
    with pytest.raises(EmptyDatabaseFileError):
        start(sqlite_url)
    path.unlink()
    start(sqlite_url)


def other_name(path: Path, how: str) -> Path:
    """Another name for the file at ``path``: a hard link, a symbolic link or a ``..`` path."""
    if how == "hard-link":
        os.link(path, path.with_name("linked.db"))
        return path.with_name("linked.db")
    if how == "symlink":
        path.with_name("symlinked.db").symlink_to(path)
        return path.with_name("symlinked.db")
    (path.parent / "sub").mkdir()
    return path.parent / "sub" / ".." / path.name


def opened(url: str) -> Store:
    """A store opened on ``url`` (its lock held until it is closed)."""
    store = Store(url)
    asyncio.run(store.open())
    return store


def closed(store: Store) -> None:
    asyncio.run(store.close())


@pytest.mark.parametrize("how", ["hard-link", "symlink", "dot-dot"])
def test_one_server_per_sqlite_file_whatever_path_names_it(sqlite_url: str, how: str) -> None:
    # SQLite keeps a write-ahead log per path: two servers on two names of one file would
    # each keep their own, and games would be lost.
    first = opened(sqlite_url)
    other = f"sqlite:///{other_name(sqlite_path(sqlite_url), how)}"
    try:
        with pytest.raises(DatabaseInUseError, match="in use by another closingbell server"):
            opened(other)
        # A restore into the other name is refused as well: it takes the same lock.
        with pytest.raises(DatabaseInUseError):
            asyncio.run(Store(other).lock())
    finally:
        closed(first)
    closed(opened(other))  # the lock ends with the first server


@pytest.mark.skipif(not LOCKS_APART, reason="the lock is on the database file on Linux only")
def test_the_refusal_names_the_process_holding_the_database(sqlite_url: str) -> None:
    first = opened(sqlite_url)
    try:
        with pytest.raises(DatabaseInUseError, match=rf"\(process {os.getpid()}\)"):
            opened(sqlite_url)
    finally:
        closed(first)
    # The lock is the file's own: no lock file is left beside it.
    assert not sqlite_path(sqlite_url).with_name("games.db.lock").exists()


def test_a_new_database_is_made_whole_under_its_name(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = sqlite_path(sqlite_url)
    links: list[Path] = []
    real_link = os.link

    def link(source: str | Path, target: str | Path) -> None:
        # The file is complete before it takes the database's name: never 0 bytes there.
        assert Path(source).read_bytes().startswith(b"SQLite format 3\x00")
        links.append(Path(target))
        real_link(source, target)

    monkeypatch.setattr(filelock.os, "link", link)
    start(sqlite_url)
    assert links == ([path] if LOCKS_APART else [])
    # Nothing is left of the making (a server stopped cleanly leaves no log either).
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "games.db",
        *(["games.db.lock"] if not LOCKS_APART else []),
    ]


def test_a_new_database_is_made_on_a_file_system_without_hard_links(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def link(source: str | Path, target: str | Path) -> None:
        raise PermissionError(1, "Operation not permitted")  # as on FAT

    monkeypatch.setattr(filelock.os, "link", link)
    start(sqlite_url)
    start(sqlite_url)
    assert [p.name for p in sqlite_path(sqlite_url).parent.glob(".*")] == []


def test_a_database_in_a_missing_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no such folder" / "games.db"
    with pytest.raises(UnusableDatabaseError, match="no such folder"):
        start(f"sqlite:///{missing}")
    assert not missing.parent.exists()


def test_elsewhere_than_linux_the_lock_is_a_file_beside_the_real_path(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On BSD and macOS flock and SQLite's own locks meet, so the file itself cannot carry it.
    monkeypatch.setattr(filelock, "LOCKS_APART", False)
    first = opened(sqlite_url)
    try:
        lock = sqlite_path(sqlite_url).with_name("games.db.lock")
        assert lock.read_text() == f"{os.getpid()}\n"
        with pytest.raises(DatabaseInUseError, match=rf"\(process {os.getpid()}\)"):
            opened(f"sqlite:///{other_name(sqlite_path(sqlite_url), 'symlink')}")
    finally:
        closed(first)


def test_a_second_serve_is_refused_and_a_killed_one_leaves_no_lock(
    sqlite_url: str, tmp_path: Path
) -> None:
    database_url = sqlite_url  # PostgreSQL takes many servers: tests/server/test_cluster.py
    with server(database_url, tmp_path) as (base, process):
        made = HTTP.post(
            f"{base}/api/tables", json={"game": "take_stock", "seats": ["random", "random"]}
        )
        table_id = made.json()["table"]["id"]
        code, stderr = serve_refused(database_url, tmp_path)
        assert code != 0
        assert_one_line(stderr, "in use by another closingbell server")
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    # Killed without a chance to clean up: the next server starts all the same.
    with server(database_url, tmp_path) as (base, _):
        assert HTTP.get(f"{base}/api/tables/{table_id}").status_code == 200


# ---------------------------------------------------------------- damaged tables

PLAYED = 6
"""Actions played at the table that gets damaged (and at its healthy neighbour)."""


def play_table(client: TestClient, seed: int) -> tuple[str, list[str]]:
    """A Take Stock table of two people, ``PLAYED`` actions in; its id and tokens."""
    table = create(client, "take_stock", ["open", "open"], seed=seed)
    tokens = [join(client, table["id"], name)["token"] for name in ("Ana", "Bob")]
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}") as ws0,
        client.websocket_connect(f"/ws/tables/{table['id']}") as ws1,
    ):
        messages = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
        for version in range(PLAYED):
            mover = messages[0]["current_player"]
            act((ws0, ws1)[mover], version, messages[mover]["legal"][0]["id"])
            messages = [expect(ws0, "state"), expect(ws1, "state")]
    return table["id"], tokens


ONE_ROUND = {"rounds": 1}
"""The options of the tables bots play to the end here: a finished table is all these tests
need, and one round of four ends it sooner."""


def wait_finished(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.02)


def illegal_at(step: int, url: str, table_id: str) -> int:
    """An action id that the rules refuse at ``step`` of the stored table."""

    async def run() -> list[int]:
        store = Store(url)
        try:
            row = await store.tables.load(table_id)
        finally:
            await store.close()
        assert row is not None
        state = closingbell.load_game(row.game, **row.options).new_game(row.seed)
        for action in row.actions[:step]:
            state.apply(action)
        return list(state.legal_actions())

    legal = set(asyncio.run(run()))
    return next(a for a in range(10_000) if a not in legal)


DAMAGE: dict[str, list[str]] = {
    "options-not-json": ["UPDATE tables SET options = '{\"players\": 2,' WHERE id = :id"],
    "options-not-an-object": ["UPDATE tables SET options = '[2, 4]' WHERE id = :id"],
    "options-deeply-nested": ["UPDATE tables SET options = :deep WHERE id = :id"],
    "unknown-game": ["UPDATE tables SET game = 'chess' WHERE id = :id"],
    "options-the-game-refuses": [
        'UPDATE tables SET options = \'{"players": 2, "rounds": -3}\' WHERE id = :id'
    ],
    "options-of-another-player-count": [
        "UPDATE tables SET options = '{\"players\": 3}' WHERE id = :id"
    ],
    "a-missing-seat": ["DELETE FROM seats WHERE table_id = :id AND seat = 1"],
    "a-seat-of-unknown-kind": ["UPDATE seats SET kind = 'alien' WHERE table_id = :id"],
    "an-unknown-bot": [
        "UPDATE seats SET kind = 'bot', bot = 'grandmaster' WHERE table_id = :id AND seat = 1"
    ],
    "an-illegal-action": [
        "UPDATE actions SET action = :illegal WHERE table_id = :id AND number = 3"
    ],
    "a-missing-action": ["DELETE FROM actions WHERE table_id = :id AND number = 2"],
    "a-version-ahead-of-the-actions": ["UPDATE tables SET version = version + 1 WHERE id = :id"],
    "a-version-behind-the-actions": ["UPDATE tables SET version = version - 1 WHERE id = :id"],
    "a-seed-out-of-range": ["UPDATE tables SET seed = -5 WHERE id = :id"],
    "an-unknown-status": ["UPDATE tables SET status = 'paused' WHERE id = :id"],
    "finished-before-the-end": ["UPDATE tables SET status = 'finished' WHERE id = :id"],
    "waiting-after-actions": [
        "UPDATE tables SET status = 'waiting' WHERE id = :id",
        "UPDATE seats SET kind = 'open', name = NULL, token_hash = NULL "
        "WHERE table_id = :id AND seat = 1",
    ],
    "a-clock-out-of-range": ["UPDATE tables SET clock = -60 WHERE id = :id"],
    "a-position-the-game-refuses": ["UPDATE tables SET position = 'seed: x' WHERE id = :id"],
    "a-position-of-another-seed": ["UPDATE tables SET position = 'seed: 123' WHERE id = :id"],
}
"""Each kind of damage to one stored table, as SQL (``:id`` is the table)."""

SQLITE_DAMAGE: dict[str, list[str]] = {
    "a-seed-that-is-text": ["UPDATE tables SET seed = 'abc' WHERE id = :id"],
    "a-seed-too-large-for-an-integer": ["UPDATE tables SET seed = 1e40 WHERE id = :id"],
    "a-version-that-is-text": ["UPDATE tables SET version = 'six' WHERE id = :id"],
    "a-clock-that-is-text": ["UPDATE tables SET clock = 'soon' WHERE id = :id"],
    "a-position-that-is-a-number": ["UPDATE tables SET position = 42 WHERE id = :id"],
    "an-action-that-is-text": [
        "UPDATE actions SET action = 'raise' WHERE table_id = :id AND number = 1"
    ],
}
"""Damage only SQLite can hold: it keeps a value of any type in any column."""


def damage(url: str, table_id: str, statements: list[str]) -> None:
    run_sql(
        url,
        *statements,
        id=table_id,
        illegal=illegal_at(3, url, table_id),
        deep="[" * 5000 + "]" * 5000,
    )


def check_damaged_tables(
    url: str,
    kinds: dict[str, list[str]],
    caplog: pytest.LogCaptureFixture,
    *,
    finished: tuple[str, ...] = (),
) -> None:
    """One table played and damaged for each kind of damage, beside a healthy table and a
    finished one: every damaged table is unavailable (logged once), the others play on.

    The damaged tables share one database, so one server start reads them all; each keeps
    its own damage, and every check below is made table by table, named by its kind.
    ``finished``: kinds whose damage marks the table finished. Finished tables are not
    replayed at start, so the lobby shows such a table as stored until someone opens it.
    """
    with client_for(url, tables_per_minute=0) as client:
        bad = {kind: play_table(client, seed=5)[0] for kind in kinds}
        good, tokens = play_table(client, seed=6)
        over = create(client, "take_stock", ["random", "random"], seed=7, options=ONE_ROUND)["id"]
        wait_finished(client, over)
    for kind, table_id in bad.items():
        damage(url, table_id, kinds[kind])
    caplog.set_level(logging.INFO, logger="closingbell.server")
    with client_for(url) as client:
        for kind in finished:
            assert client.get(f"/api/tables/{bad[kind]}").status_code == 503, kind
        for _ in range(2):
            listed = client.get("/api/tables")
            assert listed.status_code == 200, listed.text
            by_id = {t["id"]: t for t in listed.json()["tables"]}
            for kind, table_id in bad.items():
                assert by_id[table_id]["status"] == "unavailable", kind
                assert by_id[table_id]["seats"] == [], kind
            assert by_id[good]["status"] == "playing"
            assert by_id[good]["version"] == PLAYED
            assert by_id[over]["status"] == "finished"
        for kind, table_id in bad.items():
            for route in ("", "/view", "/record", "/replay"):
                answer = client.get(f"/api/tables/{table_id}{route}")
                assert answer.status_code == 503, (kind, route, answer.text)
                assert answer.json()["error"]["code"] == "table_unavailable", (kind, route)
                assert "log" in answer.json()["error"]["message"], (kind, route)
            joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
            assert joined.status_code == 503, kind
            assert joined.json()["error"]["code"] == "table_unavailable", kind
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                expect_error(ws, "table_unavailable")
                assert receive(ws) == {"type": "closed", "code": 4503}, kind
        # The healthy table plays on.
        with client.websocket_connect(f"/ws/tables/{good}") as ws:
            shown = hello(ws, tokens[0])
            if shown["current_player"] != 0:
                ws.close()
                with client.websocket_connect(f"/ws/tables/{good}") as ws1:
                    shown = hello(ws1, tokens[1])
                    act(ws1, PLAYED, shown["legal"][0]["id"])
                    assert wait_state(ws1, lambda m: True)["version"] == PLAYED + 1
            else:
                act(ws, PLAYED, shown["legal"][0]["id"])
                assert wait_state(ws, lambda m: True)["version"] == PLAYED + 1
        assert create(client, "take_stock", ["open", "medium"])["status"] == "waiting"
    for kind, table_id in bad.items():
        reports = [r for r in caplog.records if table_id in r.getMessage()]
        assert len(reports) == 1, (kind, [r.getMessage() for r in reports])
        assert reports[0].levelno == logging.ERROR, kind
        assert "unavailable" in reports[0].getMessage(), kind


def test_every_kind_of_damaged_table_is_unavailable_and_the_rest_plays_on(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    check_damaged_tables(database_url, DAMAGE, caplog, finished=("finished-before-the-end",))


def test_a_value_of_the_wrong_type_makes_a_table_unavailable(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    check_damaged_tables(sqlite_url, SQLITE_DAMAGE, caplog)


def test_an_unreadable_time_spoils_nothing(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        table_id, tokens = play_table(client, seed=8)
    run_sql(sqlite_url, "UPDATE tables SET created_at = 'yesterday' WHERE id = :id", id=table_id)
    with client_for(sqlite_url) as client:
        listed = client.get("/api/tables")
        assert listed.status_code == 200, listed.text
        assert listed.json()["tables"][0]["status"] == "playing"
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert hello(ws, tokens[0])["version"] == PLAYED


def finished_table(url: str) -> str:
    """A table of two bots, played to the end."""
    with client_for(url) as client:
        table_id = create(client, "take_stock", ["random", "random"], seed=9, options=ONE_ROUND)[
            "id"
        ]
        wait_finished(client, table_id)
    return table_id


def test_a_damaged_finished_table_is_unavailable_once_opened(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    table_id = finished_table(database_url)
    damage(database_url, table_id, DAMAGE["an-illegal-action"])
    caplog.set_level(logging.INFO, logger="closingbell.server")
    with client_for(database_url) as client:
        # Finished tables are not replayed at start: the lobby shows the stored row...
        assert client.get("/api/tables").json()["tables"][0]["status"] == "finished"
        # ... until the table is opened and its replay fails.
        answer = client.get(f"/api/tables/{table_id}/record")
        assert answer.status_code == 503
        assert answer.json()["error"]["code"] == "table_unavailable"
        assert client.get("/api/tables").json()["tables"][0]["status"] == "unavailable"
        assert client.get(f"/api/tables/{table_id}/replay").status_code == 503
    assert len([r for r in caplog.records if table_id in r.getMessage()]) == 1


def test_a_finished_table_with_unreadable_options_is_listed_as_unavailable(
    database_url: str,
) -> None:
    table_id = finished_table(database_url)
    damage(database_url, table_id, DAMAGE["options-not-json"])
    with client_for(database_url) as client:
        listed = client.get("/api/tables")
        assert listed.status_code == 200, listed.text
        shown = listed.json()["tables"][0]
        assert (shown["id"], shown["status"], shown["title"]) == (
            table_id,
            "unavailable",
            "Take Stock",
        )
        assert client.get(f"/api/tables/{table_id}").status_code == 503


def test_every_table_damaged_still_lets_the_lobby_list_and_open_tables(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        ids = [play_table(client, seed=s)[0] for s in range(3)]
    for table_id, kind in zip(
        ids, ["unknown-game", "an-unknown-status", "a-missing-seat"], strict=True
    ):
        damage(sqlite_url, table_id, DAMAGE[kind])
    with client_for(sqlite_url) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert sorted(t["id"] for t in listed) == sorted(ids)
        assert {t["status"] for t in listed} == {"unavailable"}
        assert {t["title"] for t in listed} == {"chess", "Take Stock"}
        assert create(client, "take_stock", ["open", "open"])["status"] == "waiting"
