"""Settings, catalogs, callback data sizes, card labels."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from aiogram.client.session.aiohttp import AiohttpSession
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from bot.app import connections, make_bot
from bot.config import Settings, load_settings
from bot.i18n import LOCALES_DIR, Translator, make_i18n, pick_locale
from bot.render.cards import action_label, card_label
from bot.render.keyboards.callbacks import Act, Lobby, TableButton

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_token_stops_start_up_with_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert done.stderr.strip() == "Cannot start: BOT_TOKEN is missing"
    bad = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "BOT_TOKEN": "nonsense"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0
    assert "Traceback" not in bad.stderr
    assert bad.stderr.strip().startswith("Cannot start: BOT_TOKEN ")


def test_settings_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "123456:ABCdefGHIjklMNOpqr")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    settings = Settings()  # type: ignore[call-arg]
    assert settings.telegram_api_url == "https://api.telegram.org"
    assert settings.database_path == Path("data/bot.sqlite3")
    assert settings.database == "sqlite+aiosqlite:///data/bot.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", "/srv/cards.sqlite3")
    assert Settings().database == "sqlite+aiosqlite:////srv/cards.sqlite3"  # type: ignore[call-arg]
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://cards@db/cards")
    assert Settings().database == "postgresql+psycopg://cards@db/cards"  # type: ignore[call-arg]
    assert settings.default_locale == "ru"
    assert settings.turn_timer == 90
    assert settings.update_workers == 12
    assert settings.group_messages_per_minute == 20  # Telegram's limit


async def test_the_bot_keeps_two_connections_for_each_update_it_may_have_in_flight(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "123456:ABCdefGHIjklMNOpqr")
    monkeypatch.setenv("UPDATE_WORKERS", "80")
    bot = make_bot(Settings())  # type: ignore[call-arg]
    try:
        assert isinstance(bot.session, AiohttpSession)  # aiogram's own
        http = await bot.session.create_session()
        assert http.connector is not None and http.connector.limit == 160
    finally:
        await bot.session.close()
    assert connections(12) == 100  # never fewer than aiogram's own


def _msgids() -> set[str]:
    found = set()
    for _, _, msg, _, _ in extract_from_dir(
        str(ROOT / "bot"),
        method_map=[
            ("engine/**.py", "ignore"),
            ("ai/**.py", "ignore"),
            ("bench/**.py", "ignore"),
            ("**.py", "python"),
        ],
        keywords={"tr": None, "user_tr": None, "table_tr": None},
    ):
        text = msg[0] if isinstance(msg, tuple) else msg
        if text:
            found.add(text)
    return found


def test_every_message_has_a_russian_translation_and_the_mo_is_compiled() -> None:
    used = _msgids()
    assert len(used) > 100
    po_path = LOCALES_DIR / "ru" / "LC_MESSAGES" / "messages.po"
    with po_path.open("rb") as po_file:
        catalog = read_po(po_file)
    translated = {m.id: m.string for m in catalog if m.id}
    missing = sorted(m for m in used if not translated.get(m))
    assert not missing
    with po_path.with_suffix(".mo").open("rb") as mo_file:
        compiled = {m.id: m.string for m in read_mo(mo_file) if m.id}
    assert compiled == translated


def test_translations_keep_their_placeholders() -> None:
    import re

    po_path = LOCALES_DIR / "ru" / "LC_MESSAGES" / "messages.po"
    with po_path.open("rb") as po_file:
        for message in read_po(po_file):
            if message.id:
                assert set(re.findall(r"{\w+}", message.id)) == set(
                    re.findall(r"{\w+}", message.string)
                ), message.id


def test_locale_choice() -> None:
    assert pick_locale(None, "ru-RU", default="en") == "ru"
    assert pick_locale("de", default="ru") == "en"
    assert pick_locale(None, None, default="ru") == "ru"
    tr = Translator(make_i18n("ru"), "ru")
    assert tr("Deal points") == "Очки сдачи"


def test_callback_data_fits_64_bytes() -> None:
    for packed in (
        Act(table_id=2**40, version=10**9, action="gTH2xxxx").pack(),
        Lobby(table_id=2**40, version=10**9, action="settings", option=99).pack(),
        TableButton(table_id=2**40, version=10**9, show="hand").pack(),
    ):
        assert len(packed.encode()) <= 64


@pytest.mark.parametrize(
    ("code", "locale", "label"),
    [
        ("TH", "en", "10♥"),
        ("QS", "ru", "Д♠"),
        ("AD", "ru", "Т♦"),
        ("JC", "en", "J♣"),
        ("7C", "ru", "7♣"),
    ],
)
def test_card_labels(code: str, locale: str, label: str) -> None:
    assert card_label(code, locale) == label


def test_action_labels() -> None:
    tr = Translator(make_i18n("en"), "en")
    names = ["Ann", "Ben", "Cid"]
    assert action_label("b105", tr) == "105"
    assert action_label("k120", tr) == "120"  # the hand message asks for the contract
    assert action_label("gTH2", tr, names) == "10♥ → Cid"
    assert action_label("tH", tr) == "Trump ♥"
    assert action_label("t1", tr) == "Talon 2"
    assert action_label("pass", Translator(make_i18n("ru"), "ru")) == "Пас"


def test_a_webhook_needs_its_secret(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "123456:ABCdefGHIjklMNOpqr")
    monkeypatch.setenv("WEBHOOK_URL", "https://cards.example.org/telegram")
    monkeypatch.delenv("WEBHOOK_SECRET", raising=False)
    with pytest.raises(
        SystemExit, match=r"^Cannot start: WEBHOOK_SECRET is required with WEBHOOK_URL$"
    ):
        load_settings()
    monkeypatch.setenv("WEBHOOK_SECRET", "not a token!")
    with pytest.raises(SystemExit, match=r"^Cannot start: WEBHOOK_SECRET must be 1-256 characters"):
        load_settings()
    monkeypatch.setenv("WEBHOOK_SECRET", "k3y_-OK")
    settings = load_settings()
    assert settings.webhook_secret is not None
    assert (settings.webhook_url, settings.webhook_secret.get_secret_value()) == (
        "https://cards.example.org/telegram",
        "k3y_-OK",
    )
    assert (settings.webhook_host, settings.webhook_port) == ("0.0.0.0", 8080)
    monkeypatch.delenv("WEBHOOK_URL")
    assert load_settings().webhook_url is None  # polling, the default
