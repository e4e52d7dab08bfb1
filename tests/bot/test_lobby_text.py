"""What the lobby message and its keyboards show."""

from __future__ import annotations

from typing import Any

import pytest

from bot.db.models import Seat, TableRecord, TableStatus
from bot.engine import game_class
from bot.i18n import Translator, make_i18n
from bot.render.cards import action_label
from bot.render.common import signed
from bot.render.lobby import conventions_summary, lobby_keyboard, lobby_text, settings_keyboard
from bot.render.texts import rules_text

_I18N = make_i18n("en")
EN = Translator(_I18N, "en")
RU = Translator(_I18N, "ru")


def _record(seats: list[Seat], conventions: dict[str, Any] | None = None) -> TableRecord:
    return TableRecord(
        id=7,
        chat_id=-5,
        game="thousand",
        status=TableStatus.LOBBY,
        host_id=1,
        seats=seats,
        conventions=conventions or {},
        lang="ru",
        turn_timer=0,
        version=1,
    )


@pytest.mark.parametrize(
    ("tr", "shown"),
    [(EN, ["(Random)", "(Easy)", "(Hard)"]), (RU, ["(Случайный)", "(Лёгкий)", "(Сильный)"])],
)
def test_a_bot_players_level_is_shown_as_the_level_picker_names_it(
    tr: Translator, shown: list[str]
) -> None:
    seats = [Seat(name=f"Bot {n}", bot=level) for n, level in enumerate(("random", "easy", "hard"))]
    lines = lobby_text(_record(seats), tr, 2, 3).splitlines()
    bots = [line for line in lines if "🤖" in line]
    assert [line.split("🤖 ")[1] for line in bots] == shown


def _buttons(kb: Any) -> list[str]:
    return [button.text for row in kb.as_markup().inline_keyboard for button in row]


def test_the_concede_setting_is_a_noun_and_the_button_a_verb() -> None:
    record = _record([], {"concede": True, "concede_penalty": False})
    options: dict[str, tuple[Any, ...]] = {
        "concede": (True, False),
        "concede_penalty": (False, True),
    }
    assert _buttons(settings_keyboard(record, options, RU))[:2] == [
        "Роспись: да",
        "Штраф за роспись: нет",
    ]
    assert "• Роспись: да" in conventions_summary(record.conventions, 0, RU).splitlines()
    assert "• Conceding: yes" in conventions_summary(record.conventions, 0, EN).splitlines()
    # the action in a hand stays what the player does
    assert action_label("concede", RU) == "Расписать"
    assert action_label("concede", EN) == "Concede"


def test_a_full_table_offers_no_seat_to_join_or_to_give_a_bot() -> None:
    people = [Seat(name="Ann", user_id=1), Seat(name="Ben", user_id=2)]
    two = _buttons(lobby_keyboard(_record(people), EN))
    assert two == [
        "Join",
        "Leave",
        "+ Easy bot",
        "+ Hard bot",
        "Settings",
        "Start",
        "Cancel",
    ]
    full = _record([*people, Seat(name="Bot 1", bot="easy")])
    assert "3 of 2–3" in lobby_text(full, EN, 2, 3)
    assert _buttons(lobby_keyboard(full, EN)) == ["Leave", "Settings", "Start", "Cancel"]
    assert _buttons(lobby_keyboard(full, RU)) == ["Встать", "Настройки", "Начать", "Отменить"]
    # a table of two seats is full with two
    assert _buttons(lobby_keyboard(_record(people), EN, max_seats=2))[0] == "Leave"
    assert [len(row) for row in lobby_keyboard(full, EN).as_markup().inline_keyboard] == [2, 2]


def test_a_negative_setting_is_written_with_the_minus_sign_the_rules_use() -> None:
    record = _record([], {"minus_limit": -300, "target": 1000})
    summary = conventions_summary(record.conventions, 0, RU).splitlines()
    assert "• Торговля в минусе: −300" in summary
    assert "• Игра до: 1000" in summary
    options: dict[str, tuple[Any, ...]] = {"minus_limit": (-300, -100), "target": (1000,)}
    assert _buttons(settings_keyboard(record, options, EN))[0] == "Bidding in the minus: −300"
    assert "−120" in " ".join(rules_text("thousand", RU).split())  # the same sign


def test_signed_numbers() -> None:
    assert [signed(n) for n in (-110, 0, 40)] == ["−110", "0", "40"]
    assert [signed(n, plus=True) for n in (-110, 0, 40)] == ["−110", "0", "+40"]


@pytest.mark.parametrize("game", ["deberts", "thousand"])
@pytest.mark.parametrize("tr", [EN, RU], ids=["en", "ru"])
def test_the_settings_say_what_every_convention_means(game: str, tr: Translator) -> None:
    conventions = game_class(game).conventions_type().to_json()
    shown = conventions_summary(conventions, 90, tr, explain=True).splitlines()
    options = [line for line in shown if line.startswith("• ")]
    helps = [line for line in shown if line.startswith("   <i>")]
    assert len(options) == len(conventions) + 2  # and the turn timer, the forced last cards
    # each option is followed by what it means, in the reader's language
    assert [shown.index(o) + 1 for o in options] == [shown.index(h) for h in helps]
    assert len(set(helps)) == len(helps)
    if tr is RU:
        assert all(not any("a" <= ch <= "z" for ch in h.removeprefix("   <i>")[:-4]) for h in helps)
    # the lobby itself keeps to one line an option
    assert not any("<i>" in line for line in conventions_summary(conventions, 90, tr).splitlines())
