"""What a table's chat and players are told beside the table and hand messages."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.i18n import Translator
from bot.render.cards import action_label
from bot.render.common import game_title
from bot.render.keyboards.layout import Keyboard, Link, keyboard
from bot.tables.notices import Abandoned, CameBack, Notice, TimedOut, WentAway, WentBot
from bot.tables.rules import LOBBY_MINUTES

__all__ = [
    "bot_name",
    "cancelled_text",
    "expired_text",
    "left_text",
    "next_table_keyboard",
    "next_table_text",
    "notice_text",
    "notices_text",
    "reminder_text",
    "timed_out_text",
    "unreachable_text",
]


def notice_text(notice: Notice, tr: Translator) -> str:
    """A notice to the table's chat."""
    match notice:
        case CameBack(name):
            return tr("{name} is back and plays again.", name=escape(name))
        case WentBot(name):
            return tr("{name} left the table; a bot plays for them now.", name=escape(name))
        case TimedOut(name):
            return tr("⏰ Time is up for {name}: a bot made the move for them.", name=escape(name))
        case WentAway(name, turns):
            return tr(
                "⏰ {name} missed {n} turns in a row: a bot plays for them until they press"
                " any button of this table.",
                name=escape(name),
                n=turns,
            )
        case Abandoned():
            return tr("⏰ Nobody is playing at this table any more: it is closed.")


def cancelled_text(notice: Notice | None, tr: Translator) -> str:
    """Why the table closed: ``notice``, or that it was cancelled."""
    return tr("The table was cancelled.") if notice is None else notice_text(notice, tr)


def expired_text(tr: Translator) -> str:
    return tr("This table was not started within {n} minutes and is closed.", n=LOBBY_MINUTES)


def reminder_text(seconds_left: int, tr: Translator) -> str:
    return tr("⏰ Your move: {n} s left, then a bot moves for you.", n=seconds_left)


def timed_out_text(action: str, names: Sequence[str], tr: Translator) -> str:
    move = action_label(action, tr, names)
    return tr("⏰ Time ran out: a bot made your move ({move}).", move=escape(move))


def left_text(tr: Translator) -> str:
    return tr("You left the table.")


def unreachable_text(name: str, bot_username: str, timer: bool, tr: Translator) -> str:
    """The group is told how a player who cannot get their cards gets them back."""
    text = tr(
        "{name}, I cannot send you your cards: you may have blocked me. Unblock me,"
        " open the chat with @{bot} and press /start.",
        name=escape(name),
        bot=bot_username,
    )
    if timer:
        text += " " + tr("Until then your turns time out.")
    return text


def bot_name(number: int, tr: Translator) -> str:
    return tr("Bot {n}", n=number)


def notices_text(notices: Sequence[Notice], tr: Translator) -> str | None:
    """The notices of changes shown together, as one message."""
    return "\n".join(notice_text(notice, tr) for notice in notices) or None


def next_table_text(game: str, group: str | None, seated: bool, tr: Translator) -> str:
    """To a person who asked for a seat at the next game: "Play again" opened its table
    (``group``: the title of its group, if known)."""
    where = tr("“{title}”", title=escape(group)) if group else tr("the group")
    title = game_title(game, tr)
    if seated:
        return tr(
            "A new table of {game} is open in {group}, and you have a seat at it, as you asked."
            " The host starts the game.",
            game=title,
            group=where,
        )
    return tr(
        "A new table of {game} is open in {group}, but its seats are taken.",
        game=title,
        group=where,
    )


def next_table_keyboard(link: str | None, tr: Translator) -> Keyboard | None:
    """``link`` opens the new table's message, if it can be opened."""
    return keyboard([Link(tr("Open the table"), link)]) if link else None
