"""Telegram's rules in the sender: 429 waits, "not modified" is fine, 403 is skipped."""

from __future__ import annotations

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties

from bot.services.sender import GROUP_MESSAGES_PER_MINUTE, Sender
from tests.e2e.harness import VirtualClock
from tests.fake_telegram import FakeTelegram, fixtures

fake_telegram = fixtures.fake_telegram


def sender_for(fake: FakeTelegram, clock: VirtualClock, blocked: list[int]) -> tuple[Sender, Bot]:
    bot = fake.make_bot(default=DefaultBotProperties(parse_mode="HTML"))

    async def on_blocked(chat_id: int) -> None:
        blocked.append(chat_id)

    return Sender(bot, sleep=clock.sleep, clock=clock, on_blocked=on_blocked), bot


async def test_429_waits_retry_after_and_sends_once(fake_telegram: FakeTelegram) -> None:
    clock, blocked = VirtualClock(), []
    sender, bot = sender_for(fake_telegram, clock, blocked)
    ann = fake_telegram.add_user("Ann", started=True)
    fake_telegram.fail_next("sendMessage", 429, retry_after=7, count=2)
    message_id = await sender.send(ann.id, "hello")
    assert message_id is not None
    assert clock.waited == [7, 7]
    assert [m.text for m in fake_telegram.messages(ann)] == ["hello"]
    await bot.session.close()


async def test_an_unchanged_edit_is_a_success_without_a_call(fake_telegram: FakeTelegram) -> None:
    clock, blocked = VirtualClock(), []
    sender, bot = sender_for(fake_telegram, clock, blocked)
    ann = fake_telegram.add_user("Ann", started=True)
    message_id = await sender.send(ann.id, "same")
    assert message_id is not None
    mark = fake_telegram.mark()
    assert await sender.edit(ann.id, message_id, "same")
    assert not fake_telegram.calls("editMessageText", since=mark)
    # a fresh sender does not know the content: Telegram says "not modified", still a success
    other = Sender(bot, sleep=clock.sleep, clock=clock)
    assert await other.edit(ann.id, message_id, "same")
    assert fake_telegram.calls("editMessageText", since=mark)[0].status == 400
    await bot.session.close()


async def test_a_lost_message_is_sent_again(fake_telegram: FakeTelegram) -> None:
    clock, blocked = VirtualClock(), []
    sender, bot = sender_for(fake_telegram, clock, blocked)
    ann = fake_telegram.add_user("Ann", started=True)
    new_id = await sender.show(ann.id, 999, "table")
    assert new_id is not None and new_id != 999
    assert fake_telegram.messages(ann)[-1].text == "table"
    await bot.session.close()


async def test_a_user_who_blocked_the_bot_is_reported_and_skipped(
    fake_telegram: FakeTelegram,
) -> None:
    clock, blocked = VirtualClock(), []
    sender, bot = sender_for(fake_telegram, clock, blocked)
    ann = fake_telegram.add_user("Ann", started=True)
    ann.block_bot()
    assert await sender.send(ann.id, "cards") is None
    assert blocked == [ann.id]
    await bot.session.close()


async def test_a_group_gets_at_most_twenty_new_messages_a_minute(
    fake_telegram: FakeTelegram,
) -> None:
    clock, blocked = VirtualClock(), []
    sender, bot = sender_for(fake_telegram, clock, blocked)
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    sent_at = []
    for n in range(2 * GROUP_MESSAGES_PER_MINUTE + 5):
        assert await sender.send(group.id, f"m{n}") is not None
        sent_at.append(clock.now)
        clock.now += 1  # one message a second: faster than a group may get them
    for i, start in enumerate(sent_at):
        in_window = [t for t in sent_at[i:] if t < start + 60]
        assert len(in_window) <= GROUP_MESSAGES_PER_MINUTE
    assert clock.waited
    assert len(fake_telegram.messages(group)) == 2 * GROUP_MESSAGES_PER_MINUTE + 5
    # private chats are not held back
    before = len(clock.waited)
    for n in range(GROUP_MESSAGES_PER_MINUTE + 5):
        await sender.send(ann.id, f"p{n}")
    assert len(clock.waited) == before
    await bot.session.close()
