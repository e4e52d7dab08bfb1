"""The lean session: JSON bodies, unread results skipped, and aiogram's own errors."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import EditMessageText, GetUpdates, SendMessage
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
    WebAppInfo,
)

from bot.bench.fake_telegram import FakeTelegram
from bot.telegram.session import LeanSession, call
from tests import fake_telegram_fixtures as fixtures

fake_telegram = fixtures.fake_telegram

MARKUP = InlineKeyboardMarkup(
    inline_keyboard=[
        [
            InlineKeyboardButton(text="▶ 10♥", callback_data="a:1:2:cTH"),
            InlineKeyboardButton(text="· Д♠ ·", callback_data="a:1:2:cQS"),
        ],
        [InlineKeyboardButton(text="Pass", callback_data="a:1:2:pass")],
    ]
)


@pytest.fixture
async def lean_bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    session = LeanSession(api=fake_telegram.api_server())
    bot = Bot(fake_telegram.token, session=session, default=DefaultBotProperties(parse_mode="HTML"))
    yield bot
    await session.close()


def _last_params(fake: FakeTelegram, method: str) -> dict[str, Any]:
    return fake.calls(method)[-1].params


async def test_a_message_goes_out_as_json_and_comes_back_parsed(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "<b>hand</b>", reply_markup=MARKUP)
    assert isinstance(sent, Message)
    assert sent.text == "hand"
    assert sent.reply_markup is not None
    assert sent.reply_markup.model_dump(exclude_none=True) == MARKUP.model_dump(exclude_none=True)
    params = _last_params(fake_telegram, "sendMessage")
    # the bot's default parse mode is filled in, unset fields are left out
    assert params["parse_mode"] == "HTML"
    assert "message_thread_id" not in params
    assert params["reply_markup"] == {
        "inline_keyboard": [
            [
                {"text": "▶ 10♥", "callback_data": "a:1:2:cTH"},
                {"text": "· Д♠ ·", "callback_data": "a:1:2:cQS"},
            ],
            [{"text": "Pass", "callback_data": "a:1:2:pass"}],
        ]
    }
    shown = fake_telegram.messages(ann)[-1]
    assert shown.text == "hand"
    assert shown.reply_markup == params["reply_markup"]


async def test_an_edit_is_made_and_its_result_not_parsed(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "before")
    result = await lean_bot.edit_message_text(
        text="after", chat_id=ann.id, message_id=sent.message_id, reply_markup=MARKUP
    )
    assert result is True
    assert fake_telegram.calls("editMessageText")[-1].status == 200
    shown = fake_telegram.messages(ann)[-1]
    assert shown.text == "after"
    assert shown.reply_markup == _last_params(fake_telegram, "editMessageText")["reply_markup"]
    assert await lean_bot.delete_message(ann.id, sent.message_id) is True
    assert shown.deleted


async def test_a_callback_answer_is_true(fake_telegram: FakeTelegram, lean_bot: Bot) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "cards", reply_markup=MARKUP)
    press = fake_telegram.callback_query(ann, fake_telegram.messages(ann)[-1], "a:1:2:cTH")
    assert sent.message_id
    result = await lean_bot.answer_callback_query(press.id, text="Not your turn", show_alert=True)
    assert result is True
    answer = await press.answer()
    assert answer.text == "Not your turn"
    assert answer.show_alert


async def test_429_raises_retry_after_with_its_wait(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "x")
    for method in ("editMessageText", "sendMessage"):
        fake_telegram.fail_next(method, 429, retry_after=7)
    with pytest.raises(TelegramRetryAfter) as edit_error:
        await lean_bot.edit_message_text(text="y", chat_id=ann.id, message_id=sent.message_id)
    assert edit_error.value.retry_after == 7
    with pytest.raises(TelegramRetryAfter) as send_error:
        await lean_bot.send_message(ann.id, "z")
    assert send_error.value.retry_after == 7


async def test_an_unchanged_edit_is_the_bad_request_the_sender_looks_for(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "same")
    with pytest.raises(TelegramBadRequest) as error:
        await lean_bot.edit_message_text(text="same", chat_id=ann.id, message_id=sent.message_id)
    assert "message is not modified" in error.value.message


async def test_a_blocked_user_is_forbidden(fake_telegram: FakeTelegram, lean_bot: Bot) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "x")
    ann.block_bot()
    with pytest.raises(TelegramForbiddenError):
        await lean_bot.send_message(ann.id, "y")
    with pytest.raises(TelegramForbiddenError):
        await lean_bot.edit_message_text(text="y", chat_id=ann.id, message_id=sent.message_id)


async def test_an_upgraded_group_names_its_new_id(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    sent = await lean_bot.send_message(group.id, "table")
    new_id = fake_telegram.migrate_group(group)
    with pytest.raises(TelegramMigrateToChat) as send_error:
        await lean_bot.send_message(group.id, "again")
    assert send_error.value.migrate_to_chat_id == new_id
    with pytest.raises(TelegramMigrateToChat) as edit_error:
        await lean_bot.edit_message_text(text="y", chat_id=group.id, message_id=sent.message_id)
    assert edit_error.value.migrate_to_chat_id == new_id


@pytest.mark.parametrize("method", ["editMessageText", "answerCallbackQuery", "deleteMessage"])
async def test_server_errors_and_lost_connections_still_raise(
    fake_telegram: FakeTelegram, lean_bot: Bot, method: str
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "x", reply_markup=MARKUP)
    press = fake_telegram.callback_query(ann, fake_telegram.messages(ann)[-1], "a:1:2:cTH")

    async def call() -> object:
        if method == "editMessageText":
            return await lean_bot.edit_message_text(
                text="y", chat_id=ann.id, message_id=sent.message_id
            )
        if method == "answerCallbackQuery":
            return await lean_bot.answer_callback_query(press.id)
        return await lean_bot.delete_message(ann.id, sent.message_id)

    fake_telegram.fail_next(method, 502)
    with pytest.raises(TelegramServerError):
        await call()
    fake_telegram.drop_next(method)
    with pytest.raises(TelegramNetworkError):
        await call()
    assert await call() is True


def test_only_known_values_take_the_json_path(lean_bot: Bot) -> None:
    session = lean_bot.session
    assert isinstance(session, LeanSession)
    plain = SendMessage(chat_id=5, text="hi", reply_markup=MARKUP)
    assert session.json_body(lean_bot, plain) is not None
    # a nested object other than an inline keyboard, an extra field, a web-app
    # button's object: all sent the stock way
    preview = SendMessage(
        chat_id=5, text="hi", link_preview_options=LinkPreviewOptions(is_disabled=True)
    )
    assert session.json_body(lean_bot, preview) is None
    extra = EditMessageText(text="hi", chat_id=5, message_id=1, surprise=1)  # type: ignore[call-arg]
    assert session.json_body(lean_bot, extra) is None
    web_app = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="open", web_app=WebAppInfo(url="https://a"))]]
    )
    body = session.json_body(lean_bot, SendMessage(chat_id=5, text="hi", reply_markup=web_app))
    assert body is not None
    button = json.loads(body)["reply_markup"]["inline_keyboard"][0][0]
    assert button == {"text": "open", "web_app": {"url": "https://a"}}


async def test_stock_path_methods_still_work(fake_telegram: FakeTelegram, lean_bot: Bot) -> None:
    me = await lean_bot.get_me()
    assert me.username == fake_telegram.bot_user()["username"]
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(
        ann.id, "hi", link_preview_options=LinkPreviewOptions(is_disabled=True)
    )
    assert sent.text == "hi"


async def test_updates_come_without_the_pressed_messages_content(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    sent = await lean_bot.send_message(ann.id, "cards", reply_markup=MARKUP)
    cards = fake_telegram.messages(ann)[-1]
    fake_telegram.user_message(ann, ann.id, "/start")
    press = fake_telegram.callback_query(ann, cards, "a:1:2:cTH")
    session = lean_bot.session
    assert isinstance(session, LeanSession)
    polled = GetUpdates(timeout=0, allowed_updates=["message", "callback_query"])
    assert session.json_body(lean_bot, polled) is not None  # polling takes the JSON path too
    updates = await lean_bot(polled)
    assert _last_params(fake_telegram, "getUpdates")["allowed_updates"] == [
        "message",
        "callback_query",
    ]
    assert updates[0].message is not None and updates[0].message.text == "/start"
    query = updates[-1].callback_query
    assert query is not None
    assert (query.id, query.data, query.from_user.id) == (press.id, "a:1:2:cTH", ann.id)
    assert isinstance(query.message, Message)
    assert (query.message.message_id, query.message.chat.id) == (sent.message_id, ann.id)
    # where the pressed message is, not what it says: the bot knows what it sent
    assert (query.message.text, query.message.entities, query.message.reply_markup) == (
        None,
        None,
        None,
    )
    # bound to the bot like any parsed update: a handler can answer through it
    assert await query.answer("ok") is True
    fake_telegram.fail_next("getUpdates", 502)
    with pytest.raises(TelegramServerError):
        await lean_bot.get_updates(timeout=0)


async def test_a_call_writes_plain_params_with_the_bots_defaults(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    keyboard = MARKUP.model_dump(mode="json", exclude_none=True)
    sent = await call(
        lean_bot,
        "sendMessage",
        {"chat_id": ann.id, "text": "<b>hand</b>", "reply_markup": keyboard},
    )
    assert isinstance(sent, dict)
    assert sent["text"] == "hand"
    assert sent["message_id"] == fake_telegram.messages(ann)[-1].message_id
    params = _last_params(fake_telegram, "sendMessage")
    assert params["parse_mode"] == "HTML"
    assert params["reply_markup"] == keyboard
    assert "link_preview_options" not in params
    edit = {
        "chat_id": ann.id,
        "message_id": sent["message_id"],
        "text": "after",
        "reply_markup": None,
    }
    assert await call(lean_bot, "editMessageText", edit) is True
    assert "reply_markup" not in _last_params(fake_telegram, "editMessageText")
    assert fake_telegram.messages(ann)[-1].text == "after"
    press = fake_telegram.callback_query(ann, fake_telegram.messages(ann)[-1], "a:1:2:cTH")
    answer = {"callback_query_id": press.id, "text": "Not your turn", "show_alert": False}
    assert await call(lean_bot, "answerCallbackQuery", answer) is True
    assert (await press.answer()).text == "Not your turn"
    assert _last_params(fake_telegram, "answerCallbackQuery")["show_alert"] is False
    shown = fake_telegram.messages(ann)[-1]
    delete = {"chat_id": ann.id, "message_id": sent["message_id"]}
    assert await call(lean_bot, "deleteMessage", delete) is True
    assert shown.deleted


async def test_a_failed_call_raises_what_a_method_model_raises(
    fake_telegram: FakeTelegram, lean_bot: Bot
) -> None:
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    sent = await call(lean_bot, "sendMessage", {"chat_id": ann.id, "text": "x"})
    on_table = await call(lean_bot, "sendMessage", {"chat_id": group.id, "text": "table"})
    keyboard = MARKUP.model_dump(mode="json", exclude_none=True)
    edit = {
        "chat_id": ann.id,
        "message_id": sent["message_id"],
        "text": "y",
        "reply_markup": keyboard,
    }

    fake_telegram.fail_next("editMessageText", 429, retry_after=7)
    with pytest.raises(TelegramRetryAfter) as retry:
        await call(lean_bot, "editMessageText", edit)
    assert retry.value.retry_after == 7
    # the error names the call as the stock path would, keyboard and all
    assert retry.value.method == EditMessageText(**{**edit, "reply_markup": MARKUP})
    fake_telegram.fail_next("editMessageText", 502)
    with pytest.raises(TelegramServerError):
        await call(lean_bot, "editMessageText", edit)
    fake_telegram.drop_next("editMessageText")
    with pytest.raises(TelegramNetworkError):
        await call(lean_bot, "editMessageText", edit)
    assert await call(lean_bot, "editMessageText", edit) is True
    with pytest.raises(TelegramBadRequest) as unchanged:
        await call(lean_bot, "editMessageText", edit)
    assert "message is not modified" in unchanged.value.message
    new_id = fake_telegram.migrate_group(group)
    with pytest.raises(TelegramMigrateToChat) as moved:
        await call(
            lean_bot,
            "editMessageText",
            {"chat_id": group.id, "message_id": on_table["message_id"], "text": "z"},
        )
    assert moved.value.migrate_to_chat_id == new_id
    ann.block_bot()
    with pytest.raises(TelegramForbiddenError):
        await call(lean_bot, "sendMessage", {"chat_id": ann.id, "text": "y"})


async def test_a_default_the_json_path_cannot_write_takes_the_stock_path(
    fake_telegram: FakeTelegram,
) -> None:
    session = LeanSession(api=fake_telegram.api_server())
    default = DefaultBotProperties(
        parse_mode="HTML", link_preview=LinkPreviewOptions(is_disabled=True)
    )
    bot = Bot(fake_telegram.token, session=session, default=default)
    try:
        ann = fake_telegram.add_user("Ann", started=True)
        sent = await call(bot, "sendMessage", {"chat_id": ann.id, "text": "<i>hi</i>"})
        assert isinstance(sent, dict)
        assert sent["text"] == "hi"
        params = _last_params(fake_telegram, "sendMessage")
        assert params["parse_mode"] == "HTML"
        assert params["link_preview_options"] in ({"is_disabled": True}, '{"is_disabled": true}')
    finally:
        await session.close()
