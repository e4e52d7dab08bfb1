"""The schema as SQLAlchemy Core tables: what the repositories read and write.

The tables are made and changed only by the migrations in :mod:`bot.db.migrations`;
these definitions say what the newest migration leaves, and a test checks the two
agree on both back ends.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = [
    "Id",
    "chats",
    "deal_logs",
    "group_sends",
    "message_versions",
    "metadata",
    "next_seats",
    "posts",
    "ratings",
    "results",
    "tables",
    "updates",
    "users",
]

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
"""A 64-bit id: Telegram's user and chat ids do not fit in 32 bits. SQLite's INTEGER
is 64-bit already, and only an ``INTEGER PRIMARY KEY`` is its row id."""

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("chat_id", Id, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("solo", sa.Integer, nullable=False, server_default="0"),
    sa.Column("host_id", Id, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("conventions", sa.Text, nullable=False),
    sa.Column("turn_timer", sa.Integer, nullable=False, server_default="0"),
    sa.Column("autoplay", sa.Integer, nullable=False, server_default="1"),
    sa.Column("state", sa.Text),
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("lang", sa.Text, nullable=False),
    sa.Column("table_msg_id", Id),
    sa.Column("hand_msgs", sa.Text, nullable=False, server_default="{}"),
    sa.Column("seed", Id, nullable=False, server_default="0"),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
    sa.Column("unposted_from", sa.Integer),
    sa.Column("deadline", sa.Double),
    sa.Column("remind_at", sa.Double),
    sa.Column("timeouts", sa.Text, nullable=False, server_default="{}"),
    sa.Column("reminders", sa.Text, nullable=False, server_default="{}"),
    # a process firing the table's timer, until then (see TableRepo.due)
    sa.Column("claimed_until", sa.Double),
    sa.Index("tables_by_chat", "chat_id", "status"),
    # one open table per chat, however many replicas open one at once
    sa.Index(
        "tables_open_in_chat",
        "chat_id",
        unique=True,
        sqlite_where=sa.text("status IN ('lobby', 'playing')"),
        postgresql_where=sa.text("status IN ('lobby', 'playing')"),
    ),
    sa.Index(
        "tables_by_deadline",
        "deadline",
        sqlite_where=sa.text("deadline IS NOT NULL"),
        postgresql_where=sa.text("deadline IS NOT NULL"),
    ),
    sqlite_autoincrement=True,
)

users = sa.Table(
    "users",
    metadata,
    sa.Column("user_id", Id, primary_key=True, autoincrement=False),
    sa.Column("name", sa.Text, nullable=False, server_default=""),
    sa.Column("tg_lang", sa.Text),
    sa.Column("lang", sa.Text),
    sa.Column("has_private", sa.Integer, nullable=False, server_default="0"),
    sa.Column("blocked", sa.Integer, nullable=False, server_default="0"),
)

chats = sa.Table(
    "chats",
    metadata,
    sa.Column("chat_id", Id, primary_key=True, autoincrement=False),
    sa.Column("lang", sa.Text),
)

deal_logs = sa.Table(
    "deal_logs",
    metadata,
    sa.Column("table_id", Id, primary_key=True, autoincrement=False),
    sa.Column("deal_no", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("chat_id", Id, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
)

results = sa.Table(
    "results",
    metadata,
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
    sa.Index("results_by_user", "user_id", "game"),
    sa.Index("results_by_chat", "chat_id", "finished_at"),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("seats", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player", sa.Text, primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)

next_seats = sa.Table(
    "next_seats",
    metadata,
    # people who asked, while a table's game was on, for a seat at the next table its
    # "Play again" opens; read (and removed) then
    sa.Column("table_id", Id, primary_key=True, autoincrement=False),
    sa.Column("user_id", Id, primary_key=True, autoincrement=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("asked_at", sa.Double, nullable=False),
)


updates = sa.Table(
    "updates",
    metadata,
    # the updates taken, kept a day: Telegram delivers again only within that
    sa.Column("update_id", Id, primary_key=True, autoincrement=False),
    sa.Column("taken_at", sa.Double, nullable=False),
    sa.Index("updates_by_time", "taken_at"),
)

group_sends = sa.Table(
    "group_sends",
    metadata,
    # a group's minute: one row per message it may get a minute, when it last got it
    # (see bot.db.sends), shared by every process writing to the group
    sa.Column("chat_id", Id, primary_key=True, autoincrement=False),
    sa.Column("slot", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("sent_at", sa.Double, nullable=False),
)

posts = sa.Table(
    "posts",
    metadata,
    # a deal's result (its scoresheet row) or the end of a game (one row past the last),
    # claimed by the process that posts it (see bot.db.posts)
    sa.Column("table_id", Id, primary_key=True, autoincrement=False),
    sa.Column("row_no", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("claimed_at", sa.Double, nullable=False),
    sa.Column("owner", sa.Text, nullable=False),
    sa.Column("done", sa.Integer, nullable=False, server_default="0"),
    sa.Index("posts_by_time", "claimed_at"),
)

message_versions = sa.Table(
    "message_versions",
    metadata,
    # the table's version a table or hand message last showed (see bot.db.shown)
    sa.Column("chat_id", Id, primary_key=True, autoincrement=False),
    sa.Column("message_id", Id, primary_key=True, autoincrement=False),
    sa.Column("table_id", Id, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("shown_at", sa.Double, nullable=False),
    sa.Index("message_versions_by_time", "shown_at"),
)
