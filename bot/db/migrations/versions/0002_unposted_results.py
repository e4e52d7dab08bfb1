"""Deal results and the game's end posted at least once, even across a crash.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("unposted_from", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("unposted_from")
