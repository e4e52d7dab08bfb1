"""The easy level: hand-written Thousand, one rule set per phase."""

from __future__ import annotations

import random

from bot.ai.thousand.cards import card_code
from bot.ai.thousand.evaluate import bid_value, give_card, play_value
from bot.ai.thousand.knowledge import Knowledge, read
from bot.ai.thousand.play import heuristic_card
from bot.engine.thousand.view import ThousandView

__all__ = ["choose_card", "easy_policy", "give_action", "numbers"]


def numbers(legal: list[str], head: str) -> list[int]:
    return sorted(int(code[1:]) for code in legal if code[:1] == head and code[1:].isdigit())


def easy_policy(view: ThousandView, rng: random.Random, budget_ms: float) -> str:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    know = read(view)
    phase = know.phase
    if phase == "auction":
        return _bid(know, legal)
    if phase == "talon":
        return legal[0]
    if phase == "give":
        return give_action(know, legal)
    if phase == "redeal":
        return _redeal(know)
    if phase == "contract":
        return _contract(know, legal)
    if phase == "play":
        return "c" + _code(choose_card(know))
    return legal[rng.randrange(len(legal))]


def _code(card: int) -> str:
    return card_code(card)


def max_bid(know: Knowledge) -> int:
    """The highest bid the hand supports."""
    value = bid_value(know.hand, know.seats)
    return int(value * 0.95) // 5 * 5


def _bid(know: Knowledge, legal: list[str]) -> str:
    bids = numbers(legal, "b")
    if not bids:
        return "pass"
    if "pass" not in legal:
        return f"b{bids[0]}"
    if bids[0] <= max_bid(know):
        return f"b{bids[0]}"
    return "pass"


def give_action(know: Knowledge, legal: list[str]) -> str:
    card = give_card(know.hand, know.seats)
    code = _code(card)
    for action in legal:
        if action[1:3] == code:
            return action
    return legal[0]


def _redeal(know: Knowledge) -> str:
    if know.bidder == know.me:
        bid = know.bid or 100
        return "keep" if play_value(know.hand, know.seats) >= bid - 5 else "redeal"
    return "redeal"


def _contract(know: Knowledge, legal: list[str]) -> str:
    contracts = numbers(legal, "k")
    value = play_value(know.hand, know.seats)
    bid = contracts[0]
    if value < bid - 20 and "concede" in legal:
        return "concede"
    target = int(value - 10) // 5 * 5
    best = bid
    for k in contracts:
        if k <= target:
            best = k
    return f"k{best}"


def choose_card(know: Knowledge) -> int:
    leader = know.trick[0][0] if know.trick else know.me
    return heuristic_card(
        know.hand,
        know.trick_cards,
        know.trump,
        know.unseen,
        seats=know.seats,
        me=know.me,
        leader=leader,
        bidder=know.bidder if know.bidder is not None else -1,
        can_declare=know.can_declare,
        voids=know.voids,
    )
