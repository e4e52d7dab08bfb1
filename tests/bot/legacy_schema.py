"""The schema as the bot kept it before its migrations moved to Alembic: numbered
steps, the last one run recorded in a ``schema_version`` table. Files made this way
are still around; the tests make such files to check they migrate forward."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

__all__ = ["MIGRATIONS", "make_legacy_file"]

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, people and chats
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        solo INTEGER NOT NULL DEFAULT 0,
        host_id INTEGER NOT NULL,
        seats TEXT NOT NULL,
        conventions TEXT NOT NULL,
        turn_timer INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        lang TEXT NOT NULL,
        table_msg_id INTEGER,
        hand_msgs TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tables_by_chat ON tables (chat_id, status);
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        tg_lang TEXT,
        lang TEXT,
        has_private INTEGER NOT NULL DEFAULT 0,
        blocked INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        lang TEXT
    );
    """,
    # 2: deal results and the game's end posted at least once, even across a crash
    """
    ALTER TABLE tables ADD COLUMN unposted_from INTEGER;
    """,
    # 3: turn and lobby deadlines (wall-clock seconds), consecutive timeouts per seat
    """
    ALTER TABLE tables ADD COLUMN deadline REAL;
    ALTER TABLE tables ADD COLUMN remind_at REAL;
    ALTER TABLE tables ADD COLUMN timeouts TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX tables_by_deadline ON tables (deadline) WHERE deadline IS NOT NULL;
    """,
    # 4: turn reminders in players' chats, so one left when the bot stops still goes
    """
    ALTER TABLE tables ADD COLUMN reminders TEXT NOT NULL DEFAULT '{}';
    """,
)


def make_legacy_file(path: Path, steps: int, rows: str = "") -> None:
    """A SQLite file at ``path`` as the earlier bot left it after ``steps`` steps, with
    ``rows`` (SQL) run after them."""
    with closing(sqlite3.connect(path)) as old:
        old.executescript(
            "PRAGMA journal_mode=WAL;"
            "CREATE TABLE schema_version (version INTEGER NOT NULL);"
            f"INSERT INTO schema_version (version) VALUES ({steps});"
            + "".join(MIGRATIONS[:steps])
            + rows
        )
