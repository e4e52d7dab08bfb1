"""The state API every game shares, in the spirit of OpenSpiel's ``State``.

A game is a mutable state object driven one action at a time::

    seat = game.current_seat()          # who must act now (None: game over)
    codes = game.legal_actions(seat)    # short stable codes: "pass", "cTH", ...
    game.apply(seat, codes[0])          # IllegalAction with a reason otherwise
    game.view(seat)                     # what that seat may know, as typed JSON data
    game.scoresheet()                   # per deal rows, totals, winner

Only one seat acts at a time. Action codes are at most 8 ASCII characters, so a
table id, a state version and the code fit Telegram's 64-byte callback data.
``to_json``/``from_json`` round-trip the whole state exactly; the same seed and
actions always give the same game.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, TypedDict, TypeVar, cast, overload

if TYPE_CHECKING:
    from bot.engine.views import BriefView, View

__all__ = [
    "Call",
    "Conventions",
    "ConventionsJson",
    "DealLog",
    "Game",
    "IllegalAction",
    "JsonDict",
    "LoggedTrick",
    "Move",
    "PlayedCard",
    "ScoreRow",
    "Scoresheet",
    "Trick",
    "choice",
    "json_copy",
]

JsonDict = dict[str, Any]

ConventionsJson = dict[str, bool | int | str]
"""A table's conventions as JSON data: each option's name and its value."""

_Json = TypeVar("_Json")


class PlayedCard(TypedDict):
    """A card on the table and the seat that played it."""

    seat: int
    card: str


class Trick(TypedDict):
    """A completed trick: its cards in the order played, and the seat that took it."""

    cards: list[PlayedCard]
    winner: int


class Call(TypedDict):
    """One call of an auction: the seat and its action code (``"pass"``, ``"b120"``...)."""

    seat: int
    action: str


class IllegalAction(ValueError):
    """An action that is not allowed now; the state is left unchanged.

    ``code`` is a stable key (e.g. ``"must_follow_suit"``) the bot translates;
    ``reason`` is the same in plain English; ``params`` fill the translation.
    """

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params = params


def json_copy(value: _Json) -> _Json:
    """A copy of JSON data (dicts, lists, scalars): what ``copy.deepcopy`` gives, for less."""
    return cast(_Json, _copy(value))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type[Conventions]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def choice(default: Any, choices: tuple[Any, ...]) -> Any:
    """A convention field: its default and the values a table host may pick."""
    return field(default=default, metadata={"choices": choices})


@dataclass(frozen=True)
class Conventions:
    """Base of a game's per-table options; subclasses declare fields with :func:`choice`."""

    @classmethod
    def options(cls) -> dict[str, tuple[Any, ...]]:
        """Each option's name and allowed values, in declaration order."""
        return {f.name: tuple(f.metadata["choices"]) for f in dataclasses.fields(cls)}

    def to_json(self) -> JsonDict:
        # every value is a plain scalar (see choice()): asdict's deep copy would only cost
        return {name: getattr(self, name) for name in _field_names(type(self))}

    @classmethod
    def from_json(cls, data: JsonDict) -> Self:
        options = cls.options()
        values: JsonDict = {}
        for name, value in data.items():
            if name not in options:
                raise ValueError(f"unknown convention {name!r}")
            if value not in options[name]:
                raise ValueError(f"convention {name!r} cannot be {value!r}")
            values[name] = value
        return cls(**values)

    def replace(self, name: str, value: Any) -> Self:
        return type(self).from_json({**self.to_json(), name: value})


@dataclass(frozen=True)
class ScoreRow:
    """One deal on the scoresheet.

    ``cells`` is what each seat's column shows after the deal (a cumulative
    total, or a mark such as ``"БТ"`` or ``"vs(51)"``); ``totals`` are the
    running totals; ``deltas`` what each seat wrote this deal; ``notes`` hold
    game-specific facts (who bid, the trump, bolts, barrel, ...).
    """

    deal_no: int
    cells: tuple[str, ...]
    totals: tuple[int, ...]
    deltas: tuple[int, ...]
    notes: JsonDict = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        return {
            "deal_no": self.deal_no,
            "cells": list(self.cells),
            "totals": list(self.totals),
            "deltas": list(self.deltas),
            "notes": json_copy(self.notes),
        }

    @classmethod
    def from_json(cls, data: JsonDict) -> ScoreRow:
        return cls(
            deal_no=data["deal_no"],
            cells=tuple(data["cells"]),
            totals=tuple(data["totals"]),
            deltas=tuple(data["deltas"]),
            notes=dict(data["notes"]),
        )


@dataclass(frozen=True)
class Scoresheet:
    game: str
    seats: int
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    winner: int | None = None
    notes: JsonDict = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        return {
            "game": self.game,
            "seats": self.seats,
            "rows": [row.to_json() for row in self.rows],
            "totals": list(self.totals),
            "winner": self.winner,
            "notes": json_copy(self.notes),
        }


Move = tuple[int, str]
"""A seat and the action code it applied."""


@dataclass(frozen=True)
class LoggedTrick:
    """A trick as played: ``(seat, card)`` in play order, and the seat that took it."""

    cards: tuple[tuple[int, str], ...]
    winner: int

    def to_json(self) -> JsonDict:
        return {"cards": [[seat, card] for seat, card in self.cards], "winner": self.winner}

    @classmethod
    def from_json(cls, data: JsonDict) -> LoggedTrick:
        return cls(tuple((seat, card) for seat, card in data["cards"]), data["winner"])


@dataclass(frozen=True)
class DealLog:
    """What one ended deal leaves for its record: the cards as dealt and every move.

    ``hands`` are the cards each seat was dealt (Deberts: all nine, or the first six
    of a deal redealt in the auction; Thousand: before the talon). ``stock`` names
    the other cards: Deberts ``open`` and ``bottom``, Thousand ``talon`` (two for two
    players). ``auction`` is the auction as the table saw it (Thousand's automatic
    passes and the barrel's 121 included); ``gives`` the give-away as ``(from, to,
    card)``; ``tricks`` every trick in order. ``moves`` is every action applied in the
    deal, in order: replayed on the game as it stood when the deal was dealt, they
    play the deal again. ``None`` when the deal was under way before its moves were
    kept (a game saved by an older version). ``redeal``: the deal was dealt anew and
    scores nothing.
    """

    game: str
    deal_no: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[tuple[str, tuple[str, ...]], ...]
    auction: tuple[Move, ...]
    gives: tuple[tuple[int, int, str], ...]
    tricks: tuple[LoggedTrick, ...]
    moves: tuple[Move, ...] | None
    redeal: bool

    def to_json(self) -> JsonDict:
        return {
            "game": self.game,
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "hands": [list(hand) for hand in self.hands],
            "stock": {name: list(cards) for name, cards in self.stock},
            "auction": [[seat, action] for seat, action in self.auction],
            "gives": [list(give) for give in self.gives],
            "tricks": [trick.to_json() for trick in self.tricks],
            "moves": None if self.moves is None else [[s, a] for s, a in self.moves],
            "redeal": self.redeal,
        }

    @classmethod
    def from_json(cls, data: JsonDict) -> DealLog:
        moves = data["moves"]
        return cls(
            game=data["game"],
            deal_no=data["deal_no"],
            dealer=data["dealer"],
            hands=tuple(tuple(hand) for hand in data["hands"]),
            stock=tuple((name, tuple(cards)) for name, cards in data["stock"].items()),
            auction=tuple((seat, action) for seat, action in data["auction"]),
            gives=tuple((giver, taker, card) for giver, taker, card in data["gives"]),
            tricks=tuple(LoggedTrick.from_json(trick) for trick in data["tricks"]),
            moves=None if moves is None else tuple((seat, action) for seat, action in moves),
            redeal=data["redeal"],
        )


HISTORY_KEYS = frozenset({"played", "last_deal", "played_out", "conventions"})
"""Keys of a view that a brief one leaves out: the deal's tricks so far, the last
deal's summary, (Thousand) the last deal played out and the table's conventions."""


class Game(ABC):
    """A whole game (many deals up to the target) at one table."""

    name: ClassVar[str]
    conventions_type: ClassVar[type[Conventions]]
    max_seats: ClassVar[int]
    """The most players a table of the game seats (two at least)."""

    @classmethod
    @abstractmethod
    def new(cls, seats: int, conventions: Conventions | None = None, seed: int = 0) -> Self:
        """A fresh game whose first dealer (by lot) and every deal follow from ``seed``."""

    @property
    @abstractmethod
    def deal_no(self) -> int:
        """How many deals have been started (1 during the first deal), redeals too: each
        deal's shuffle follows from it."""

    @property
    @abstractmethod
    def deal_played(self) -> int:
        """The deal's number as the players count it: a redeal keeps the number of the
        deal it replaced, so the scoresheet's rows are numbered 1, 2, 3 whatever was
        dealt again. Views, rows and summaries carry this number as ``deal_no``."""

    @property
    @abstractmethod
    def seats(self) -> int: ...

    @property
    @abstractmethod
    def conventions(self) -> Conventions: ...

    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat that must act now, or ``None`` once the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[str]:
        """Codes of the actions ``seat`` may take now (empty if not its turn)."""

    @abstractmethod
    def apply(self, seat: int, action: str) -> None:
        """Apply ``action`` for ``seat``; :class:`IllegalAction` leaves the state as it was."""

    @overload
    def view(self, seat: int | None, *, brief: Literal[False] = False) -> View: ...

    @overload
    def view(self, seat: int | None, *, brief: bool) -> BriefView: ...

    @abstractmethod
    def view(self, seat: int | None, *, brief: bool = False) -> BriefView:
        """What ``seat`` may know (``None``: what everybody at the table sees), as the
        game's typed view (see :mod:`bot.engine.views`).

        ``brief`` leaves out :data:`HISTORY_KEYS`, which table messages never show and
        which cost the most to copy; every other key is as in the full view.
        """

    @abstractmethod
    def scoresheet(self) -> Scoresheet: ...

    @abstractmethod
    def ended_deal(self) -> DealLog | None:
        """The record of the deal that ended last (scored or dealt anew), if any.

        A move that ends a deal makes its record this one, so the caller that applied
        it can keep the record with the move.
        """

    @property
    def rows_scored(self) -> int:
        """How many rows the scoresheet has, without building it."""
        return len(self.scoresheet().rows)

    def last_row(self) -> ScoreRow | None:
        """The scoresheet's last row (``None`` before the first deal is scored), without
        building the others."""
        rows = self.scoresheet().rows
        return rows[-1] if rows else None

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def phase(self) -> str:
        """The current phase's stable name (``"bidding"``, ``"play"``, ...)."""

    @abstractmethod
    def to_json(self) -> JsonDict: ...

    @classmethod
    @abstractmethod
    def from_json(cls, data: JsonDict) -> Self: ...

    @abstractmethod
    def clone(self) -> Self: ...
