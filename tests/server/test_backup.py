"""``closingbell backup`` and ``closingbell restore``, against SQLite and PostgreSQL alike:
a table played on a server comes back whole on a server started on the restored database,
and every refusal changes nothing and says why in one line."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from closingbell.cli.main import main
from closingbell.server.filelock import LOCKS_APART
from closingbell.server.store import Store
from closingbell.server.store.schema import tables_table
from tests.server.conftest import STORAGE
from tests.server.helpers import (
    act,
    client_for,
    create,
    database,
    expect,
    hello,
    join,
    without_clock,
)


@pytest.fixture(params=STORAGE)
def kind(request: pytest.FixtureRequest) -> str:
    """Each kind of database in turn."""
    return str(request.param)


@pytest.fixture
def two(kind: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two fresh databases of ``kind``: the one backed up and the one restored into (empty)."""
    with database(kind, tmp_path) as first, database(kind, tmp_path, empty=True) as second:
        yield first, second


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``closingbell ARGV``; its exit status, standard output and standard error."""
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def play(client: TestClient, actions: int) -> tuple[str, dict[int, str]]:
    """A Take Stock table of two people who play ``actions`` actions; its id and tokens."""
    table = create(client, "take_stock", ["open", "open"], seed=21)
    tokens = {seat: join(client, table["id"], f"p{seat}", seat=seat)["token"] for seat in (0, 1)}
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}") as ws0,
        client.websocket_connect(f"/ws/tables/{table['id']}") as ws1,
    ):
        messages = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
        for version in range(actions):
            mover = messages[0]["current_player"]
            act((ws0, ws1)[mover], version, messages[mover]["legal"][0]["id"])
            messages = [expect(ws0, "state"), expect(ws1, "state")]
    return table["id"], tokens


def seen(client: TestClient, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Everything the API shows of a table: its info, a spectator's and each seat's state."""
    shown: dict[str, Any] = {
        "info": client.get(f"/api/tables/{table_id}").json()["table"],
        "spectator": without_clock(client.get(f"/api/tables/{table_id}/view").json()),
    }
    for seat, token in tokens.items():
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            message = hello(ws, token)
        shown[f"seat {seat}"] = {
            k: message[k] for k in ("version", "view", "events", "legal", "current_player")
        }
    return shown


def game_ids(url: str) -> list[str]:
    """The ids of the game tables stored in ``url`` (none if it has no schema)."""

    async def read() -> list[str]:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                if not await conn.run_sync(lambda c: sa.inspect(c).has_table("tables")):
                    return []
                result = await conn.execute(sa.select(tables_table.c.id).order_by("id"))
                return [r for (r,) in result.all()]
        finally:
            await store.close()

    return asyncio.run(read())


def test_a_restored_database_holds_every_table_and_action(
    two: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = two
    file = tmp_path / "games.backup"
    with client_for(source) as client:
        table_id, tokens = play(client, 12)
        before = seen(client, table_id, tokens)
        # Taken while the server holds the database open.
        status, out, err = run(capsys, "backup", source, str(file))
        assert (status, err) == (0, "")
        assert "1 table" in out
    assert before["info"]["version"] == 12
    status, out, err = run(capsys, "restore", str(file), target)
    assert (status, err) == (0, ""), err
    assert out.startswith("closingbell restore: restored ")
    with client_for(target) as client:
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table_id]
        assert seen(client, table_id, tokens) == before
        # ... and play goes on from there.
        mover = before["seat 0"]["current_player"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            message = hello(ws, tokens[mover])
            act(ws, message["version"], message["legal"][0]["id"])
            assert expect(ws, "state")["version"] == 13


def test_a_sqlite_backup_is_one_snapshot_taken_under_a_running_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'live.db'}"
    file = tmp_path / "live.backup"
    with client_for(source) as client:
        table_id, _ = play(client, 5)
        assert run(capsys, "backup", str(tmp_path / "live.db"), str(file))[0] == 0
        play(client, 3)  # after the backup: not in it
        assert len(client.get("/api/tables").json()["tables"]) == 2
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("live.backup")) == [
        "live.backup"
    ]
    with sqlite3.connect(file) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert copy.execute("SELECT id, version FROM tables").fetchall() == [(table_id, 5)]
    copy.close()


def test_restore_refuses_a_database_holding_games_unless_told_to_replace_them(
    two: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = two
    file = tmp_path / "games.backup"
    with client_for(source) as client:
        kept, _ = play(client, 2)
    with client_for(target) as client:
        replaced, _ = play(client, 4)
    assert run(capsys, "backup", source, str(file))[0] == 0
    status, out, err = run(capsys, "restore", str(file), target)
    assert (status, out) == (2, "")
    assert "already holds closingbell's tables: give --replace" in err
    assert len(err.strip().splitlines()) == 1
    assert game_ids(target) == [replaced]
    status, out, err = run(capsys, "restore", "--replace", str(file), target)
    assert (status, err) == (0, ""), err
    assert game_ids(target) == [kept]


def test_restore_refuses_a_file_that_is_not_a_backup_of_its_kind(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a backup\n")
    other = "postgresql" if kind == "sqlite" else "sqlite"
    with database(kind, tmp_path) as target, database(other, tmp_path) as elsewhere:
        with client_for(elsewhere) as client:
            play(client, 1)
        wrong = tmp_path / "other.backup"
        assert run(capsys, "backup", elsewhere, str(wrong))[0] == 0
        status, out, err = run(capsys, "restore", str(text), target)
        assert (status, out) == (2, "")
        assert err == (
            f"closingbell restore: {text} is not a closingbell backup "
            "(neither an SQLite database nor a pg_dump archive)\n"
        )
        status, out, err = run(capsys, "restore", str(wrong), target)
        assert (status, out) == (2, "")
        assert "backup, not a" in err
        assert len(err.strip().splitlines()) == 1
        assert game_ids(target) == []


def test_restore_refuses_a_database_a_server_runs_on(
    two: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = two
    file = tmp_path / "games.backup"
    with client_for(source) as client:
        play(client, 1)
    assert run(capsys, "backup", source, str(file))[0] == 0
    with client_for(target) as client:
        status, _, err = run(capsys, "restore", "--replace", str(file), target)
        assert status == 2
        assert "in use by another closingbell server" in err
        assert client.get("/api/tables").json()["tables"] == []


def test_restore_refuses_a_backup_of_a_newer_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.db"
    with client_for(str(source)) as client:
        play(client, 1)
    file = tmp_path / "games.backup"
    assert run(capsys, "backup", str(source), str(file))[0] == 0
    with sqlite3.connect(file) as backup:
        backup.execute("UPDATE alembic_version SET version_num = '9999'")
    backup.close()
    target = tmp_path / "restored.db"
    status, out, err = run(capsys, "restore", str(file), str(target))
    assert (status, out) == (2, "")
    assert "is at migration 9999, which this version of closingbell does not know" in err
    assert str(file) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "games.backup",
        "games.db",
        *(["games.db.lock"] if not LOCKS_APART else []),
    ]


def test_backup_refuses_what_is_not_a_closingbell_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.db"
    status, _, err = run(capsys, "backup", str(missing), str(tmp_path / "b"))
    assert (status, err) == (2, f"closingbell backup: {missing} does not exist\n")
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (text)")
    conn.close()
    status, _, err = run(capsys, "backup", str(foreign), str(tmp_path / "b"))
    assert (status, err) == (
        2,
        f"closingbell backup: {foreign} is not a closingbell database (it holds notes)\n",
    )
    status, _, err = run(capsys, "restore", str(tmp_path / "none.backup"), str(tmp_path / "t.db"))
    assert status == 2
    assert "does not exist" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["foreign.db"]


def test_backup_refuses_to_overwrite_a_file_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.db"
    with client_for(str(source)) as client:
        play(client, 1)
    file = tmp_path / "games.backup"
    file.write_text("keep me")
    status, _, err = run(capsys, "backup", str(source), str(file))
    assert status == 2
    assert "exists: give --replace" in err
    assert file.read_text() == "keep me"
    assert run(capsys, "backup", "--replace", str(source), str(file))[0] == 0
    assert file.read_bytes().startswith(b"SQLite format 3\x00")


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_a_bad_or_unreachable_url_is_one_line_without_its_password(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "games.backup"
    if command == "restore":
        with database("postgresql", tmp_path) as source:
            with client_for(source) as client:
                play(client, 1)
            assert run(capsys, "backup", source, str(backup))[0] == 0
    else:
        backup.write_bytes(b"PGDMP")
    for url in (
        "postgresql://closingbell:s3cret-pw@127.0.0.1:1/games",  # nobody listens on port 1
        "postgresql://closingbell:s3cret-pw@127.0.0.1:port/games",
        "nosuch://closingbell:s3cret-pw@host/games",
    ):
        argv = [url, str(tmp_path / "out")] if command == "backup" else [str(backup), url]
        status, out, err = run(capsys, command, *argv)
        assert status == 2, (url, err)
        assert out == ""
        assert err.startswith(f"closingbell {command}: ")
        assert len(err.strip().splitlines()) == 1
        assert "s3cret-pw" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.backup"]


def test_a_postgresql_password_that_fails_is_not_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with database("postgresql", tmp_path) as url:
        wrong = sa.make_url(url).set(password="not-the-s3cret").render_as_string(False)
        status, out, err = run(capsys, "backup", wrong, str(tmp_path / "out"))
    assert (status, out) == (2, "")
    assert "password authentication failed" in err
    assert "not-the-s3cret" not in err
    assert list(tmp_path.iterdir()) == []
