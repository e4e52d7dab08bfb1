"""One router per feature; :func:`routers` builds them fresh for each Dispatcher."""

from __future__ import annotations

from aiogram import Router

__all__ = ["routers"]


def routers() -> list[Router]:
    from bot.handlers import errors, info, lobby, play, private, settings_lang

    modules = (errors, private, lobby, play, info, settings_lang)
    return [module.make_router() for module in modules]
