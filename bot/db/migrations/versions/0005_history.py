"""Players' history: each ended deal's record, each finished game's results, ratings.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "deal_logs",
        sa.Column("table_id", Id, primary_key=True, autoincrement=False),
        sa.Column("deal_no", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("chat_id", Id, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("table_id", Id, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("chat_id", Id, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("user_id", Id),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("line_up", sa.Text, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("counters", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Double, nullable=False),
    )
    op.create_index("results_by_user", "results", ["user_id", "game"])
    op.create_index("results_by_chat", "results", ["chat_id", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("seats", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player", sa.Text, primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_index("results_by_chat", "results")
    op.drop_index("results_by_user", "results")
    op.drop_table("results")
    op.drop_table("deal_logs")
