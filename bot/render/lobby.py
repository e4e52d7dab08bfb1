"""The lobby message: game, conventions, seated players; and its buttons."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.db.models import TableRecord
from bot.i18n import Translator
from bot.keyboards.callbacks import lobby_data
from bot.keyboards.layout import Keyboard, keyboard
from bot.render.common import convention_value, game_title, level_label, option_label

__all__ = [
    "LOBBY_MINUTES",
    "TURN_TIMERS",
    "conventions_summary",
    "lobby_keyboard",
    "lobby_text",
    "settings_keyboard",
]

LOBBY_MINUTES = 30
TURN_TIMERS: tuple[int, ...] = (0, 30, 60, 90, 120, 300)


def timer_value(seconds: int, tr: Translator) -> str:
    return tr("off") if seconds == 0 else tr("{n} s", n=seconds)


def conventions_summary(conventions: dict[str, Any], timer: int, tr: Translator) -> str:
    lines = [
        f"• {option_label(name, tr)}: {convention_value(value, tr)}"
        for name, value in conventions.items()
    ]
    lines.append(f"• {option_label('turn_timer', tr)}: {timer_value(timer, tr)}")
    return "\n".join(lines)


def lobby_text(record: TableRecord, tr: Translator, min_seats: int, max_seats: int) -> str:
    players = "\n".join(
        f"{i + 1}. {escape(s.name)}"
        + (f" 🤖 ({escape(level_label(s.bot or '', tr))})" if s.is_bot else "")
        for i, s in enumerate(record.seats)
    )
    return "\n".join(
        [
            tr("<b>{game}</b> — a new table", game=game_title(record.game, tr)),
            "",
            conventions_summary(record.conventions, record.turn_timer, tr),
            "",
            tr("Players ({n} of {lo}–{hi}):", n=len(record.seats), lo=min_seats, hi=max_seats),
            players or "—",
            "",
            tr("Join, then the host presses Start."),
            tr("A table not started within {n} minutes closes.", n=LOBBY_MINUTES),
        ]
    )


def lobby_keyboard(record: TableRecord, tr: Translator, max_seats: int = 3) -> Keyboard:
    """The lobby's buttons; at a full table, none that would seat one more."""
    t, v = record.id, record.version
    full = len(record.seats) >= max_seats
    buttons = [
        *([] if full else [(tr("Join"), lobby_data(t, v, "join"))]),
        (tr("Leave"), lobby_data(t, v, "leave")),
        *([] if full else [(tr("Add a bot"), lobby_data(t, v, "bot"))]),
        (tr("Settings"), lobby_data(t, v, "settings")),
        (tr("Start"), lobby_data(t, v, "start")),
        (tr("Cancel"), lobby_data(t, v, "cancel")),
    ]
    return keyboard(buttons, (2,))


def settings_keyboard(
    record: TableRecord, options: dict[str, tuple[Any, ...]], tr: Translator
) -> Keyboard:
    t, v = record.id, record.version
    buttons = []
    for index, name in enumerate(options):
        value = record.conventions.get(name)
        text = f"{option_label(name, tr)}: {convention_value(value, tr)}"
        buttons.append((text, lobby_data(t, v, "opt", index)))
    timer = f"{option_label('turn_timer', tr)}: {timer_value(record.turn_timer, tr)}"
    buttons.append((timer, lobby_data(t, v, "opt", len(options))))
    buttons.append((tr("« Back"), lobby_data(t, v, "back")))
    return keyboard(buttons, (1,))
