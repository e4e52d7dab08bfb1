"""Outer middlewares: who is acting, in which language."""

from bot.middlewares.context import ContextMiddleware

__all__ = ["ContextMiddleware"]
