"""Settings from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:  # the database's modules load only once the settings are usable
    from bot.db.database import DatabaseOptions

__all__ = ["UPDATE_WORKERS", "DatabaseSettings", "Settings", "load_settings"]

UPDATE_WORKERS = 12
"""Updates a polling bot handles at once; the rest wait in Telegram's queue."""

_TOKEN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{10,}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
"""What Telegram accepts as a webhook's secret token."""


class DatabaseSettings(BaseSettings):
    """Where the data is: all that ``python -m bot.db`` needs."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str | None = None
    """``sqlite+aiosqlite:///<path>`` or ``postgresql+psycopg://user:password@host/db``;
    unset: the SQLite file at ``database_path``."""
    database_path: Path = Path("data/bot.sqlite3")
    database_pool_size: int = Field(default=10, ge=1, le=1000)
    """PostgreSQL: connections each process keeps open (as many again for a burst)."""
    database_pool_timeout: float = Field(default=30.0, gt=0)
    """PostgreSQL: seconds a statement waits for a free connection before failing."""
    database_statement_timeout: float = Field(default=30.0, ge=0)
    """PostgreSQL: seconds a statement may run, waiting for a table's lock included,
    before the server cancels it (0: no limit)."""
    database_idle_timeout: float = Field(default=120.0, ge=0)
    """PostgreSQL: seconds a transaction may sit idle (a change of a table waiting on
    Telegram) before the server ends it and its locks (0: no limit)."""

    @property
    def database(self) -> str:
        """The database's URL: ``DATABASE_URL``, else the SQLite file at ``DATABASE_PATH``."""
        return self.database_url or f"sqlite+aiosqlite:///{self.database_path}"

    @property
    def database_options(self) -> DatabaseOptions:
        """The PostgreSQL connection settings, as :func:`bot.db.open_database` takes them."""
        return {
            "pool_size": self.database_pool_size,
            "pool_timeout": self.database_pool_timeout,
            "statement_timeout": self.database_statement_timeout,
            "idle_timeout": self.database_idle_timeout,
        }


class Settings(DatabaseSettings):
    bot_token: SecretStr
    telegram_api_url: str = "https://api.telegram.org"
    default_locale: str = Field(default="ru", pattern=r"^(ru|en)$")
    log_level: str = Field(default="INFO", pattern=r"(?i)^(DEBUG|INFO|WARNING|ERROR|CRITICAL)$")
    turn_timer: int = Field(default=90, ge=0, le=3600)
    update_workers: int = Field(default=UPDATE_WORKERS, ge=1, le=100)
    group_messages_per_minute: int = Field(default=20, ge=1)
    bot_speed: float | None = Field(default=None, ge=0.25, le=4.0)
    """How fast this machine runs the bot players against the one their work was
    calibrated on (:mod:`bot.ai.pace`); unset: measured at start-up, and logged."""
    webhook_url: str | None = Field(default=None, pattern=r"^https?://\S+$")
    """Set: Telegram posts updates to this URL (its path is the one served) instead of
    the bot polling for them."""
    webhook_secret: SecretStr | None = None
    """Required with ``webhook_url``: Telegram sends it with every update, and a request
    without it is refused."""
    webhook_host: str = "0.0.0.0"
    webhook_port: int = Field(default=8080, ge=0, le=65535)

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not _TOKEN.match(value.get_secret_value()):
            raise ValueError("BOT_TOKEN does not look like a token from @BotFather (123456:ABC...)")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _SECRET.match(value.get_secret_value()):
            raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @model_validator(mode="after")
    def _webhook_has_secret(self) -> Settings:
        if self.webhook_url and self.webhook_secret is None:
            raise ValueError("WEBHOOK_SECRET is required with WEBHOOK_URL")
        return self


def load_settings() -> Settings:
    """The settings, or ``SystemExit`` with one readable line per problem."""
    try:
        return Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        problems = []
        for item in error.errors():
            name = ".".join(str(part) for part in item["loc"]).upper()
            message = "is missing" if item["type"] == "missing" else item["msg"]
            message = message.removeprefix("Value error, ")
            problems.append(f"{name} {message}" if name else message)
        raise SystemExit("Cannot start: " + "; ".join(problems)) from None
