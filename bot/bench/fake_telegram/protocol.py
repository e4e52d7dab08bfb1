"""Wire details of the Bot API: error wording, parameter decoding, object shapes."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .models import ApiError

Params = dict[str, Any]
FILES = "__files__"
"""The key of a request's uploaded files in its params: each field's (name, bytes)."""

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
POLL_CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
DEFAULT_UPDATE_TYPES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
    }
)
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
BUTTON_KINDS = frozenset(
    {
        "callback_data",
        "url",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    }
)
# Parameters kept as strings even when they look like JSON ("123", "true").
STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "inline_message_id",
        "url",
        "action",
        "title",
        "name",
        "description",
        "short_description",
        "language_code",
        "data",
    }
)
SERVER_ERRORS = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def administrator(user_api: dict[str, Any]) -> dict[str, Any]:
    rights = (
        "can_manage_chat",
        "can_delete_messages",
        "can_manage_video_chats",
        "can_restrict_members",
        "can_change_info",
        "can_invite_users",
        "can_post_stories",
        "can_edit_stories",
        "can_delete_stories",
        "can_pin_messages",
    )
    data: dict[str, Any] = {
        "status": "administrator",
        "user": user_api,
        "can_be_edited": False,
        "is_anonymous": False,
        "can_promote_members": False,
        "can_send_welcome_messages": False,
    }
    data.update(dict.fromkeys(rights, True))
    return data


def check_button(button: object) -> None:
    if not isinstance(button, dict) or not str(button.get("text") or "").strip():
        raise ApiError(400, "Bad Request: text buttons are unallowed in the inline keyboard")
    kinds = BUTTON_KINDS.intersection(button)
    if len(kinds) != 1:
        raise ApiError(400, "Bad Request: text buttons are unallowed in the inline keyboard")
    data = button.get("callback_data")
    if "callback_data" in kinds and not (isinstance(data, str) and 1 <= len(data.encode()) <= 64):
        raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
    url = button.get("url")
    if "url" in kinds and not (
        isinstance(url, str) and url.startswith(("http://", "https://", "tg://"))
    ):
        raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")


def update_kind(update: dict[str, Any]) -> str:
    return next(key for key in update if key != "update_id")


def scope_key(scope: object) -> str:
    if not isinstance(scope, dict) or scope.get("type") in (None, "default"):
        return "default"
    return json.dumps(scope, sort_keys=True)


def decode_param(name: str, value: str) -> Any:
    """A form value as Telegram reads it: JSON for objects and numbers."""
    if name in STRING_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


async def read_params(request: web.Request) -> Params:
    params: Params = {k: decode_param(k, v) for k, v in request.query.items()}
    if request.content_type == "application/json":
        body = await request.json()
        if isinstance(body, dict):
            params.update(body)
        return params
    if request.can_read_body:
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, str):
                params[key] = decode_param(key, value)
            else:  # an uploaded file: its name and bytes, for sendPhoto and sendDocument
                params[key] = "<file>"
                name, data = (
                    (value.filename, value.file.read())
                    if isinstance(value, web.FileField)
                    else (key, bytes(value))
                )
                params.setdefault(FILES, {})[key] = (name, data)
    return params
