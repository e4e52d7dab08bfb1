"""SQLite storage: a connection with versioned migrations and the repositories."""

from bot.db.database import Database, open_database
from bot.db.models import Seat, TableRecord, TableStatus
from bot.db.repo import PeopleRepo, TableRepo

__all__ = [
    "Database",
    "PeopleRepo",
    "Seat",
    "TableRecord",
    "TableRepo",
    "TableStatus",
    "open_database",
]
