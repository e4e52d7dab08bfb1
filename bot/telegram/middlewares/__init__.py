"""Outer middlewares: each update once; who is acting, in which language."""

from bot.telegram.middlewares.context import ContextMiddleware
from bot.telegram.middlewares.once import Once

__all__ = ["ContextMiddleware", "Once"]
