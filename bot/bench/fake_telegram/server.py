"""A local fake of the Telegram Bot API, for the bot's end-to-end tests and load benchmark.

The real aiogram ``Bot`` (its real aiohttp session) talks HTTP to an aiohttp
app on 127.0.0.1 that plays Telegram and its users::

    async with FakeTelegram() as fake:
        bot = fake.make_bot()
        alice = fake.add_user("Alice", language_code="en")
        async with fake.polling(dp, bot):
            await alice.start_private()
            reply = await fake.wait_for_message(alice)
            answer = await (await alice.press(reply, "OK")).answer()

Everything is event driven: :meth:`FakeTelegram.wait_for` re-evaluates its
predicate after every API call and every queued update.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar

from aiohttp import web

from .methods import BotApiMethods
from .models import (
    ApiCall,
    ApiError,
    ButtonMatcher,
    CallbackAnswer,
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeUser,
    PressHandle,
)
from .parse_mode import utf16_len
from .protocol import (
    DEFAULT_UPDATE_TYPES,
    SERVER_ERRORS,
    Params,
    read_params,
    scope_key,
)
from .webhook import WebhookDelivery

if TYPE_CHECKING:
    from aiogram import Bot, Dispatcher
    from aiogram.client.telegram import TelegramAPIServer

__all__ = ["FakeTelegram", "Fault", "Gate"]

T = TypeVar("T")
Handler = Callable[[Params], Awaitable[Any]]


@dataclass
class Fault:
    """An injected misbehaviour for the next ``count`` calls of ``method``."""

    method: str  # lower-case method name
    kind: Literal["status", "drop", "delay", "hold"]
    count: int | None  # None: every call from now on
    status: int = 0
    description: str = ""
    parameters: dict[str, Any] | None = None
    seconds: float = 0.0
    when: Callable[[Params], bool] | None = None
    gate: Gate | None = None

    def applies(self, method: str, params: Params) -> bool:
        if self.count is not None and self.count <= 0:
            return False
        if self.method not in ("*", method.lower()):
            return False
        return self.when is None or bool(self.when(params))


@dataclass
class Gate:
    """Holds matching calls until :meth:`release` (see :meth:`FakeTelegram.hold`)."""

    fake: FakeTelegram = field(repr=False)
    arrived: list[ApiCall] = field(default_factory=list)
    dropped: bool = False
    _open: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def release(self) -> None:
        """Let every held call (and any later one) through."""
        self._open.set()

    def drop(self) -> None:
        """Close the held calls' connections unanswered and undone, as if they never got here."""
        self.dropped = True
        self._open.set()

    async def wait_arrived(
        self,
        count: int = 1,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> list[ApiCall]:
        """Wait until ``count`` calls are being held here."""
        await self.fake.wait_for(
            lambda: len(self.arrived) >= count, timeout=timeout, what=f"{count} held call(s)"
        )
        return self.arrived

    async def _pass(self, call: ApiCall) -> None:
        self.arrived.append(call)
        self.fake._notify()
        await self._open.wait()


class FakeTelegram(BotApiMethods, WebhookDelivery):
    """The fake Bot API server plus the simulated Telegram world."""

    def __init__(
        self,
        *,
        bot_token: str | None = None,
        bot_id: int | None = None,
        bot_username: str = "TablesTestBot",
        bot_first_name: str = "Tables Test Bot",
        privacy_mode: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``bot_token``: if set, requests with another token get 401.

        ``privacy_mode``: as in Telegram, a bot that is not a group admin only
        sees commands (``/cmd``, ``/cmd@ThisBot``), replies to its messages and
        service messages there.
        """
        if bot_id is None:
            bot_id = int(bot_token.split(":", 1)[0]) if bot_token else 7000000001
        self.bot_id = bot_id
        self.bot_token = bot_token
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.privacy_mode = privacy_mode
        self.clock = clock

        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.callback_answers: dict[str, CallbackAnswer] = {}
        self.my_commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.my_descriptions: dict[tuple[str, str], str] = {}
        self.update_log: list[dict[str, Any]] = []  # every update ever queued

        self._calls: list[ApiCall] = []
        self._updates: list[dict[str, Any]] = []  # queued, not yet confirmed
        self._allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._callbacks: dict[str, PressHandle] = {}
        self._faults: list[Fault] = []
        self._seq = itertools.count(1)
        self._update_ids = itertools.count(100001)
        self._user_ids = itertools.count(100000001)
        self._group_ids = itertools.count(4000000001)
        self._supergroup_ids = itertools.count(1001000000001)
        self._query_ids = itertools.count(4242000000000001)
        self._changed = asyncio.Event()
        self.handled: set[int] = set()
        """Updates an in-process dispatcher (see :meth:`polling`) has finished handling."""
        self._tracked: list[Dispatcher] = []
        self._poller: object | None = None
        self._inflight = 0
        self._closing = False
        self._init_webhook()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._methods: dict[str, tuple[str, Handler]] = {}
        for name in dir(self):
            if name.startswith("api_"):
                method = name.removeprefix("api_")
                self._methods[method.lower()] = (method, getattr(self, name))

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Listen on 127.0.0.1, on a free port."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = int(sock.getsockname()[1])
        await web.SockSite(self._runner, sock).start()
        self._closing = False

    async def stop(self) -> None:
        """Answer pending long polls with no updates and shut the server down."""
        self._closing = True
        for fault in self._faults:
            if fault.gate is not None:
                fault.gate.release()
        self._notify()
        await self._stop_webhook()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            msg = "FakeTelegram is not started"
            raise RuntimeError(msg)
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def token(self) -> str:
        """A token that this fake accepts (``bot_token`` if set)."""
        return self.bot_token or f"{self.bot_id}:TEST-fake-telegram-token"

    def api_server(self) -> TelegramAPIServer:
        from aiogram.client.telegram import TelegramAPIServer

        return TelegramAPIServer.from_base(self.base_url)

    def make_bot(self, token: str | None = None, **kwargs: Any) -> Bot:
        """A real aiogram ``Bot`` with aiogram's aiohttp session pointed at this fake
        (:class:`~.session.LocalSession`: it closes without waiting for SSL)."""
        from aiogram import Bot

        from .session import LocalSession

        session = LocalSession(api=self.api_server())
        return Bot(token or self.token, session=session, **kwargs)

    @asynccontextmanager
    async def polling(
        self, dp: Dispatcher, bot: Bot, *, polling_timeout: int = 1, **kwargs: Any
    ) -> AsyncIterator[asyncio.Task[None]]:
        """Run ``dp.start_polling(bot)`` for the block; waits until it is polling.

        Extra ``kwargs`` go to ``start_polling`` (and on to handlers).
        """
        mark = self.mark()
        if not any(known is dp for known in self._tracked):
            self._tracked.append(dp)
            dp.update.outer_middleware(self._track_handling)
        task = asyncio.create_task(
            dp.start_polling(bot, handle_signals=False, polling_timeout=polling_timeout, **kwargs)
        )
        try:
            await self.wait_for(
                lambda: task.done() or self.calls("getUpdates", since=mark),
                what="the first getUpdates",
            )
            if task.done():
                task.result()
            yield task
        finally:
            if not task.done():
                await dp.stop_polling()
            await task

    async def _track_handling(
        self,
        handler: Callable[[Any, dict[str, Any]], Awaitable[Any]],
        event: Any,
        data: dict[str, Any],
    ) -> Any:
        # a handler may answer a press before it is done showing the result
        try:
            return await handler(event, data)
        finally:
            self.handled.add(event.update_id)
            self._notify()

    @property
    def tracks_handling(self) -> bool:
        """Whether :attr:`handled` is kept: a dispatcher ran under :meth:`polling`."""
        return bool(self._tracked)

    # ------------------------------------------------------------------ the world

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    def add_user(
        self,
        first_name: str = "User",
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        user_id: int | None = None,
        started: bool = False,
    ) -> FakeUser:
        """A new user; ``started=True`` as if they had already pressed Start."""
        user = FakeUser(
            fake=self,
            id=next(self._user_ids) if user_id is None else user_id,
            first_name=first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
            private_started=started,
        )
        self.users[user.id] = user
        self.chats[user.id] = FakeChat(fake=self, id=user.id, type="private", user=user)
        return user

    def add_group(
        self,
        title: str = "Card table",
        members: Iterable[FakeUser] = (),
        admins: Iterable[FakeUser] = (),
        *,
        supergroup: bool = False,
        bot_admin: bool = False,
        bot_member: bool = True,
    ) -> FakeChat:
        """A group with the bot in it; the first admin is the owner.

        Admins are members too.  Without admins, the first member owns it.
        """
        members = list(members)
        admins = list(admins)
        everyone = {u.id: u for u in [*admins, *members]}
        owner = admins[:1] or members[:1]
        chat_id = -next(self._supergroup_ids if supergroup else self._group_ids)
        chat = FakeChat(
            fake=self,
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            members=everyone,
            admins=[u.id for u in owner] + [u.id for u in admins if u not in owner],
            bot_member=bot_member,
            bot_admin=bot_admin,
        )
        self.chats[chat.id] = chat
        return chat

    def add_member(self, chat: ChatRef, user: FakeUser, *, admin: bool = False) -> None:
        target = self.chat(chat)
        target.members[user.id] = user
        if admin and user.id not in target.admins:
            target.admins.append(user.id)

    def remove_member(self, chat: ChatRef, user: FakeUser) -> None:
        target = self.chat(chat)
        target.members.pop(user.id, None)
        if user.id in target.admins:
            target.admins.remove(user.id)

    def kick_bot(self, chat: ChatRef) -> None:
        """A group admin removes the bot: queues my_chat_member (kicked)."""
        target = self.chat(chat)
        target.bot_member = False
        target.bot_kicked = True
        self._queue_member_update(target, self._actor(target), "member", "kicked")

    def chat(self, ref: ChatRef) -> FakeChat:
        """The chat for a FakeChat, a FakeUser (their private chat) or a chat id."""
        if isinstance(ref, FakeChat):
            return ref
        chat_id = ref.id if isinstance(ref, FakeUser) else int(ref)
        try:
            return self.chats[chat_id]
        except KeyError:
            msg = f"no chat {chat_id} in the fake"
            raise LookupError(msg) from None

    def migrate_group(self, old_chat_id: ChatRef) -> int:
        """Upgrade a group to a supergroup; returns the new chat id.

        Sends to the old id then fail with 400 and ``migrate_to_chat_id``; the
        two service messages (``migrate_to_chat_id`` in the old group,
        ``migrate_from_chat_id`` in the new one) are queued as updates.  The
        new supergroup starts with no messages the bot could edit.
        """
        old = self.chat(old_chat_id)
        if old.type != "group" or old.migrated_to is not None:
            msg = f"chat {old.id} is not a basic group"
            raise ValueError(msg)
        new = FakeChat(
            fake=self,
            id=-next(self._supergroup_ids),
            type="supergroup",
            title=old.title,
            members=dict(old.members),
            admins=list(old.admins),
            bot_member=old.bot_member,
            bot_admin=old.bot_admin,
        )
        self.chats[new.id] = new
        old.migrated_to = new.id
        actor = self._actor(old)
        if old.bot_member:
            for chat, key, value in (
                (old, "migrate_to_chat_id", new.id),
                (new, "migrate_from_chat_id", old.id),
            ):
                message = self._store(chat, actor, "", service={key: value})
                self.queue_update("message", message.to_api())
        return new.id

    # ------------------------------------------------------------------ updates

    def queue_update(self, kind: str, payload: dict[str, Any]) -> int:
        """Queue a raw update ``{"update_id": ..., kind: payload}``; returns its id."""
        update_id = next(self._update_ids)
        update = {"update_id": update_id, kind: payload}
        self._updates.append(update)
        self.update_log.append(update)
        self._notify()
        return update_id

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates queued and not yet confirmed by the bot."""
        return list(self._updates)

    def user_message(
        self, user: FakeUser, chat: ChatRef, text: str, *, reply_to: FakeMessage | None = None
    ) -> FakeMessage:
        """Store a message by ``user``; queue its update if the bot may see it."""
        target = self.chat(chat)
        if target.type == "private":
            if target.user is not user:
                msg = f"chat {target.id} is not {user.first_name}'s private chat"
                raise ValueError(msg)
            user.private_started = True
            if user.blocked:
                user.unblock_bot()
        else:
            if target.migrated_to is not None:
                msg = f"group {target.id} was migrated to {target.migrated_to}"
                raise ValueError(msg)
            if user.id not in target.members:
                msg = f"{user.first_name} is not a member of {target.title!r}"
                raise ValueError(msg)
        entities = []
        if text.startswith("/"):
            token = text.split(maxsplit=1)[0]
            entities.append({"type": "bot_command", "offset": 0, "length": utf16_len(token)})
        message = self._store(target, user, text, entities=entities, reply_to=reply_to)
        if self._bot_sees(target, message):
            self.queue_update("message", message.to_api())
        return message

    def _bot_sees(self, chat: FakeChat, message: FakeMessage) -> bool:
        if chat.type == "private":
            return True
        if not chat.bot_member:
            return False
        if not self.privacy_mode or chat.bot_admin:
            return True
        if message.reply_to is not None and message.reply_to.from_bot:
            return True
        if not message.text.startswith("/"):
            return False
        _, _, mention = message.text.split(maxsplit=1)[0].partition("@")
        return not mention or mention.lower() == self.bot_username.lower()

    def callback_query(
        self, user: FakeUser, message: FakeMessage | tuple[FakeChat, int], data: str
    ) -> PressHandle:
        """Queue a callback_query from ``user`` on ``message`` with ``data``."""
        if isinstance(message, FakeMessage):
            chat, found = message.chat, message
        else:
            chat, found = message[0], None
        if chat.type == "private" and chat.user is not user:
            msg = f"{user.first_name} cannot see chat {chat.id}"
            raise ValueError(msg)
        if chat.is_group and user.id not in chat.members:
            msg = f"{user.first_name} is not a member of {chat.title!r}"
            raise ValueError(msg)
        if found is not None and not found.deleted:
            message_api = found.to_api()
        else:
            message_id = found.message_id if found is not None else message[1]  # type: ignore[index]
            message_api = {"chat": chat.to_api(), "message_id": message_id, "date": 0}
        query_id = str(next(self._query_ids))
        payload = {
            "id": query_id,
            "from": user.to_api(),
            "message": message_api,
            "chat_instance": str(abs(chat.id) * 31 + 7),
            "data": data,
        }
        handle = PressHandle(
            fake=self, id=query_id, user=user, message=found, data=data, update_id=0
        )
        self._callbacks[query_id] = handle
        handle.update_id = self.queue_update("callback_query", payload)
        return handle

    def queue_private_member_update(self, user: FakeUser, status: str) -> None:
        old = "member" if status == "kicked" else "kicked"
        self._queue_member_update(self.chat(user), user, old, status)

    def _queue_member_update(self, chat: FakeChat, actor: FakeUser, old: str, new: str) -> None:
        def member(status: str) -> dict[str, Any]:
            data: dict[str, Any] = {"user": self.bot_user(), "status": status}
            if status == "kicked":
                data["until_date"] = 0
            return data

        payload = {
            "chat": chat.to_api(),
            "from": actor.to_api(),
            "date": int(self.clock()),
            "old_chat_member": member(old),
            "new_chat_member": member(new),
        }
        self.queue_update("my_chat_member", payload)

    def _actor(self, chat: FakeChat) -> FakeUser:
        for user_id in [*chat.admins, *chat.members]:
            if user_id in self.users:
                return self.users[user_id]
        return self.add_user("Admin")

    # ------------------------------------------------------------------ queries

    def messages(
        self, chat: ChatRef, *, from_bot: bool | None = None, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages of a chat in order, as they are now (after edits)."""
        found = sorted(self.chat(chat).messages.values(), key=lambda m: m.message_id)
        return [
            m
            for m in found
            if (include_deleted or not m.deleted)
            and (from_bot is None or m.from_bot == from_bot)
            and not m.service
        ]

    def last_message(self, chat: ChatRef, *, from_bot: bool | None = True) -> FakeMessage | None:
        """The latest message (by default: the latest one from the bot) still there."""
        found = self.messages(chat, from_bot=from_bot)
        return found[-1] if found else None

    def messages_with_button(self, chat: ChatRef, matcher: ButtonMatcher) -> list[FakeMessage]:
        """Bot messages whose current keyboard has a matching button."""
        return [m for m in self.messages(chat, from_bot=True) if m.find_buttons(matcher)]

    def mark(self) -> int:
        """A position in the call log, for ``calls(since=...)``."""
        return len(self._calls)

    def calls(
        self, method: str | None = None, *, since: int = 0, include_polling: bool = False
    ) -> list[ApiCall]:
        """Logged API calls (in arrival order), optionally of one method.

        With ``method=None``, getUpdates calls are left out unless
        ``include_polling``.
        """
        found = self._calls[since:]
        if method is not None:
            return [c for c in found if c.method.lower() == method.lower()]
        if include_polling:
            return list(found)
        return [c for c in found if c.method != "getUpdates"]

    def commands(
        self, *, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, Any]]:
        """Commands set by setMyCommands for a scope and language (empty if none)."""
        return list(self.my_commands.get((scope_key(scope), language_code), []))

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,  # noqa: ASYNC109
        what: str | None = None,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        It is re-evaluated after every API call and every queued update; on
        timeout a TimeoutError lists the latest calls.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(self._timeout_report(what or repr(predicate), timeout))
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def wait_for_message(
        self,
        chat: ChatRef,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        since: int | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> FakeMessage:
        """Wait for a bot message sent in ``chat`` after ``since`` (default: now).

        ``since`` is a :meth:`mark`; the message is returned as it is now.
        """
        target = self.chat(chat)
        start = self.mark() if since is None else since

        def check() -> FakeMessage | None:
            for call in self.calls("sendMessage", since=start):
                result = call.result
                if call.ok and isinstance(result, dict) and result["chat"]["id"] == target.id:
                    message = target.messages[result["message_id"]]
                    if predicate is None or predicate(message):
                        return message
            return None

        return await self.wait_for(check, timeout=timeout, what=f"a message in {target.id}")

    async def wait_for_call(
        self,
        method: str,
        predicate: Callable[[ApiCall], bool] | None = None,
        *,
        since: int | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> ApiCall:
        """Wait for a finished call of ``method`` after ``since`` (default: now)."""
        start = self.mark() if since is None else since

        def check() -> ApiCall | None:
            for call in self.calls(method, since=start):
                if call.finished is not None and (predicate is None or predicate(call)):
                    return call
            return None

        return await self.wait_for(check, timeout=timeout, what=f"a {method} call")

    async def wait_idle(self, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Wait until every update is confirmed, no call is in flight and the bot polls.

        A weak barrier: a handler busy between two API calls is not visible.
        """
        await self.wait_for(
            lambda: (
                not self._updates
                and self._inflight == 0
                and (self._poller is not None or self.webhook is not None)
            ),
            timeout=timeout,
            what="the bot to be idle",
        )

    async def wait_handled(self, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Wait until the dispatcher under :meth:`polling` is done with every queued update.

        Stronger than :meth:`wait_idle`: a handler still saving what it did is waited for.
        """
        assert self.tracks_handling, "only a dispatcher run by polling() reports handling"
        await self.wait_for(
            lambda: all(u["update_id"] in self.handled for u in self.update_log),
            timeout=timeout,
            what="every update to be handled",
        )

    def _notify(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    def _timeout_report(self, what: str, timeout: float) -> str:
        lines = [f"timed out after {timeout}s waiting for {what}; latest calls:"]
        for call in self.calls()[-12:]:
            outcome = call.error or ("ok" if call.ok else call.fault or "pending")
            params = {k: v for k, v in call.params.items() if k != "reply_markup"}
            lines.append(f"  #{call.seq} {call.method} {params} -> {outcome}")
        lines.append(f"  pending updates: {[u['update_id'] for u in self._updates]}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ faults

    def fail_next(
        self,
        method: str,
        status: int = 429,
        *,
        retry_after: int = 1,
        count: int | None = 1,
        description: str | None = None,
        parameters: dict[str, Any] | None = None,
        when: Callable[[Params], bool] | None = None,
    ) -> Fault:
        """Answer the next ``count`` calls of ``method`` (``"*"``: any) with an error.

        429 carries ``parameters.retry_after``; 5xx get Telegram's wording.
        ``when(params)`` restricts which calls count.
        """
        if description is None:
            if status == 429:
                description = f"Too Many Requests: retry after {retry_after}"
            else:
                description = SERVER_ERRORS.get(status, f"Error {status}")
        if status == 429 and parameters is None:
            parameters = {"retry_after": retry_after}
        fault = Fault(
            method.lower(),
            "status",
            count,
            status=status,
            description=description,
            parameters=parameters,
            when=when,
        )
        self._faults.append(fault)
        return fault

    def delay(
        self,
        method: str,
        seconds: float,
        *,
        count: int | None = None,
        when: Callable[[Params], bool] | None = None,
    ) -> Fault:
        """Answer ``method`` ``seconds`` late (before acting on it)."""
        fault = Fault(method.lower(), "delay", count, seconds=seconds, when=when)
        self._faults.append(fault)
        return fault

    def drop_next(
        self, method: str, *, count: int | None = 1, when: Callable[[Params], bool] | None = None
    ) -> Fault:
        """Close the connection without answering (and without acting)."""
        fault = Fault(method.lower(), "drop", count, when=when)
        self._faults.append(fault)
        return fault

    def hold(
        self, method: str, *, count: int | None = None, when: Callable[[Params], bool] | None = None
    ) -> Gate:
        """Hold calls of ``method`` until ``gate.release()``; they then run normally."""
        gate = Gate(fake=self)
        self._faults.append(Fault(method.lower(), "hold", count, when=when, gate=gate))
        return gate

    def clear_faults(self) -> None:
        for fault in self._faults:
            if fault.gate is not None:
                fault.gate.release()
        self._faults.clear()

    def _take_fault(self, method: str, params: Params) -> Fault | None:
        for fault in self._faults:
            if fault.applies(method, params):
                if fault.count is not None:
                    fault.count -= 1
                return fault
        return None

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["method"]
        params = await read_params(request)
        canonical, handler = self._methods.get(name.lower(), (name, None))
        loop = asyncio.get_running_loop()
        call = ApiCall(
            seq=next(self._seq),
            method=canonical,
            params=params,
            started=loop.time(),
            at=self.clock(),
        )
        self._calls.append(call)
        polling = canonical == "getUpdates"
        if not polling:
            self._inflight += 1
        self._notify()
        status, body = 200, None
        try:
            if self.bot_token and request.match_info["token"] != self.bot_token:
                raise ApiError(401, "Unauthorized")
            fault = self._take_fault(canonical, params)
            if fault is not None:
                call.fault = fault.kind
                if fault.kind == "status":
                    raise ApiError(fault.status, fault.description, fault.parameters)
                if fault.kind == "drop":
                    if request.transport is not None:
                        request.transport.close()
                    return web.Response(status=499)
                if fault.kind == "delay":
                    await asyncio.sleep(fault.seconds)
                elif fault.gate is not None:
                    await fault.gate._pass(call)
                    if fault.gate.dropped:
                        call.fault = "drop"
                        if request.transport is not None:
                            request.transport.close()
                        return web.Response(status=499)
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            call.result = await handler(params)
            call.status = 200
            body = {"ok": True, "result": call.result}
        except ApiError as error:
            call.status, call.error = error.status, error.description
            status, body = error.status, error.envelope()
        finally:
            if not polling:
                self._inflight -= 1
            call.finished = loop.time()
            call.done.set()
            self._notify()
        return web.json_response(body, status=status)
