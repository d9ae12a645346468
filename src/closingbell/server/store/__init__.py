"""Where games are kept: SQLAlchemy 2 with asyncio drivers, the schema made by Alembic.

The package is a set of rooms around one database:

- ``schema``: the tables, as SQLAlchemy describes them;
- ``engine``, ``upgrades`` and ``database``: the engine and its drivers, the migrations and
  the checks of an unusable database, and the database as a whole (transactions, the lock,
  the notices to other servers, opening and closing);
- ``records``, ``rows`` and ``errors``: what the repositories hand out, how it becomes rows
  and back, and what they raise;
- one repository per kind of record, each handed the database: ``tables`` (tables and
  their seats), ``actions``, ``chat``, ``rematch``, ``ratings``, ``invitations`` and ``puzzles``.

:class:`Store` is the one object the server holds: the database with its repositories
(``store.tables``, ``store.actions``, ...). Accounts and their sessions are kept by
``server.accounts``, the standings read by ``server.standings``, both on the store's engine.
"""

from __future__ import annotations

from closingbell.server.store.actions import ActionRepository
from closingbell.server.store.chat import ChatRepository
from closingbell.server.store.database import CommitHook, Database
from closingbell.server.store.engine import async_url, default_database_path
from closingbell.server.store.errors import (
    DatabaseInUseError,
    EmptyDatabaseFileError,
    ForeignDatabaseError,
    StoreConflictError,
    TooManyGamesError,
    TooManyInvitationsError,
    UnknownSchemaError,
    UnusableDatabaseError,
)
from closingbell.server.store.invitations import InvitationRepository
from closingbell.server.store.puzzles import PuzzleRepository
from closingbell.server.store.ratings import RatingRepository
from closingbell.server.store.records import (
    AccountTables,
    ChatRow,
    InvitationLimits,
    Rematch,
    SeatRow,
    TableRow,
    hash_token,
)
from closingbell.server.store.rematch import RematchRepository
from closingbell.server.store.tables import TableRepository
from closingbell.server.store.tournaments import TournamentRepository

__all__ = [
    "AccountTables",
    "ChatRow",
    "DatabaseInUseError",
    "EmptyDatabaseFileError",
    "ForeignDatabaseError",
    "InvitationLimits",
    "Rematch",
    "SeatRow",
    "Store",
    "StoreConflictError",
    "TableRow",
    "TooManyGamesError",
    "TooManyInvitationsError",
    "UnknownSchemaError",
    "UnusableDatabaseError",
    "async_url",
    "default_database_path",
    "hash_token",
]


class Store(Database):
    """The database of tables, seats and actions, with one repository per kind of record.

    What concerns the whole database (opening, the lock, closing, transactions, notices)
    is the :class:`~closingbell.server.store.database.Database`'s; each repository is handed
    this database and keeps to its own records.
    """

    def __init__(self, url: str, *, on_commit: CommitHook | None = None) -> None:
        super().__init__(url, on_commit=on_commit)
        self.invitations = InvitationRepository(self)
        """Open seats kept for an account: counted against their maker's limits, declined."""
        self.tables = TableRepository(self, self.invitations)
        """Tables and their seats: made, joined, seen, abandoned, loaded, listed."""
        self.ratings = RatingRepository(self)
        """Each finished game's results and the ratings they change."""
        self.actions = ActionRepository(self, self.ratings)
        """Each table's actions, appended in group commits."""
        self.chat = ChatRepository(self)
        """Each table's chat."""
        self.rematch = RematchRepository(self)
        """Finished tables' rematch votes and the rematches they open."""
        self.puzzles = PuzzleRepository(self)
        """Puzzles, accounts' answers to them and their puzzle ratings."""
        self.tournaments = TournamentRepository(self)
        """The tournaments, their entrants and tables."""
