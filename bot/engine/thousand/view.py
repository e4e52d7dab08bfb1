"""What one seat (or the whole table) may see of a Thousand game, as typed JSON data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict, cast, final

from bot.engine.base import Call, ConventionsJson, PlayedCard, Trick, json_copy
from bot.engine.cards import iter_mask, popcount
from bot.engine.thousand.codes import CARD_CODES
from bot.engine.thousand.rules import GOLDEN_DEALS, talon_points

if TYPE_CHECKING:
    from bot.engine.thousand.game import ThousandGame

__all__ = [
    "AceMarriage",
    "Announcement",
    "BarrelEvent",
    "BarrelSeat",
    "DealSummary",
    "Gift",
    "LastDeal",
    "Marriage",
    "PlayedOut",
    "Redeal",
    "RedealSummary",
    "Talon",
    "ThousandBriefView",
    "ThousandView",
    "build",
    "codes",
]

SUIT_CODES = "SCDH"


class Marriage(TypedDict):
    """A marriage declared by leading one of its cards: it names the trump."""

    seat: int
    kind: Literal["marriage"]
    cards: list[str]
    points: int
    suit: str


class AceMarriage(TypedDict):
    """All four aces declared by leading one of them (a convention)."""

    seat: int
    kind: Literal["ace_marriage"]
    cards: list[str]
    points: int


Announcement = Marriage | AceMarriage


class Gift(TypedDict):
    """A card given away after the talon, and the seat that got it."""

    seat: int
    card: str


class _TalonSeenByAll(TypedDict):
    count: int
    cards: list[str] | None
    taken_by: int | None


class Talon(_TalonSeenByAll, total=False):
    """A talon: ``cards`` when shown (else ``None``), ``taken_by`` its taker; one taken
    face down holds, in its taker's view only, the cards they picked up (``seen``)."""

    seen: list[str]


class BarrelSeat(TypedDict):
    """A seat's place on the barrel: ``on`` it, and the attempts it has used there."""

    on: bool
    attempts: int


class Redeal(TypedDict):
    """Who asked for the redeal that started this deal, and why (``"nines"``,
    ``"points"``, ``"talon"``)."""

    reason: Literal["asked"]
    seat: int
    why: str | None


class BarrelEvent(TypedDict):
    """What the barrel did to a seat in a deal (``"climbed"``, ``"fell_off"``...)."""

    seat: int
    event: str


class BarrelState(TypedDict):
    """Who sits on the barrel after a deal (``None``: nobody), and their attempts."""

    seat: int | None
    attempts: int


@final
class DealSummary(TypedDict):
    """The last deal that was played out, as it was scored."""

    deal_no: int
    redeal: Literal[False]
    bidder: int
    contract: int
    result: str
    outcome: str
    conceded: bool
    points: list[int]
    written: list[int]
    marks: list[str]
    stood_still: list[bool]
    bolts: list[int]
    bolt_penalties: list[int]
    bolt_counts: list[int]
    on_barrel: list[bool]
    barrel: BarrelState
    barrel_seat: int | None
    barrel_attempts: int
    barrel_events: list[BarrelEvent]
    dump_truck: list[int]
    golden: bool
    sitting_out: int | None
    talon_points: int | None
    bid: int | None
    dealer: int
    trump: str | None
    marriages: list[int]
    deltas: list[int]
    last_trick: Trick | None


@final
class RedealSummary(TypedDict):
    """The last deal, dealt again at a player's asking: it scored nothing."""

    deal_no: int
    redeal: Literal[True]
    asked_by: int
    why: str | None
    written: list[int]
    deltas: list[int]
    marks: list[str]


LastDeal = DealSummary | RedealSummary


@final
class PlayedOut(TypedDict):
    """The last deal played to its last trick: what a seat with a good memory knows of
    how the others play. It is the last deal unless that was conceded or dealt again."""

    bidder: int
    tricks: list[Trick]
    """Every trick of the deal, in order."""


class ThousandBriefView(TypedDict):
    """What a seat sees now, without the deal's history (``view(seat, brief=True)``)."""

    game: Literal["thousand"]
    seats: int
    seat: int | None
    deal_no: int
    dealer: int
    sitting_out: int | None
    """Four players: the dealer, who sits the deal out (``None`` with two or three)."""
    talon_points: int | None
    """Four players: what the talon is worth to the dealer sitting out (its card points
    and a marriage in it), once its cards are shown to everyone; else ``None``."""
    phase: str
    to_act: int | None
    hand: list[str]
    legal: list[str]
    hand_sizes: list[int]
    trump: str | None
    trick: list[PlayedCard]
    last_trick: Trick | None
    first_lead_done: bool
    gifts: list[Gift]
    tricks_taken: list[int]
    points: list[int]
    auction: list[Call]
    barrel_opening: bool
    auto_passed: list[int]
    bidder: int | None
    bid: int | None
    contract: int | None
    totals: list[int]
    announcements: list[Announcement]
    winner: int | None
    talons: list[Talon]
    to_receive: list[int]
    redeal_askers: list[int]
    redeal_reason: str | None
    bolts: list[int]
    barrel: list[BarrelSeat]
    golden: bool
    redeal: Redeal | None


class ThousandView(ThousandBriefView):
    """The whole view: also the deal's tricks so far, the last deal and the conventions."""

    played: list[Trick]
    last_deal: LastDeal | None
    played_out: PlayedOut | None
    conventions: ConventionsJson


def codes(mask: int) -> list[str]:
    """Card codes of ``mask`` sorted by suit, then rank."""
    return [CARD_CODES[card] for card in iter_mask(mask)]


def build(game: ThousandGame, seat: int | None, *, brief: bool = False) -> ThousandBriefView:
    view = _brief(game, seat, seat is not None and 0 <= seat < game._n)
    if brief:
        return view
    game._write_rows()  # the last deal's summary is written when first read
    full: ThousandView = {
        **view,
        "played": _tricks(game._played, game._played_winners),
        # the summary is written from the scoresheet's notes, untyped: its shape is what
        # :class:`DealSummary` and :class:`RedealSummary` say (the tests check it)
        "last_deal": cast("LastDeal | None", json_copy(game._last_deal)),
        "played_out": _played_out(game),
        "conventions": game.conventions_json(),
    }
    return full


def _played_out(game: ThousandGame) -> PlayedOut | None:
    out = game._played_out
    if out is None:
        return None
    bidder, tricks, winners = out
    return {"bidder": bidder, "tricks": _tricks(tricks, winners)}


def _tricks(tricks: list[list[list[int]]], winners: list[int]) -> list[Trick]:
    return [
        {"cards": [{"seat": s, "card": CARD_CODES[c]} for s, c in trick], "winner": w}
        for trick, w in zip(tricks, winners, strict=True)
    ]


def _brief(game: ThousandGame, seat: int | None, own: bool) -> ThousandBriefView:
    """The view without its history keys; ``own``: ``seat`` is a seat at the table."""
    n = game._n
    return {
        "game": "thousand",
        "seats": n,
        "seat": seat,
        "deal_no": game.deal_played,
        "dealer": game._dealer,
        # with four players the dealer sits the deal out (on the talon)
        "sitting_out": game._sitting_out if game._sitting_out >= 0 else None,
        "talon_points": (
            talon_points(game._talons[0])
            if game._sitting_out >= 0 and game._talon_taken == 0 and game._talon_shown
            else None
        ),
        "phase": game._phase,
        "to_act": game._to_act,
        "hand": codes(game._hands[seat]) if own and seat is not None else [],
        "legal": game.legal_actions(seat) if own and seat is not None else [],
        "hand_sizes": [popcount(h) for h in game._hands],
        "trump": SUIT_CODES[game._trump] if game._trump >= 0 else None,
        "trick": [{"seat": s, "card": CARD_CODES[c]} for s, c in game._trick],
        "last_trick": (
            None
            if game._last_trick is None or game._last_winner is None
            else {
                "cards": [{"seat": s, "card": CARD_CODES[c]} for s, c in game._last_trick],
                "winner": game._last_winner,
            }
        ),
        "first_lead_done": game._tricks_played > 0 or bool(game._trick),
        "gifts": _gifts(game, seat if own else None),
        "tricks_taken": list(game._tricks_taken),
        "points": game.deal_points(),
        "auction": [{"seat": s, "action": a} for s, a in game._auction],
        # the deal of a player on the barrel opens at 121 in their name: no bid they made
        "barrel_opening": game._barrel_seat is not None and bool(game._auction),
        "auto_passed": list(game._auto_passed),
        "bidder": game._bidder,
        "bid": game._highest_bid,
        "contract": game._contract,
        "totals": list(game._totals),
        "announcements": json_copy(game._announcements),
        "winner": game._winner,
        "talons": _talons(game, seat if own else None),
        "to_receive": (
            [
                s
                for s in range(n)
                if s not in (game._bidder, game._sitting_out) and not game._received[s]
            ]
            if game._phase == "give"
            else []
        ),
        "redeal_askers": list(game._redeal_queue),
        "redeal_reason": (
            game._redeal_reason(seat)
            if own and seat is not None and game._phase == "redeal" and game._to_act == seat
            else None
        ),
        "bolts": list(game._bolts),
        "barrel": [
            {"on": on, "attempts": game._barrel_attempts if on else 0}
            for on in (s == game._barrel_seat for s in range(n))
        ],
        "golden": game._conv.golden_round and game._scored_deals() < GOLDEN_DEALS,
        "redeal": _redeal(game),
    }


def _redeal(game: ThousandGame) -> Redeal | None:
    """Who asked for the redeal that started this deal, as Deberts tells of its redeals.

    A redeal writes no scoresheet row, so nothing else tells the table why the deal
    was dealt again. The latest settled entry is a redeal only until this deal ends.
    """
    last = game._unwritten[-1] if game._unwritten else game._last_deal
    if isinstance(last, dict) and last.get("redeal") is True:
        return {"reason": "asked", "seat": last["asked_by"], "why": last.get("why")}
    return None


def _gifts(game: ThousandGame, seat: int | None) -> list[Gift]:
    """The give-away as ``seat`` knows it: the bidder all of it, a receiver their card."""
    return [
        {"seat": target, "card": CARD_CODES[card]}
        for target, card in enumerate(game._gifts)
        if card >= 0 and seat is not None and seat in (game._bidder, target)
    ]


def _talons(game: ThousandGame, seat: int | None) -> list[Talon]:
    """The talons as ``seat`` knows them: one taken face down (``cards`` None) holds for
    its taker the cards they picked up, under ``seen``."""
    out: list[Talon] = []
    for index, talon in enumerate(game._talons):
        taken = game._talon_taken == index
        shown = taken and game._talon_shown
        entry: Talon = {
            "count": popcount(talon),
            "cards": codes(talon) if shown else None,
            "taken_by": game._bidder if taken else None,
        }
        if taken and not shown and seat is not None and seat == game._bidder:
            entry["seen"] = codes(talon)
        out.append(entry)
    return out
