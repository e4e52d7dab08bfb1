"""The real bot (``create_app`` + long polling) against the fake Telegram, and players for it.

Players act only through what the bot sent them: they press buttons found in
their private hand messages, never look at the engine.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties

from bot.app import App, create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import Button, FakeChat, FakeMessage, FakeUser

__all__ = ["BotProcess", "ManualClock", "Players", "version_of", "wait_turn"]

_CARD_CODE = re.compile(r"^a:\d+:\d+:c[2-9TJQKA][SCDH]$")
_ACTION = re.compile(r"^a:\d+:\d+:")
_YOUR_TURN = re.compile(r"Your turn\.|Ваш ход\.")
"""A hand message on its player's turn (its text, HTML stripped), in English or Russian."""


class BotProcess:
    """One run of the bot; ``restart()`` stops it and starts a fresh one on the same database."""

    def __init__(
        self,
        fake: FakeTelegram,
        database: Path,
        *,
        seed: int = 1,
        manual_pace: ManualClock | None = None,
        **options: Any,
    ) -> None:
        """``options`` go on to ``create_app`` (``default_timer=60``, ...). The Bot API
        calls are paced on :attr:`clock`, whose waits cost nothing, or on ``manual_pace``."""
        self.fake = fake
        self.options = options
        self.database = database
        self.seed = seed
        self.clock = VirtualClock()
        self.manual_pace = manual_pace
        self.wall = ManualClock()
        self.app: App | None = None
        self._stack: AsyncExitStack | None = None

    async def start(self) -> App:
        stack = AsyncExitStack()
        bot = self.fake.make_bot(default=DefaultBotProperties(parse_mode="HTML"))
        stack.push_async_callback(bot.session.close)
        seeds = iter(range(self.seed, self.seed + 10_000))
        app = await create_app(
            bot,
            self.database,
            default_locale="en",
            seed_source=lambda: next(seeds),
            sleep=(self.manual_pace or self.clock).sleep,
            clock=self.manual_pace or self.clock,
            timer_clock=self.wall,
            timer_sleep=self.wall.sleep,
            # the random player moves at once: tests that are not about the bots' play
            # would wait on the hard one's search
            **{"bot_level": "random", **self.options},
        )
        stack.push_async_callback(app.close)
        await stack.enter_async_context(self.fake.polling(app.dp, bot))
        # the tables a restart shows are shown before the test goes on
        await app.reshowing.done()
        self.app, self._stack = app, stack
        return app

    async def stop(self) -> None:
        if self._stack is not None:
            await self._stack.aclose()
        self.app, self._stack = None, None

    async def restart(self) -> App:
        await self.stop()
        return await self.start()

    @property
    def bot(self) -> Bot:
        assert self.app is not None
        return self.app.sender.bot


class VirtualClock:
    """Time that passes only when the bot waits, so its rate limits cost the tests nothing."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waited: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waited.append(seconds)
        self.now += max(seconds, 0.0)


class ManualClock:
    """Wall-clock time that moves only when a test calls :meth:`advance`."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self._slept = asyncio.Event()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.now + seconds, future)
        self._sleepers.append(entry)
        self._slept.set()
        try:
            await future
        finally:
            self._sleepers.remove(entry)

    def asleep(self) -> int:
        """How many sleepers wait for a time still to come."""
        return sum(not future.done() for _, future in self._sleepers)

    async def until_asleep(self, *tasks: asyncio.Future[Any], timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until something sleeps on this clock, or one of ``tasks`` is done: woken
        as a sleep starts, not by polling."""
        async with asyncio.timeout(timeout):
            while not self.asleep() and not any(task.done() for task in tasks):
                self._slept.clear()
                slept = asyncio.ensure_future(self._slept.wait())
                try:
                    await asyncio.wait([slept, *tasks], return_when=asyncio.FIRST_COMPLETED)
                finally:
                    slept.cancel()

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for until, future in self._sleepers:
            if until <= self.now and not future.done():
                future.set_result(None)


def hand_message(fake: FakeTelegram, user: FakeUser) -> FakeMessage | None:
    """The user's live hand message: the latest bot message with game action buttons."""
    found = [
        m
        for m in fake.messages(user.id, from_bot=True)
        if any(b.callback_data and _ACTION.match(b.callback_data) for b in m.buttons)
    ]
    return found[-1] if found else None


def legal_buttons(message: FakeMessage) -> list[Button]:
    """Buttons that are legal now: the marked cards (every card, when none is marked on
    the player's turn: all may be played) and every non-card action."""
    actions = [b for b in message.buttons if _ACTION.match(b.callback_data or "")]
    cards = [b for b in actions if _CARD_CODE.match(b.callback_data or "")]
    marked = [b for b in cards if b.text.startswith("▶")]
    others = [b for b in actions if b not in cards]
    # unmarked cards on the player's turn are all legal, unless the turn asks for a bid
    # (only a card play may come with the seven swap or the four sevens beside it)
    playing = all((b.callback_data or "").endswith((":swap7", ":sevens")) for b in others)
    if not marked and playing and _YOUR_TURN.search(message.text or ""):
        marked = cards
    return [b for b in actions if b in marked or b not in cards]


def version_of(button: Button) -> int:
    """The table version a game button was sent at (``a:<table>:<version>:<code>``)."""
    return int((button.callback_data or "").split(":")[2])


def newer_legal(message: FakeMessage, after: int) -> list[Button]:
    """Legal buttons sent after the state ``after``: older ones are already pressed."""
    return [b for b in legal_buttons(message) if version_of(b) > after]


def game_over(fake: FakeTelegram, users: list[FakeUser]) -> bool:
    """No hand has game buttons any more (a started game's hands lose them at its end)."""
    return all(hand_message(fake, user) is None for user in users)


def turn_ready(fake: FakeTelegram, users: list[FakeUser], after: int) -> bool:
    """Some hand offers buttons newer than the state ``after``, or the game is over.

    The bot answers a press before it edits the hands, so right after the answer the
    presser's old buttons may still be there.
    """
    hands = [hand_message(fake, user) for user in users]
    if all(hand is None for hand in hands):
        return True
    return any(hand is not None and newer_legal(hand, after) for hand in hands)


async def wait_turn(
    fake: FakeTelegram,
    users: list[FakeUser],
    after: int,
    timeout: float = 10.0,  # noqa: ASYNC109
) -> None:
    await fake.wait_for(
        lambda: turn_ready(fake, users, after),
        timeout=timeout,
        what=f"a turn after version {after}",
    )


def code_of(button: Button) -> str:
    """The engine action a game button carries (its callback data ends with it)."""
    return (button.callback_data or "").rsplit(":", 1)[-1]


Policy = Callable[[list[Button], random.Random], Button]


def random_policy(buttons: list[Button], rng: random.Random) -> Button:
    return rng.choice(buttons)


_STRENGTH = "789JQKTA"


def cautious_choice(codes: list[str]) -> str:
    """Pass when allowed, else the lowest bid or contract; keep the deal; play the
    weakest card. With a suitable seed a Thousand game ends in about 15 deals."""
    for wanted in ("pass", "keep"):
        if wanted in codes:
            return wanted
    for prefix in ("b", "k"):
        numbers = [c for c in codes if c[:1] == prefix and c[1:].isdigit()]
        if numbers:
            return min(numbers, key=lambda c: int(c[1:]))
    cards = [c for c in codes if re.fullmatch(r"c[789TJQKA][SCDH]", c)]
    if cards:
        return min(cards, key=lambda c: (_STRENGTH.find(c[1]), "SCDH".find(c[2])))
    return min(codes)


def cautious_policy(buttons: list[Button], rng: random.Random) -> Button:
    by_code = {code_of(b): b for b in buttons}
    return by_code[cautious_choice(list(by_code))]


class Players:
    """Simulated people at one table, pressing legal buttons chosen by ``policy``."""

    def __init__(
        self,
        fake: FakeTelegram,
        users: list[FakeUser],
        rng: random.Random,
        policy: Policy = random_policy,
    ) -> None:
        self.fake = fake
        self.users = users
        self.rng = rng
        self.policy = policy
        self.presses = 0
        self.version = -1
        """The table version of the latest press: only newer buttons are pressed."""

    def to_act(self) -> tuple[FakeUser, FakeMessage, list[Button]] | None:
        for user in self.users:
            message = hand_message(self.fake, user)
            if message is None:
                continue
            buttons = newer_legal(message, self.version)
            if buttons:
                return user, message, buttons
        return None

    async def step(self) -> bool:
        """One random legal press, answered; ``False`` once the game is over."""
        await wait_turn(self.fake, self.users, self.version)
        found = self.to_act()
        if found is None:
            return False
        user, message, buttons = found
        button = self.policy(buttons, self.rng)
        self.version = version_of(button)
        answer = await (await user.press(message, button.text)).answer()
        assert not answer.show_alert, (button, answer)
        self.presses += 1
        return True

    async def play(self, until: int = 20_000) -> int:
        start = self.presses
        while self.presses - start < until and await self.step():
            pass
        return self.presses - start


def texts(fake: FakeTelegram, chat: FakeChat | int) -> list[str]:
    return [m.text for m in fake.messages(chat, from_bot=True)]


_GROUP_WRITES = ("sendMessage", "sendPhoto", "sendDocument", "editMessageText")
"""What counts in a group's messages a minute: Telegram counts edits with new messages."""
_SENDS = ("sendMessage", "sendPhoto", "sendDocument")
_DEAL_HEAD = re.compile(r"<b>[^<]+</b> · (?:deal|сдача) (\d+) · ")


def _in(call: Any, chat: FakeChat) -> bool:
    return call.status == 200 and str(call.params.get("chat_id")) == str(chat.id)


def busiest_minute(fake: FakeTelegram, chat: FakeChat) -> int:
    """The most messages sent or edited in ``chat`` in any 60 s, by the time each call
    came on the fake's clock."""
    times = sorted(c.at for c in fake.calls(since=0) if c.method in _GROUP_WRITES and _in(c, chat))
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= 60:
            start += 1
        most = max(most, end - start + 1)
    return most


def deal_starts(fake: FakeTelegram, chat: FakeChat) -> list[tuple[int, bool]]:
    """Each deal's first showing in ``chat``: its number, and whether the message showing
    it was the newest the bot had sent there."""
    newest: int | None = None
    starts: list[tuple[int, bool]] = []
    for call in fake.calls(since=0):
        if not _in(call, chat):
            continue
        if call.method in _SENDS:
            newest = call.result["message_id"]
            message_id = newest
        elif call.method == "editMessageText":
            message_id = int(call.params["message_id"])
        else:
            continue
        head = _DEAL_HEAD.match(str(call.params.get("text") or ""))
        if head and int(head[1]) not in [n for n, _ in starts]:
            starts.append((int(head[1]), message_id == newest))
    return starts


def live_table(fake: FakeTelegram, chat: FakeChat | int) -> FakeMessage | None:
    """The chat's table message as it is now: the newest of the bot's with *My hand* (a
    group's comes anew at the start of a deal, the old one deleted)."""
    for message in reversed(fake.messages(chat, from_bot=True)):
        if not message.deleted and message.find_buttons("🂠 My hand"):
            return message
    return None
