from __future__ import annotations

from tests import databases
from tests import fake_telegram_fixtures as fixtures

fake_telegram = fixtures.fake_telegram
postgres_server = databases.postgres_server
postgres_url = databases.postgres_url
database_url = databases.database_url
