"""Timer claims: the process firing a table's reminder or timeout marks it, until when,
so replicas sharing the database fire each deadline once.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("claimed_until", sa.Double))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("claimed_until")
