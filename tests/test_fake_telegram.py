"""The fake Telegram itself, driven by the real aiogram Bot and Dispatcher."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    BotCommand,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from bot.bench.fake_telegram import FakeTelegram, parse_html
from tests import fake_telegram_fixtures as fixtures

fake_telegram = fixtures.fake_telegram
fake_bot = fixtures.fake_bot

DEEP_LINK = "https://t.me/TablesTestBot?start=join_7"


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=t, callback_data=t.lower())] for t in labels]
    )


def make_dispatcher() -> Dispatcher:
    """A tiny bot: /ping answers with buttons, buttons answer and edit, /start echoes."""
    router = Router(name=__name__)

    @router.message(CommandStart())
    async def start(message: Message, command: CommandObject) -> None:
        await message.answer(f"welcome {command.args or ''}".strip())

    @router.message(Command("ping"))
    async def ping(message: Message) -> None:
        invite = InlineKeyboardButton(text="Invite", url=DEEP_LINK)
        markup = keyboard("Again", "Stop")
        markup.inline_keyboard.append([invite])
        await message.answer("<b>pong</b> &amp; more", reply_markup=markup)

    @router.callback_query(F.data == "again")
    async def again(query: CallbackQuery) -> None:
        await query.answer("again!")
        assert isinstance(query.message, Message)
        await query.message.edit_text("pong again", reply_markup=keyboard("Stop"))

    @router.callback_query(F.data == "stop")
    async def stop(query: CallbackQuery) -> None:
        await query.answer("bye", show_alert=True)
        assert isinstance(query.message, Message)
        await query.message.edit_text("stopped")

    @router.callback_query()
    async def unknown(query: CallbackQuery) -> None:
        await query.answer("outdated")

    dp = Dispatcher()
    dp.include_router(router)
    return dp


async def test_get_me_reports_the_bot(fake_bot: Bot) -> None:
    me = await fake_bot.get_me()

    assert (me.username, me.is_bot, me.id) == ("TablesTestBot", True, fake_bot.id)


async def test_polling_delivers_a_command_and_the_bot_replies(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", language_code="ru")

    async with fake_telegram.polling(make_dispatcher(), fake_bot):
        await alice.send(alice, "/ping")
        reply = await fake_telegram.wait_for_message(alice, since=0)

    assert reply.text == "pong & more"
    assert reply.raw_text == "<b>pong</b> &amp; more"
    assert [b.text for b in reply.buttons] == ["Again", "Stop", "Invite"]
    assert reply.start_payloads == ["join_7"]
    assert fake_telegram.last_message(alice) is reply
    assert [c.method for c in fake_telegram.calls()] == ["getMe", "sendMessage"]


async def test_button_press_round_trip_edits_and_replaces_keyboard(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice")

    async with fake_telegram.polling(make_dispatcher(), fake_bot):
        await alice.send(alice, "/ping")
        reply = await fake_telegram.wait_for_message(alice, since=0)
        answer = await (await alice.press(reply, "Again")).answer()
        await fake_telegram.wait_for(lambda: reply.edit_count == 1)
        assert (reply.text, [b.text for b in reply.buttons]) == ("pong again", ["Stop"])

        final = await (await alice.press(reply, "Stop")).answer()
        await fake_telegram.wait_for(lambda: reply.edit_count == 2)

    assert answer.text == "again!"
    assert (final.text, final.show_alert) == ("bye", True)
    assert reply.text == "stopped"
    assert reply.buttons == []
    assert reply.history == ["<b>pong</b> &amp; more", "pong again"]
    with pytest.raises(LookupError):
        await alice.press(reply, "Stop")


async def test_forged_callback_data_reaches_the_bot(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)

    async with fake_telegram.polling(make_dispatcher(), fake_bot):
        answer = await (await alice.press_data(999, "forged")).answer()

    assert answer.text == "outdated"


async def test_group_commands_respect_mentions_and_privacy_mode(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice, bob = fake_telegram.add_user("Alice"), fake_telegram.add_user("Bob")
    group = fake_telegram.add_group("Table", members=[alice, bob], admins=[alice])

    async with fake_telegram.polling(make_dispatcher(), fake_bot):
        await bob.send(group, "hello everyone")
        await bob.send(group, "/ping@OtherBot")
        await alice.send(group, "/ping@TablesTestBot")
        reply = await fake_telegram.wait_for_message(group, since=0)

    assert reply.text == "pong & more"
    assert len(fake_telegram.update_log) == 1
    assert fake_telegram.update_log[0]["message"]["entities"][0] == {
        "type": "bot_command",
        "offset": 0,
        "length": len("/ping@TablesTestBot"),
    }


async def test_deep_link_button_can_be_followed(fake_telegram: FakeTelegram, fake_bot: Bot) -> None:
    alice, bob = fake_telegram.add_user("Alice"), fake_telegram.add_user("Bob")
    group = fake_telegram.add_group("Table", members=[alice, bob])

    async with fake_telegram.polling(make_dispatcher(), fake_bot):
        await alice.send(group, "/ping")
        reply = await fake_telegram.wait_for_message(group, since=0)
        mark = fake_telegram.mark()
        await bob.follow(reply.button("Invite"))
        welcome = await fake_telegram.wait_for_message(bob, since=mark)

    assert welcome.text == "welcome join_7"
    assert fake_telegram.messages_with_button(group, "Invite") == [reply]


async def test_long_poll_wakes_as_soon_as_an_update_is_queued(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice")
    loop = asyncio.get_running_loop()
    started = loop.time()

    poll = asyncio.create_task(fake_bot.get_updates(timeout=20))
    await fake_telegram.wait_for(lambda: fake_telegram.calls("getUpdates"))
    await alice.send(alice, "/ping")
    updates = await poll

    assert loop.time() - started < 2
    assert [u.message.text for u in updates if u.message] == ["/ping"]
    assert await fake_bot.get_updates(timeout=0) == updates  # unconfirmed: again
    assert await fake_bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == []
    assert fake_telegram.pending_updates == []


async def test_long_poll_times_out_with_no_updates(fake_bot: Bot) -> None:
    assert await fake_bot.get_updates(timeout=1) == []


async def test_edit_without_markup_removes_the_keyboard(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    sent = await fake_bot.send_message(alice.id, "one", reply_markup=keyboard("A", "B"))
    message = fake_telegram.last_message(alice)
    assert message is not None
    assert [b.callback_data for b in message.buttons] == ["a", "b"]

    await fake_bot.edit_message_text("two", chat_id=alice.id, message_id=sent.message_id)

    assert (message.text, message.buttons, message.edit_count) == ("two", [], 1)


async def test_not_modified_edit_is_a_bad_request(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    sent = await fake_bot.send_message(alice.id, "<i>same</i>", reply_markup=keyboard("A"))
    chat_id, message_id = alice.id, sent.message_id

    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await fake_bot.edit_message_text(
            "<i>same</i>", chat_id=chat_id, message_id=message_id, reply_markup=keyboard("A")
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await fake_bot.edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=keyboard("A")
        )
    await fake_bot.edit_message_text(
        "<b>same</b>", chat_id=chat_id, message_id=message_id, reply_markup=keyboard("A")
    )


async def test_an_inline_keyboard_past_100_buttons_or_8_a_row_is_a_bad_request(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)

    def grid(rows: int, width: int) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    InlineKeyboardButton(text=f"{r}.{c}", callback_data=f"{r}.{c}")
                    for c in range(width)
                ]
                for r in range(rows)
            ]
        )

    await fake_bot.send_message(alice.id, "fits", reply_markup=grid(12, 8))  # 96
    await fake_bot.send_message(alice.id, "fits", reply_markup=grid(20, 5))  # 100
    for too_big in (grid(1, 9), grid(21, 5)):
        with pytest.raises(TelegramBadRequest, match="reply markup is too long"):
            await fake_bot.send_message(alice.id, "too big", reply_markup=too_big)
    sent = await fake_bot.send_message(alice.id, "one", reply_markup=keyboard("A"))
    with pytest.raises(TelegramBadRequest, match="reply markup is too long"):
        await fake_bot.edit_message_reply_markup(
            chat_id=alice.id, message_id=sent.message_id, reply_markup=grid(1, 9)
        )


async def test_html_that_telegram_cannot_parse_is_a_bad_request(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)

    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await fake_bot.send_message(alice.id, "Bob <3 cards")
    assert parse_html("<a href='x'>Bob</a> &lt;3") == (
        "Bob <3",
        [{"type": "text_link", "offset": 0, "length": 3, "url": "x"}],
    )


async def test_too_many_requests_carries_retry_after(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    fake_telegram.fail_next("sendMessage", 429, retry_after=3)

    with pytest.raises(TelegramRetryAfter) as caught:
        await fake_bot.send_message(alice.id, "hi")
    await fake_bot.send_message(alice.id, "hi")

    assert caught.value.retry_after == 3
    assert [c.status for c in fake_telegram.calls("sendMessage")] == [429, 200]
    assert len(fake_telegram.messages(alice)) == 1


async def test_server_errors_and_dropped_connections(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    fake_telegram.fail_next("getMe", 502)
    fake_telegram.drop_next("getMe")

    with pytest.raises(TelegramServerError, match="Bad Gateway"):
        await fake_bot.get_me()
    with pytest.raises(TelegramNetworkError):
        await fake_bot.get_me()
    assert (await fake_bot.get_me()).username == "TablesTestBot"


async def test_held_calls_wait_for_release(fake_telegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    gate = fake_telegram.hold("sendMessage", count=1)

    sending = asyncio.create_task(fake_bot.send_message(alice.id, "slow"))
    await gate.wait_arrived(1)
    assert fake_telegram.messages(alice) == []
    gate.release()
    await sending

    assert [m.text for m in fake_telegram.messages(alice)] == ["slow"]


async def test_forbidden_for_blocked_unstarted_and_foreign_chats(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice, bob = fake_telegram.add_user("Alice"), fake_telegram.add_user("Bob")
    group = fake_telegram.add_group("Elsewhere", members=[alice], bot_member=False)
    await alice.start_private()
    alice.block_bot()

    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await fake_bot.send_message(alice.id, "hi")
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await fake_bot.send_message(bob.id, "hi")
    with pytest.raises(TelegramForbiddenError, match="not a member of the group chat"):
        await fake_bot.send_message(group.id, "hi")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await fake_bot.send_message(-42, "hi")

    await alice.start_private()
    await fake_bot.send_message(alice.id, "welcome back")


async def test_answering_a_callback_twice_is_too_old(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    await fake_bot.send_message(alice.id, "pick", reply_markup=keyboard("A"))
    message = fake_telegram.last_message(alice)
    assert message is not None
    press = await alice.press(message, "A")

    await fake_bot.answer_callback_query(press.id, text="ok")
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await fake_bot.answer_callback_query(press.id)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await fake_bot.answer_callback_query("123")
    assert press.answered is not None
    assert press.answered.text == "ok"


async def test_migrated_group_answers_with_the_new_chat_id(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice")
    group = fake_telegram.add_group("Table", members=[alice])

    new_id = fake_telegram.migrate_group(group)

    with pytest.raises(TelegramMigrateToChat) as caught:
        await fake_bot.send_message(group.id, "hi")
    assert caught.value.migrate_to_chat_id == new_id
    updates = await fake_bot.get_updates(timeout=0)
    assert [u.message.migrate_to_chat_id for u in updates if u.message] == [new_id, None]
    await fake_bot.send_message(new_id, "hi")
    await alice.send(new_id, "/ping")


async def test_unknown_method_is_not_found(fake_telegram: FakeTelegram) -> None:
    url = f"{fake_telegram.base_url}/bot{fake_telegram.token}/sendTelepathy"
    async with aiohttp.ClientSession() as session, session.post(url, data={"x": "1"}) as resp:
        body = await resp.json()

    assert resp.status == 404
    assert body == {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
    assert fake_telegram.calls("sendTelepathy")[0].params == {"x": 1}


async def test_commands_chat_info_and_members(fake_telegram: FakeTelegram, fake_bot: Bot) -> None:
    alice, bob = fake_telegram.add_user("Alice"), fake_telegram.add_user("Bob")
    group = fake_telegram.add_group("Table", members=[bob], admins=[alice])
    commands = [BotCommand(command="new", description="New table")]

    await fake_bot.set_my_commands(commands, language_code="ru")
    got = await fake_bot.get_my_commands(language_code="ru")
    assert [(c.command, c.description) for c in got] == [("new", "New table")]
    assert await fake_bot.get_my_commands() == []
    await fake_bot.delete_my_commands(language_code="ru")
    assert fake_telegram.commands(language_code="ru") == []

    chat = await fake_bot.get_chat(group.id)
    owner = await fake_bot.get_chat_member(group.id, alice.id)
    member = await fake_bot.get_chat_member(group.id, bob.id)
    admins = await fake_bot.get_chat_administrators(group.id)
    assert (chat.title, owner.status, member.status) == ("Table", "creator", "member")
    assert [a.user.id for a in admins] == [alice.id]
    assert await fake_bot.send_chat_action(group.id, "typing")
    assert await fake_bot.leave_chat(group.id)
    with pytest.raises(TelegramForbiddenError):
        await fake_bot.send_message(group.id, "still here?")


async def test_wait_for_times_out_with_a_report(fake_telegram: FakeTelegram) -> None:
    with pytest.raises(TimeoutError, match="never"):
        await fake_telegram.wait_for(lambda: False, timeout=0.05, what="never")


async def test_delayed_answers_arrive_late(fake_telegram: FakeTelegram, fake_bot: Bot) -> None:
    fake_telegram.delay("getMe", 0.2, count=1)
    loop = asyncio.get_running_loop()
    started = loop.time()

    await fake_bot.get_me()
    slow = loop.time() - started
    await fake_bot.get_me()

    assert slow >= 0.2
    assert [c.fault for c in fake_telegram.calls("getMe")] == ["delay", None]
