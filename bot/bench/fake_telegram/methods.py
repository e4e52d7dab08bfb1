"""Handlers of the Bot API methods, with Telegram's checks and error wording.

:class:`BotApiMethods` is mixed into :class:`~.server.FakeTelegram`; a method
``api_<name>`` answers ``<name>`` (matched case-insensitively, as Telegram does).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from .models import ApiError, CallbackAnswer, FakeChat, FakeMessage, FakeUser, PressHandle
from .parse_mode import HtmlParseError, parse_html, utf16_len
from .protocol import (
    CHAT_ACTIONS,
    DEFAULT_UPDATE_TYPES,
    FILES,
    NOT_MODIFIED,
    POLL_CONFLICT,
    QUERY_TOO_OLD,
    Params,
    administrator,
    check_button,
    scope_key,
    update_kind,
)

__all__ = ["BotApiMethods"]


class BotApiMethods:
    """The Bot API as the bot sees it; state lives in :class:`~.server.FakeTelegram`."""

    bot_id: int
    privacy_mode: bool
    clock: Callable[[], float]
    users: dict[int, FakeUser]
    chats: dict[int, FakeChat]
    callback_answers: dict[str, CallbackAnswer]
    my_commands: dict[tuple[str, str], list[dict[str, Any]]]
    my_descriptions: dict[tuple[str, str], str]
    _updates: list[dict[str, Any]]
    _allowed_updates: frozenset[str]
    _callbacks: dict[str, PressHandle]
    _changed: asyncio.Event
    _poller: object | None
    _closing: bool

    if TYPE_CHECKING:

        def bot_user(self) -> dict[str, Any]: ...

        def _notify(self) -> None: ...

        def _refuse_polling_under_webhook(self) -> None: ...

        def _actor(self, chat: FakeChat) -> FakeUser: ...

        def _queue_member_update(
            self, chat: FakeChat, actor: FakeUser, old: str, new: str
        ) -> None: ...

    # ------------------------------------------------------------------ checks

    def _chat_for(self, params: Params, *, send: bool = True) -> FakeChat:
        """The chat named by ``chat_id``, as Telegram checks it for the bot."""
        raw = params.get("chat_id")
        if raw in (None, ""):
            raise ApiError(400, "Bad Request: chat_id is empty")
        if not isinstance(raw, int) or raw not in self.chats:
            raise ApiError(400, "Bad Request: chat not found")
        chat = self.chats[raw]
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked and send:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.private_started:
                if send:
                    raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
                raise ApiError(400, "Bad Request: chat not found")
        elif chat.bot_kicked:
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        elif not chat.bot_member:
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat")
        return chat

    def _message_for(self, chat: FakeChat, params: Params, missing: str) -> FakeMessage:
        if params.get("inline_message_id"):
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        message_id = params.get("message_id")
        if message_id in (None, ""):
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = chat.messages.get(message_id) if isinstance(message_id, int) else None
        if message is None or message.deleted or message.service:
            raise ApiError(400, f"Bad Request: {missing}")
        return message

    def _text_for(self, params: Params) -> tuple[str, str, list[dict[str, Any]]]:
        """``(raw, plain, entities)`` of ``text`` under ``parse_mode``."""
        raw = params.get("text")
        if not isinstance(raw, str) or not raw.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        mode = str(params.get("parse_mode") or "")
        plain, entities = raw, list[dict[str, Any]]()
        if mode.lower() == "html":
            try:
                plain, entities = parse_html(raw)
            except HtmlParseError as error:
                raise ApiError(400, f"Bad Request: can't parse entities: {error}") from None
        if not plain.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if utf16_len(plain) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        return raw, plain, entities

    def _markup_for(self, params: Params, *, inline_only: bool) -> dict[str, Any] | None:
        """The validated ``reply_markup``; None for no (or an empty) inline keyboard."""
        markup = params.get("reply_markup")
        if markup in (None, ""):
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise ApiError(400, "Bad Request: inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise ApiError(
                400,
                'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup '
                "must be an Array of Arrays",
            )
        for row in rows:
            for button in row:
                check_button(button)
        # Telegram's limits on an inline keyboard: 100 buttons, 8 in a row
        if sum(map(len, rows)) > 100 or any(len(row) > 8 for row in rows):
            raise ApiError(400, "Bad Request: reply markup is too long")
        rows = [row for row in rows if row]
        return {"inline_keyboard": rows} if rows else None

    def _reply_for(self, chat: FakeChat, params: Params) -> FakeMessage | None:
        reply = params.get("reply_parameters")
        reply_id = params.get("reply_to_message_id")
        allow = bool(params.get("allow_sending_without_reply"))
        if isinstance(reply, dict):
            reply_id = reply.get("message_id")
            allow = allow or bool(reply.get("allow_sending_without_reply"))
            if reply.get("chat_id") not in (None, chat.id):
                return None
        if reply_id in (None, ""):
            return None
        found = chat.messages.get(reply_id) if isinstance(reply_id, int) else None
        if (found is None or found.deleted) and not allow:
            raise ApiError(400, "Bad Request: message to be replied not found")
        return found

    def _store(
        self,
        chat: FakeChat,
        sender: FakeUser | None,
        raw: str,
        *,
        plain: str | None = None,
        parse_mode: str | None = None,
        entities: list[dict[str, Any]] | None = None,
        markup: dict[str, Any] | None = None,
        reply_to: FakeMessage | None = None,
        service: dict[str, Any] | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            chat=chat,
            message_id=chat.new_message_id(),
            sender=sender,
            text=raw if plain is None else plain,
            raw_text=raw,
            date=int(self.clock()),
            parse_mode=parse_mode,
            entities=entities or [],
            reply_markup=markup,
            reply_to=reply_to,
            service=service or {},
        )
        chat.messages[message.message_id] = message
        return message

    # ------------------------------------------------------------------ methods

    async def api_getMe(self, params: Params) -> dict[str, Any]:
        return {
            **self.bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
        }

    async def api_getUpdates(self, params: Params) -> list[dict[str, Any]]:
        offset = params.get("offset")
        limit = params.get("limit")
        limit = limit if isinstance(limit, int) and 1 <= limit <= 100 else 100
        timeout = params.get("timeout")
        timeout = timeout if isinstance(timeout, int | float) and timeout > 0 else 0
        self._refuse_polling_under_webhook()
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(allowed) or DEFAULT_UPDATE_TYPES
        if isinstance(offset, int) and offset:
            if offset > 0:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            else:
                self._updates = self._updates[offset:]
        me = object()
        self._poller = me
        self._notify()  # a previous long poll learns it is superseded
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while True:
                if self._poller is not me:
                    raise ApiError(409, POLL_CONFLICT)
                allowed = self._allowed_updates
                self._updates = [u for u in self._updates if update_kind(u) in allowed]
                batch = self._updates[:limit]
                remaining = deadline - loop.time()
                if batch or self._closing or remaining <= 0:
                    return batch
                with suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), remaining)
        finally:
            if self._poller is me:
                self._poller = None

    async def api_setMyCommands(self, params: Params) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        for command in commands:
            name = str(command.get("command", "")) if isinstance(command, dict) else ""
            if not (1 <= len(name) <= 32) or not all(c.isalnum() or c == "_" for c in name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if name != name.lower():
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not (1 <= len(str(command.get("description", ""))) <= 256):
                raise ApiError(400, "Bad Request: command description is empty")
        key = (scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.my_commands[key] = commands
        return True

    async def api_getMyCommands(self, params: Params) -> list[dict[str, Any]]:
        key = (scope_key(params.get("scope")), str(params.get("language_code") or ""))
        return self.my_commands.get(key, [])

    async def api_deleteMyCommands(self, params: Params) -> bool:
        key = (scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.my_commands.pop(key, None)
        return True

    async def api_setMyDescription(self, params: Params) -> bool:
        key = ("description", str(params.get("language_code") or ""))
        self.my_descriptions[key] = str(params.get("description") or "")
        return True

    async def api_setMyShortDescription(self, params: Params) -> bool:
        key = ("short_description", str(params.get("language_code") or ""))
        self.my_descriptions[key] = str(params.get("short_description") or "")
        return True

    async def api_sendMessage(self, params: Params) -> dict[str, Any]:
        chat = self._chat_for(params)
        raw, plain, entities = self._text_for(params)
        markup = self._markup_for(params, inline_only=False)
        reply_to = self._reply_for(chat, params)
        message = self._store(
            chat,
            None,
            raw,
            plain=plain,
            parse_mode=params.get("parse_mode"),
            entities=entities,
            markup=markup,
            reply_to=reply_to,
        )
        return message.to_api()

    async def _send_file(self, params: Params, kind: str) -> dict[str, Any]:
        chat = self._chat_for(params)
        files = params.get(FILES) or {}
        # the file is its own form field, or named by "attach://<field>" (as aiogram sends)
        field = params.get(kind)
        key = field.removeprefix("attach://") if isinstance(field, str) else kind
        if key not in files:
            raise ApiError(400, f"Bad Request: there is no {kind} in the request")
        name, data = files[key]
        caption = str(params.get("caption") or "")
        message = self._store(chat, None, caption, parse_mode=params.get("parse_mode"))
        message.attachment = (kind, str(name), bytes(data))
        return message.to_api()

    async def api_sendPhoto(self, params: Params) -> dict[str, Any]:
        return await self._send_file(params, "photo")

    async def api_sendDocument(self, params: Params) -> dict[str, Any]:
        return await self._send_file(params, "document")

    async def api_editMessageText(self, params: Params) -> dict[str, Any]:
        chat = self._chat_for(params)
        message = self._message_for(chat, params, "message to edit not found")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        raw, plain, entities = self._text_for(params)
        markup = self._markup_for(params, inline_only=True)
        if (plain, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise ApiError(400, NOT_MODIFIED)
        message.history.append(message.raw_text)
        message.raw_text, message.text, message.entities = raw, plain, entities
        message.parse_mode = params.get("parse_mode")
        message.reply_markup = markup
        message.edit_count += 1
        message.edit_date = int(self.clock())
        return message.to_api()

    async def api_editMessageReplyMarkup(self, params: Params) -> dict[str, Any]:
        chat = self._chat_for(params)
        message = self._message_for(chat, params, "message to edit not found")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        markup = self._markup_for(params, inline_only=True)
        if markup == message.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        message.reply_markup = markup
        message.edit_count += 1
        message.edit_date = int(self.clock())
        return message.to_api()

    async def api_deleteMessage(self, params: Params) -> bool:
        chat = self._chat_for(params)
        message = self._message_for(chat, params, "message to delete not found")
        if not message.from_bot and chat.is_group and not chat.bot_admin:
            raise ApiError(400, "Bad Request: message can't be deleted")
        message.deleted = True
        return True

    async def api_answerCallbackQuery(self, params: Params) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        if query_id not in self._callbacks or query_id in self.callback_answers:
            raise ApiError(400, QUERY_TOO_OLD)
        text = params.get("text")
        if isinstance(text, str) and len(text) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        cache_time = params.get("cache_time")
        self.callback_answers[query_id] = CallbackAnswer(
            text=text if isinstance(text, str) else None,
            show_alert=params.get("show_alert") is True,
            url=params.get("url"),
            cache_time=cache_time if isinstance(cache_time, int) else None,
        )
        return True

    async def api_getChat(self, params: Params) -> dict[str, Any]:
        chat = self._chat_for(params, send=False)
        info = chat.to_api()
        info.pop("all_members_are_administrators", None)
        info.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": True,
                "limited_gifts": True,
                "unique_gifts": True,
                "premium_subscription": True,
                "gifts_from_channels": True,
            },
        )
        if chat.pinned_message_id in chat.messages:
            info["pinned_message"] = chat.messages[chat.pinned_message_id].to_api()
        return info

    async def api_getChatMember(self, params: Params) -> dict[str, Any]:
        chat = self._chat_for(params, send=False)
        user_id = params.get("user_id")
        if user_id == self.bot_id:
            return self._member(chat, None)
        if not isinstance(user_id, int) or user_id not in self.users:
            raise ApiError(400, "Bad Request: user not found")
        return self._member(chat, self.users[user_id])

    async def api_getChatAdministrators(self, params: Params) -> list[dict[str, Any]]:
        chat = self._chat_for(params, send=False)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        admins = [self._member(chat, self.users[uid]) for uid in chat.admins]
        if chat.bot_admin:
            admins.append(self._member(chat, None))
        return admins

    async def api_getChatMemberCount(self, params: Params) -> int:
        chat = self._chat_for(params, send=False)
        if chat.type == "private":
            return 2
        return len(chat.members) + int(chat.bot_member)

    def _member(self, chat: FakeChat, user: FakeUser | None) -> dict[str, Any]:
        """ChatMember of ``user`` (None: the bot) in ``chat``."""
        user_api = self.bot_user() if user is None else user.to_api()
        if chat.type == "private":
            return {"status": "member", "user": user_api}
        if user is None:
            if chat.bot_admin:
                return administrator(user_api)
            status = "member" if chat.bot_member else "kicked" if chat.bot_kicked else "left"
        elif chat.admins and user.id == chat.admins[0]:
            return {"status": "creator", "user": user_api, "is_anonymous": False}
        elif user.id in chat.admins:
            return administrator(user_api)
        else:
            status = "member" if user.id in chat.members else "left"
        data: dict[str, Any] = {"status": status, "user": user_api}
        if status == "kicked":
            data["until_date"] = 0
        return data

    async def api_sendChatAction(self, params: Params) -> bool:
        self._chat_for(params)
        if params.get("action") not in CHAT_ACTIONS:
            raise ApiError(400, "Bad Request: wrong parameter action in request")
        return True

    async def api_leaveChat(self, params: Params) -> bool:
        chat = self._chat_for(params, send=False)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: chat member status can't be changed in private chats")
        chat.bot_member = False
        self._queue_member_update(chat, self._actor(chat), "member", "left")
        return True

    async def api_pinChatMessage(self, params: Params) -> bool:
        chat = self._chat_for(params)
        message = self._message_for(chat, params, "message to pin not found")
        if chat.is_group and not chat.bot_admin:
            raise ApiError(
                400, "Bad Request: not enough rights to manage pinned messages in the chat"
            )
        chat.pinned_message_id = message.message_id
        return True

    async def api_unpinChatMessage(self, params: Params) -> bool:
        chat = self._chat_for(params)
        if chat.is_group and not chat.bot_admin:
            raise ApiError(
                400, "Bad Request: not enough rights to manage pinned messages in the chat"
            )
        chat.pinned_message_id = None
        return True
