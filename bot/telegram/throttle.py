"""Edits of one message at most once per interval; between them only the latest content counts.

A table played fast changes its messages several times a second. Telegram lets a
bot post about 20 messages a minute in a group and about one a second in a chat,
and nobody reads a state that lasts a tenth of a second. So a message edited less
than ``interval`` ago is not edited again at once: its newest content is kept and
sent when the interval is up, and anything that replaced it meanwhile is never
sent. At the pace of people the interval has always passed and every edit goes
out at once. An edit in a group that has used up its minute (see
:meth:`Sender.slot_wait`) waits the same way for a slot, rather than holding up its
caller. Edits of one message never overtake each other.

An edit may say which state of a table it shows, ``(table id, version)``: given
``guard`` (:meth:`~bot.db.shown.ShownVersions.showing`), it is left out when it goes
if the message shows a later state already, as another process sharing the
database may have edited it meanwhile; the guard holds the message's version while the
edit goes out, so another process's edit of it waits and cannot overtake it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.tasks import cancel_all
from bot.telegram.sender import Markup, Sender

__all__ = ["EditThrottle"]

log = logging.getLogger(__name__)

Key = tuple[int, int]
Shows = tuple[int, int]
"""The table's id and version an edit shows."""
Content = tuple[str, Markup | None, Shows | None]
Guard = Callable[[int, int, int, int], AbstractAsyncContextManager[bool]]
"""``(chat_id, message_id, table_id, version)``: whether the message may show it, held
for the block in which the edit goes out."""
_PRUNE_AT = 4096


class EditThrottle:
    def __init__(
        self,
        sender: Sender,
        *,
        on_lost: Callable[[int, int], Awaitable[Any]] | None = None,
        sleep: Callable[[float], Awaitable[Any]] | None = None,
        clock: Callable[[], float] | None = None,
        guard: Guard | None = None,
    ) -> None:
        self.sender = sender
        self.guard = guard
        self.sleep = sleep or sender.sleep
        self.clock = clock or sender.clock
        self._edited: dict[Key, float] = {}
        self._latest: dict[Key, Content] = {}
        self._waiting: dict[Key, tuple[asyncio.Task[None], float]] = {}
        """Per message, the task that will send its latest content, and its interval."""
        self._running: set[asyncio.Task[None]] = set()
        """Those tasks and the ones already sending."""
        self._locks: dict[Key, asyncio.Lock] = {}
        self._holders: dict[Key, int] = {}
        """Per message, how many edits hold its lock or wait for it. A lock goes only when
        none do: an edit made after would take a new one and overtake them."""
        self.on_lost = on_lost
        """Called with ``(chat_id, message_id)`` when a delayed edit finds its message
        gone (deleted, or its group moved): nobody is there to send it anew."""

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Markup | None,
        *,
        interval: float,
        shows: Shows | None = None,
    ) -> bool:
        """Edit now if the message was not edited in the last ``interval`` seconds,
        else later; ``False`` only when an edit made now found the message gone (or its
        chat blocked the bot). ``shows``: the table's id and version the edit shows."""
        key = (chat_id, message_id)
        if self._due(key, interval) <= 0:
            return await self._edit(key, (text, markup, shows), routine=interval > 0)
        self._latest[key] = (text, markup, shows)
        waiting = self._waiting.get(key)
        if waiting is not None and interval < waiting[1]:
            self._drop_waiting(key)  # this content may go sooner than the waiting task would
            waiting = None
        if waiting is None:
            task = asyncio.create_task(self._later(key, interval))
            self._waiting[key] = (task, interval)
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        return True

    def sent(self, chat_id: int, message_id: int) -> None:
        """The message was just sent: its first edit waits its interval, as after an edit."""
        key = (chat_id, message_id)
        self._edited[key] = self.clock()
        self._prune()

    def holds(self, chat_id: int, message_id: int, interval: float) -> bool:
        """Whether an edit of the message made now with ``interval`` would wait."""
        return self._due((chat_id, message_id), interval) > 0

    def _due(self, key: Key, interval: float) -> float:
        """Seconds until ``key`` may be edited: its interval, and a slot in its chat (an
        edit paced by an interval is a routine one, see :meth:`Sender.slot_wait`)."""
        last = self._edited.get(key)
        wait = 0.0 if interval <= 0 or last is None else last + interval - self.clock()
        return max(wait, self.sender.slot_wait(key[0], routine=interval > 0))

    def forget(self, chat_id: int, message_id: int) -> None:
        """The message is deleted or replaced: whatever waits for it is dropped."""
        key = (chat_id, message_id)
        self._latest.pop(key, None)
        self._edited.pop(key, None)
        self._drop_waiting(key)
        if key not in self._holders:
            self._locks.pop(key, None)

    def _drop_waiting(self, key: Key) -> None:
        waiting = self._waiting.pop(key, None)
        if waiting is not None:
            waiting[0].cancel()

    async def settle(self) -> None:
        """Wait until no edit is waiting (a table at rest, or the bot about to stop)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def close(self) -> None:
        await cancel_all(self._running)

    async def _edit(self, key: Key, content: Content | None, *, routine: bool) -> bool:
        """Edit with ``content``, or with the latest waiting content when ``None``;
        ``routine``: an edit paced by an interval (see :meth:`Sender.slot_wait`)."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._holders[key] = self._holders.get(key, 0) + 1
        try:
            async with lock:
                # whatever waited is older than ``content``
                waiting = self._latest.pop(key, None)
                if content is not None:
                    self._drop_waiting(key)  # the next delayed edit counts from this one
                content = content or waiting
                if content is None:
                    return True  # an edit made meanwhile showed it already
                self._edited[key] = self.clock()
                self._prune()
                text, markup, shows = content
                if shows is None or self.guard is None:
                    return await self.sender.edit(*key, text, markup, routine=routine)
                if key[0] in self.sender.moved:
                    return False  # its messages stayed behind in the old group
                if self.sender.unchanged(*key, text, markup):
                    return True
                # the slot first: the message's version is held only while the edit goes
                await self.sender.edit_slot(key[0], routine=routine)
                async with self.guard(*key, *shows) as shown:
                    if not shown:
                        log.info("message %s shows a later state than %s already", key, shows)
                        return True
                    return await self.sender.edit(*key, text, markup, slot_taken=True)
        finally:
            holders = self._holders.pop(key) - 1
            if holders:
                self._holders[key] = holders
            elif key not in self._edited:
                self._locks.pop(key, None)  # forgotten or pruned while held

    async def _later(self, key: Key, interval: float) -> None:
        try:
            # looked at again after each wait: a send may have taken the slot meanwhile
            while (delay := self._due(key, interval)) > 0:
                await self.sleep(delay)
            self._waiting.pop(key, None)
            if not await self._edit(key, None, routine=interval > 0) and self.on_lost is not None:
                await self.on_lost(*key)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the next change of the table shows it again
            log.exception("a delayed edit of message %s failed", key)
        finally:
            # a cancelled task may already have a successor for the same message
            if self._waiting.get(key, (None,))[0] is asyncio.current_task():
                del self._waiting[key]

    def _prune(self) -> None:
        if len(self._edited) < _PRUNE_AT:
            return
        horizon = self.clock() - 60
        for key in [k for k, at in self._edited.items() if at < horizon]:
            del self._edited[key]
            if key not in self._holders:
                self._locks.pop(key, None)
