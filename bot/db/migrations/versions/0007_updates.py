"""Updates handled: each update's id, kept a day, so one Telegram delivers again (a retry,
or a replica that died before answering) is not handled a second time.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "updates",
        sa.Column("update_id", Id, primary_key=True, autoincrement=False),
        sa.Column("taken_at", sa.Double, nullable=False),
    )
    op.create_index("updates_by_time", "updates", ["taken_at"])


def downgrade() -> None:
    op.drop_index("updates_by_time", table_name="updates")
    op.drop_table("updates")
