"""The easy and hard Deberts players: ``policy(view, rng, budget_ms) -> action code``."""

from __future__ import annotations

import random

from bot.ai.deberts.evaluation import combo_points, easy_order, with_swap
from bot.ai.deberts.heuristics import greedy_card
from bot.ai.deberts.knowledge import Knowledge, read_view
from bot.ai.deberts.search import auction_values, best_card, table_for
from bot.engine.cards import parse_index
from bot.engine.deberts.view import DebertsView

__all__ = ["card_code", "easy_policy", "extra_action", "hard_policy"]

SUITS = "SCDH"


def _easy_order(know: Knowledge, legal: list[str]) -> str:
    second_round = "play" not in legal
    suit = easy_order(know.hand, know.open_card, know.seats, second_round, "pass" in legal)
    if suit < 0:
        return "pass"
    return "t" + SUITS[suit] if second_round else "play"


def extra_action(know: Knowledge, legal: list[str]) -> str | None:
    """swap7 when it does not cost a combination; four sevens: a redeal unless we bid."""
    if "sevens" in legal and know.bidder != know.seat:
        return "sevens"
    if "swap7" in legal:
        swapped = with_swap(know.hand, know.open_card, know.trump)
        if combo_points(swapped) >= combo_points(know.hand):
            return "swap7"
    return None


def _cards(legal: list[str]) -> list[int]:
    return [parse_index(code[1:]) for code in legal if code.startswith("c")]


def easy_policy(view: DebertsView, rng: random.Random, budget_ms: float) -> str:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    know = read_view(view)
    if know.phase != "play":
        return _easy_order(know, legal)
    extra = extra_action(know, legal)
    if extra is not None:
        return extra
    hands = [0] * know.seats
    hands[know.seat] = know.hand
    table = table_for(know, hands)
    card = greedy_card(table, know.seat)
    return "c" + card_code(card)


def hard_policy(view: DebertsView, rng: random.Random, budget_ms: float) -> str:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    know = read_view(view)
    if know.phase != "play":
        return _hard_order(know, legal, rng, budget_ms)
    extra = extra_action(know, legal)
    if extra is not None:
        return extra
    card = best_card(know, _cards(legal), rng, budget_ms)
    return "c" + card_code(card)


def _hard_order(know: Knowledge, legal: list[str], rng: random.Random, budget_ms: float) -> str:
    second_round = "play" not in legal
    options = [-1] if "pass" in legal else []
    if second_round:
        options += [SUITS.index(code[1]) for code in legal if code != "pass"]
    else:
        options.append(know.open_card >> 3)
    values = auction_values(know, options, rng, budget_ms)
    best = max(options, key=lambda t: (values[t], -t))
    if best < 0:
        return "pass"
    return "t" + SUITS[best] if second_round else "play"


def card_code(card: int) -> str:
    """A card index as the code the actions use (``"9S"``)."""
    return "789TJQKA"[card & 7] + SUITS[card >> 3]
