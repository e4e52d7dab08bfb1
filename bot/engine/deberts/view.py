"""What one seat (or the whole table) may see of a Deberts game, as typed JSON data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict, final

from bot.engine.base import Call, ConventionsJson, PlayedCard, Trick, json_copy
from bot.engine.deberts.results import trick_cards, trick_json
from bot.engine.deberts.rules import CARD_CODES, SUIT_CODES, card_codes

if TYPE_CHECKING:
    from bot.engine.deberts.state import Deberts

__all__ = [
    "Announcement",
    "DealSummary",
    "DebertsBriefView",
    "DebertsView",
    "Declaration",
    "Redeal",
    "SevenSwap",
    "build",
    "played_json",
]


class Declaration(TypedDict):
    """A combination (terz, berz) or bella that scored: its seat, cards and points."""

    seat: int
    kind: Literal["terz", "berz", "bella"]
    cards: list[str]
    points: int


class SevenSwap(TypedDict):
    """The trump seven swapped for the open card, listed with the announcements: worth
    nothing, its ``cards`` the open card taken, ``given`` the seven."""

    seat: int
    kind: Literal["swap7"]
    cards: list[str]
    points: int
    given: str


Announcement = Declaration | SevenSwap


class Redeal(TypedDict):
    """Why the deal before this one was dealt again, and by whom."""

    reason: Literal["all_passed", "sevens"]
    seat: int


@final
class DealSummary(TypedDict):
    """The last finished deal, as it was scored."""

    deal_no: int
    dealer: int
    bidder: int
    trump: str
    outcome: str
    points: list[int]
    card_points: list[int]
    last_trick_points: int
    combination_points: list[int]
    bella_points: list[int]
    tricks_taken: list[int]
    written: list[int]
    marks: list[str]
    hanging_paid: list[int]
    combination_winner: int | None
    announcements: list[Announcement]
    last_trick: Trick
    totals: list[int]


class DebertsBriefView(TypedDict):
    """What a seat sees now, without the deal's history (``view(seat, brief=True)``)."""

    game: Literal["deberts"]
    seats: int
    seat: int | None
    deal_no: int
    dealer: int
    phase: str
    to_act: int | None
    hand: list[str]
    legal: list[str]
    hand_sizes: list[int]
    trump: str | None
    trick: list[PlayedCard]
    last_trick: Trick | None
    tricks_taken: list[int]
    auction: list[Call]
    bidder: int | None
    totals: list[int]
    announcements: list[Announcement]
    winner: int | None
    open_card: str | None
    bottom_card: str | None
    hanging: list[int]
    combination_winner: int | None
    redeal: Redeal | None
    forced_order: bool
    mars: list[int]


class DebertsView(DebertsBriefView):
    """The whole view: also the deal's tricks so far, the last deal and the conventions."""

    played: list[Trick]
    last_deal: DealSummary | None
    conventions: ConventionsJson


def build(game: Deberts, seat: int | None, *, brief: bool = False) -> DebertsBriefView:
    """What ``seat`` may see (``None``: what the whole table sees)."""
    n = game._n
    own = seat is not None and 0 <= seat < n
    last_trick = None
    if game._tricks:
        # The winner of the last trick always leads the next one.
        last = game._tricks[-1]
        last_trick = trick_json(n, last[0], last[1:], game._leader)
    view: DebertsBriefView = {
        "game": "deberts",
        "seats": n,
        "seat": seat if own else None,
        "deal_no": game.deal_played,
        "dealer": game._dealer,
        "phase": game._phase,
        "to_act": game.current_seat(),
        "hand": card_codes(game._hands[seat]) if own and seat is not None else [],
        "legal": game.legal_actions(seat) if own and seat is not None else [],
        "hand_sizes": [h.bit_count() for h in game._hands],
        "trump": SUIT_CODES[game._trump] if game._trump >= 0 else None,
        "trick": trick_cards(n, game._leader, game._trick),
        "last_trick": last_trick,
        "tricks_taken": list(game._tricks_taken),
        "auction": [{"seat": s, "action": a} for s, a in game._auction],
        "bidder": None if game._bidder < 0 else game._bidder,
        "totals": list(game._totals),
        "announcements": json_copy(game._announcements),
        "winner": game.winner,
        "open_card": CARD_CODES[game._open_card] if game._open_card >= 0 else None,
        "bottom_card": CARD_CODES[game._bottom_card] if game._bottom_card >= 0 else None,
        "hanging": list(game._hanging),
        "combination_winner": None if game._combo_winner < 0 else game._combo_winner,
        "redeal": json_copy(game._redeal),
        "forced_order": game._forced_order(),
        "mars": list(game._mars),
    }
    if brief:
        return view
    full: DebertsView = {
        **view,
        "played": played_json(game),
        "last_deal": json_copy(game._last_deal_json()),
        "conventions": game._conv.to_json(),
    }
    return full


def played_json(game: Deberts) -> list[Trick]:
    """Every completed trick of the deal: what a seat with a good memory knows."""
    tricks = game._tricks
    # Each trick's winner leads the next one; the current leader won the latest.
    winners = [t[0] for t in tricks[1:]] + [game._leader]
    return [trick_json(game._n, t[0], t[1:], w) for t, w in zip(tricks, winners, strict=False)]
