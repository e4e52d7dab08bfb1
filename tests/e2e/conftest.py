from __future__ import annotations

from tests.fake_telegram import fixtures

fake_telegram = fixtures.fake_telegram
