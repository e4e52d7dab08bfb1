"""What one seat (or the whole table) may see of a Thousand game, as JSON data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine.base import JsonDict
from bot.engine.cards import popcount
from bot.engine.thousand.codes import CARD_CODES
from bot.engine.thousand.rules import GOLDEN_DEALS

if TYPE_CHECKING:
    from bot.engine.thousand.game import ThousandGame

__all__ = ["build", "codes", "copy_json"]

SUIT_CODES = "SCDH"


def codes(mask: int) -> list[str]:
    """Card codes of ``mask`` sorted by suit, then rank."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_CODES[low.bit_length() - 1])
        mask ^= low
    return out


def build(game: ThousandGame, seat: int | None, *, brief: bool = False) -> JsonDict:
    g = game
    view = _brief(g, seat, seat is not None and 0 <= seat < g._n)
    if brief:
        return view
    g._write_rows()  # the last deal's summary is written when first read
    view["played"] = [
        {"cards": [{"seat": s, "card": CARD_CODES[c]} for s, c in trick], "winner": w}
        for trick, w in zip(g._played, g._played_winners, strict=True)
    ]
    view["last_deal"] = _last_deal(g._last_deal)
    view["conventions"] = g.conventions_json()
    return view


def _brief(g: ThousandGame, seat: int | None, own: bool) -> JsonDict:
    """The view without its history keys; ``own``: ``seat`` is a seat at the table."""
    n = g._n
    return {
        "game": g.name,
        "seats": n,
        "seat": seat,
        "deal_no": g.deal_no,
        "dealer": g._dealer,
        # with four players the dealer sits the deal out (on the talon)
        "sitting_out": g._out if g._out >= 0 else None,
        "phase": g._phase,
        "to_act": g._to_act,
        "hand": codes(g._hands[seat]) if own and seat is not None else [],
        "legal": g.legal_actions(seat) if own and seat is not None else [],
        "hand_sizes": [popcount(h) for h in g._hands],
        "trump": SUIT_CODES[g._trump] if g._trump >= 0 else None,
        "trick": [{"seat": s, "card": CARD_CODES[c]} for s, c in g._trick],
        "last_trick": (
            None
            if g._last_trick is None
            else {
                "cards": [{"seat": s, "card": CARD_CODES[c]} for s, c in g._last_trick],
                "winner": g._last_winner,
            }
        ),
        "first_lead_done": g._tricks_played > 0 or bool(g._trick),
        "gifts": _gifts(g, seat if own else None),
        "tricks_taken": list(g._tricks),
        "points": g.deal_points(),
        "auction": [{"seat": s, "action": a} for s, a in g._auction],
        # the deal of a player on the barrel opens at 121 in their name: no bid they made
        "barrel_opening": g._barrel_seat is not None and bool(g._auction),
        "auto_passed": list(g._auto_passed),
        "bidder": g._bidder,
        "bid": g._high,
        "contract": g._contract,
        "totals": list(g._totals),
        "announcements": [dict(a, cards=list(a["cards"])) for a in g._announcements],
        "winner": g._winner,
        "talons": _talons(g, seat if own else None),
        "to_receive": (
            [s for s in range(n) if s != g._bidder and not g._received[s]]
            if g._phase == "give"
            else []
        ),
        "redeal_askers": list(g._redeal_queue),
        "redeal_reason": (
            g._redeal_reason(seat)
            if own and seat is not None and g._phase == "redeal" and g._to_act == seat
            else None
        ),
        "bolts": list(g._bolts),
        "barrel": [
            {"on": on, "attempts": g._barrel_attempts if on else 0}
            for on in (s == g._barrel_seat for s in range(n))
        ],
        "golden": g._conv.golden_round and g._scored_deals() < GOLDEN_DEALS,
        "redeal": _redeal(g),
    }


def _redeal(g: ThousandGame) -> JsonDict | None:
    """Who asked for the redeal that started this deal, as Deberts tells of its redeals.

    A redeal writes no scoresheet row, so nothing else tells the table why the deal
    was dealt again. The latest settled entry is a redeal only until this deal ends.
    """
    last = g._unwritten[-1] if g._unwritten else g._last_deal
    if isinstance(last, dict) and last.get("redeal") is True:
        return {"reason": "asked", "seat": last["asked_by"], "why": last.get("why")}
    return None


def _gifts(g: ThousandGame, seat: int | None) -> list[JsonDict]:
    """The give-away as ``seat`` knows it: the bidder all of it, a receiver their card."""
    return [
        {"seat": target, "card": CARD_CODES[card]}
        for target, card in enumerate(g._gifts)
        if card >= 0 and seat is not None and seat in (g._bidder, target)
    ]


def _talons(g: ThousandGame, seat: int | None) -> list[JsonDict]:
    """The talons as ``seat`` knows them: one taken face down (``cards`` None) holds for
    its taker the cards they picked up, under ``seen``."""
    out = []
    for index, talon in enumerate(g._talons):
        taken = g._talon_taken == index
        shown = taken and g._talon_shown
        entry: JsonDict = {
            "count": popcount(talon),
            "cards": codes(talon) if shown else None,
            "taken_by": g._bidder if taken else None,
        }
        if taken and not shown and seat is not None and seat == g._bidder:
            entry["seen"] = codes(talon)
        out.append(entry)
    return out


def _last_deal(last: JsonDict | None) -> JsonDict | None:
    return None if last is None else copy_json(last)


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists and scalars)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value
