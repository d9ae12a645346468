"""Each table records the rules version of its game.

A game's rules version (``GameInfo.version``) is bumped when a rules change would replay
old games differently; a table made under an older version is rebuilt with the options
that version played by (``Game.for_version``). Every table stored before this migration
was made under version 1 of its game, the only version either game had then.

Revision ID: 0003
Revises: 0002
Create Date: 2025-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.rules_version``, 1 for the tables already stored."""
    op.add_column(
        "tables",
        sa.Column("rules_version", sa.Integer(), nullable=False, server_default="1"),
    )


def downgrade() -> None:
    """Drop ``tables.rules_version``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rules_version")
