"""Seats asked for at the next game: a person who came when a table's game was on may
ask to sit at the next table its "Play again" opens.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "next_seats",
        sa.Column("table_id", Id, primary_key=True, autoincrement=False),
        sa.Column("user_id", Id, primary_key=True, autoincrement=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("asked_at", sa.Double, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("next_seats")
