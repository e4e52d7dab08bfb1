"""A fake Telegram Bot API server (see :mod:`.server`): the end-to-end tests and the load
benchmark run the real bot against it."""

from .models import (
    ApiCall,
    ApiError,
    Button,
    CallbackAnswer,
    FakeChat,
    FakeMessage,
    FakeUser,
    PressHandle,
)
from .parse_mode import HtmlParseError, parse_html
from .server import FakeTelegram, Fault, Gate

__all__ = [
    "ApiCall",
    "ApiError",
    "Button",
    "CallbackAnswer",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "Fault",
    "Gate",
    "HtmlParseError",
    "PressHandle",
    "parse_html",
]
