"""The store's errors: a write refused, a database the server will not use, too many invitations.

They live below every room of the store, so that the database, the repositories and the
server's callers can all name them without importing each other.
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError


class StoreConflictError(RuntimeError):
    """A write that found the row in another state than expected (nothing was written)."""


class UnusableDatabaseError(RuntimeError):
    """A database the server will not start on; the message says what is wrong and what to do.

    Raised by :meth:`Store.open` (so by ``Hub.start`` and an app's start) before anything
    is written: the database is left as it was.
    """


class EmptyDatabaseFileError(UnusableDatabaseError):
    """An SQLite file that exists with 0 bytes: most likely a database that lost its contents."""


class ForeignDatabaseError(UnusableDatabaseError):
    """A database that is not closingbell's: not SQLite at all, or holding other tables."""


class UnknownSchemaError(UnusableDatabaseError):
    """closingbell's tables at a migration this version does not know, or with parts missing."""


class DatabaseInUseError(UnusableDatabaseError):
    """Another server, or a restore, holds the database's lock.

    An SQLite file takes one server; a PostgreSQL database takes any number of servers
    (they share its lock) but no restore while one runs.
    """


class TooManyInvitationsError(RuntimeError):
    """A table not stored: its invitations would take its maker past a limit."""

    def __init__(self, message: str, recipient: str | None) -> None:
        super().__init__(message)
        self.recipient = recipient
        """The invited account whose limit was reached (``None``: the limit in all)."""


class TooManyGamesError(RuntimeError):
    """A seat not taken: the account sits at as many unfinished tables as it may."""


def error_text(exc: BaseException) -> str:
    """An error in one line, without SQLAlchemy's statement and background link."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror} ({exc.filename})" if exc.filename else exc.strerror
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.split(" [SQL:")[0].split(" (Background on")[0]
