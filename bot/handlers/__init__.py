"""One router per feature; :func:`routers` lists them in the order they are included."""

from __future__ import annotations

from aiogram import Router

__all__ = ["routers"]


def routers() -> list[Router]:
    from bot.handlers import errors, info, lobby, play, private, settings_lang

    return [
        errors.router,
        private.router,
        lobby.router,
        play.router,
        info.router,
        settings_lang.router,
    ]
