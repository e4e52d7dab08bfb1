from __future__ import annotations

from tests import databases
from tests import fake_telegram_fixtures as fixtures
from tests.e2e import fixtures as bot_fixtures

fake_telegram = fixtures.fake_telegram
launch = bot_fixtures.launch
migrated_database = bot_fixtures.migrated_database
postgres_server = databases.postgres_server
postgres_url = databases.postgres_url
