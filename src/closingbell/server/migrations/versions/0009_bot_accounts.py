"""Bot accounts and their API tokens.

- ``users.bot``: whether the account is a bot account, played by a program through the API
  (docs/protocol.md, "Bots from outside"); only an account that never sat at a table may
  become one, and it stays one;
- ``api_tokens``: a bot account's tokens, each named by its owner, stored as the SHA-256 of
  the token (shown once, when made), with when it was made, last used and revoked.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the bot mark to accounts and make the table of API tokens."""
    op.add_column(
        "users", sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_tokens_user_id", "api_tokens", ["user_id"])


def downgrade() -> None:
    """Drop the API tokens and the bot mark."""
    op.drop_index("ix_api_tokens_user_id", table_name="api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("bot")
