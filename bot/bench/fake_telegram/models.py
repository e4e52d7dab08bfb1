"""State kept by the fake Telegram: users, chats, messages, calls.

These objects are live views: a :class:`FakeMessage` held by a test shows the
message as it is now (after edits); ``deleted`` turns true once the bot
deletes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from .server import FakeTelegram

__all__ = [
    "ApiCall",
    "ApiError",
    "Button",
    "ButtonMatcher",
    "CallbackAnswer",
    "ChatRef",
    "FakeChat",
    "FakeMessage",
    "FakeUser",
    "PressHandle",
]

ChatType = Literal["private", "group", "supergroup"]


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status, description, parameters."""

    def __init__(
        self, status: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {description}")
        self.status = status
        self.description = description
        self.parameters = parameters

    def envelope(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


@dataclass(frozen=True)
class Button:
    """One inline keyboard button, as the bot sent it."""

    text: str
    row: int
    column: int
    callback_data: str | None = None
    url: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def start_payload(self) -> str | None:
        """``X`` of a ``https://t.me/<bot>?start=X`` deep-link button, else None."""
        return deep_link_payload(self.url) if self.url else None


ButtonMatcher = str | Callable[[Button], bool]


def match_button(button: Button, matcher: ButtonMatcher) -> bool:
    """A string matches a button's exact text; a callable is called."""
    if isinstance(matcher, str):
        return button.text == matcher
    return bool(matcher(button))


def deep_link_payload(url: str, bot_username: str | None = None) -> str | None:
    """The ``start`` payload of a t.me deep link (any bot if ``bot_username`` is None).

    >>> deep_link_payload("https://t.me/TablesTestBot?start=join_42")
    'join_42'
    >>> deep_link_payload("https://example.com/?start=x") is None
    True
    """
    parts = urlsplit(url if "://" in url else f"https://{url}")
    if parts.netloc.lower() not in {"t.me", "telegram.me", "www.t.me"}:
        return None
    if bot_username and parts.path.strip("/").lower() != bot_username.lower():
        return None
    values = parse_qs(parts.query).get("start")
    return values[0] if values else None


@dataclass
class FakeUser:
    """A simulated Telegram user; tests drive the bot through it."""

    fake: FakeTelegram = field(repr=False, compare=False)
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    private_started: bool = False
    blocked: bool = False

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    @property
    def private_chat(self) -> FakeChat:
        return self.fake.chat(self.id)

    async def send(
        self, chat: ChatRef, text: str, *, reply_to: FakeMessage | None = None
    ) -> FakeMessage:
        """Write ``text`` in ``chat``; queues a ``message`` update if the bot may see it."""
        return self.fake.user_message(self, chat, text, reply_to=reply_to)

    async def start_private(self, payload: str | None = None) -> FakeMessage:
        """Open (or restart) the private chat: sends ``/start`` or ``/start <payload>``."""
        self.private_started = True
        if self.blocked:
            self.unblock_bot()
        text = "/start" if payload is None else f"/start {payload}"
        return self.fake.user_message(self, self.id, text)

    async def follow(self, link: Button | str) -> FakeMessage:
        """Follow a ``t.me/<bot>?start=X`` deep link (a URL button or a URL)."""
        url = link.url if isinstance(link, Button) else link
        payload = deep_link_payload(url or "", self.fake.bot_username)
        if payload is None:
            msg = f"not a deep link to @{self.fake.bot_username}: {url!r}"
            raise ValueError(msg)
        return await self.start_private(payload)

    def block_bot(self) -> None:
        """Block the bot: its sends to this user now fail with 403."""
        self.blocked = True
        self.fake.queue_private_member_update(self, "kicked")

    def unblock_bot(self) -> None:
        self.blocked = False
        self.fake.queue_private_member_update(self, "member")

    async def press(self, message: FakeMessage, button: ButtonMatcher) -> PressHandle:
        """Press a callback button of ``message``'s current inline keyboard."""
        if message.deleted:
            msg = f"message {message.message_id} was deleted"
            raise LookupError(msg)
        found = message.button(button)
        if found.callback_data is None:
            msg = f"button {found.text!r} has no callback_data (url={found.url!r})"
            raise ValueError(msg)
        return self.fake.callback_query(self, message, found.callback_data)

    async def press_data(
        self, message: FakeMessage | int, data: str, *, chat: ChatRef | None = None
    ) -> PressHandle:
        """Send a callback query with arbitrary (possibly forged) ``data``.

        ``message`` may be a message id; then ``chat`` (default: the user's
        private chat) says where it is.  An unknown id is delivered as an
        inaccessible message, as Telegram does for old messages.
        """
        if isinstance(message, FakeMessage):
            return self.fake.callback_query(self, message, data)
        target = self.fake.chat(self.id if chat is None else chat)
        found = target.messages.get(message)
        if found is not None:
            return self.fake.callback_query(self, found, data)
        return self.fake.callback_query(self, (target, message), data)


@dataclass
class FakeChat:
    """A private chat, group or supergroup."""

    fake: FakeTelegram = field(repr=False, compare=False)
    id: int
    type: ChatType
    title: str | None = None
    user: FakeUser | None = None
    members: dict[int, FakeUser] = field(default_factory=dict, repr=False)
    admins: list[int] = field(default_factory=list)
    bot_member: bool = True
    bot_admin: bool = False
    bot_kicked: bool = False
    migrated_to: int | None = None
    pinned_message_id: int | None = None
    messages: dict[int, FakeMessage] = field(default_factory=dict, repr=False)
    next_message_id: int = 1

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            data["first_name"] = self.user.first_name
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
        else:
            data["title"] = self.title
        if self.type == "group":
            data["all_members_are_administrators"] = False
        return data

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def new_message_id(self) -> int:
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id


@dataclass
class FakeMessage:
    """A message in a chat, kept up to date with the bot's edits."""

    chat: FakeChat = field(repr=False)
    message_id: int
    sender: FakeUser | None  # None: sent by the bot
    text: str  # plain text, as users see it (HTML tags stripped)
    raw_text: str  # exactly as sent (e.g. HTML)
    date: int
    parse_mode: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list, repr=False)
    reply_markup: dict[str, Any] | None = field(default=None, repr=False)
    reply_to: FakeMessage | None = field(default=None, repr=False)
    edit_date: int | None = None
    edit_count: int = 0
    history: list[str] = field(default_factory=list, repr=False)  # earlier texts
    deleted: bool = False
    service: dict[str, Any] = field(default_factory=dict, repr=False)
    attachment: tuple[str, str, bytes] | None = field(default=None, repr=False)
    """A photo or document: its kind, file name and bytes; ``text`` is its caption."""

    @property
    def from_bot(self) -> bool:
        return self.sender is None

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def keyboard(self) -> list[list[Button]]:
        """The current inline keyboard, row by row (empty if none)."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [
            [
                Button(
                    text=str(raw.get("text", "")),
                    row=r,
                    column=c,
                    callback_data=raw.get("callback_data"),
                    url=raw.get("url"),
                    raw=raw,
                )
                for c, raw in enumerate(row)
            ]
            for r, row in enumerate(rows)
        ]

    @property
    def buttons(self) -> list[Button]:
        return [button for row in self.keyboard for button in row]

    def find_buttons(self, matcher: ButtonMatcher) -> list[Button]:
        return [b for b in self.buttons if match_button(b, matcher)]

    def button(self, matcher: ButtonMatcher) -> Button:
        """The first button matching; LookupError lists the buttons there are."""
        for found in self.buttons:
            if match_button(found, matcher):
                return found
        labels = [b.text for b in self.buttons]
        msg = f"no button {matcher!r} in message {self.message_id}; buttons: {labels}"
        raise LookupError(msg)

    @property
    def links(self) -> list[str]:
        """URLs of URL buttons and of text links in the message."""
        urls = [b.url for b in self.buttons if b.url]
        urls += [e["url"] for e in self.entities if e.get("type") == "text_link"]
        return urls

    @property
    def start_payloads(self) -> list[str]:
        """Payloads of the bot's ``?start=`` deep links in this message."""
        payloads = (deep_link_payload(u, self.chat.fake.bot_username) for u in self.links)
        return [p for p in payloads if p is not None]

    def to_api(self, *, with_reply: bool = True) -> dict[str, Any]:
        fake = self.chat.fake
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "from": fake.bot_user() if self.sender is None else self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.raw_text or not self.service:
            data["text"] = self.text
        if self.entities:
            data["entities"] = self.entities
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        data.update(self.service)
        return data


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot passed to answerCallbackQuery."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None


@dataclass
class PressHandle:
    """A pressed button: await :meth:`answer` for the bot's answerCallbackQuery."""

    fake: FakeTelegram = field(repr=False)
    id: str
    user: FakeUser = field(repr=False)
    message: FakeMessage | None = field(repr=False)
    data: str
    update_id: int

    @property
    def answered(self) -> CallbackAnswer | None:
        return self.fake.callback_answers.get(self.id)

    async def answer(self, timeout: float = 5.0) -> CallbackAnswer:  # noqa: ASYNC109
        """Wait until the bot answers this callback query; return the answer.

        With an in-process dispatcher (:meth:`FakeTelegram.polling`) this also waits
        until its handler is done, so whatever the press shows is in place.
        """

        def done() -> CallbackAnswer | None:
            if self.fake.tracks_handling and self.update_id not in self.fake.handled:
                return None
            return self.answered

        return await self.fake.wait_for(
            done, timeout=timeout, what=f"answerCallbackQuery({self.id})"
        )


@dataclass
class ApiCall:
    """One request the bot made, with its outcome."""

    seq: int
    method: str  # canonical name, e.g. "sendMessage"
    params: dict[str, Any]
    status: int | None = None  # HTTP status; None while in flight or dropped
    result: Any = None
    error: str | None = None  # description of an error answer
    fault: str | None = None  # "status", "drop", "delay" when injected
    started: float = 0.0
    finished: float | None = None
    at: float = 0.0
    """When it came, on the fake's ``clock`` (which a test may share with the bot)."""
    done: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def ok(self) -> bool:
        return self.status == 200


ChatRef = FakeChat | FakeUser | int
