"""Each table records whether a player took a hint there.

``tables.hints_used``: true once a seated player at a practice table (no other person
seated) asked for a hint. Such a table's result changes no rating, live or in
``closingbell ratings --rebuild``. Every table stored before this migration took no hint
(there were none to take).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.hints_used``, false for the tables already stored."""
    op.add_column(
        "tables",
        sa.Column("hints_used", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    """Drop ``tables.hints_used``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints_used")
