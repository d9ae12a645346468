"""Players: accounts, sessions, results and ratings, chat, rematches and games over days.

- ``users``: an account's name (shown as typed; ``username_key`` is its lower-case form,
  unique) and its Argon2 password hash. ``sessions``: the SHA-256 of each signed-in
  browser's session cookie, deleted when it signs out (the cookie's value is never stored).
- ``seats.user_id``: the account sitting there (``NULL`` for guests and bots);
  ``seats.invited_user_id``: the account an open seat is kept for (an invitation).
- ``tables.rated``: whether the game counts for ratings; ``tables.move_time``: seconds per
  move of a game played over days (``NULL``: real time); ``tables.turn_at``: when the
  seat to move began its turn (its deadline's start); ``tables.spectator_chat``: whether
  spectators may write in the chat; ``tables.rematch_of``: the table this one is a rematch
  of; ``tables.rematch``: the rematch opened from this table, once every seat agreed.
- ``results``: each seat's final score and rank, stored in the transaction that stores a
  game's last action. ``ratings``: each player's current rating per game (``player`` is
  ``user:<id>`` or ``bot:<level>``); ``rating_changes``: every rated game's change to each
  rating, from which ``closingbell ratings --rebuild`` recomputes them.
- ``actions.by``: who chose each action (``player``, ``bot`` or ``stand_in``: a bot deciding
  for a seat out of time); ``NULL`` for the actions stored before, whose seat's kind tells.
- ``chat``: the messages written at a table. ``rematch_votes``: the seats that offered or
  accepted a rematch of a finished table.

Every table stored before this migration keeps its games: its seats are guests' or bots',
its games real-time and unrated.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the players' tables and columns."""
    op.create_table(
        "users",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password_changed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("seats", sa.Column("user_id", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("invited_user_id", sa.String(32), nullable=True))
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_index("ix_seats_invited_user_id", "seats", ["invited_user_id"])
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("tables", sa.Column("move_time", sa.Float(), nullable=True))
    op.add_column("tables", sa.Column("turn_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "tables",
        sa.Column("spectator_chat", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("tables", sa.Column("rematch_of", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("rematch", sa.String(32), nullable=True))
    op.add_column("actions", sa.Column("by", sa.String(8), nullable=True))
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player", sa.String(48), nullable=True, index=True),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_player_game", "rating_changes", ["player", "game"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id", "id"])
    op.create_table(
        "rematch_votes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the players' tables and columns."""
    for name in ("rematch_votes", "chat", "rating_changes", "ratings", "results", "sessions"):
        op.drop_table(name)
    with op.batch_alter_table("tables") as batch:
        for column in ("rematch", "rematch_of", "spectator_chat", "turn_at", "move_time", "rated"):
            batch.drop_column(column)
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("by")
    op.drop_index("ix_seats_invited_user_id", "seats")
    op.drop_index("ix_seats_user_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invited_user_id")
        batch.drop_column("user_id")
    op.drop_table("users")
