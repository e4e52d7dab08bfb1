"""Thousand for four, played by the three-player levels.

With four players the dealer sits the deal out and the other three play it exactly
as three players do. So a four-seat view is read as the three-seat view of the
three playing, seated from the first hand on as at a table of three whose dealer
is the player right of the real one; the action chosen there is read back.
"""

from __future__ import annotations

import random
from typing import TypeVar

from bot.ai.players import Policy
from bot.engine.base import PlayedCard, Trick
from bot.engine.thousand.view import Announcement, Talon, ThousandView

__all__ = ["for_four", "three_seat_view"]

_T = TypeVar("_T")


def three_seat_view(view: ThousandView) -> tuple[ThousandView, list[int]]:
    """``view`` (a four-seat view of a playing seat) as the three playing see the deal,
    and the real seat of each of its three seats."""
    dealer = view["dealer"]
    real = [(dealer + k) % 4 for k in (1, 2, 3)]
    index = {seat: i for i, seat in enumerate(real)}

    def seat(value: int | None) -> int | None:
        return None if value is None else index[value]

    def per_seat(values: list[_T]) -> list[_T]:
        return [values[s] for s in real]

    def cards(items: list[PlayedCard]) -> list[PlayedCard]:
        return [{"seat": index[item["seat"]], "card": item["card"]} for item in items]

    def trick(value: Trick) -> Trick:
        return {"cards": cards(value["cards"]), "winner": index[value["winner"]]}

    def announcement(item: Announcement) -> Announcement:
        moved = item.copy()
        moved["seat"] = index[item["seat"]]
        return moved

    def talon(item: Talon) -> Talon:
        moved = item.copy()
        moved["taken_by"] = seat(item["taken_by"])
        return moved

    last = view["last_trick"]
    redeal = view["redeal"]
    three: ThousandView = {
        "game": view["game"],
        "seats": 3,
        "seat": seat(view["seat"]),
        "deal_no": view["deal_no"],
        # the three-seat dealer sits right of the first hand: the real dealer's right
        "dealer": 2,
        "sitting_out": None,
        "talon_points": None,
        "phase": view["phase"],
        "to_act": seat(view["to_act"]),
        "hand": view["hand"],
        "legal": [_give_code(code, index) for code in view["legal"]],
        "hand_sizes": per_seat(view["hand_sizes"]),
        "trump": view["trump"],
        "trick": cards(view["trick"]),
        "last_trick": None if last is None else trick(last),
        "first_lead_done": view["first_lead_done"],
        "gifts": [{"seat": index[g["seat"]], "card": g["card"]} for g in view["gifts"]],
        "tricks_taken": per_seat(view["tricks_taken"]),
        "points": per_seat(view["points"]),
        "auction": [{"seat": index[c["seat"]], "action": c["action"]} for c in view["auction"]],
        "barrel_opening": view["barrel_opening"],
        "auto_passed": [index[s] for s in view["auto_passed"]],
        "bidder": seat(view["bidder"]),
        "bid": view["bid"],
        "contract": view["contract"],
        "totals": per_seat(view["totals"]),
        "announcements": [announcement(a) for a in view["announcements"]],
        "winner": seat(view["winner"]),
        "talons": [talon(t) for t in view["talons"]],
        "to_receive": [index[s] for s in view["to_receive"]],
        "redeal_askers": [index[s] for s in view["redeal_askers"]],
        "redeal_reason": view["redeal_reason"],
        "bolts": per_seat(view["bolts"]),
        "barrel": per_seat(view["barrel"]),
        "golden": view["golden"],
        "redeal": None if redeal is None else {**redeal, "seat": index[redeal["seat"]]},
        "played": [trick(t) for t in view["played"]],
        # the previous deal had another dealer sitting out: its seats would not match
        "last_deal": None,
        "played_out": None,
        "conventions": view["conventions"],
    }
    return three, real


def _give_code(code: str, seats: dict[int, int]) -> str:
    """A give-away code ``g<card><seat>`` with its seat renumbered; other codes as they are."""
    if code[:1] == "g" and len(code) == 4:
        return code[:3] + str(seats[int(code[3])])
    return code


def for_four(policy: Policy[ThousandView]) -> Policy[ThousandView]:
    """``policy`` for a table of any size: a four-seat view is played as three seats."""

    def play(view: ThousandView, rng: random.Random, budget_ms: float) -> str:
        if view["seats"] != 4:
            return policy(view, rng, budget_ms)
        three, real = three_seat_view(view)
        return _give_code(policy(three, rng, budget_ms), dict(enumerate(real)))

    return play
