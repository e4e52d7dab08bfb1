"""Tables, people and chats.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("chat_id", Id, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("solo", sa.Integer, nullable=False, server_default="0"),
        sa.Column("host_id", Id, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("conventions", sa.Text, nullable=False),
        sa.Column("turn_timer", sa.Integer, nullable=False, server_default="0"),
        sa.Column("state", sa.Text),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("lang", sa.Text, nullable=False),
        sa.Column("table_msg_id", Id),
        sa.Column("hand_msgs", sa.Text, nullable=False, server_default="{}"),
        sa.Column("seed", Id, nullable=False, server_default="0"),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("tables_by_chat", "tables", ["chat_id", "status"])
    op.create_table(
        "users",
        sa.Column("user_id", Id, primary_key=True, autoincrement=False),
        sa.Column("name", sa.Text, nullable=False, server_default=""),
        sa.Column("tg_lang", sa.Text),
        sa.Column("lang", sa.Text),
        sa.Column("has_private", sa.Integer, nullable=False, server_default="0"),
        sa.Column("blocked", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "chats",
        sa.Column("chat_id", Id, primary_key=True, autoincrement=False),
        sa.Column("lang", sa.Text),
    )


def downgrade() -> None:
    op.drop_table("chats")
    op.drop_table("users")
    op.drop_index("tables_by_chat", "tables")
    op.drop_table("tables")
