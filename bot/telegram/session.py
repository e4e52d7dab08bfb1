"""An aiogram session that does less per call for the methods a button press makes.

Per press the bot edits two or three messages and answers the callback query. The
stock session turns each call into form fields by walking the whole keyboard in
Python, then validates the reply into a full ``Message`` (chat, sender, keyboard)
that nobody reads: together most of the bot's CPU time under load. Here:

- ``getUpdates``, ``sendMessage``, ``editMessageText``, ``answerCallbackQuery`` and
  ``deleteMessage`` go out as one JSON body (Telegram takes JSON as well as forms)
  through :class:`bot.telegram.http.HttpPool` rather than aiohttp's client;
- a successful ``editMessageText``, ``answerCallbackQuery`` or ``deleteMessage``
  returns ``True`` without parsing its result: the bot only needs to know it worked;
- any failure goes through aiogram's own ``check_response``, so it raises the very
  same exceptions (retry after, migrate to chat, bad request, forbidden, server error).

The message a callback query came from is parsed down to where it is (its id, date,
chat and topic): the bot never reads its text, entities or keyboard (it knows what it
sent), and those were most of the cost of parsing a button press and of the memory
each press waiting to be handled holds.

Any other method, a call with a value this does not know how to write (a file,
a nested object other than an inline keyboard), or any call through a proxy takes
the stock path.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable
from functools import cache
from http import HTTPStatus
from itertools import chain
from typing import TYPE_CHECKING, Any, cast

from aiogram.__meta__ import __version__
from aiogram.client.default import Default
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import ClientDecodeError, TelegramNetworkError
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    EditMessageText,
    Response,
    SendMessage,
    TelegramMethod,
)
from aiogram.methods.base import TelegramType
from aiogram.types import InlineKeyboardMarkup, Update
from aiohttp.http import SERVER_SOFTWARE
from pydantic import BaseModel, ValidationError

from bot import jsonio
from bot.telegram.http import HttpPool

if TYPE_CHECKING:
    from aiogram import Bot

__all__ = ["JSON_METHODS", "UNREAD_RESULTS", "LeanSession", "call"]

JSON_METHODS = frozenset(
    {"getUpdates", "sendMessage", "editMessageText", "answerCallbackQuery", "deleteMessage"}
)
"""Methods sent as a JSON body."""

UNREAD_RESULTS = frozenset({"editMessageText", "answerCallbackQuery", "deleteMessage"})
"""Methods whose successful result is ``True`` instead of the parsed reply."""

_PRESSED_MESSAGE = ("message_id", "date", "chat", "message_thread_id")
"""What the bot reads of the message under a pressed button."""


class _Unsupported(Exception):
    """A value the JSON path does not write; the stock path takes the call."""


def _plain(value: Any, bot: Bot) -> Any:
    if isinstance(value, Default):
        value = bot.default[value.name]
    if value is None or isinstance(value, (str, int, float)):
        return value  # bool is an int
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value  # getUpdates' allowed_updates
    if isinstance(value, InlineKeyboardMarkup):
        # only strings, numbers and plain objects inside; None fields are left out
        # as the stock session leaves them out
        return value.model_dump(mode="json", exclude_none=True)
    raise _Unsupported


_METHODS: dict[str, type[TelegramMethod[Any]]] = {
    "sendMessage": SendMessage,
    "editMessageText": EditMessageText,
    "answerCallbackQuery": AnswerCallbackQuery,
    "deleteMessage": DeleteMessage,
}


async def call(bot: Bot, name: str, params: dict[str, Any]) -> Any:
    """``name`` with JSON-ready ``params``, the result as plain JSON, through any session:
    the lean one's :meth:`LeanSession.call`, else the method model on the stock path."""
    if isinstance(bot.session, LeanSession):
        return await bot.session.call(bot, name, params)
    return await _stock_call(bot, name, params)


async def _stock_call(bot: Bot, name: str, params: dict[str, Any]) -> Any:
    result = await bot(_method(name, params))
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json", exclude_none=True)
    return result


def _method(name: str, params: dict[str, Any]) -> TelegramMethod[Any]:
    """The aiogram model of a call: for the stock path and for exceptions."""
    markup = params.get("reply_markup")
    if isinstance(markup, dict):
        params = {**params, "reply_markup": InlineKeyboardMarkup.model_validate(markup)}
    return _METHODS[name](**params)


@cache
def _defaults(name: str) -> tuple[tuple[str, str], ...]:
    """The fields of a method that take the bot's defaults, with the default's name."""
    return tuple(
        (field, info.default.name)
        for field, info in _METHODS[name].model_fields.items()
        if isinstance(info.default, Default)
    )


class LeanSession(AiohttpSession):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("json_loads", jsonio.loads)
        kwargs.setdefault("json_dumps", jsonio.dumps)
        super().__init__(*args, **kwargs)
        self._pool: HttpPool | None = None

    def _http(self) -> HttpPool:
        if self._pool is None:
            ssl_context = self._connector_init.get("ssl")
            self._pool = HttpPool(
                ssl_context=ssl_context if isinstance(ssl_context, ssl.SSLContext) else None,
                user_agent=f"{SERVER_SOFTWARE} aiogram/{__version__}",
                limit=int(self._connector_init.get("limit") or 100),
            )
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
        await super().close()

    def _dump_bytes(self, body: dict[str, Any]) -> bytes:
        if self.json_dumps is jsonio.dumps:
            return jsonio.dump_bytes(body)  # the same bytes, without a trip through str
        return self.json_dumps(body).encode()

    def json_body(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        """The call as a JSON object, or ``None`` when the stock path must send it.

        Like the stock form, it leaves out fields that are ``None`` or ``""``.
        """
        if method.__pydantic_extra__:
            return None
        body = {}
        try:
            for key, value in method.__dict__.items():
                plain = _plain(value, bot)
                if plain is None or plain == "":
                    continue
                body[key] = plain
        except _Unsupported:
            return None
        return self.json_dumps(body)

    async def call(self, bot: Bot, name: str, params: dict[str, Any]) -> Any:
        """``name`` (a method that sends or changes a message, or answers a button) with
        JSON-ready ``params``, no method model.

        What the bot's hot path calls: the body is written straight from ``params`` (as
        :meth:`json_body` would write it, the bot's defaults filled in) and the result
        comes back as plain JSON: ``True`` for :data:`UNREAD_RESULTS`, the object for
        ``sendMessage``. The method model is built only when the call fails, for
        aiogram's ``check_response`` to raise the very exception the stock path raises.
        """
        if self.proxy is not None:
            return await _stock_call(bot, name, params)
        try:
            defaults = [
                (field, _plain(bot.default[default], bot))
                for field, default in _defaults(name)
                if field not in params
            ]
        except _Unsupported:
            return await _stock_call(bot, name, params)
        body = {
            key: value
            for key, value in chain(params.items(), defaults)
            if value is not None and value != ""
        }
        status, raw_result = await self._post(
            bot, name, self._dump_bytes(body), None, lambda: _method(name, params)
        )
        found, result = self._result(name, status, raw_result)
        if found:
            return result
        self.check_response(
            bot=bot, method=_method(name, params), status_code=status, content=raw_result
        )
        raise ClientDecodeError("Unexpected reply", ValueError(raw_result), raw_result)

    def _result(self, name: str, status: int, raw_result: str) -> tuple[bool, Any]:
        """``(True, result)`` for a successful reply, ``True`` as the result of the
        :data:`UNREAD_RESULTS`; ``(False, None)`` for ``check_response`` to judge."""
        if HTTPStatus.OK <= status <= HTTPStatus.IM_USED:
            try:
                reply = self.json_loads(raw_result)
            except ValueError:
                return False, None
            if isinstance(reply, dict) and reply.get("ok") is True and "result" in reply:
                result = reply["result"]
                if name in UNREAD_RESULTS and not isinstance(result, bool):
                    result = True
                return True, result
        return False, None

    async def _post(
        self,
        bot: Bot,
        name: str,
        body: bytes,
        timeout: int | None,  # noqa: ASYNC109 (aiogram's meaning)
        method: Callable[[], TelegramMethod[Any]],
    ) -> tuple[int, str]:
        url = self.api.api_url(token=bot.token, method=name)
        try:
            return await self._http().post_json(
                url, body, self.timeout if timeout is None else timeout
            )
        except TimeoutError as e:
            raise TelegramNetworkError(method=method(), message="Request timeout error") from e
        except (OSError, EOFError, ValueError) as e:
            # EOFError: asyncio's IncompleteReadError; ValueError: a garbled reply
            raise TelegramNetworkError(method=method(), message=f"{type(e).__name__}: {e}") from e

    def check_response(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        status_code: int,
        content: str,
    ) -> Response[TelegramType]:
        if method.__api_method__ == "getUpdates" and HTTPStatus.OK <= status_code <= 226:
            updates = self._updates(bot, content)
            if updates is not None:
                return cast(Response[TelegramType], updates)
        return super().check_response(bot, method, status_code, content)

    def _updates(self, bot: Bot, content: str) -> Response[list[Update]] | None:
        """A successful ``getUpdates`` reply, parsed; ``None`` for the stock path to judge."""
        try:
            reply = self.json_loads(content)
        except ValueError:
            return None
        if not (isinstance(reply, dict) and reply.get("ok") is True):
            return None
        for update in reply.get("result") or ():
            query = update.get("callback_query") if isinstance(update, dict) else None
            if isinstance(query, dict) and isinstance(message := query.get("message"), dict):
                query["message"] = {k: message[k] for k in _PRESSED_MESSAGE if k in message}
        try:
            return Response[list[Update]].model_validate(reply, context={"bot": bot})
        except ValidationError as e:
            raise ClientDecodeError("Failed to deserialize object", e, reply) from e

    async def make_request(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        timeout: int | None = None,  # noqa: ASYNC109 (aiogram's signature)
    ) -> TelegramType:
        name = method.__api_method__
        body = None
        if name in JSON_METHODS and self.proxy is None:
            body = self.json_body(bot, method)
        if body is None:
            return await super().make_request(bot, method, timeout)
        status, raw_result = await self._post(bot, name, body.encode(), timeout, lambda: method)
        if name in UNREAD_RESULTS:
            found, result = self._result(name, status, raw_result)
            if found:
                return cast(TelegramType, result)
        response = self.check_response(
            bot=bot, method=method, status_code=status, content=raw_result
        )
        return cast(TelegramType, response.result)
