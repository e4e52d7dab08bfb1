"""What one seat (or the whole table) may see of a Deberts game, as JSON data."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.base import JsonDict, json_copy
from bot.engine.deberts.results import trick_json
from bot.engine.deberts.rules import CARD_CODES, SUIT_CODES, card_codes

if TYPE_CHECKING:
    from bot.engine.deberts.state import Deberts

__all__ = ["build", "played_json"]


def build(game: Deberts, seat: int | None, *, brief: bool = False) -> JsonDict:
    """What ``seat`` may see (``None``: what the whole table sees)."""
    n = game._n
    own = seat is not None and 0 <= seat < n
    last_trick = None
    if game._tricks:
        # The winner of the last trick always leads the next one.
        last = game._tricks[-1]
        last_trick = trick_json(n, last[0], last[1:], game._leader)
    view: JsonDict = {
        "game": game.name,
        "seats": n,
        "seat": seat if own else None,
        "deal_no": game.deal_no,
        "dealer": game._dealer,
        "phase": game._phase,
        "to_act": game.current_seat(),
        "hand": card_codes(game._hands[seat]) if own and seat is not None else [],
        "legal": game.legal_actions(seat) if own and seat is not None else [],
        "hand_sizes": [h.bit_count() for h in game._hands],
        "trump": SUIT_CODES[game._trump] if game._trump >= 0 else None,
        "trick": trick_json(n, game._leader, game._trick, None)["cards"],
        "last_trick": last_trick,
        "tricks_taken": list(game._tricks_taken),
        "auction": [{"seat": s, "action": a} for s, a in game._auction],
        "bidder": None if game._bidder < 0 else game._bidder,
        "totals": list(game._totals),
        "announcements": list(game._announcements),
        "winner": game.winner,
        "open_card": CARD_CODES[game._open] if game._open >= 0 else None,
        "bottom_card": CARD_CODES[game._bottom] if game._bottom >= 0 else None,
        "hanging": list(game._hanging),
        "combination_winner": None if game._combo_winner < 0 else game._combo_winner,
        "redeal": json_copy(game._redeal),
        "forced_order": game._forced_order(),
        "mars": list(game._mars),
    }
    if not brief:
        view["played"] = played_json(game)
        view["last_deal"] = json_copy(game._last_deal_json())
        view["conventions"] = game._conv.to_json()
    return view


def played_json(game: Deberts) -> list[JsonDict]:
    """Every completed trick of the deal: what a seat with a good memory knows."""
    tricks = game._tricks
    # Each trick's winner leads the next one; the current leader won the latest.
    winners = [t[0] for t in tricks[1:]] + [game._leader]
    return [trick_json(game._n, t[0], t[1:], w) for t, w in zip(tricks, winners, strict=False)]
