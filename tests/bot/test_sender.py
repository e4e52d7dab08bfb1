"""Telegram's rules in the sender: 429 waits, "not modified" is fine, 403 is skipped."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.bench.fake_telegram import FakeChat, FakeTelegram, FakeUser
from bot.render.keyboards.layout import Keyboard
from bot.telegram.sender import GROUP_MESSAGES_PER_MINUTE, REPLY_SHARE, Sender
from bot.telegram.throttle import EditThrottle
from tests import fake_telegram_fixtures as fixtures
from tests.e2e.harness import ManualClock, VirtualClock

fake_telegram = fixtures.fake_telegram


@dataclass
class Rig:
    """A Sender over a real aiogram Bot pointed at the fake, on a virtual clock."""

    sender: Sender
    bot: Bot
    clock: VirtualClock
    blocked: list[int]


@pytest.fixture
async def rig(fake_telegram: FakeTelegram) -> AsyncIterator[Rig]:
    bot = fake_telegram.make_bot(default=DefaultBotProperties(parse_mode="HTML"))
    clock, blocked = VirtualClock(), []

    async def on_blocked(chat_id: int) -> None:
        blocked.append(chat_id)

    yield Rig(
        Sender(bot, sleep=clock.sleep, clock=clock, on_blocked=on_blocked), bot, clock, blocked
    )
    await bot.session.close()


async def test_429_waits_retry_after_and_sends_once(fake_telegram: FakeTelegram, rig: Rig) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    fake_telegram.fail_next("sendMessage", 429, retry_after=7, count=2)
    message_id = await rig.sender.send(ann.id, "hello")
    assert message_id is not None
    assert rig.clock.waited == [7, 7]
    assert [m.text for m in fake_telegram.messages(ann)] == ["hello"]


async def test_an_unchanged_edit_is_a_success_without_a_call(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    message_id = await rig.sender.send(ann.id, "same")
    assert message_id is not None
    mark = fake_telegram.mark()
    assert await rig.sender.edit(ann.id, message_id, "same")
    assert not fake_telegram.calls("editMessageText", since=mark)
    # a fresh sender does not know the content: Telegram says "not modified", still a success
    other = Sender(rig.bot, sleep=rig.clock.sleep, clock=rig.clock)
    assert await other.edit(ann.id, message_id, "same")
    assert fake_telegram.calls("editMessageText", since=mark)[0].status == 400


async def test_a_lost_message_is_sent_again(fake_telegram: FakeTelegram, rig: Rig) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    assert not await rig.sender.edit(ann.id, 999, "table")  # gone: the caller sends anew
    new_id = await rig.sender.send(ann.id, "table")
    assert new_id is not None and new_id != 999
    assert fake_telegram.messages(ann)[-1].text == "table"


async def test_a_user_who_blocked_the_bot_is_reported_and_skipped(
    fake_telegram: FakeTelegram,
    rig: Rig,
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    ann.block_bot()
    assert await rig.sender.send(ann.id, "cards") is None
    assert rig.blocked == [ann.id]


async def test_a_group_gets_at_most_twenty_new_messages_a_minute(
    fake_telegram: FakeTelegram,
    rig: Rig,
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    sent_at = []
    for n in range(2 * GROUP_MESSAGES_PER_MINUTE + 5):
        assert await rig.sender.send(group.id, f"m{n}") is not None
        sent_at.append(rig.clock.now)
        rig.clock.now += 1  # one message a second: faster than a group may get them
    for i, start in enumerate(sent_at):
        in_window = [t for t in sent_at[i:] if t < start + 60]
        assert len(in_window) <= GROUP_MESSAGES_PER_MINUTE
    assert rig.clock.waited
    assert len(fake_telegram.messages(group)) == 2 * GROUP_MESSAGES_PER_MINUTE + 5
    # private chats are not held back
    before = len(rig.clock.waited)
    for n in range(GROUP_MESSAGES_PER_MINUTE + 5):
        await rig.sender.send(ann.id, f"p{n}")
    assert len(rig.clock.waited) == before


def three_a_minute(fake: FakeTelegram, rig: Rig) -> tuple[FakeUser, FakeChat, Sender, ManualClock]:
    """A user, their group, and a Sender allowing it 3 messages a minute from t = 0."""
    ann = fake.add_user("Ann", started=True)
    group = fake.add_group("Cards", members=[ann])
    clock = ManualClock(now=0.0)
    sender = Sender(rig.bot, sleep=clock.sleep, clock=clock, group_messages_per_minute=3)
    return ann, group, sender, clock


async def test_sends_waiting_together_for_a_group_slot_take_one_slot_each(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    _ann, group, sender, clock = three_a_minute(fake_telegram, rig)
    sent_at = []
    for n in range(3):  # the window fills at t = 0, 1, 2
        await sender.send(group.id, f"m{n}")
        sent_at.append(clock.now)
        clock.advance(1)

    async def send(n: int) -> None:
        await sender.send(group.id, f"w{n}")
        sent_at.append(clock.now)

    waiting = [asyncio.create_task(send(n)) for n in range(3)]

    async def settled() -> None:
        # every send is either done or asleep on the clock, not yet woken: two sources
        # of change, and the sends (real HTTP to the fake) need the loop to run
        while clock.asleep() + sum(t.done() for t in waiting) < len(waiting):  # noqa: ASYNC110
            await asyncio.sleep(0)

    while not all(t.done() for t in waiting):
        await settled()
        clock.advance(0.5)
    # one slot frees at t = 60, 61 and 62: one send each, not all three at t = 60
    assert sent_at[3:] == [60.0, 61.0, 62.0]
    assert len(fake_telegram.messages(group)) == 6


async def test_a_groups_edits_and_new_messages_share_one_minute(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    ann, group, sender, clock = three_a_minute(fake_telegram, rig)
    table = await sender.send(group.id, "table 0")
    assert table is not None
    for n in (1, 2):  # edits at t = 1 and 2 fill the minute the send began
        clock.advance(1)
        assert await sender.edit(group.id, table, f"table {n}")
    assert sender.slot_wait(group.id) == 58.0
    assert not sender.can_reply(group.id)
    assert sender.slot_wait(ann.id) == 0.0  # a private chat has no such limit
    result = asyncio.create_task(sender.send(group.id, "result"))
    await clock.until_asleep()
    assert [m.text for m in fake_telegram.messages(group)] == ["table 2"]
    clock.advance(58)  # t = 60: the first send's slot is free again
    async with asyncio.timeout(5):
        assert await result is not None
    assert [m.text for m in fake_telegram.messages(group)] == ["table 2", "result"]


async def test_a_group_quiet_for_a_minute_is_not_counted_any_more(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    # every group the bot ever wrote to would otherwise stay in memory for good
    ann, group, sender, clock = three_a_minute(fake_telegram, rig)
    other = fake_telegram.add_group("Other", members=[ann])
    table = await sender.send(group.id, "table 0")
    assert table is not None and await sender.send(other.id, "hello")
    assert await sender.edit(group.id, table, "table 1")
    counted = (sender._group_sent, sender._group_edited)
    assert [set(kept) for kept in counted] == [{group.id, other.id}] * 2
    clock.advance(30)
    await sender.send(group.id, "result")
    assert sender.slot_wait(group.id) == 30.0  # the minute of the first two holds
    clock.advance(30)
    await sender.send(group.id, "next")
    assert [set(kept) for kept in counted] == [{group.id}, set()]
    assert sender.slot_wait(group.id) == 0.0


async def test_a_table_edit_in_a_full_minute_waits_for_a_slot_without_holding_its_caller(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    _ann, group, sender, clock = three_a_minute(fake_telegram, rig)
    throttle = EditThrottle(sender)
    table = await sender.send(group.id, "lobby")
    assert table is not None
    await sender.send(group.id, "notice 1")
    await sender.send(group.id, "notice 2")
    clock.advance(10)
    async with asyncio.timeout(5):  # returns at once: nothing waits on the clock
        assert await throttle.edit(group.id, table, "trick 1", None, interval=4.0)
        assert await throttle.edit(group.id, table, "game over", None, interval=0)
    assert fake_telegram.messages(group)[0].text == "lobby"
    await clock.until_asleep()
    clock.advance(50)  # t = 60: the lobby's slot is free
    async with asyncio.timeout(5):
        await throttle.settle()
    message = fake_telegram.messages(group)[0]
    # the newest content went out, once: the one it replaced never did
    assert message.text == "game over" and message.edit_count == 1


async def test_replies_use_half_a_groups_minute_and_never_wait(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    share = int(GROUP_MESSAGES_PER_MINUTE * REPLY_SHARE)
    replies = [await rig.sender.reply(group.id, f"r{n}") for n in range(share + 3)]
    assert all(replies[:share]) and replies[share:] == [None] * 3
    assert not rig.clock.waited
    # the table's own messages still have the rest of the minute, at once
    for n in range(GROUP_MESSAGES_PER_MINUTE - share):
        assert await rig.sender.send(group.id, f"t{n}") is not None
    assert not rig.clock.waited
    assert await rig.sender.reply(group.id, "late") is None
    # a private chat has no such share
    assert all([await rig.sender.reply(ann.id, f"p{n}") for n in range(share + 3)])
    rig.clock.now += 60  # a minute on, replies go out again
    assert await rig.sender.reply(group.id, "again") is not None


async def test_an_edit_changing_only_a_button_is_made_and_an_equal_keyboard_is_not(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)

    def validated(*data: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="card", callback_data=d) for d in data]]
        )

    message_id = await rig.sender.send(ann.id, "hand", validated("a:1:1:c7S", "a:1:1:c8S"))
    assert message_id is not None
    mark = fake_telegram.mark()
    # the same content built without validation counts as shown
    same = Keyboard(((("card", "a:1:1:c7S"), ("card", "a:1:1:c8S")),))
    assert await rig.sender.edit(ann.id, message_id, "hand", same)
    assert not fake_telegram.calls("editMessageText", since=mark)
    for changed in (
        validated("a:1:1:c7S", "a:1:2:c8S"),  # one callback
        Keyboard(((("card", "a:1:1:c7S"),), (("card", "a:1:1:c8S"),))),  # the rows
        InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    InlineKeyboardButton(text="card", callback_data="a:1:1:c7S"),
                    InlineKeyboardButton(text="card", url="https://example.org"),
                ]
            ]
        ),
    ):
        mark = fake_telegram.mark()
        assert await rig.sender.edit(ann.id, message_id, "hand", changed)
        assert [c.status for c in fake_telegram.calls("editMessageText", since=mark)] == [200]
        shown = fake_telegram.messages(ann)[-1].reply_markup
        expected = changed.as_markup() if isinstance(changed, Keyboard) else changed
        assert shown == expected.model_dump(exclude_none=True)


async def test_an_edit_waits_out_429_and_server_errors(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    message_id = await rig.sender.send(ann.id, "before")
    assert message_id is not None
    fake_telegram.fail_next("editMessageText", 429, retry_after=3)
    fake_telegram.fail_next("editMessageText", 502)
    assert await rig.sender.edit(ann.id, message_id, "after")
    assert rig.clock.waited == [3, 0.5]  # the backoff of a second attempt
    assert fake_telegram.messages(ann)[-1].text == "after"


async def test_a_group_upgraded_to_a_supergroup_is_followed(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    old_message = await rig.sender.send(group.id, "table")
    assert old_message is not None
    new_id = fake_telegram.migrate_group(group)
    # the old group's messages cannot be edited any more; a new one goes to the new chat
    assert not await rig.sender.edit(group.id, old_message, "table v2")
    assert await rig.sender.send(group.id, "table v2") is not None
    assert rig.sender.moved == {group.id: new_id}
    assert fake_telegram.messages(new_id)[-1].text == "table v2"


def test_the_fingerprint_sees_inside_nested_button_objects() -> None:
    def web_app(url: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="open", web_app=WebAppInfo(url=url))]]
        )

    fingerprint = Sender._fingerprint
    assert fingerprint("t", web_app("https://a")) == fingerprint("t", web_app("https://a"))
    assert fingerprint("t", web_app("https://a")) != fingerprint("t", web_app("https://b"))
    assert fingerprint("t", None) != fingerprint("u", None)


async def test_members_of_a_group_are_told_from_everyone_else(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    fake = fake_telegram
    ann, ben, cid, eve = (fake.add_user(n) for n in ("Ann", "Ben", "Cid", "Eve"))
    group = fake.add_group("Cards", members=[ben, cid], admins=[ann])
    fake.remove_member(group, cid)
    assert await rig.sender.is_member(group.id, ann.id)  # its creator
    assert await rig.sender.is_member(group.id, ben.id)
    assert not await rig.sender.is_member(group.id, cid.id)  # left
    assert not await rig.sender.is_member(group.id, eve.id)  # never there
    assert not await rig.sender.is_member(group.id, 777)  # nobody Telegram knows
    fake.kick_bot(group)
    assert not await rig.sender.is_member(group.id, ben.id)  # the bot cannot ask any more


class _YieldingClock(VirtualClock):
    """A virtual clock whose sleeps let the event loop run, so a timeout can end them."""

    async def sleep(self, seconds: float) -> None:
        await super().sleep(seconds)
        await asyncio.sleep(0)


async def test_a_wait_for_the_groups_minute_ends_where_the_minute_does(
    fake_telegram: FakeTelegram, rig: Rig
) -> None:
    """At these times ``now - sent`` after the wait came out a rounding error short of
    60 s, and each wait after it was too small to move the clock: the edit never went."""
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    clock = _YieldingClock()
    clock.now = 38.1
    sender = Sender(rig.bot, sleep=clock.sleep, clock=clock, group_messages_per_minute=1)
    message_id = await sender.send(group.id, "table")
    assert message_id is not None
    clock.now = 43.731575206454096
    async with asyncio.timeout(5):
        assert await sender.edit(group.id, message_id, "table, edited")
    assert clock.now == 38.1 + 60
    assert [m.text for m in fake_telegram.messages(group)] == ["table, edited"]
