"""The schema as the server reads and writes it: SQLAlchemy tables.

The Alembic migrations (``closingbell/server/migrations``) make it; this module only
describes it, for the repositories' statements and for the check that a migrated database
has every table and column (``server.store.upgrades``).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()
"""The schema as the server reads and writes it (made by the Alembic migrations)."""

tables_table = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text(), nullable=False),
    sa.Column("seed", sa.BigInteger(), nullable=False),
    sa.Column("clock", sa.Float(), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("position", sa.Text(), nullable=True),
    sa.Column("rules_version", sa.Integer(), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("move_time", sa.Float(), nullable=True),
    sa.Column("turn_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("spectator_chat", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("rematch_of", sa.String(32), nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Column("hints_used", sa.Boolean(), nullable=False, server_default=sa.false()),
)
"""One row per table: the game, its options (JSON), seed, clock, status and version (the
number of actions stored), the position it started from (``NULL``: a deal; migration 0002)
and its rules version (the game's ``GameInfo.version`` when the table was made; migration
0003); whether it is rated, its time per move for a game over days and when the current
turn began, whether spectators may chat, and the tables it is a rematch of and that are its
rematch (migration 0005); whether a player took a hint there (migration 0006), which keeps
its result out of the ratings."""

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("user_id", sa.String(32), nullable=True, index=True),
    sa.Column("invited_user_id", sa.String(32), nullable=True, index=True),
    sa.Column("invited_by", sa.String(32), nullable=True, index=True),
)
"""One row per seat: ``open``, ``human`` (with name and token hash) or ``bot``; the account
seated there, and the account an open seat is kept for (migration 0005) and the account
that invited it (migration 0007: ``NULL`` for older invitations)."""

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer(), primary_key=True),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("action", sa.Integer(), nullable=False),
    sa.Column("text", sa.String(100), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("by", sa.String(8), nullable=True),
)
"""One row per action, numbered from 0 within its table, with who chose it (``player``,
``bot``, ``stand_in``; ``NULL`` before migration 0005)."""

servers_table = sa.Table(
    "servers",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("host", sa.String(255), nullable=False),
    sa.Column("pid", sa.Integer(), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=False),
)
"""One row per server running on a shared PostgreSQL database, with its last heartbeat
(migration 0004; ``closingbell.server.cluster``)."""

leases_table = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("server", sa.String(32), nullable=True, index=True),
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),
)
"""Which server runs a live table's bots and turn clock (``NULL``: handed over)."""

users_table = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("username", sa.String(32), nullable=False),
    sa.Column("username_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("password_changed_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false()),
)
"""One row per account: its name as typed, its lower-case form (unique) and the Argon2 hash
of its password (migration 0005; ``server.accounts``), and whether it is a bot account
(migration 0009)."""

api_tokens_table = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
)
"""A bot account's API tokens: the SHA-256 of each (the token is shown once, when made), its
owner's name for it, and when it was made, last used and revoked (migration 0009)."""

sessions_table = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per signed-in browser: the SHA-256 of its session cookie (deleted on sign-out)."""

results_table = sa.Table(
    "results",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("player", sa.String(48), nullable=True, index=True),
    sa.Column("score", sa.Float(), nullable=False),
    sa.Column("rank", sa.Integer(), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each seat's final score and rank (0: first), written with the game's last action;
``player`` is ``user:<id>``, ``bot:<level>`` or ``NULL`` for a guest."""

ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column("player", sa.String(48), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("games", sa.Integer(), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each player's current rating in each game (``server.ratings``)."""

rating_changes_table = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("player", sa.String(48), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_rating_changes_player_game", "player", "game"),
)
"""Each player's rating after each rated game (the history a profile charts)."""

chat_table = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(2000), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("user_id", sa.String(32), nullable=True),
    sa.Index("ix_chat_table_id", "table_id", "id"),
)
"""The messages written at each table (``seat`` ``NULL``: a spectator), with the account
seated where it was written (``user_id``, migration 0007; ``NULL``: a guest, a spectator, or
a message written before)."""

rematch_votes_table = sa.Table(
    "rematch_votes",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""The seats of a finished table that offered or accepted a rematch."""

puzzles_table = sa.Table(
    "puzzles",
    metadata,
    sa.Column("id", sa.String(12), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False, index=True),
    sa.Column("data", sa.Text(), nullable=False),
    sa.Column("themes", sa.String(255), nullable=False),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("tried", sa.Integer(), nullable=False),
    sa.Column("solved", sa.Integer(), nullable=False),
    sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per puzzle (migration 0008): the puzzle file's line (``data``, docs/puzzles.md),
its themes separated by spaces (to filter by), its rating, and how many accounts tried it
and solved it at the first try."""

puzzle_attempts_table = sa.Table(
    "puzzle_attempts",
    metadata,
    sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("puzzle_id", sa.String(12), sa.ForeignKey("puzzles.id"), primary_key=True),
    sa.Column("action", sa.Integer(), nullable=False),
    sa.Column("solved", sa.Boolean(), nullable=False),
    sa.Column("rating_before", sa.Float(), nullable=False),
    sa.Column("rating_after", sa.Float(), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""An account's first answer to each puzzle, the one that is rated, with its displayed
puzzle rating before and after (migration 0008)."""

puzzle_ratings_table = sa.Table(
    "puzzle_ratings",
    metadata,
    sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("tried", sa.Integer(), nullable=False),
    sa.Column("solved", sa.Integer(), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each account's puzzle rating in each game (migration 0008)."""

tournaments_table = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text(), nullable=False),
    sa.Column("table_size", sa.Integer(), nullable=False),
    sa.Column("rounds", sa.Integer(), nullable=True),
    sa.Column("minutes", sa.Float(), nullable=True),
    sa.Column("clock", sa.Float(), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("bots", sa.Text(), nullable=False),
    sa.Column("bot_accounts", sa.Boolean(), nullable=False),
    sa.Column("created_by", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False, index=True),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("round_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("server", sa.String(32), nullable=True),
    sa.Column("lease_at", sa.DateTime(timezone=True), nullable=True),
)
"""One row per tournament (migration 0010): Swiss (``rounds``) or arena (``minutes``), its
game, rules options (JSON) and seats a table, the seconds a turn at its tables, whether
they are rated, the built-in bots entered (JSON list of levels), whether bot accounts may
enter; its status (``open``, ``running``, ``finished``, ``cancelled``), the round being
played and when it began, and the server directing it with when it last said so (its
lease, as a table's)."""

tournament_entries_table = sa.Table(
    "tournament_entries",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("entrant", sa.String(48), primary_key=True),
    sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=True, index=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("withdrawn", sa.Boolean(), nullable=False),
    sa.Column("paused", sa.Boolean(), nullable=False),
    sa.Column("score", sa.Float(), nullable=False),
    sa.Column("games", sa.Integer(), nullable=False),
    sa.Column("streak", sa.Integer(), nullable=False),
    sa.Column("byes", sa.Integer(), nullable=False),
    sa.Column("absences", sa.Integer(), nullable=False),
    sa.Column("place", sa.Integer(), nullable=True),
)
"""Each entrant of a tournament (migration 0010): ``user:<id>`` (an account) or
``bot:<level>:<n>`` (a built-in bot), its name, whether it withdrew or is paused (counted
absent: not seated until it comes back), its points, games, wins in a row (arena), byes,
absences, and its final place."""

tournament_games_table = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column(
        "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False, index=True
    ),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("seats", sa.Text(), nullable=False),
    sa.Column("points", sa.Text(), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each table of a tournament (migration 0010): its round (an arena counts its tables in
the order seated), its entrants in seat order (JSON list of keys), and once scored, the
points each seat got (JSON list; ``NULL``: not scored yet). The table is planned here first
and made after, so that a server taking the tournament over makes what is missing."""
