"""The answer to a press or a command, in words, from what the domain says happened."""

from __future__ import annotations

from dataclasses import replace
from html import escape

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.db.models import TableStatus
from bot.i18n import Translator
from bot.render.cards import action_label
from bot.render.common import game_title
from bot.render.keyboards.callbacks import NextSeat
from bot.render.refusals import refusal
from bot.render.replies import Reply
from bot.render.table import hand_alert, last_trick_text
from bot.tables.outcomes import (
    AlreadyOpen,
    AlreadyPlayed,
    AlreadySeated,
    Cancelled,
    Done,
    GameOver,
    GameUnderWay,
    HandShown,
    Joined,
    LanguageChosen,
    LastTrickShown,
    Left,
    LeftGame,
    Moved,
    NeedsPrivateChat,
    NobodySeated,
    NoTable,
    NotAllowed,
    NotMember,
    NotPossible,
    NotSeated,
    Opened,
    OtherChat,
    Outcome,
    OutOfDate,
    Refused,
    SeatAsked,
    SeatsWanted,
    Started,
    TableFull,
    TableGone,
    WelcomeBack,
)

__all__ = [
    "already_open_text",
    "join_link",
    "joined_by_link",
    "lobby_reply",
    "look_reply",
    "message_link",
    "opened_reply",
    "outcome_text",
    "reply",
    "seat_asked_text",
]

_ALERTS = (
    OtherChat,
    NotAllowed,
    SeatsWanted,
    NobodySeated,
    NeedsPrivateChat,
    Refused,
    NotSeated,
    GameUnderWay,
)
"""What is shown as an alert to be read and closed, not as a passing toast: why a press
did nothing, when it was not plain."""


def join_link(bot_username: str, table_id: int) -> str:
    """The link that opens the private chat with the bot and completes a join."""
    return f"https://t.me/{bot_username}?start=j{table_id}"


def outcome_text(outcome: Outcome, tr: Translator, *, bot_username: str = "") -> str | None:
    """What the user who acted is told; ``None`` when the table's messages say it all."""
    match outcome:
        case Done() | Opened() | AlreadyOpen() | LeftGame():
            return None
        case Moved(action, names, shown_later):
            # their hand shows the move only later: the answer says it was taken
            return f"✓ {action_label(action, tr, names)}" if shown_later else None
        case Refused(error, names):
            return refusal(error, tr, list(names))
        case TableGone():
            return tr("This table is no longer open.")
        case GameOver():
            return tr("This game is over.")
        case OtherChat():
            return tr("This button belongs to another chat.")
        case OutOfDate():
            return tr("This button is out of date.")
        case AlreadyPlayed():
            return tr("Already played, or this button is out of date.")
        case NotAllowed():
            return tr("Only the host or a chat admin can do that.")
        case TableFull():
            return tr("The table is full.")
        case SeatsWanted(least=least, most=most) if most > least + 1:
            return tr("A table needs {least} to {most} players.", least=least, most=most)
        case SeatsWanted(least=least, most=most):
            return tr("A table needs {least} or {most} players.", least=least, most=most)
        case NobodySeated():
            return tr("Someone has to join the table first.")
        case Started():
            return tr("The game has started.")
        case Cancelled():
            return tr("The table was cancelled.")
        case NotPossible():
            return tr("That is not possible now.")
        case NotMember():
            return tr("That table is in a group you are not a member of.")
        case AlreadySeated():
            return tr("You are already at this table.")
        case NeedsPrivateChat(table_id):
            url = join_link(bot_username, table_id)
            return tr("To get your cards privately, open a chat with me first: {url}", url=url)
        case Joined():
            return tr("You joined the table.")
        case GameUnderWay():
            return tr(
                "The game has already started: watch it on its table. When it ends, “Play"
                " again” under its result opens the next table."
            )
        case SeatAsked(table):
            return seat_asked_text(table.game, tr)
        case NotSeated():
            return tr("You are not at this table.")
        case Left():
            return tr("You left the table.")
        case NoTable():
            return tr("There is no open table in this chat.")
        case WelcomeBack():
            return tr("Welcome back: you have your seat again.")
        case LanguageChosen():
            return tr("Language: English.")  # ``tr`` speaks the language chosen
        case HandShown(view):
            return hand_alert(view, tr)
        case LastTrickShown(view, names, previous_deal):
            return last_trick_text(view, list(names), tr, previous_deal=previous_deal)


def seat_asked_text(game: str, tr: Translator) -> str:
    return tr(
        "You will have a seat at the next table of {game}: when this game ends, “Play again”"
        " under its result opens it with you at it. I will tell you here.",
        game=game_title(game, tr),
    )


def reply(outcome: Outcome, tr: Translator, *, bot_username: str = "") -> Reply:
    """The answer to a press: a toast, or an alert for a refusal that needs reading;
    the link to the private chat when a join waits for it, or when the game has started
    (what a latecomer may do is offered there: watch, or a seat at the next game)."""
    url = None
    if isinstance(outcome, NeedsPrivateChat):
        url = join_link(bot_username, outcome.table_id)
    elif isinstance(outcome, GameUnderWay) and bot_username:
        url = join_link(bot_username, outcome.table.id)
    text = outcome_text(outcome, tr, bot_username=bot_username)
    return Reply(text, alert=isinstance(outcome, _ALERTS), url=url)


def lobby_reply(outcome: Outcome, tr: Translator, *, bot_username: str = "") -> Reply:
    """The answer to a lobby button: whoever is not seated sees who is in the lobby
    message, so that is a toast."""
    answer = reply(outcome, tr, bot_username=bot_username)
    return replace(answer, alert=False) if isinstance(outcome, NotSeated) else answer


def look_reply(outcome: Outcome, tr: Translator) -> Reply:
    """The answer to "my hand" or "last trick": what was asked for, or why not, as an
    alert to read (a welcome back is a toast)."""
    return replace(reply(outcome, tr), alert=not isinstance(outcome, WelcomeBack))


def already_open_text(outcome: AlreadyOpen, tr: Translator, *, private: bool) -> str:
    """Where the chat's open table is, when a new one was asked for."""
    if private:
        return tr("You already have a game here; /cancel ends it.")
    title = game_title(outcome.table.game, tr)
    if outcome.table.status == TableStatus.PLAYING:
        return tr(
            "A game of {game} is on in this chat: its table is the message this answers. A"
            " new table can be opened once it ends.",
            game=title,
        )
    return tr("There is already a table in this chat: {game}.", game=title)


def message_link(chat_id: int, message_id: int | None, username: str | None) -> str | None:
    """A link that opens a group's message, for its members: a supergroup's messages have
    one, a basic group's have none."""
    if message_id is None:
        return None
    if username:
        return f"https://t.me/{username}/{message_id}"
    text = str(chat_id)
    if text.startswith("-100"):
        return f"https://t.me/c/{text[4:]}/{message_id}"
    return None


def joined_by_link(
    outcome: Joined | GameUnderWay, group: str | None, link: str | None, tr: Translator
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The answer to a join by a link, naming the table and its group (``group``: its
    title, if known); ``link`` opens the table's message, if it can be opened."""
    table = outcome.table
    assert table is not None
    game = game_title(table.game, tr)
    where = tr("“{title}”", title=escape(group)) if group else tr("the group")
    if isinstance(outcome, Joined):
        text = tr(
            "You joined the table of {game} in {group}. Your cards come here once the host"
            " starts the game.",
            game=game,
            group=where,
        )
    else:
        text = tr(
            "The game of {game} in {group} has already started: watch it on its table, or"
            " take a seat at the next game, which “Play again” under its result opens.",
            game=game,
            group=where,
        )
    if link is None and isinstance(outcome, Joined):
        return text, None
    kb = InlineKeyboardBuilder()
    if link is not None:
        kb.button(text=tr("Open the table"), url=link)
    if isinstance(outcome, GameUnderWay):
        kb.button(
            text=tr("🪑 Seat me for the next game"), callback_data=NextSeat(table_id=table.id)
        )
    kb.adjust(1)
    return text, kb.as_markup()


def opened_reply(
    outcome: Opened | AlreadyOpen | NotPossible, tr: Translator, *, private: bool
) -> Reply:
    """The answer to opening a table: where the chat's open table is, if it had one
    (in a private chat, an alert: the game there is the one to end first)."""
    if isinstance(outcome, AlreadyOpen):
        return Reply(already_open_text(outcome, tr, private=private), alert=private)
    return reply(outcome, tr)
