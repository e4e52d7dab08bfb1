"""``python -m bot`` as a child process pointed at the fake Telegram."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.fake_telegram import FakeTelegram

__all__ = ["ChildBot"]

ROOT = Path(__file__).resolve().parents[2]


class ChildBot:
    """``seed``: tables get seeds counted up from it, as ``BotProcess`` gives them."""

    def __init__(self, fake: FakeTelegram, database: Path, *, seed: int | None = None) -> None:
        self.fake = fake
        self.database = database
        self.seed = seed
        self.log = database.with_suffix(".log")
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {
            **os.environ,
            "BOT_TOKEN": self.fake.token,
            "TELEGRAM_API_URL": self.fake.base_url,
            "DATABASE_PATH": str(self.database),
            "DEFAULT_LOCALE": "en",
            "PYTHONPATH": str(ROOT),
        }
        mark = self.fake.mark()
        entry = ["bot"] if self.seed is None else ["tests.e2e.seeded_bot", str(self.seed)]
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                *entry,
                cwd=self.database.parent,
                env=env,
                stdout=log,
                stderr=log,
            )
        # importing aiogram builds its pydantic models: tens of seconds on a busy machine
        await self.fake.wait_for(
            lambda: self.fake.calls("getUpdates", since=mark), timeout=90, what="polling"
        )

    async def kill(self) -> None:
        """Stop it the hard way, as a crash or a power cut would."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.proc = None

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                await self.kill()
        self.proc = None
