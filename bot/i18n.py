"""Gettext catalogs (Russian, English) and the per-locale translator the renderers use.

``python -m bot.i18n`` compiles ``locales/*/LC_MESSAGES/messages.po`` into ``.mo``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiogram.utils.i18n import I18n

__all__ = [
    "LOCALES",
    "LOCALES_DIR",
    "Translator",
    "compile_catalogs",
    "make_i18n",
    "pick_locale",
]

LOCALES_DIR = Path(__file__).parent / "locales"
LOCALES: tuple[str, ...] = ("ru", "en")


def make_i18n(default_locale: str = "ru") -> I18n:
    return I18n(path=LOCALES_DIR, default_locale=default_locale, domain="messages")


def pick_locale(*candidates: str | None, default: str) -> str:
    """The first supported locale among ``candidates`` ("ru-RU" counts as "ru").

    A Telegram language we do not speak falls to English rather than the default,
    since English is the more likely second language.
    """
    for candidate in candidates:
        if not candidate:
            continue
        short = candidate.split("-")[0].split("_")[0].lower()
        return short if short in LOCALES else "en"
    return default


class Translator:
    """``tr("Deal {n}", n=3)`` in one fixed locale."""

    def __init__(self, i18n: I18n, locale: str) -> None:
        self.i18n = i18n
        self.locale = locale

    def __call__(self, text: str, **params: Any) -> str:
        translated = self.i18n.gettext(text, locale=self.locale)
        return translated.format(**params) if params else translated

    def plural(self, singular: str, plural: str, n: int, **params: Any) -> str:
        translated = self.i18n.gettext(singular, plural, n, locale=self.locale)
        return translated.format(n=n, **params)


def compile_catalogs(root: Path = LOCALES_DIR) -> list[Path]:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po_path in sorted(root.glob("*/LC_MESSAGES/messages.po")):
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        mo_path = po_path.with_suffix(".mo")
        with mo_path.open("wb") as mo_file:
            write_mo(mo_file, catalog)
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_catalogs():
        print(path)
