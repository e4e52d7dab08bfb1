from __future__ import annotations

from tests.e2e import fixtures as bot_fixtures
from tests.fake_telegram import fixtures

fake_telegram = fixtures.fake_telegram
launch = bot_fixtures.launch
