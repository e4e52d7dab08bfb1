"""Random sequences of updates from players and strangers, through the real Dispatcher.

Commands with real and junk arguments, real buttons, legal moves and forged
callback data are fed one by one (``Dispatcher.feed_update``, the Bot API being
the fake Telegram). After each update: no handler failed, every button press was
answered, every table's stored state loads and is sane, versions never go back,
and no message showed a hidden card to a chat that may not see it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiogram.client.default import DefaultBotProperties
from aiogram.types import Update
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App, create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeUser, PressHandle
from bot.db.models import TableStatus
from bot.engine import game_class
from tests.bot.test_privacy import hidden_cards, leaks
from tests.e2e.harness import VirtualClock, hand_message, legal_buttons

HUGE = "9" * 25
COMMANDS = [
    "/new deberts",
    "/new thousand",
    "/new",
    "/new chess",
    "/new " + "x" * 300,
    "/start",
    "/start j1",
    f"/start j{HUGE}",
    "/start jj",
    "/leave",
    "/cancel",
    "/score",
    "/rules",
    "/rules xyz",
    "/help",
    "/lang de",
    "/lang en",
]
GARBAGE = st.one_of(
    st.sampled_from(
        [
            "",
            "x",
            "a:1",
            f"a:{HUGE}:0:cAS",
            f"l:{HUGE}:0:join:-1",
            "t:1:0:zzz",
            "g:de",
            "n:chess",
            "s:thousand:7:",
            "s:deberts:1:godlike",
        ]
    ),
    st.text(max_size=64),
)


@st.composite
def forged(draw: st.DrawFn) -> tuple[str, ...]:
    """Either garbage or a real-looking prefix with one field replaced."""
    prefix = draw(st.sampled_from(["a", "l", "t", "n", "s", "g"]))
    table = draw(st.sampled_from(["1", "2", "0", "-1", HUGE, "abc"]))
    version = draw(st.sampled_from(["0", "1", "2", "5", "-3", HUGE]))
    code = draw(st.sampled_from(["cAS", "c7H", "pass", "b120", "k100", "play", "join", "start"]))
    tail = draw(st.sampled_from(["", ":-1", ":0", ":3", f":{HUGE}"]))
    real = f"{prefix}:{table}:{version}:{code}{tail}"
    return ("forge", draw(st.one_of(st.just(real), GARBAGE)))


STEP = st.one_of(
    st.tuples(st.just("cmd"), st.sampled_from(COMMANDS), st.booleans()),
    st.tuples(st.just("press"), st.integers(0, 200)),
    st.tuples(st.just("play"), st.integers(0, 200)),
    st.tuples(st.just("play"), st.integers(0, 200)),
    forged(),
)
SCRIPT = st.lists(st.tuples(st.integers(0, 3), STEP), min_size=5, max_size=25)


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(
            record.getMessage() + (f" {record.exc_info[1]!r}" if record.exc_info else "")
        )


@dataclass
class World:
    fake: FakeTelegram
    app: App
    group: FakeChat
    people: list[FakeUser]
    versions: dict[int, int] = field(default_factory=dict)
    closed: set[int] = field(default_factory=set)
    mark: int = 0

    async def feed(self) -> None:
        raw = self.fake.update_log[-1]
        update = Update.model_validate(raw, context={"bot": self.app.sender.bot})
        await self.app.dp.feed_update(self.app.sender.bot, update)

    async def step(self, who: FakeUser, action: tuple[Any, ...]) -> PressHandle | None:
        kind = action[0]
        if kind == "cmd":
            _, text, private = action
            chat = who.private_chat if private or who.id not in self.group.members else self.group
            self.fake.user_message(who, chat, text)
            await self.feed()
            return None
        if kind == "play":
            for user in self.people:
                hand = hand_message(self.fake, user)
                buttons = legal_buttons(hand) if hand else []
                if hand is not None and buttons:
                    button = buttons[action[1] % len(buttons)]
                    handle = self.fake.callback_query(user, hand, button.callback_data or "")
                    await self.feed()
                    return handle
            return None
        chats = [who.private_chat]
        if who.id in self.group.members:
            chats.append(self.group)
        if kind == "press":
            buttons = [
                (m, b)
                for chat in chats
                for m in self.fake.messages(chat, from_bot=True)
                for b in m.buttons
                if b.callback_data
            ]
            if not buttons:
                return None
            message, button = buttons[action[1] % len(buttons)]
            handle = self.fake.callback_query(who, message, button.callback_data or "")
        else:
            # forged data, on the latest message of either chat or on one long gone
            chat = chats[len(action[1]) % len(chats)]
            latest = self.fake.last_message(chat)
            target = latest if latest is not None else (chat, 1)
            handle = self.fake.callback_query(who, target, action[1])
        await self.feed()
        return handle

    async def check(self) -> None:
        db = self.app.db
        open_chats: dict[int, int] = {}
        games = []
        for row in await db.fetchall("SELECT id FROM tables ORDER BY id"):
            record = await self.app.tables.store.repo.get(int(row["id"]))
            assert record is not None
            assert record.version >= self.versions.get(record.id, 0), record
            self.versions[record.id] = record.version
            if record.id in self.closed:
                assert not record.is_open, record
            if not record.is_open:
                self.closed.add(record.id)
            else:
                assert record.chat_id not in open_chats, "two open tables in one chat"
                open_chats[record.chat_id] = record.id
            most = game_class(record.game).max_seats  # Thousand 4, Deberts 3
            if record.state is None:
                assert record.status in (TableStatus.LOBBY, TableStatus.CANCELLED), record
                assert len(record.seats) <= most
                continue
            assert record.status != TableStatus.LOBBY
            game = game_class(record.game).from_json(json.loads(record.state))
            assert game.seats == len(record.seats) and 2 <= game.seats <= most
            assert isinstance(game.phase, str) and game.phase
            assert game.is_over == (record.status == TableStatus.FINISHED), record.status
            if not game.is_over:
                seat = game.current_seat()
                assert seat is not None and game.legal_actions(seat)
                # between updates nobody waits on a bot player
                assert not record.seats[seat].is_bot
            if record.status == TableStatus.PLAYING:
                games.append((record, game))
        self._no_leaks(games)

    def _no_leaks(self, games: list[tuple[Any, Any]]) -> None:
        for call in self.fake.calls(since=self.mark):
            if call.method not in ("sendMessage", "editMessageText"):
                continue
            chat = call.params.get("chat_id")
            hidden: set[str] = set()
            own: set[str] = set()
            for record, game in games:
                if chat == record.chat_id and chat < 0:
                    hidden |= hidden_cards(game, None)
                seat = record.seat_of(chat) if chat > 0 else None
                if seat is not None:
                    hidden |= hidden_cards(game, seat)
                    own |= set(game.view(seat)["hand"])
            text = str(call.params.get("text", ""))
            if "is over.</b>" in text:
                # a deal's result names its final trick, whose cards may be dealt anew by
                # now (the bots may play a whole deal, as one a person sits out of at four)
                text = "\n".join(
                    line for line in text.split("\n") if not line.startswith("Last trick:")
                )
            blob = json.dumps({**call.params, "text": text}, ensure_ascii=False)
            assert not leaks(blob, hidden - own), blob
        self.mark = self.fake.mark()


async def run(fake: FakeTelegram, script: list[tuple[int, tuple[Any, ...]]]) -> None:
    errors = Errors()
    logging.getLogger("bot").addHandler(errors)
    clock = VirtualClock()
    bot = fake.make_bot(default=DefaultBotProperties(parse_mode="HTML"))
    seeds = iter(range(1, 10_000))
    app = await create_app(
        bot,
        ":memory:",
        default_locale="en",
        seed_source=lambda: next(seeds),
        sleep=clock.sleep,
        clock=clock,
    )
    try:
        # one name reads as HTML: every text that shows it must escape it
        names = ("Ann", "Ben &amp; <b>Co</b>", "Cid")
        ann, ben, cid = (fake.add_user(n, started=True) for n in names)
        eve = fake.add_user("Eve")  # never opened a private chat with the bot
        group = fake.add_group("Cards", members=[ann, ben, cid, eve])
        world = World(fake, app, group, [ann, ben, cid, eve], mark=fake.mark())
        for user in (ann, ben, cid):
            fake.user_message(user, user, "/start")
            await world.feed()
        for who, action in script:
            handle = await world.step(world.people[who], action)
            assert not errors.seen, (action, errors.seen)
            if handle is not None:
                assert handle.answered is not None, action
            await world.check()
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await app.close()
        await bot.session.close()


@pytest.fixture(scope="module")
def loop_and_fake() -> Iterator[tuple[asyncio.AbstractEventLoop, FakeTelegram]]:
    """One fake Telegram for every example (each gets its own users, group and bot)."""
    loop = asyncio.new_event_loop()
    fake = FakeTelegram()
    loop.run_until_complete(fake.start())
    yield loop, fake
    loop.run_until_complete(fake.stop())
    loop.close()


def test_random_updates_break_nothing(
    loop_and_fake: tuple[asyncio.AbstractEventLoop, FakeTelegram],
) -> None:
    loop, fake = loop_and_fake

    @settings(
        max_examples=20,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(SCRIPT)
    def example(script: list[tuple[int, tuple[Any, ...]]]) -> None:
        loop.run_until_complete(run(fake, script))

    example()
