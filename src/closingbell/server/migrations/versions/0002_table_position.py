"""A table may start from a position: the ``position`` column of ``tables``.

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01

The column is nullable and added without a default, so every table stored before keeps
``NULL`` there: it was dealt from its seed, as before. Adding a nullable column is a plain
``ALTER TABLE ... ADD COLUMN`` on SQLite and PostgreSQL alike; no row is rewritten.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the nullable ``position`` column."""
    op.add_column("tables", sa.Column("position", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop the ``position`` column (tables started from a position then lose it)."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("position")
