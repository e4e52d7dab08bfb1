"""Engine refusals in the reader's language (the engine's ``IllegalAction.code`` is the key)."""

from __future__ import annotations

from bot.engine.base import IllegalAction
from bot.i18n import Translator
from bot.render.common import cut

__all__ = ["refusal"]


def refusal(error: IllegalAction, tr: Translator, names: list[str] | None = None) -> str:
    """``names``: the seats' names, to say whose turn it is instead."""
    to_act = error.params.get("to_act")
    if error.code == "not_your_turn" and names and isinstance(to_act, int) and to_act >= 0:
        return tr("It is not your turn: {name} is to move.", name=cut(names[to_act], 24))
    texts = {
        "not_your_turn": tr("It is not your turn."),
        "unknown_action": tr("That is not possible now."),
        "must_follow_suit": tr("You must follow suit."),
        "must_trump": tr("You have no card of the led suit: you must play a trump."),
        "must_overtrump": tr("You must beat the highest trump on the table."),
        "card_not_in_hand": tr("That card is not in your hand."),
        "game_over": tr("The game is over."),
        "wrong_phase": tr("That is not possible now."),
        "bid_too_low": tr("The bid is too low."),
        "bid_above_limit": tr("You cannot bid that much with this hand."),
        "bid_not_multiple_of_5": tr("Bids are multiples of 5."),
        "must_open": tr("The first hand must open the bidding with at least 100."),
        "contract_below_bid": tr("The contract cannot be below your bid."),
        "contract_above_limit": tr("You cannot declare that much with this hand."),
        "already_given": tr("That opponent already has a card from you."),
        "not_an_opponent": tr("Cards are given to the opponents."),
        "concede_not_allowed": tr("Conceding is off at this table."),
        "concede_on_barrel": tr("There is no conceding on the barrel."),
        "must_order": tr("The dealer must name a trump suit."),
        "open_suit_refused": tr("The open card's suit was refused; name another suit."),
        "swap_not_allowed": tr("The seven cannot be swapped now."),
        "no_four_sevens": tr("A redeal needs all four sevens in your hand."),
    }
    return texts.get(error.code, error.reason)
