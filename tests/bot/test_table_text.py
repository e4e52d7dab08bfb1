"""What the table and hand messages say about the deal in progress."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine import new_game
from bot.engine.base import Conventions, Game
from bot.i18n import Translator, make_i18n
from bot.render.cards import card_label
from bot.render.table import hand_text, table_text

NAMES = ["Ann", "Ben", "Cid"]
EN = Translator(make_i18n("en"), "en")
RU = Translator(make_i18n("en"), "ru")


def _play_until(
    name: str, seats: int, found: Callable[[Game], bool], conventions: Conventions | None = None
) -> Game:
    """A game played at random from the first seed that gets to where ``found`` holds."""
    for seed in range(500):
        game = new_game(name, seats, conventions, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if found(game):
                return game
            if game.is_over:
                break
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no seed got there")


def test_a_seven_swap_says_which_cards_changed_hands() -> None:
    def can_swap(game: Game) -> bool:
        seat = game.current_seat()
        return seat is not None and "swap7" in game.legal_actions(seat)

    game = _play_until("deberts", 3, can_swap)
    seat = game.current_seat()
    assert seat is not None
    taken = game.view(None)["open_card"]
    game.apply(seat, "swap7")
    seven = "7" + taken[1]
    assert game.view(None)["open_card"] == seven  # the seven lies open in its place

    view = game.view(None, brief=True)
    name = NAMES[seat]
    en = table_text(view, NAMES, EN)
    assert (
        f"{name} swaps the {card_label(seven, 'en')} for the open card {card_label(taken, 'en')}"
        in en.splitlines()
    )
    ru = table_text(view, NAMES, RU)
    assert (
        f"{name} меняет {card_label(seven, 'ru')} на открытую карту {card_label(taken, 'ru')}"
        in ru.splitlines()
    )
    hand = hand_text(game.view(seat, brief=True), NAMES, EN)
    for text in (en, ru, hand):
        assert "swap7" not in text and "(0)" not in text
