"""Every Bot API call the bot makes goes through :class:`Sender`.

It keeps Telegram's rules in one place: 429 waits ``retry_after`` and tries again,
a server error (5xx) or a lost connection is retried after a short pause,
"message is not modified" is a success, a user who blocked the bot (403) is
reported once and skipped, an edit of a lost message falls back to a new one,
a group upgraded to a supergroup is followed to its new id,
and a group gets at most :data:`GROUP_MESSAGES_PER_MINUTE` messages sent or edited a
minute (Telegram's limit, which edits share with new messages; a different one can be
set). A table's own messages wait for a slot; replies to commands never wait and may
take only :data:`REPLY_SHARE` of the new messages, so a flood of commands neither ties
the bot up nor holds a game back.

The minute is counted here, for the pace of this process's own calls, and, given
``minutes`` (:class:`~bot.db.sends.GroupMinutes`), in the database too: a slot is taken
there before each call, so that the bot's processes sharing the database (replicas,
or the bot before and after a restart) keep within the group's minute together.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any, Protocol, TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    ReplyParameters,
)

from bot.bounded import keep
from bot.render.common import cut
from bot.render.keyboards.layout import Keyboard

__all__ = [
    "GROUP_MESSAGES_PER_MINUTE",
    "OUT_OF_REACH",
    "REPLY_SHARE",
    "ROUTINE_SHARE",
    "Markup",
    "Sender",
]

Markup = Keyboard | InlineKeyboardMarkup

log = logging.getLogger(__name__)

ANSWER_LIMIT = 200
"""Characters of a button's answer (a toast or an alert) Telegram takes."""

T = TypeVar("T")
GROUP_MESSAGES_PER_MINUTE = 20
COUNTED_UP_TO = 1000
"""Group messages a minute past which a limit is no limit Telegram has: the other
processes' messages are not counted for it (see ``minutes``)."""
REPLY_SHARE = 0.5
"""The part of a group's minute that replies to commands may use."""
ROUTINE_SHARE = 0.75
"""The part of a group's minute that routine edits of a table message (those paced by an
interval) may use, summed over the bot's processes: the rest stays free for deal
results, notices and the table's messages sent anew, which the players are waiting
for (a result waiting for a slot would hold the table's hands back)."""
_MAX_ATTEMPTS = 5
OUT_OF_REACH = (TelegramNetworkError, TelegramServerError, TelegramRetryAfter)
"""What a call raises when Telegram did not answer it in all its attempts."""
_BACKOFF = (0.2, 0.5, 1.0, 2.0)
_CACHE_SIZE = 4096


_IN_CHAT = frozenset({"creator", "administrator", "member"})
_PLAIN = frozenset({str, int, bool, float, type(None)})
_CALLBACK_FIELDS = frozenset({"text", "callback_data"})


def _button_key(button: InlineKeyboardButton) -> object:
    values = button.__dict__
    if button.callback_data is not None and all(
        value is None for key, value in values.items() if key not in _CALLBACK_FIELDS
    ):
        return (button.text, button.callback_data)  # as a Keyboard's button is
    if _PLAIN.issuperset(map(type, values.values())):
        return tuple(values.values())
    return button.model_dump_json()  # a nested object: its content, not its identity


def _discard(times: deque[float], at: float) -> None:
    """A slot counted at ``at`` was not taken after all."""
    with suppress(ValueError):
        times.remove(at)


def _markup(markup: Markup | None) -> InlineKeyboardMarkup | None:
    if isinstance(markup, Keyboard):
        return markup.as_markup()
    return markup


def _not_modified(error: TelegramBadRequest) -> bool:
    return "message is not modified" in error.message.lower()


def _message_gone(error: TelegramBadRequest) -> bool:
    text = error.message.lower()
    return any(
        part in text
        for part in ("message to edit not found", "message can't be edited", "message not found")
    )


class Minutes(Protocol):
    """The groups' minutes shared with other processes (:class:`~bot.db.sends.GroupMinutes`)."""

    async def take(self, chat_id: int, now: float, limit: int) -> float: ...


class Sender:
    def __init__(
        self,
        bot: Bot,
        *,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        on_blocked: Callable[[int], Awaitable[Any]] | None = None,
        group_messages_per_minute: int = GROUP_MESSAGES_PER_MINUTE,
        minutes: Minutes | None = None,
    ) -> None:
        """``clock``: the wall clock by default, as ``minutes`` shares its times with
        other processes and with the bot after a restart."""
        self.bot = bot
        # a limit no chat reaches is counted here only (the load benchmark's fake has none)
        self.minutes = minutes if group_messages_per_minute <= COUNTED_UP_TO else None
        self._full_until: dict[tuple[int, bool], float] = {}
        """Per group, and for routine edits or the rest, until when the shared minute
        said it had no slot left for them."""
        self.group_messages_per_minute = group_messages_per_minute
        self.sleep = sleep
        self.clock = clock
        self.on_blocked = on_blocked
        self._shown: OrderedDict[tuple[int, int], int] = OrderedDict()
        self._group_sent: dict[int, deque[float]] = {}
        self._group_edited: dict[int, deque[float]] = {}
        self._swept_at = clock()
        self.moved: dict[int, int] = {}
        """Groups upgraded to supergroups: the old chat id to the new one."""
        self.last_sent: dict[int, int] = {}
        """Per group (the latest ones), the newest message the bot sent there."""

    async def call(self, chat_id: int, make: Callable[[], Awaitable[T]]) -> T | None:
        """Run one API call, waiting out 429s and transient failures; ``None`` when the
        chat blocked the bot."""
        for attempt in range(_MAX_ATTEMPTS):
            try:
                return await make()
            except TelegramRetryAfter as error:
                await self.sleep(error.retry_after)
            except TelegramEntityTooLarge:
                raise
            except (TelegramServerError, TelegramNetworkError) as error:
                # Telegram's own hiccups pass; a state already committed must still be shown
                log.warning("retrying after %s", error.message)
                await self.sleep(_BACKOFF[min(attempt, len(_BACKOFF) - 1)])
            except TelegramForbiddenError:
                log.info("chat %s blocked the bot", chat_id)
                if self.on_blocked is not None:
                    await self.on_blocked(chat_id)
                return None
        return await make()

    @staticmethod
    def _this_minute(windows: dict[int, deque[float]], chat_id: int, now: float) -> deque[float]:
        times = windows.setdefault(chat_id, deque())
        # compared as points in time: a wait until ``times[0] + 60`` ends there exactly,
        # where ``now - times[0]`` could stay a rounding error short of 60 for ever
        while times and times[0] + 60 <= now:
            times.popleft()
        return times

    def _windows(self, chat_id: int, now: float) -> tuple[deque[float], deque[float]]:
        """The group's sends and edits of the last minute."""
        return (
            self._this_minute(self._group_sent, chat_id, now),
            self._this_minute(self._group_edited, chat_id, now),
        )

    def _limit(self, routine: bool) -> int:
        """Messages a minute a group may get: of them, routine edits take only their share."""
        if not routine:
            return self.group_messages_per_minute
        return max(1, int(self.group_messages_per_minute * ROUTINE_SHARE))

    def slot_wait(self, chat_id: int, *, routine: bool = False) -> float:
        """Seconds until a group may get another message or edit (0: now), as far as
        this process knows: the other processes' messages are counted when it takes
        the slot. ``routine``: a routine edit of a table message, which waits once the
        minute has had :data:`ROUTINE_SHARE` of its messages."""
        if chat_id >= 0:
            return 0.0
        now = self.clock()
        full = self._full_until.get((chat_id, routine), now) - now
        if routine:
            full = max(full, self._full_until.get((chat_id, False), now) - now)
        sent, edited = self._windows(chat_id, now)
        limit = self._limit(routine)
        if len(sent) + len(edited) < limit:
            return max(full, 0.0)
        times = sorted([*sent, *edited])
        # free once all but ``limit - 1`` of them are a minute old
        return max(times[len(times) - limit] + 60 - now, full, 0.0)

    async def _take_slot(
        self,
        chat_id: int,
        windows: dict[int, deque[float]],
        *,
        wait: bool = True,
        routine: bool = False,
    ) -> bool:
        """Take a slot of the group's minute, waiting for one unless not ``wait``;
        whether it was taken. ``routine``: see :meth:`slot_wait`."""
        if chat_id >= 0:
            return True
        limit = self._limit(routine)
        while True:
            # looked at again after each wait: another call may have taken the slot
            while (delay := self.slot_wait(chat_id, routine=routine)) > 0:
                if not wait:
                    return False
                await self.sleep(delay)
            # counted at once, before the database is asked: calls made meanwhile see it
            now = self.clock()
            times = self._this_minute(windows, chat_id, now)
            times.append(now)
            if self.minutes is None:
                break
            try:
                # routine edits take only the slots of their share: the others stay free
                delay = await self.minutes.take(chat_id, now, limit)
            except BaseException:
                _discard(times, now)
                raise
            if delay <= 0:
                break
            _discard(times, now)
            # other processes used the minute: this one's edits wait for it too
            key = (chat_id, routine)
            self._full_until[key] = max(self._full_until.get(key, now), now + delay)
            if not wait:
                return False
        if now - self._swept_at >= 60:
            self._swept_at = now
            # groups not written to for a minute have nothing to count: every group the
            # bot ever wrote to would stay otherwise
            for kept in (self._group_sent, self._group_edited):
                for chat in [c for c, times in kept.items() if not times or now - times[-1] >= 60]:
                    del kept[chat]
            for full in [k for k, until in self._full_until.items() if until <= now]:
                del self._full_until[full]
        return True

    def can_reply(self, chat_id: int, messages: int = 1) -> bool:
        """Whether ``messages`` replies to a command fit in the chat's minute now."""
        chat_id = self.moved.get(chat_id, chat_id)
        if chat_id >= 0:
            return True
        sent, edited = self._windows(chat_id, self.clock())
        share = max(1, int(self.group_messages_per_minute * REPLY_SHARE))
        return (
            len(sent) + messages <= share
            and len(sent) + len(edited) + messages <= self.group_messages_per_minute
        )

    async def reply(
        self,
        chat_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        reply_to: int | None = None,
    ) -> int | None:
        """A reply to a command, or nothing (``None``) when the group's share of replies
        this minute is used up: Telegram would refuse it, and waiting for a slot would
        keep a worker from everyone else's presses."""
        if not self.can_reply(chat_id) or not await self._take_slot(
            self.moved.get(chat_id, chat_id), self._group_sent, wait=False
        ):
            log.info("chat %s: reply dropped, its replies for this minute are used up", chat_id)
            return None
        return await self.send(chat_id, text, markup, reply_to=reply_to, slot_taken=True)

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        reply_to: int | None = None,
        slot_taken: bool = False,
    ) -> int | None:
        """``reply_to``: a message this one answers, if it is still there;
        ``slot_taken``: the group's slot for it is taken already."""
        chat_id = self.moved.get(chat_id, chat_id)
        if not slot_taken:
            await self._take_slot(chat_id, self._group_sent)
        reply_markup = _markup(markup)
        reply_parameters = (
            None
            if reply_to is None
            else ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
        )
        try:
            message = await self.call(
                chat_id,
                lambda: self.bot.send_message(
                    chat_id,
                    text,
                    reply_markup=reply_markup,
                    reply_parameters=reply_parameters,
                ),
            )
        except TelegramMigrateToChat as error:
            if chat_id in self.moved.values():
                raise
            self.moved[chat_id] = error.migrate_to_chat_id
            return await self.send(error.migrate_to_chat_id, text, markup, reply_to=reply_to)
        if message is None:
            return None
        message_id = message.message_id
        self._remember(chat_id, message_id, self._fingerprint(text, markup))
        self._sent(chat_id, message_id)
        return message_id

    async def send_file(
        self, chat_id: int, kind: str, filename: str, data: bytes, caption: str = ""
    ) -> int | None:
        """A ``photo`` (shown in the chat) or a ``document`` (a file to save), with a
        caption; ``None`` when the chat blocked the bot."""
        chat_id = self.moved.get(chat_id, chat_id)
        await self._take_slot(chat_id, self._group_sent)
        upload = BufferedInputFile(data, filename)
        if kind == "photo":
            sent = await self.call(
                chat_id, lambda: self.bot.send_photo(chat_id, upload, caption=caption or None)
            )
        else:
            sent = await self.call(
                chat_id, lambda: self.bot.send_document(chat_id, upload, caption=caption or None)
            )
        if sent is None:
            return None
        self._sent(chat_id, sent.message_id)
        return sent.message_id

    def _sent(self, chat_id: int, message_id: int) -> None:
        if chat_id < 0:
            keep(self.last_sent, chat_id, message_id, _CACHE_SIZE)

    def unchanged(self, chat_id: int, message_id: int, text: str, markup: Markup | None) -> bool:
        """Whether the message shows ``text`` and ``markup`` already, as far as this
        process knows: an edit with them would be left out."""
        return self._shown.get((chat_id, message_id)) == self._fingerprint(text, markup)

    async def edit_slot(self, chat_id: int, *, routine: bool = False) -> None:
        """Wait for and take the group's slot for an edit made next with ``slot_taken``
        (``routine``: see :meth:`slot_wait`)."""
        await self._take_slot(chat_id, self._group_edited, routine=routine)

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        slot_taken: bool = False,
        routine: bool = False,
    ) -> bool:
        """Edit a message in place; ``False`` if it is gone or its chat blocked the bot.
        ``slot_taken``: the group's slot for it is taken already (:meth:`edit_slot`);
        ``routine``: see :meth:`slot_wait`."""
        if chat_id in self.moved:
            return False  # its messages stayed behind in the old group
        key = (chat_id, message_id)
        fingerprint = self._fingerprint(text, markup)
        if self._shown.get(key) == fingerprint:
            return True
        reply_markup = _markup(markup)
        if not slot_taken:
            await self._take_slot(chat_id, self._group_edited, routine=routine)
        try:
            result = await self.call(
                chat_id,
                lambda: self.bot.edit_message_text(
                    text, chat_id=chat_id, message_id=message_id, reply_markup=reply_markup
                ),
            )
        except TelegramMigrateToChat as error:
            self.moved[chat_id] = error.migrate_to_chat_id
            return False
        except TelegramBadRequest as error:
            if _not_modified(error):
                self._remember(chat_id, message_id, fingerprint)
                return True
            if _message_gone(error):
                return False
            raise
        if result is None:
            # blocked: the caller sends anew, which finds that out and tells the table
            return False
        self._remember(chat_id, message_id, fingerprint)
        return True

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is in the group now: one who left, was banned or was never
        there is not, and nor is anyone once the bot itself is out of the group."""
        chat_id = self.moved.get(chat_id, chat_id)
        try:
            member = await self.call(chat_id, lambda: self.bot.get_chat_member(chat_id, user_id))
        except (TelegramBadRequest, TelegramMigrateToChat):
            return False  # "user not found", "chat not found"
        if member is None:
            return False  # the bot was removed from the group (403)
        return member.status in _IN_CHAT or bool(getattr(member, "is_member", False))

    async def drop_keyboard(self, chat_id: int, message_id: int) -> None:
        """Take a message's buttons away (they belong to a table no longer played). Left
        as it is in a group that used its minute: a press must not wait for a slot."""
        chat_id = self.moved.get(chat_id, chat_id)
        if not await self._take_slot(chat_id, self._group_edited, wait=False):
            return
        self._shown.pop((chat_id, message_id), None)
        # gone, or without buttons already: nothing to take away
        with suppress(TelegramBadRequest, TelegramMigrateToChat):
            await self.call(
                chat_id,
                lambda: self.bot.edit_message_reply_markup(
                    chat_id=chat_id, message_id=message_id, reply_markup=None
                ),
            )

    async def delete(self, chat_id: int, message_id: int) -> None:
        self._shown.pop((chat_id, message_id), None)
        # too old or already gone: the new message is what matters
        with suppress(TelegramBadRequest, TelegramMigrateToChat):
            await self.call(chat_id, lambda: self.bot.delete_message(chat_id, message_id))

    async def answer(
        self,
        callback: CallbackQuery,
        text: str | None = None,
        *,
        alert: bool = False,
        url: str | None = None,
    ) -> None:
        if text is not None:
            text = cut(text, ANSWER_LIMIT)  # Telegram refuses longer ones outright
        try:
            await self.call(
                callback.from_user.id,
                lambda: self.bot.answer_callback_query(
                    callback.id, text=text, show_alert=alert, url=url
                ),
            )
        except TelegramBadRequest as error:
            # a query answered too late cannot be answered at all; the action itself stands
            log.info("callback answer failed: %s", error.message)

    @staticmethod
    def _fingerprint(text: str, markup: Markup | None) -> int:
        # The buttons' field values, much cheaper than serialising the keyboard on
        # every edit. (aiogram's models all hash to 0: their schemas are built late.)
        if not markup:
            return hash((text, None))
        if isinstance(markup, Keyboard):
            return hash((text, markup.rows))
        return hash((text, tuple(tuple(map(_button_key, row)) for row in markup.inline_keyboard)))

    def _remember(self, chat_id: int, message_id: int, fingerprint: int) -> None:
        self._shown[(chat_id, message_id)] = fingerprint
        self._shown.move_to_end((chat_id, message_id))
        while len(self._shown) > _CACHE_SIZE:
            self._shown.popitem(last=False)
