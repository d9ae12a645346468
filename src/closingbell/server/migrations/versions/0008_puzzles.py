"""Puzzles, each account's attempts at them, and each account's puzzle rating in each game.

- ``puzzles``: one row per puzzle (docs/puzzles.md): its game, options and position, the
  seat, the best action, every action's worth, themes and reasons, and the puzzle's own
  rating (openskill mu and sigma), with how often it was tried and solved by accounts;
- ``puzzle_attempts``: an account's first answer to each puzzle (the one that is rated);
- ``puzzle_ratings``: each account's puzzle rating in each game.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make the three tables of puzzles."""
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("themes", sa.String(255), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("tried", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzles_game", "puzzles", ["game"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("puzzle_id", sa.String(12), sa.ForeignKey("puzzles.id"), primary_key=True),
        sa.Column("action", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("tried", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the three tables of puzzles."""
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzles_game", "puzzles")
    op.drop_table("puzzles")
