"""What a Deberts deal is worth in the game: the chance of winning it that the deal leaves.

Rule 10 ends the game after the deal in which a player reaches the target, so the same
deal points are worth more or less as the totals stand: near the end, a deal that lets
another player reach the target first loses the game whatever its margin, and a player
far behind must take risks that would not pay in the middle of the game. A deal's
written points (rule 8, with the hanging amount it pays) are valued by the chance to win
from the totals they leave: decided when the deal ends the game, else read from a table
of the chances of evenly matched players (:class:`Chances`), and expressed in points
(:class:`Stakes`), so early in a game a deal is worth about its deal result.

Over 400 duplicate games on held-out seeds against easy, hard valuing deals this way won
80.8 % with two players (76.5 % valuing each deal on its own, the same seeds; margin a
deal 21.76 against 21.61) and 60.5 % with three (one hard, two easy).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence

import numpy as np

from bot.ai.deberts.knowledge import Knowledge
from bot.ai.deberts.table import Worth, deal_result, lead
from bot.engine.deberts.scoring import settle_fields

__all__ = [
    "DEALS",
    "STEPS",
    "Chances",
    "Stakes",
    "Values",
    "chances",
    "deal_values",
    "margins",
    "worth",
]

STEPS = {2: 10, 3: 20}
"""Points a cell of the table of chances spans, by players."""

DEALS: dict[int, tuple[tuple[int, ...], ...]] = {
    2: (
        (4, 0, 1),
        (4, 2, 2),
        (4, 3, 11),
        (4, 4, 15),
        (5, 0, 6),
        (5, 1, 4),
        (5, 2, 25),
        (5, 3, 30),
        (5, 4, 70),
        (5, 5, 38),
        (6, 0, 9),
        (6, 1, 13),
        (6, 2, 79),
        (6, 3, 126),
        (6, 4, 210),
        (6, 5, 153),
        (6, 6, 96),
        (7, 0, 14),
        (7, 1, 31),
        (7, 2, 134),
        (7, 3, 167),
        (7, 4, 255),
        (7, 5, 122),
        (7, 6, 122),
        (7, 7, 16),
        (8, 0, 32),
        (8, 1, 106),
        (8, 2, 272),
        (8, 3, 235),
        (8, 4, 260),
        (8, 5, 166),
        (8, 6, 92),
        (8, 7, 55),
        (8, 8, 26),
        (9, 0, 74),
        (9, 1, 95),
        (9, 2, 176),
        (9, 3, 187),
        (9, 4, 160),
        (9, 5, 60),
        (9, 6, 65),
        (9, 7, 30),
        (9, 8, 8),
        (9, 9, 2),
        (10, 0, 219),
        (10, 1, 113),
        (10, 2, 183),
        (10, 3, 177),
        (10, 4, 110),
        (10, 5, 45),
        (10, 6, 39),
        (10, 7, 17),
        (10, 8, 1),
        (10, 9, 5),
        (11, 0, 187),
        (11, 1, 83),
        (11, 2, 109),
        (11, 3, 105),
        (11, 4, 72),
        (11, 5, 17),
        (11, 6, 12),
        (11, 7, 4),
        (12, 0, 246),
        (12, 1, 56),
        (12, 2, 110),
        (12, 3, 61),
        (12, 4, 46),
        (12, 5, 5),
        (12, 6, 8),
        (12, 7, 1),
        (13, 0, 186),
        (13, 1, 46),
        (13, 2, 53),
        (13, 3, 19),
        (13, 4, 30),
        (13, 5, 2),
        (13, 6, 5),
        (14, 0, 180),
        (14, 1, 36),
        (14, 2, 68),
        (14, 3, 40),
        (14, 4, 17),
        (14, 5, 3),
        (14, 6, 4),
        (15, 0, 104),
        (15, 1, 21),
        (15, 2, 37),
        (15, 3, 20),
        (15, 4, 20),
        (15, 5, 1),
        (16, 0, 53),
        (16, 1, 15),
        (16, 2, 30),
        (16, 3, 14),
        (16, 4, 5),
        (17, 0, 42),
        (17, 1, 6),
        (17, 2, 17),
        (17, 3, 5),
        (17, 4, 1),
        (18, 0, 28),
        (18, 1, 9),
        (18, 2, 1),
        (19, 0, 8),
        (20, 2, 1),
        (27, 2, 1),
    ),
    3: (
        (2, 1, 0, 1),
        (2, 2, 0, 3),
        (3, 0, 0, 1),
        (3, 1, 0, 7),
        (3, 2, 0, 3),
        (3, 2, 1, 10),
        (3, 3, 0, 11),
        (3, 3, 1, 1),
        (4, 0, 0, 1),
        (4, 1, 1, 10),
        (4, 2, 0, 35),
        (4, 2, 1, 122),
        (4, 2, 2, 56),
        (4, 3, 0, 143),
        (4, 3, 1, 54),
        (4, 3, 2, 4),
        (4, 4, 0, 148),
        (4, 4, 1, 1),
        (5, 1, 0, 10),
        (5, 1, 1, 61),
        (5, 2, 0, 156),
        (5, 2, 1, 160),
        (5, 2, 2, 55),
        (5, 3, 0, 200),
        (5, 3, 1, 77),
        (5, 3, 2, 14),
        (5, 4, 0, 155),
        (5, 4, 1, 14),
        (5, 5, 0, 36),
        (6, 0, 0, 8),
        (6, 1, 0, 86),
        (6, 1, 1, 56),
        (6, 2, 0, 179),
        (6, 2, 1, 90),
        (6, 2, 2, 18),
        (6, 3, 0, 130),
        (6, 3, 1, 26),
        (6, 3, 2, 10),
        (6, 4, 0, 67),
        (6, 4, 1, 12),
        (6, 5, 0, 27),
        (6, 5, 1, 1),
        (6, 6, 0, 2),
        (7, 0, 0, 10),
        (7, 1, 0, 53),
        (7, 1, 1, 29),
        (7, 2, 0, 69),
        (7, 2, 1, 46),
        (7, 2, 2, 3),
        (7, 3, 0, 31),
        (7, 3, 1, 12),
        (7, 4, 0, 20),
        (7, 5, 0, 2),
        (7, 6, 0, 1),
        (7, 7, 0, 1),
        (8, 0, 0, 4),
        (8, 1, 0, 40),
        (8, 1, 1, 39),
        (8, 2, 0, 51),
        (8, 2, 1, 35),
        (8, 2, 2, 2),
        (8, 3, 0, 12),
        (8, 3, 1, 3),
        (8, 4, 0, 3),
        (8, 5, 0, 1),
        (9, 0, 0, 4),
        (9, 1, 0, 41),
        (9, 1, 1, 19),
        (9, 2, 0, 29),
        (9, 2, 1, 12),
        (9, 3, 0, 1),
        (9, 3, 1, 2),
        (10, 0, 0, 1),
        (10, 1, 0, 20),
        (10, 1, 1, 3),
        (10, 2, 0, 1),
        (10, 3, 0, 1),
        (11, 2, 0, 1),
    ),
}
"""Written points of deals in :data:`STEPS` (rounded), the largest first, then how many
such deals there were. Two players: the 7,009 deals of 998 saved games between hard, easy,
the reference ISMCTS and hard seeing every card; three: the 2,863 deals of 400 games of
hard against two easy (``python -m bot.sim --save``). Any player is taken to be as
likely as another to write any of a deal's amounts."""

_SPREAD = 25
"""Points either way over which the chance a point of deal result makes is measured."""
_MIN_SLOPE = 1e-4
"""The chance a point of deal result makes at the least, once the game is all but decided."""
_MARGIN_SHARE = 0.05
"""The share of a deal's value its plain deal result keeps, so that when the game hangs
on nothing else the deal is still played for points."""


class Chances:
    """The chance that the first of ``seats`` evenly matched players wins the game from
    given totals, the next deal to come (deals as :data:`DEALS` has them)."""

    def __init__(self, seats: int, target: int) -> None:
        step = STEPS[seats]
        size = -(-target // step)  # cells below the target along each total
        side = size + max(max(deal[:-1]) for deal in DEALS[seats])
        strides = [side ** (seats - 1 - d) for d in range(seats)]
        every = np.indices((side,) * seats).reshape(seats, -1)  # cells in table order
        top = every.max(axis=0)
        at_top = every == top
        # Where the game is over, the first's share of the top; else worked out below.
        table = np.where((top >= size) & at_top[0], 1 / at_top.sum(axis=0), 0.0)
        count = sum(deal[-1] for deal in DEALS[seats])
        moves: list[tuple[int, float]] = []
        for deal in DEALS[seats]:
            orders = set(itertools.permutations(deal[:-1]))
            for order in orders:
                moves.append((_index(order, strides), deal[-1] / count / len(orders)))
        # Every deal adds at least ``least`` cells to the totals' sum, so the cells whose
        # sums lie within ``least`` of each other depend only on cells of larger sums:
        # each such band is worked out at once, the latest totals first, each cell's
        # moves summed in the same order as one by one.
        least = min(sum(deal[:-1]) for deal in DEALS[seats])
        cells = np.indices((size,) * seats).reshape(seats, -1)
        sums = cells.sum(axis=0)
        at = np.asarray(strides) @ cells
        for highest in range(seats * (size - 1), -1, -least):
            band = at[(sums <= highest) & (sums > highest - least)]
            value = np.zeros(len(band))
            for offset, p in moves:
                value += p * table[band + offset]
            table[band] = value
        self.target = target
        self._step = step
        self._strides = strides
        self._table: list[float] = table.tolist()
        self._corners = [
            (_index(corner, strides), corner) for corner in itertools.product((0, 1), repeat=seats)
        ]

    def __call__(self, totals: Sequence[int]) -> float:
        """The chance for the first of ``totals`` (the others' order does not matter)."""
        if max(totals) >= self.target:
            return _share(totals)
        base = 0
        fractions = []
        for total, stride in zip(totals, self._strides, strict=True):
            x = total / self._step
            cell = int(x)
            base += cell * stride
            fractions.append(x - cell)
        value = 0.0
        table = self._table
        for offset, corner in self._corners:
            weight = 1.0
            for up, f in zip(corner, fractions, strict=True):
                weight *= f if up else 1 - f
            value += weight * table[base + offset]
        return value


@functools.cache
def chances(seats: int, target: int) -> Chances:
    """The table of chances for a game of ``seats`` to ``target`` (built once)."""
    return Chances(seats, target)


def _index(cell: Sequence[int], strides: Sequence[int]) -> int:
    return sum(c * s for c, s in zip(cell, strides, strict=True))


def _share(totals: Sequence[int]) -> float:
    top = max(totals)
    return 1 / totals.count(top) if totals[0] == top else 0.0


class Stakes:
    """One seat's value of a deal, in points: the change in its chance to win the game
    that the deal makes, over the chance a point of deal result makes now."""

    __slots__ = ("_chances", "_hanging", "_known", "_now", "_rules", "_scale", "_totals", "seat")

    def __init__(
        self,
        seat: int,
        totals: list[int],
        target: int,
        dealer: int = 0,
        at_stake: int = 0,
        winner_takes_all: bool = False,
    ) -> None:
        self.seat = seat
        self._totals = totals
        self._chances = chances(len(totals), target)
        self._hanging = (at_stake,) if at_stake else ()
        self._rules = (dealer, winner_takes_all)
        self._now = self.chance(totals)
        ahead = [t + _SPREAD if s == seat else t for s, t in enumerate(totals)]
        behind = [t if s == seat else t + _SPREAD for s, t in enumerate(totals)]
        slope = (self.chance(ahead) - self.chance(behind)) / (2 * _SPREAD)
        self._scale = 1 / max(slope, _MIN_SLOPE)
        self._known: dict[tuple[int, ...], float] = {}

    def chance(self, totals: Sequence[int]) -> float:
        """The seat's chance to win from ``totals``, after a deal."""
        seat = self.seat
        return self._chances([totals[seat], *(t for s, t in enumerate(totals) if s != seat)])

    def written(self, points: list[int], bidder: int) -> tuple[int, ...]:
        """What each seat writes for the deal (rule 8, the hanging amount paid with it)."""
        dealer, everything = self._rules
        return settle_fields(points, bidder, dealer, self._hanging, everything, False)[1]

    def value(self, points: list[int], bidder: int) -> float:
        """The deal's worth to the seat, in points (each deal's points valued once: the
        exact solves and the play-outs end on the same few many times over)."""
        key = (bidder, *points)
        known = self._known.get(key)
        if known is not None:
            return known
        written = self.written(points, bidder)
        after = [t + w for t, w in zip(self._totals, written, strict=True)]
        equity = (self.chance(after) - self._now) * self._scale
        value = (1 - _MARGIN_SHARE) * equity + _MARGIN_SHARE * lead(written, self.seat)
        self._known[key] = value
        return value


Values = Callable[[list[int], int], list[float]]
"""Every seat's value of a deal's points, the bidder given."""


def margins(points: list[int], bidder: int) -> list[float]:
    """Every seat's deal result (:func:`~bot.ai.deberts.table.deal_result`): the deal
    valued on its own."""
    return [deal_result(points, bidder, s) for s in range(len(points))]


def worth(know: Knowledge) -> Worth:
    """How the seat values a deal: against the game (:class:`Stakes`)."""
    conventions = know.conventions
    return Stakes(
        know.seat,
        know.totals,
        int(conventions.get("target", 501)),
        know.dealer,
        know.at_stake,
        bool(conventions.get("winner_takes_all", False)),
    ).value


def deal_values(know: Knowledge) -> Values:
    """Every seat's value of a deal as the seat models it: its own :func:`worth`; the
    other's the opposite with two players, the others' their deal results with three."""
    mine = worth(know)
    me = know.seat

    def values(points: list[int], bidder: int) -> list[float]:
        value = mine(points, bidder)
        if len(points) == 2:
            return [value, -value] if me == 0 else [-value, value]
        results = margins(points, bidder)
        results[me] = value
        return results

    return values
