"""Engine refusals in the reader's language (the engine's ``IllegalAction.code`` is the key)."""

from __future__ import annotations

from bot.engine.base import IllegalAction
from bot.i18n import Translator

__all__ = ["refusal"]


def refusal(error: IllegalAction, tr: Translator) -> str:
    texts = {
        "not_your_turn": tr("It is not your turn."),
        "unknown_action": tr("That is not possible now."),
        "must_follow_suit": tr("You must follow suit."),
        "must_trump": tr("You have no card of the led suit: you must play a trump."),
        "must_overtrump": tr("You must beat the highest trump on the table."),
        "card_not_in_hand": tr("That card is not in your hand."),
        "game_over": tr("The game is over."),
        "not_now": tr("That is not possible now."),
        "bid_too_low": tr("The bid is too low."),
        "bid_too_high": tr("You cannot bid that much with this hand."),
    }
    return texts.get(error.code, error.reason)
