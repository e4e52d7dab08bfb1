"""Ratings per game and table size, by the Plackett-Luce model of ``openskill``.

Rules:

- A pool per game and number of seats (Deberts for 2, for 3; Thousand for 2, 3, 4).
- Bot players are reference players with a fixed rating per level (:data:`BOT_RATINGS`):
  they are never updated, so a person's first games against them already place the
  person on a known scale.
- Only a game that reached its end is rated, once, as it ends: places by the final
  totals, the winner first (ties share a place). A game cancelled or left unfinished is
  not rated. A person who left the table or whose seat a bot took over for their
  timeouts, and did not come back before the end, takes the last place (shared with
  any other such), whatever the bot playing for them scored: leaving does not dodge a
  loss and a bot's play does not earn one a win.
- Farming (:func:`counts`): a game rates a person only if someone other than the
  random bot played against them, and only the first :data:`SAME_LINE_UP_LIMIT`
  games against the same line-up of opponents in :data:`SAME_LINE_UP_WINDOW` seconds
  count; later ones are kept in the history but change no rating. So two accounts
  playing each other over and over, or anyone beating the random player, cannot climb.
- The board orders people by the conservative estimate ``mu - 3 * sigma``
  (``ordinal``) and lists only those with :data:`BOARD_MIN_GAMES` rated games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "BOARD_MIN_GAMES",
    "BOT_RATINGS",
    "SAME_LINE_UP_LIMIT",
    "SAME_LINE_UP_WINDOW",
    "Entrant",
    "Rating",
    "counts",
    "line_up",
    "places",
    "rate",
]

SAME_LINE_UP_LIMIT = 3
SAME_LINE_UP_WINDOW = 7 * 24 * 3600
BOARD_MIN_GAMES = 5

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate the board orders by."""
        return self.mu - 3 * self.sigma


INITIAL = Rating(_MODEL.mu, _MODEL.sigma)

# Fixed reference ratings: the random player loses to anyone trying, the hard one
# beats most people; a small sigma, as they never change.
BOT_RATINGS: dict[str, Rating] = {
    "random": Rating(10.0, 1.0),
    "easy": Rating(22.0, 1.0),
    "hard": Rating(30.0, 1.0),
}


@dataclass(frozen=True)
class Entrant:
    """A seat's player for rating: a person (``key`` like ``"u42"``) with their rating
    before the game, or a bot (``key`` like ``"bot:hard"``, ``rating`` ignored)."""

    key: str
    rating: Rating
    bot: str | None = None

    @classmethod
    def of_bot(cls, level: str) -> Entrant:
        return cls(f"bot:{level}", BOT_RATINGS[level], level)


def places(totals: Sequence[int], winner: int | None, forfeited: Iterable[int] = ()) -> list[int]:
    """Each seat's place (1 first): the winner first, then by total; ``forfeited`` seats
    last, sharing that place."""
    out = set(forfeited)
    playing = [s for s in range(len(totals)) if s not in out]

    def key(seat: int) -> tuple[int, int]:
        return (0 if seat == winner else 1, -totals[seat])

    ranked = sorted(playing, key=key)
    result = [0] * len(totals)
    for i, seat in enumerate(ranked):
        before = ranked[i - 1] if i else None
        same = before is not None and key(before) == key(seat)
        result[seat] = result[before] if same and before is not None else i + 1
    for seat in out:
        result[seat] = len(playing) + 1
    return result


def rate(entrants: Sequence[Entrant], seat_places: Sequence[int]) -> list[Rating]:
    """Each seat's rating after the game (a bot's stays its reference)."""
    teams = [[_MODEL.rating(mu=e.rating.mu, sigma=e.rating.sigma)] for e in entrants]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in seat_places])
    return [
        e.rating if e.bot is not None else Rating(team[0].mu, team[0].sigma)
        for e, team in zip(entrants, rated, strict=True)
    ]


def line_up(entrants: Sequence[Entrant], seat: int) -> str:
    """The opponents of ``seat`` as one key (order-free): what farming repeats."""
    return ",".join(sorted(e.key for i, e in enumerate(entrants) if i != seat))


def counts(
    entrants: Sequence[Entrant], seat: int, now: float, earlier: Iterable[tuple[float, str]]
) -> bool:
    """Whether the game changes the rating of the person at ``seat``.

    ``earlier`` are that person's earlier rated games in the pool: when each ended and
    its :func:`line_up`.
    """
    if entrants[seat].bot is not None:
        return False
    if all(e.bot == "random" for i, e in enumerate(entrants) if i != seat):
        return False
    mine = line_up(entrants, seat)
    recent = sum(1 for when, other in earlier if other == mine and now - when < SAME_LINE_UP_WINDOW)
    return recent < SAME_LINE_UP_LIMIT
