"""Deal trials: the same deals played from one seat by different players.

A match (:mod:`bot.sim`) tells which level wins games; a trial tells where one
player gains on another, deal by deal. For each seed and each seat, one deal of a new
game (the first, or the one after a few that the other seats' level plays alone) is
played once per *player* in that seat, the other seats by one level, and valued for
the seat as it was written: its points less the others' mean.
Every player meets the same cards and, where it acts as another would, the same
replies, so the difference between two players is measured on identical deals.

A player is a level (``hard``), or a level for the bidding (the auction, and in
Thousand the talon, the give-away and the contract) and one for the card play
(``easy:hard``): players with the same bidding level start their card play from the
same positions, which splits a level's gain into the two parts.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai import choose
from bot.ai.players import DEFAULT_BUDGET_MS
from bot.engine import new_game

__all__ = [
    "DealResult",
    "Player",
    "Trial",
    "compare",
    "play_deal",
    "print_comparison",
    "run_trials",
]


@dataclass(frozen=True)
class Player:
    """Who plays the trial's seat: ``bidding`` before the card play, ``play`` in it."""

    bidding: str
    play: str

    @classmethod
    def parse(cls, text: str) -> Player:
        """``"hard"`` (one level throughout) or ``"easy:hard"`` (bidding, play)."""
        bidding, _, play = text.partition(":")
        return cls(bidding, play or bidding)

    def __str__(self) -> str:
        return self.bidding if self.bidding == self.play else f"{self.bidding}:{self.play}"

    def level(self, phase: str) -> str:
        return self.play if phase == "play" else self.bidding


@dataclass(frozen=True)
class Trial:
    """One deal of a new ``game`` for ``seats`` from ``seed``, ``player`` in ``seat`` and
    ``against`` in the others: the first, or the one after ``after`` deals played by
    ``against`` in every seat (the same for every player: a table the others have
    played at, and so shown how they play)."""

    game: str
    seats: int
    seed: int
    seat: int
    player: Player
    against: str
    budget_ms: float = DEFAULT_BUDGET_MS
    after: int = 0


@dataclass(frozen=True)
class DealResult:
    """What the deal wrote for the trial's seat, less the others' mean (``value``), and
    whether that seat was the bidder (``None``: the row names no bidder)."""

    seed: int
    seat: int
    player: str
    value: float
    bidder: bool | None


def play_deal(trial: Trial, max_actions: int = 2_000) -> DealResult:
    """Play the trial's deal up to its scoresheet row."""
    game = new_game(trial.game, trial.seats, seed=trial.seed)
    for step in range(max_actions):
        if game.rows_scored > trial.after or game.is_over:
            break
        seat = game.current_seat()
        if seat is None:
            break
        mine = seat == trial.seat and game.rows_scored == trial.after
        level = trial.player.level(game.phase) if mine else trial.against
        action = choose(game, seat, level, seed=trial.seed * 7919 + step, budget_ms=trial.budget_ms)
        game.apply(seat, action)
    else:
        raise RuntimeError(f"{trial} wrote no row in {max_actions} actions")
    rows = game.scoresheet().rows
    if len(rows) <= trial.after:
        raise RuntimeError(f"{trial}: the game ended before the trial's deal")
    row = rows[trial.after]
    others = [d for s, d in enumerate(row.deltas) if s != trial.seat]
    bidder = row.notes.get("bidder")
    return DealResult(
        trial.seed,
        trial.seat,
        str(trial.player),
        row.deltas[trial.seat] - statistics.fmean(others),
        None if bidder is None else bidder == trial.seat,
    )


def run_trials(
    game: str,
    seats: int,
    players: Sequence[Player],
    against: str,
    deals: int,
    seed: int,
    jobs: int = 1,
    budget_ms: float = DEFAULT_BUDGET_MS,
    after: int = 0,
) -> list[DealResult]:
    """Every player's deals: seeds ``seed`` to ``seed + deals - 1``, each from every seat,
    after ``after`` deals that ``against`` plays in every seat."""
    trials = [
        Trial(game, seats, s, seat, player, against, budget_ms, after)
        for player in players
        for s in range(seed, seed + deals)
        for seat in range(seats)
    ]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            return pool.map(play_deal, trials, chunksize=4)
    return [play_deal(trial) for trial in trials]


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return statistics.fmean(values), se


def compare(results: Sequence[DealResult], players: Sequence[Player]) -> dict[str, Any]:
    """Per player: the mean value a deal (and its standard error), as bidder and as
    defender by the first player's deals (the same positions for each player), and the
    mean difference from the first player on the same deals."""
    by_player: dict[str, dict[tuple[int, int], DealResult]] = {}
    for result in results:
        by_player.setdefault(result.player, {})[(result.seed, result.seat)] = result
    base = by_player.get(str(players[0]), {})
    rows = []
    for player in players:
        mine = by_player.get(str(player), {})
        keys = [k for k in base if k in mine]
        row: dict[str, Any] = {"player": str(player), "deals": len(mine)}
        row["value"], row["value_se"] = _mean_se([r.value for r in mine.values()])
        for role, bidding in (("bidder", True), ("defender", False)):
            values = [mine[k].value for k in keys if base[k].bidder is bidding]
            row[role], row[f"{role}_se"] = _mean_se(values)
            row[f"{role}_deals"] = len(values)
        row["gain"], row["gain_se"] = _mean_se([mine[k].value - base[k].value for k in keys])
        rows.append(row)
    return {"players": rows}


def print_comparison(summary: dict[str, Any]) -> None:
    """:func:`compare`'s table, a row per player."""
    rows = summary["players"]
    first = rows[0]["player"] if rows else ""
    print(
        f"{'player':<14} {'deals':>6} {'value/deal':>16} {'as bidder':>16} "
        f"{'as defender':>16} {'gain on ' + first:>20}"
    )
    for row in rows:
        cells = [
            f"{row[key]:+.2f} ({row[key + '_se']:.2f})"
            for key in ("value", "bidder", "defender", "gain")
        ]
        print(
            f"{row['player']:<14} {row['deals']:>6} {cells[0]:>16} {cells[1]:>16} "
            f"{cells[2]:>16} {cells[3]:>20}"
        )
