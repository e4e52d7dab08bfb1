"""The easy and hard Deberts players: ``policy(view, rng, budget_ms) -> action code``."""

from __future__ import annotations

import random
from typing import Any

from bot.ai.deberts.evaluation import BID_THRESHOLD, bid_strength, combo_points
from bot.ai.deberts.heuristics import greedy_card
from bot.ai.deberts.knowledge import Knowledge, read_view
from bot.ai.deberts.search import auction_values, best_card, table_for
from bot.engine.cards import parse_index

__all__ = ["easy_policy", "hard_policy"]

SUITS = "SCDH"
# A hard player orders when the simulated deal result beats this (passing is
# worth about nothing: a redeal, or an opponent ordering on a hand of their own).
HARD_BID_MARGIN = {2: 4.0, 3: 4.0}


def _with_swap(hand: int, open_card: int, trump: int) -> int:
    """The hand after swapping the trump seven for the open card, when it holds the seven."""
    seven = trump * 8
    if open_card >= 0 and open_card >> 3 == trump and hand >> seven & 1:
        return hand ^ (1 << seven | 1 << open_card)
    return hand


def _easy_order(k: Knowledge, legal: list[str]) -> str:
    threshold = BID_THRESHOLD[k.n]
    open_suit = k.open_card >> 3
    if "play" in legal:
        strength = bid_strength(_with_swap(k.hand, k.open_card, open_suit), open_suit)
        return "play" if strength >= threshold else "pass"
    options = [code for code in legal if code != "pass"]
    best = max(options, key=lambda code: (bid_strength(k.hand, SUITS.index(code[1])), code))
    if "pass" not in legal:
        return best
    if bid_strength(k.hand, SUITS.index(best[1])) >= threshold:
        return best
    return "pass"


def _extra(k: Knowledge, legal: list[str]) -> str | None:
    """swap7 when it does not cost a combination; four sevens: a redeal unless we bid."""
    if "sevens" in legal and k.bidder != k.seat:
        return "sevens"
    if "swap7" in legal:
        swapped = _with_swap(k.hand, k.open_card, k.trump)
        if combo_points(swapped) >= combo_points(k.hand):
            return "swap7"
    return None


def _cards(legal: list[str]) -> list[int]:
    return [parse_index(code[1:]) for code in legal if code.startswith("c")]


def easy_policy(view: dict[str, Any], rng: random.Random, budget_ms: float) -> str:
    legal: list[str] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    k = read_view(view)
    if k.phase != "play":
        return _easy_order(k, legal)
    extra = _extra(k, legal)
    if extra is not None:
        return extra
    hands = [0] * k.n
    hands[k.seat] = k.hand
    table = table_for(k, hands)
    card = greedy_card(table, k.seat)
    return "c" + _code(card)


def hard_policy(view: dict[str, Any], rng: random.Random, budget_ms: float) -> str:
    legal: list[str] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    k = read_view(view)
    if k.phase != "play":
        return _hard_order(k, legal, rng, budget_ms)
    extra = _extra(k, legal)
    if extra is not None:
        return extra
    card = best_card(k, _cards(legal), rng, budget_ms)
    return "c" + _code(card)


def _hard_order(k: Knowledge, legal: list[str], rng: random.Random, budget_ms: float) -> str:
    open_suit = k.open_card >> 3
    if "play" in legal:
        trumps = [open_suit]
    else:
        options = [SUITS.index(code[1]) for code in legal if code != "pass"]
        # The two most promising suits by a quick evaluation get the search.
        options.sort(key=lambda t: -bid_strength(k.hand, t))
        trumps = options[:2]
    values = auction_values(k, trumps, rng, budget_ms)
    best = max(trumps, key=lambda t: (values[t], -t))
    code = "play" if "play" in legal else "t" + SUITS[best]
    if "pass" not in legal or values[best] > HARD_BID_MARGIN[k.n]:
        return code
    return "pass"


def _code(card: int) -> str:
    return "789TJQKA"[card & 7] + SUITS[card >> 3]
