"""Outer middlewares: who is acting, in which language."""

from bot.telegram.middlewares.context import ContextMiddleware

__all__ = ["ContextMiddleware"]
