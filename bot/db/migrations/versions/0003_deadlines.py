"""Turn and lobby deadlines (wall-clock seconds), consecutive timeouts per seat.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("deadline", sa.Double))
        batch.add_column(sa.Column("remind_at", sa.Double))
        batch.add_column(sa.Column("timeouts", sa.Text, nullable=False, server_default="{}"))
    op.create_index(
        "tables_by_deadline",
        "tables",
        ["deadline"],
        sqlite_where=sa.text("deadline IS NOT NULL"),
        postgresql_where=sa.text("deadline IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("tables_by_deadline", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("timeouts")
        batch.drop_column("remind_at")
        batch.drop_column("deadline")
