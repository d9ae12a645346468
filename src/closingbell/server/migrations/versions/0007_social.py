"""Who made each invitation, and whether a chat message was written by an account.

- ``seats.invited_by``: the account that kept an open seat for another (an invitation), so
  that every server counts an account's open invitations from the database (the limits
  of ``Settings.invitations_open`` and ``invitations_to_one``). Invitations stored before
  this migration have none and count against nobody.
- ``chat.user_id``: the account seated where a message was written, so that the chat marks
  the names that are accounts' (``ChatEntry.account``). Messages stored before this
  migration are shown as a guest's.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.invited_by`` (indexed) and ``chat.user_id``, ``NULL`` in the rows stored."""
    op.add_column("seats", sa.Column("invited_by", sa.String(32), nullable=True))
    op.create_index("ix_seats_invited_by", "seats", ["invited_by"])
    op.add_column("chat", sa.Column("user_id", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop ``seats.invited_by`` and ``chat.user_id``."""
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("user_id")
    op.drop_index("ix_seats_invited_by", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invited_by")
