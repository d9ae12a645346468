"""Tournaments: Swiss and arena, their entrants and their tables.

- ``tournaments``: each tournament's kind, game, rules, table size, rounds or minutes, turn
  clock, whether rated, the built-in bots entered and whether bot accounts may enter, when
  it starts and ends, its status and round, and the server directing it (a lease);
- ``tournament_entries``: its entrants (accounts and built-in bots) with their points,
  games, streak, byes, absences and final place;
- ``tournament_games``: its tables by round, the entrants at each and the points they got.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make the tables of tournaments, their entrants and their games."""
    op.create_table(
        "tournaments",
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
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("round_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("server", sa.String(32), nullable=True),
        sa.Column("lease_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_starts_at", "tournaments", ["starts_at"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("entrant", sa.String(48), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=True),
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
    op.create_index("ix_tournament_entries_user_id", "tournament_entries", ["user_id"])
    op.create_table(
        "tournament_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("points", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])


def downgrade() -> None:
    """Drop the tournaments' tables."""
    op.drop_index("ix_tournament_games_tournament_id", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_entries_user_id", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_index("ix_tournaments_starts_at", table_name="tournaments")
    op.drop_table("tournaments")
