"""Servers sharing a database, and which of them runs each live table.

Several ``closingbell serve`` processes may share one PostgreSQL database
(``closingbell.server.cluster``). Each writes a row of ``servers`` when it starts and
refreshes its ``heartbeat`` every second or so; a server whose heartbeat is older than the
lease time is taken for dead. A row of ``leases`` names the server that runs a table's
bots and turn clock (``server`` ``NULL``: handed over, for any server to take). Every
unfinished table stored before this migration is given a handed-over lease, so that the
first server to start takes it up, as a server restarting on its database did before.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``servers`` and ``leases``, a handed-over lease for each unfinished table."""
    op.create_table(
        "servers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("server", sa.String(32), nullable=True, index=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute(
        "INSERT INTO leases (table_id, server, since) "
        "SELECT id, NULL, updated_at FROM tables WHERE status != 'finished'"
    )


def downgrade() -> None:
    """Drop ``leases`` and ``servers``."""
    op.drop_table("leases")
    op.drop_table("servers")
