"""Migrations with Alembic, and the checks that refuse a database the server cannot use.

A database is refused before anything is written to it: an SQLite file of 0 bytes, one
that holds other tables than closingbell's, one at a migration this version does not know,
and (after the upgrade) one missing a table or a column of :mod:`~closingbell.server.store.schema`.

Alembic is imported only when a database is not at the newest migration (a new one, an old
one, a foreign or unknown one): it is a third of the server's import time, and a server
that starts on a current database needs none of it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from closingbell.server.store.errors import (
    EmptyDatabaseFileError,
    ForeignDatabaseError,
    UnknownSchemaError,
    UnusableDatabaseError,
    error_text,
)
from closingbell.server.store.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent.parent / "migrations" / "versions"
"""The folder of the migrations, one module per revision (Alembic's ``versions``)."""


def alembic_config(connection: Connection) -> Config:
    """Alembic's configuration: the migrations of ``closingbell.server``, run on ``connection``."""
    from alembic.config import Config  # noqa: PLC0415 (Alembic loads only when used)

    config = Config()
    config.set_main_option("script_location", "closingbell.server:migrations")
    config.attributes["connection"] = connection
    return config


@functools.cache
def newest_migration() -> str | None:
    """The id of the newest migration, read from the migrations' files without Alembic.

    The revision that no other revision names as its ``down_revision``; ``None`` when the
    files do not name exactly one (then every check asks Alembic itself).
    """
    revisions: set[str] = set()
    downs: set[str] = set()
    for path in MIGRATIONS.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        revisions.update(re.findall(r'^revision = "(\w+)"$', text, re.MULTILINE))
        downs.update(re.findall(r'^down_revision = "(\w+)"$', text, re.MULTILINE))
    heads = revisions - downs
    return heads.pop() if len(heads) == 1 else None


def _stamped(connection: Connection) -> list[str]:
    """The migrations ``alembic_version`` records (the table must exist)."""
    return [
        str(r) for (r,) in connection.execute(sa.text("SELECT version_num FROM alembic_version"))
    ]


def _is_current(connection: Connection, names: set[str]) -> bool:
    """Whether the database records exactly the newest migration, and nothing else."""
    newest = newest_migration()
    return newest is not None and "alembic_version" in names and _stamped(connection) == [newest]


def _alembic_upgrade(connection: Connection, where: str) -> None:
    """``alembic upgrade head``, its failure raised as an :class:`UnusableDatabaseError`."""
    from alembic import command  # noqa: PLC0415 (Alembic loads only when used)
    from alembic.util import CommandError  # noqa: PLC0415 (Alembic loads only when used)

    try:
        command.upgrade(alembic_config(connection), "head")
    except CommandError as exc:
        raise UnusableDatabaseError(f"cannot use {where}: {error_text(exc)}") from None


def migrate(connection: Connection) -> None:
    """Bring the schema to the newest migration (``alembic upgrade head``)."""
    from alembic import command  # noqa: PLC0415 (Alembic loads only when used)

    command.upgrade(alembic_config(connection), "head")


def refuse_empty_file(path: Path) -> None:
    """Refuse an SQLite file that exists with 0 bytes (a missing file is a new database).

    SQLite takes a 0-byte file for an empty database, so the server would start with no
    game at all. But a database the server made is never 0 bytes (its first statement
    writes the file's header), so such a file most likely lost its contents: a truncated
    copy, a full disk, a ``>`` redirection. A write-ahead log beside it does not help:
    SQLite ignores it for a file with no header, and the server would then discard it.
    """
    if path.is_file() and path.stat().st_size == 0:
        wal = path.with_name(path.name + "-wal")
        keep = f" (keep {wal.name}, which may hold some)" if wal.is_file() else ""
        raise EmptyDatabaseFileError(
            f"{path} is an empty file (0 bytes): if it held games, they are lost from it"
            f"{keep}; restore it from a backup, or, to start afresh, delete the file or "
            "name another"
        )


def _listed(names: Iterable[str]) -> str:
    """A few names for a message: ``a, b, c`` or ``a, b, c and 4 more``."""
    names = sorted(names)
    shown = ", ".join(names[:3])
    return shown if len(names) <= 3 else f"{shown} and {len(names) - 3} more"


def refuse_unknown(connection: Connection, where: str) -> None:
    """Refuse a database that is not closingbell's or whose migration is unknown.

    An empty database is fine (it is set up). One with tables must have Alembic's
    ``alembic_version`` naming exactly one migration of closingbell's.
    """
    inspector = sa.inspect(connection)
    names = set(inspector.get_table_names()) | set(inspector.get_view_names())
    if names:
        if "alembic_version" not in names:
            raise ForeignDatabaseError(
                f"{where} is not a closingbell database: it holds other tables "
                f"({_listed(names)}); name closingbell's database, or an empty one"
            )
        if _is_current(connection, names):
            return
        stamped = _stamped(connection)
        known = _known_migrations(connection, where)
        unknown = [r for r in stamped if r not in known]
        if unknown:
            raise UnknownSchemaError(
                f"{where} is at migration {_listed(unknown)}, which this version of closingbell "
                f"does not know (it knows {_listed(known)}): it was made by a newer closingbell "
                "or by another application; upgrade closingbell, or name another database"
            )
        if len(stamped) > 1 or (not stamped and names != {"alembic_version"}):
            raise UnknownSchemaError(
                f"{where} records {len(stamped)} migrations instead of one; "
                "restore it from a backup, or name another database"
            )


def _known_migrations(connection: Connection, where: str) -> set[str]:
    """The ids of every migration Alembic finds, its failure an :class:`UnusableDatabaseError`."""
    from alembic.script import ScriptDirectory  # noqa: PLC0415 (Alembic loads only when used)
    from alembic.util import CommandError  # noqa: PLC0415 (Alembic loads only when used)

    try:
        script = ScriptDirectory.from_config(alembic_config(connection))
        return {s.revision for s in script.walk_revisions()}
    except CommandError as exc:
        raise UnusableDatabaseError(f"cannot use {where}: {error_text(exc)}") from None


def upgrade_checked(connection: Connection, where: str) -> None:
    """Migrate to the newest schema, then refuse it if a table or column is missing.

    A database already at the newest migration is not handed to Alembic (it would find
    nothing to do); its tables and columns are checked all the same.
    """
    if not _is_current(connection, set(sa.inspect(connection).get_table_names())):
        _alembic_upgrade(connection, where)
    inspector = sa.inspect(connection)
    present = set(inspector.get_table_names())
    for table in metadata.sorted_tables:
        if table.name not in present:
            raise UnknownSchemaError(
                f"{where} is damaged: its table {table.name!r} is missing; "
                "restore it from a backup, or name another database"
            )
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        missing = [c.name for c in table.columns if c.name not in columns]
        if missing:
            raise UnknownSchemaError(
                f"{where} is damaged: its table {table.name!r} misses the columns "
                f"{_listed(missing)}; restore it from a backup, or name another database"
            )
