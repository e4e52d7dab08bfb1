"""The lobby message: game, conventions, seated players; and its buttons."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.db.models import TableRecord
from bot.i18n import Translator
from bot.render.common import (
    convention_value,
    game_title,
    labels_for,
    level_label,
    option_label,
)
from bot.render.keyboards.callbacks import lobby_data
from bot.render.keyboards.layout import Keyboard, keyboard
from bot.tables.rules import BOT_LEVELS, LOBBY_MINUTES

__all__ = [
    "conventions_summary",
    "lobby_keyboard",
    "lobby_text",
    "settings_keyboard",
]


def timer_value(seconds: int, tr: Translator) -> str:
    return tr("off") if seconds == 0 else tr("{n} s", n=seconds)


def _option_help(tr: Translator) -> dict[str, str]:
    return {
        "target": tr("the game ends once someone reaches it"),
        "winner_takes_all": tr(
            "a bidder with more points than the others together writes the deal's total, the"
            " others 0"
        ),
        "order_obligatory": tr(
            "if the others pass in both rounds, the dealer may not pass and must name a suit (not"
            " the open card's)"
        ),
        "seven_swap": tr(
            "when the open card's suit is trump, its seven may be swapped for the open card before"
            " one's first card"
        ),
        "hanging_separately": tr(
            "points left hanging by two deals are played one a deal, not added up"
        ),
        "trump_in_combination": tr(
            "Moscow: of two equal combinations the trump one wins; Kharkov: trump does not count;"
            " still equal, the one nearer the dealer's left wins"
        ),
        "four_sevens_redeal": tr(
            "a player holding all four sevens may ask for a redeal before their first card; the"
            " same dealer deals"
        ),
        "redeal": tr(
            "after the give-away, four nines or under 14 points in hand (or a talon of nines) let"
            " a player ask for a redeal by the same dealer; nothing is scored"
        ),
        "barrel_trading": tr(
            "a player on the barrel opens the auction at 121 and may be outbid; otherwise they"
            " take the talon at 121 with no auction"
        ),
        "ace_marriage": tr("four aces are a marriage worth 200"),
        "minus_limit": tr(
            "a player below this score passes in every auction (if nobody is left, the first hand"
            " plays 100)"
        ),
        "show_talon_on_hundred": tr(
            "the talon is shown when the first hand plays 100 after everyone passed"
        ),
        "concede": tr(
            "the bidder may give up rather than play: each of the others gets half the contract,"
            " rounded up to 5 (not on the barrel)"
        ),
        "concede_penalty": tr("giving up costs the contract; without it, a bolt"),
        "dump_truck": tr("a total of exactly 555 or −555 drops to 0"),
        "golden_round": tr("the first three deals count double (bolt penalties do not)"),
        "bid_step": tr("how much a bid must raise the one before"),
        "turn_timer": tr("time for a move before a bot makes it"),
        "autoplay": tr(
            "in the last trick, each player's one card is played for them after a moment"
        ),
    }


def conventions_summary(
    conventions: dict[str, Any],
    timer: int,
    tr: Translator,
    *,
    explain: bool = False,
    autoplay: bool = True,
) -> str:
    """One line per convention, then the table's own settings; ``explain``: each with
    what it means, for the host choosing them."""
    values = {name: convention_value(value, tr) for name, value in conventions.items()}
    values["turn_timer"] = timer_value(timer, tr)
    values["autoplay"] = convention_value(autoplay, tr)
    helps = labels_for(tr, _option_help) if explain else {}
    lines = []
    for name, value in values.items():
        lines.append(f"• {option_label(name, tr)}: {value}")
        if name in helps:
            lines.append(f"   <i>{helps[name]}</i>")
    return "\n".join(lines)


def lobby_text(
    record: TableRecord, tr: Translator, min_seats: int, max_seats: int, *, explain: bool = False
) -> str:
    """``explain``: the settings are open, so each convention says what it means."""
    host = record.seat_of(record.host_id)
    players = "\n".join(
        f"{i + 1}. {escape(s.name)}"
        + (f" 🤖 ({escape(level_label(s.bot or '', tr))})" if s.is_bot else "")
        + (" " + tr("(host)") if i == host else "")
        for i, s in enumerate(record.seats)
    )
    title = tr("<b>{game}</b> — a new table", game=game_title(record.game, tr))
    settings = conventions_summary(
        record.conventions, record.turn_timer, tr, explain=explain, autoplay=record.autoplay
    )
    if explain:
        # the settings alone: with the players, too long for a phone
        return "\n".join([title, "", settings])
    # who sits at the table first: that is what changes, and what people look for
    return "\n".join(
        [
            title,
            "",
            tr("Players ({n} of {lo}–{hi}):", n=len(record.seats), lo=min_seats, hi=max_seats),
            players or "—",
            "",
            settings,
            "",
            tr("Join, then the host presses Start."),
            tr("A table not started within {n} minutes closes.", n=LOBBY_MINUTES),
        ]
    )


def lobby_keyboard(record: TableRecord, tr: Translator, max_seats: int = 3) -> Keyboard:
    """The lobby's buttons; at a full table, none that would seat one more."""
    table_id, version = record.id, record.version
    full = len(record.seats) >= max_seats
    add = {"easy": tr("+ Easy bot"), "hard": tr("+ Hard bot")}
    bots = [
        (add[level], lobby_data(table_id, version, "bot", option))
        for option, level in enumerate(BOT_LEVELS)
    ]
    buttons = [
        *([] if full else [(tr("Join"), lobby_data(table_id, version, "join"))]),
        (tr("Leave"), lobby_data(table_id, version, "leave")),
        *([] if full else bots),
        (tr("Settings"), lobby_data(table_id, version, "settings")),
        (tr("Start"), lobby_data(table_id, version, "start")),
        (tr("Cancel"), lobby_data(table_id, version, "cancel")),
    ]
    return keyboard(buttons, (2,))


def settings_keyboard(
    record: TableRecord, options: dict[str, tuple[Any, ...]], tr: Translator
) -> Keyboard:
    table_id, version = record.id, record.version
    buttons = []
    for index, name in enumerate(options):
        value = record.conventions.get(name)
        text = f"{option_label(name, tr)}: {convention_value(value, tr)}"
        buttons.append((text, lobby_data(table_id, version, "opt", index)))
    timer = f"{option_label('turn_timer', tr)}: {timer_value(record.turn_timer, tr)}"
    buttons.append((timer, lobby_data(table_id, version, "opt", len(options))))
    autoplay = f"{option_label('autoplay', tr)}: {convention_value(record.autoplay, tr)}"
    buttons.append((autoplay, lobby_data(table_id, version, "opt", len(options) + 1)))
    buttons.append((tr("« Back"), lobby_data(table_id, version, "back")))
    return keyboard(buttons, (1,))
