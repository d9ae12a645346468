"""Backups of a server's database, and restoring one (``closingbell backup``, ``restore``).

An SQLite database is copied with SQLite's online backup API, which reads a consistent
snapshot while a server goes on writing (the server's write-ahead log lets readers and the
writer work side by side); the copy is one self-contained SQLite file. A PostgreSQL
database is dumped by ``pg_dump --format=custom`` and restored by ``pg_restore``, with the
URL's user, password and address passed in libpq's environment variables (``PGPASSWORD``
and its kin), never on a command line.

A restore takes the target's lock (no server may run on it), refuses a target that holds
closingbell's tables unless told to replace them, and checks the result with the server's
own checks (:meth:`~closingbell.server.store.Store.check`): a database the server would
refuse is never left behind by an SQLite restore, and is reported after a PostgreSQL one.
Every refusal raises :class:`BackupError` with a message in one line that shows no
password; nothing is changed by a refused command.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from closingbell.server.store import Store, UnusableDatabaseError, async_url
from closingbell.server.store.schema import metadata

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""

PG_DUMP_HEADER = b"PGDMP"
"""The first bytes of a ``pg_dump --format=custom`` archive."""

OWN_TABLES = frozenset({"alembic_version", *metadata.tables})
"""The tables of a closingbell database: the schema's and Alembic's record of its migration."""

CONNECT_TIMEOUT = 10
"""Seconds ``pg_dump`` and ``pg_restore`` wait for a PostgreSQL server to answer."""


class BackupError(RuntimeError):
    """A backup or restore refused or failed; the message is one line with no password.

    ``status`` is the exit status for it: 2 for input refused (nothing was changed), 1 for
    a tool or database that failed while working.
    """

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status
        """The exit status of the command that met it."""


@dataclass(frozen=True)
class Database:
    """A database named on the command line: its kind, its URL and how to show it."""

    kind: str
    """``sqlite`` or ``postgresql``."""
    url: URL
    """The SQLAlchemy URL, with its asyncio driver."""

    @property
    def shown(self) -> str:
        """The database for people: an SQLite file's path, or the URL without its password."""
        if self.kind == "sqlite":
            return str(self.path)
        return self.url.set(drivername=self.kind).render_as_string(hide_password=True)

    @property
    def path(self) -> Path:
        """The SQLite database's file."""
        return Path(self.url.database or "")

    @property
    def text(self) -> str:
        """The URL in full (with its password), for the store; never to be shown."""
        return self.url.render_as_string(hide_password=False)


def parse_database(text: str) -> Database:
    """The database named by ``text``, as ``closingbell serve --database`` takes it.

    An SQLite file's path, ``sqlite:///PATH`` or ``postgresql://USER:PASSWORD@HOST/DB``.
    Raises :class:`BackupError` for anything else, without repeating the text (it may hold
    a password).
    """
    try:
        url = make_url(async_url(text))
    except (ArgumentError, ValueError) as exc:
        reason = "not a URL" if isinstance(exc, ArgumentError) else "its port is not a number"
        raise BackupError(
            f"cannot read the database {_scheme(text)}: {reason} (give an SQLite file's "
            "path, sqlite:///PATH or postgresql://USER:PASSWORD@HOST[:PORT]/DB)"
        ) from None
    kind = url.get_backend_name()
    if kind == "sqlite":
        if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
            raise BackupError("an SQLite database must be a file: give its path")
        return Database(kind, url.set(database=str(Path(url.database).expanduser().resolve())))
    if kind == "postgresql":
        if not url.database:
            raise BackupError(
                f"{url.set(drivername=kind).render_as_string(hide_password=True)} names no database"
            )
        return Database(kind, url)
    raise BackupError(
        f"cannot back up or restore a {kind!r} database: give an SQLite file or a postgresql:// URL"
    )


def _scheme(text: str) -> str:
    """What can be shown of a database's text that cannot be read: its scheme, or nothing."""
    scheme = text.split("://", 1)[0] if "://" in text else ""
    return f"{scheme}:// URL" if re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme) else "URL"


def backup(database: str, file: Path, *, replace: bool = False) -> str:
    """Copy ``database`` (the text of :func:`parse_database`) to the backup ``file``.

    Works while a server runs on it. Refuses a database that is not closingbell's and an
    existing ``file`` unless ``replace``; ``file`` appears only once complete. Returns what
    was done, in a sentence. Raises :class:`BackupError`.
    """
    source = parse_database(database)
    file = file.expanduser()
    if file.exists() and not replace:
        raise BackupError(f"{file} exists: give --replace to overwrite it, or name a new file")
    if not file.parent.is_dir():
        raise BackupError(f"{file.parent} is not a folder: make it first")
    with _pending(file) as partial:
        if source.kind == "sqlite":
            count = _backup_sqlite(source, partial)
        else:
            count = _backup_postgres(source, partial)
        os.replace(partial, file)
    return f"backed up {source.shown} ({_tables(count)}) to {file}"


def restore(file: Path, database: str, *, replace: bool = False) -> str:
    """Restore the backup ``file`` into ``database`` (the text of :func:`parse_database`).

    Refuses a ``file`` that is not a closingbell backup of the database's kind, a database
    a server is running on, and one that holds closingbell's tables unless ``replace``
    (one holding other tables always). The result is checked and migrated as a server
    starting on it would. Returns what was done, in a sentence. Raises :class:`BackupError`.
    """
    target = parse_database(database)
    file = file.expanduser()
    _check_backup_file(file, target.kind)
    if target.kind == "sqlite":
        count = asyncio.run(_restore_sqlite(file, target, replace=replace))
    else:
        count = asyncio.run(_restore_postgres(file, target, replace=replace))
    return f"restored {file} into {target.shown} ({_tables(count)})"


def _tables(count: int) -> str:
    return f"{count} table" if count == 1 else f"{count} tables"


@contextmanager
def _pending(file: Path) -> Iterator[Path]:
    """A new file's name beside ``file``, removed afterwards unless it was moved into place."""
    fd, name = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".partial", dir=file.parent)
    os.close(fd)
    partial = Path(name)
    try:
        yield partial
    finally:
        for leftover in (partial, *_companions(partial)):
            with suppress(FileNotFoundError):
                leftover.unlink()


def _companions(path: Path) -> tuple[Path, ...]:
    """An SQLite file's write-ahead log and its index."""
    return tuple(path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal"))


def _check_backup_file(file: Path, kind: str) -> None:
    """Refuse a ``file`` that is missing or not a backup of ``kind``."""
    try:
        with file.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        raise BackupError(f"{file} does not exist") from None
    except OSError as exc:
        raise BackupError(f"cannot read {file}: {exc.strerror}") from None
    found = (
        "sqlite"
        if head == SQLITE_HEADER
        else "postgresql"
        if head.startswith(PG_DUMP_HEADER)
        else None
    )
    if found is None:
        raise BackupError(
            f"{file} is not a closingbell backup (neither an SQLite database nor a pg_dump archive)"
        )
    if found != kind:
        names = {"sqlite": "an SQLite", "postgresql": "a PostgreSQL"}
        into = "an SQLite file" if found == "sqlite" else "a postgresql:// database"
        raise BackupError(
            f"{file} is {names[found]} backup, not {names[kind]} one: restore it into {into}"
        )


# SQLite


def _existing(path: Path, mode: str = "rw") -> sqlite3.Connection:
    """A connection to an existing SQLite file (never creating one), to read it.

    A database in use has a write-ahead log: a read-only connection would leave an empty
    log and its index behind, where a read-write one, the last to close, removes them.
    """
    return sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True)


def _sqlite_tables(connection: sqlite3.Connection) -> set[str]:
    """The names of an SQLite database's tables and views."""
    rows = connection.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
    ).fetchall()
    return {str(name) for (name,) in rows if not str(name).startswith("sqlite_")}


def _backup_sqlite(source: Database, partial: Path) -> int:
    """Copy the SQLite ``source`` to ``partial`` online; the number of game tables in it."""
    path = source.path
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    try:
        src = _existing(path)
        try:
            _refuse_foreign(_sqlite_tables(src), source.shown, empty_too=True)
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # one step: a single consistent snapshot
                dst.execute("PRAGMA journal_mode=DELETE")
                problems = [r for (r,) in dst.execute("PRAGMA quick_check") if r != "ok"]
                if problems:
                    raise BackupError(
                        f"the copy of {source.shown} fails SQLite's check ({problems[0]})", 1
                    )
                return int(dst.execute("SELECT count(*) FROM tables").fetchone()[0])
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"cannot back up {source.shown}: {exc}") from None


def _refuse_foreign(names: set[str], where: str, *, empty_too: bool) -> None:
    """Refuse a database holding tables that are not closingbell's (or none, if told)."""
    if names - OWN_TABLES or ("alembic_version" not in names and (names or empty_too)):
        held = f"it holds {', '.join(sorted(names)[:3])}" if names else "it is empty"
        raise BackupError(f"{where} is not a closingbell database ({held})")


class _Named(Store):
    """A store shown under another name than its URL's (a restore's new file as its backup)."""

    def __init__(self, url: str, name: str) -> None:
        super().__init__(url)
        self._name = name

    @property
    def where(self) -> str:
        """The name given."""
        return self._name


async def _restore_sqlite(file: Path, target: Database, *, replace: bool) -> int:
    """Replace the SQLite file ``target`` with a checked copy of the backup ``file``.

    The copy is made and checked beside the target before the target's lock is taken; only
    a copy that passed replaces it, in one rename.
    """
    path = target.path
    if not path.parent.is_dir():
        raise BackupError(f"{path.parent} is not a folder: make it first")
    try:
        backup_file = _existing(file, "ro")
        try:
            _refuse_foreign(_sqlite_tables(backup_file), str(file), empty_too=True)
        finally:
            backup_file.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{file} is not a closingbell backup ({exc})") from None
    _refuse_occupied(_sqlite_target_tables(path), target.shown, replace=replace)
    with _pending(path) as partial:
        src = _existing(file, "ro")
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        restored = _Named(f"sqlite:///{partial}", str(file))
        try:
            await restored.check()
            count = await _count(restored)
        except UnusableDatabaseError as exc:
            raise BackupError(f"restore refused: {exc}") from None
        finally:
            await restored.close()
        # The server turns write-ahead logging on again; a file without one is moved whole.
        done = sqlite3.connect(partial)
        try:
            done.execute("PRAGMA journal_mode=DELETE")
        finally:
            done.close()
        store = Store(target.text)
        try:
            await _lock(store, target)
            # Again under the lock: a server may have started on it meanwhile.
            _refuse_occupied(_sqlite_target_tables(path), target.shown, replace=replace)
            # The old database's log must go first: SQLite would replay it into the new file.
            for old in _companions(path):
                with suppress(FileNotFoundError):
                    old.unlink()
            os.replace(partial, path)
            _sync_folder(path.parent)
        finally:
            await store.close()
    return count


def _sqlite_target_tables(path: Path) -> set[str]:
    """The tables of the SQLite file a restore would replace (none if it is new or empty)."""
    if not path.is_file() or path.stat().st_size == 0:
        return set()
    try:
        held = _existing(path)
        try:
            return _sqlite_tables(held)
        finally:
            held.close()
    except sqlite3.DatabaseError:
        raise BackupError(f"{path} is not an SQLite database: name another") from None


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


async def _lock(store: Store, target: Database) -> None:
    """Take ``target``'s lock, so that no server starts on it during the restore."""
    try:
        await store.lock()
    except UnusableDatabaseError as exc:  # DatabaseInUseError among them
        raise BackupError(str(exc)) from None


def _refuse_occupied(names: set[str], where: str, *, replace: bool) -> None:
    """Refuse a target holding other tables, or closingbell's unless ``replace``."""
    if not names:
        return
    if names - OWN_TABLES:
        raise BackupError(
            f"{where} holds tables that are not closingbell's "
            f"({', '.join(sorted(names - OWN_TABLES)[:3])}): name closingbell's database or "
            "an empty one"
        )
    if not replace:
        raise BackupError(
            f"{where} already holds closingbell's tables: give --replace to replace its "
            "games with the backup's, or name an empty database"
        )


async def _count(store: Store) -> int:
    """The number of game tables in a checked database."""
    async with store.engine.connect() as connection:
        return int(await connection.scalar(sa.text("SELECT count(*) FROM tables")) or 0)


# PostgreSQL


def _tool(name: str) -> str:
    """The path of a PostgreSQL client program, or a refusal saying how to get it."""
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: install PostgreSQL's client programs "
            "(Debian: apt-get install postgresql-client)",
            1,
        )
    return found


def _libpq_environment(database: Database) -> dict[str, str]:
    """The environment that gives libpq's programs the URL's address and credentials."""
    url = database.url
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    given = {
        "PGHOST": url.host or url.query.get("host"),
        "PGPORT": str(url.port) if url.port else url.query.get("port"),
        "PGUSER": url.username,
        "PGPASSWORD": url.password,
        "PGDATABASE": url.database,
        "PGSSLMODE": url.query.get("sslmode"),
        "PGCONNECT_TIMEOUT": str(CONNECT_TIMEOUT),
    }
    env.update({k: str(v) for k, v in given.items() if isinstance(v, str) and v})
    return env


def _run(database: Database, *command: str) -> subprocess.CompletedProcess[str]:
    """Run a PostgreSQL client program for ``database``; a failure as one clean line."""
    done = subprocess.run(
        command,
        env=_libpq_environment(database),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        errors = [line for line in lines if "error:" in line] or lines or ["it failed"]
        message = errors[0]
        password = database.url.password
        if password:
            message = message.replace(str(password), "***")
        raise BackupError(f"{Path(command[0]).name} failed: {message}", 1)
    return done


async def _postgres_tables(store: Store, where: str) -> set[str]:
    """The names of the tables and views of a PostgreSQL database's default schema."""
    try:
        async with store.engine.connect() as connection:
            return await connection.run_sync(
                lambda c: set(sa.inspect(c).get_table_names()) | set(sa.inspect(c).get_view_names())
            )
    except (SQLAlchemyError, OSError) as exc:
        raise BackupError(f"cannot reach {where}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    """An error in one line (the store's wording)."""
    from closingbell.server.store.errors import error_text as reason  # noqa: PLC0415

    return reason(exc)


def _backup_postgres(source: Database, partial: Path) -> int:
    """Dump the PostgreSQL ``source`` to ``partial``; the number of game tables in it."""

    async def inspect() -> int:
        store = Store(source.text)
        try:
            _refuse_foreign(
                await _postgres_tables(store, source.shown), source.shown, empty_too=True
            )
            return await _count(store)
        finally:
            await store.close()

    pg_dump = _tool("pg_dump")
    count = asyncio.run(inspect())
    _run(source, pg_dump, "--format=custom", "--no-owner", f"--file={partial}")
    return count


async def _restore_postgres(file: Path, target: Database, *, replace: bool) -> int:
    """Restore the pg_dump archive ``file`` into the PostgreSQL ``target``."""
    pg_restore = _tool("pg_restore")
    listed = subprocess.run(
        [pg_restore, "--list", str(file)], capture_output=True, text=True, check=False
    )
    # Lines such as "214; 1259 18188 TABLE public alembic_version OWNER" (not TABLE DATA).
    tables = set(re.findall(r"^\d+; \d+ \d+ TABLE (?!DATA )\S+ (\S+)", listed.stdout, re.M))
    if listed.returncode != 0:
        raise BackupError(f"{file} is not a closingbell backup (pg_restore cannot read it)")
    if "alembic_version" not in tables or tables - OWN_TABLES:
        raise BackupError(f"{file} is not a backup of a closingbell database")
    store = Store(target.text)
    try:
        await _lock(store, target)
        names = await _postgres_tables(store, target.shown)
        _refuse_occupied(names, target.shown, replace=replace)
        clean = ("--clean", "--if-exists") if names else ()
        _run(
            target,
            pg_restore,
            "--single-transaction",
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            *clean,
            f"--dbname={target.url.database}",
            str(file),
        )
        try:
            await store.check()
        except UnusableDatabaseError as exc:
            raise BackupError(
                f"restored, but a server would refuse the result: {exc}", status=1
            ) from None
        return await _count(store)
    finally:
        await store.close()
