"""One router per feature; :func:`routers` builds them fresh for each Dispatcher."""

from __future__ import annotations

from aiogram import Router

__all__ = ["routers"]


def routers() -> list[Router]:
    from bot.telegram.handlers import (
        chats,
        errors,
        fallback,
        history,
        info,
        lobby,
        play,
        private,
        settings_lang,
    )

    # the game buttons, most of all updates, find their handler first
    modules = (errors, play, chats, private, lobby, info, history, settings_lang, fallback)
    return [module.make_router() for module in modules]
