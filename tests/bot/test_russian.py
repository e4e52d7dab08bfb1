"""The Russian texts read right with any player's name, and use one term for one thing."""

from __future__ import annotations

import pytest

from bot.i18n import Translator, make_i18n

RU = Translator(make_i18n("ru"), "ru")
NAMES = ["Аня", "Борис", "Cid_42"]


@pytest.mark.parametrize("name", NAMES)
def test_notices_about_a_player_keep_the_name_in_the_nominative(name: str) -> None:
    assert (
        RU("⏰ Time is up for {name}: a bot made the move for them.", name=name)
        == f"⏰ {name}: время на ход вышло, ход сделал бот."
    )
    missed = RU(
        "⏰ {name} missed {n} turns in a row: a bot plays for them until they press"
        " any button of this table.",
        name=name,
        n=3,
    )
    assert missed.startswith(f"⏰ {name}: пропущено ходов подряд — 3. ")
    assert (
        RU("{name} left the table; a bot plays for them now.", name=name)
        == f"{name} выходит из-за стола; дальше вместо этого игрока играет бот."
    )
    assert RU("{name} is back and plays again.", name=name) == f"{name} снова в игре."
