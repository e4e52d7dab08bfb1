"""Storage (SQLite or PostgreSQL through SQLAlchemy): the engine, migrations, repositories."""

from bot.db.database import DEFAULT_URL, Database, database_url, open_database
from bot.db.models import Seat, TableRecord, TableStatus
from bot.db.repo import PeopleRepo, StaleTable, TableRepo

__all__ = [
    "DEFAULT_URL",
    "Database",
    "PeopleRepo",
    "Seat",
    "StaleTable",
    "TableRecord",
    "TableRepo",
    "TableStatus",
    "database_url",
    "open_database",
]
