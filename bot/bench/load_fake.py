"""The fake Bot API server tuned for load: per-chat wake-ups, press latencies, call tallies.

:class:`LoadFake` is :class:`bot.bench.fake_telegram.FakeTelegram` with these additions
for thousands of simulated players in one process:

- a player waits on its own chat (:meth:`LoadFake.wait_chat`), woken only by the
  bot's sends, edits and deletes there, instead of re-checking a predicate after
  every call anywhere;
- every press records when it was queued, when the bot took it (with ``getUpdates``,
  or as a webhook posted it) and when the bot answered it (:attr:`LoadFake.answered`), and
  :meth:`LoadFake.wait_answer` waits for one answer;
- API calls are tallied by method, and the call log, the update log, deleted
  messages and edit histories are trimmed so memory stays flat over a long run;
- ``rtt`` seconds of network round trip on every call, half on the way in and half on
  the way out, as the real Telegram is tens of milliseconds away and not on loopback.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.bench.fake_telegram import CallbackAnswer, FakeChat, FakeMessage, FakeTelegram, FakeUser
from bot.bench.fake_telegram.models import PressHandle

__all__ = ["Answered", "LoadFake"]

Params = dict[str, Any]

_KEEP_CALLS = 256


@dataclass(frozen=True, slots=True)
class Answered:
    """One press: when it was queued (``perf_counter``), how long the answer took from
    then (``latency``) and from the bot taking the update (``handling``)."""

    pressed_at: float
    latency: float
    handling: float
    answer: CallbackAnswer


class LoadFake(FakeTelegram):
    def __init__(self, *, rtt: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rtt = rtt
        self.tally: Counter[str] = Counter()
        self.by_chat: Counter[str] = Counter()
        """Messages sent, edited or deleted, by the kind of chat: ``private`` (the hands)
        or ``group`` (the table message, results and notices)."""
        self.failed: Counter[str] = Counter()
        self.answered: list[Answered] = []
        self.polled = asyncio.Event()
        self._chat_waiters: dict[int, list[asyncio.Future[None]]] = {}
        self._answer_waiters: dict[str, asyncio.Future[CallbackAnswer]] = {}
        self._pressed_at: dict[str, float] = {}
        self._taken_at: dict[str, float] = {}

    # -- waiting -----------------------------------------------------------------

    async def wait_chat(self, chat_id: int, timeout: float) -> bool:  # noqa: ASYNC109
        """Wait until the bot sends, edits or deletes something in ``chat_id``."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._chat_waiters.setdefault(chat_id, []).append(future)
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return False
        finally:
            waiters = self._chat_waiters.get(chat_id)
            if waiters and future in waiters:
                waiters.remove(future)
        return True

    def press(self, user: FakeUser, message: FakeMessage, data: str) -> PressHandle:
        """Queue a press of the button with ``data`` on ``message``, timed from now."""
        pressed_at = time.perf_counter()
        handle = self.callback_query(user, message, data)
        self._pressed_at[handle.id] = pressed_at
        self._answer_waiters[handle.id] = asyncio.get_running_loop().create_future()
        return handle

    async def wait_answer(self, handle: PressHandle, timeout: float) -> CallbackAnswer | None:  # noqa: ASYNC109
        """The bot's answer to a :meth:`press`, or ``None`` after ``timeout``."""
        future = self._answer_waiters.get(handle.id)
        if future is None:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            return None
        finally:
            if future.done():
                self._answer_waiters.pop(handle.id, None)

    def forget_pending(self) -> None:
        """Drop the waiters of presses that will not be awaited any more."""
        for future in self._answer_waiters.values():
            future.cancel()
        self._answer_waiters.clear()
        self._pressed_at.clear()
        self._taken_at.clear()

    def _wake(self, chat_id: object) -> None:
        """A call on a message in ``chat_id`` was made: counted, and its waiters woken."""
        if not isinstance(chat_id, int):
            return
        chat = self.chats.get(chat_id)
        if chat is not None:
            self.by_chat["private" if chat.type == "private" else "group"] += 1
        waiters = self._chat_waiters.pop(chat_id, None)
        for future in waiters or ():
            if not future.done():
                future.set_result(None)

    # -- the Bot API, instrumented ---------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["method"]
        canonical = self._methods.get(name.lower(), (name, None))[0]
        if canonical == "getUpdates":
            self.polled.set()
        if self.rtt:
            if request.content_type == "application/json":
                await request.read()  # as it arrives: a bot stopped meanwhile sent it all
            await asyncio.sleep(self.rtt / 2)
        response = await super()._handle(request)
        if self.rtt:
            await asyncio.sleep(self.rtt / 2)
        self.tally[canonical] += 1
        if response.status != 200:
            self.failed[canonical] += 1
        if len(self._calls) > 4 * _KEEP_CALLS:
            del self._calls[:-_KEEP_CALLS]
        if len(self.update_log) > 4 * _KEEP_CALLS:
            del self.update_log[:-_KEEP_CALLS]
        return response

    async def api_sendMessage(self, params: Params) -> dict[str, Any]:
        try:
            return await super().api_sendMessage(params)
        finally:
            self._wake(params.get("chat_id"))

    async def api_editMessageText(self, params: Params) -> dict[str, Any]:
        try:
            result = await super().api_editMessageText(params)
            message = self._find(params)
            if message is not None:
                message.history.clear()
            return result
        finally:
            self._wake(params.get("chat_id"))

    async def api_editMessageReplyMarkup(self, params: Params) -> dict[str, Any]:
        try:
            return await super().api_editMessageReplyMarkup(params)
        finally:
            self._wake(params.get("chat_id"))

    async def api_deleteMessage(self, params: Params) -> bool:
        try:
            result = await super().api_deleteMessage(params)
            message = self._find(params)
            if message is not None:
                message.chat.messages.pop(message.message_id, None)
            return result
        finally:
            self._wake(params.get("chat_id"))

    async def api_getUpdates(self, params: Params) -> list[dict[str, Any]]:
        updates = await super().api_getUpdates(params)
        now = time.perf_counter()
        for update in updates:
            query = update.get("callback_query")
            if query is not None:
                # an update sent again (not yet confirmed) was taken the first time
                self._taken_at.setdefault(str(query["id"]), now)
        return updates

    async def _post(self, session: Any, update: dict[str, Any]) -> None:
        """A webhook delivery: the bot takes the update as it is posted."""
        query = update.get("callback_query")
        if query is not None:
            self._taken_at.setdefault(str(query["id"]), time.perf_counter())
        await super()._post(session, update)

    async def api_answerCallbackQuery(self, params: Params) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        result = await super().api_answerCallbackQuery(params)
        now = time.perf_counter()
        answer = self.callback_answers.pop(query_id)
        self._callbacks.pop(query_id, None)
        pressed_at = self._pressed_at.pop(query_id, None)
        taken_at = self._taken_at.pop(query_id, now)
        if pressed_at is not None:
            self.answered.append(Answered(pressed_at, now - pressed_at, now - taken_at, answer))
        future = self._answer_waiters.get(query_id)
        if future is not None and not future.done():
            future.set_result(answer)
        return result

    def _find(self, params: Params) -> FakeMessage | None:
        chat: FakeChat | None = self.chats.get(params.get("chat_id"))  # type: ignore[arg-type]
        message_id = params.get("message_id")
        if chat is None or not isinstance(message_id, int):
            return None
        return chat.messages.get(message_id)
