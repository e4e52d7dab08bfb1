"""How fast this machine thinks, so that the bot players use the time they are given.

A bot decision's work is a fixed amount per millisecond of budget (the ``*_PER_MS``
constants of the levels), never read off the clock, so that a seed always gives the
same decision. Those amounts hold on the machine they were calibrated on: on one twice
as fast a decision takes half its budget, on one twice as slow twice its budget. So the
bot times a fixed piece of work of each game as it starts (:func:`measure`: hard's first
decisions of a seeded game, the shortest time of a few runs) and passes its players the
budget scaled by the game's *speed*: the time that work is calibrated to take
(:data:`REFERENCE_MS`) over its time here. The speeds are rounded and logged, and
``BOT_SPEED`` pins them: a decision is the same for the same seed, level and speed on any
machine.

The matches (``python -m bot.sim``) and deal trials play at speed 1, the calibration
machine's amount of work, whatever machine runs them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from bot.ai.players import DEFAULT_BUDGET_MS, Budgets, choose
from bot.engine import GAME_NAMES, new_game

__all__ = [
    "FASTEST",
    "REFERENCE_MS",
    "SLOWEST",
    "budgets_for",
    "describe",
    "measure",
    "speed_for",
    "speeds",
    "workload_ms",
]

WORKLOAD_BUDGET_MS = 100.0
"""The budget of each decision of the work timed."""
WORKLOAD_DECISIONS = 4
"""Decisions of hard with a choice timed in a game's seeded game."""
WORKLOAD_SEED = 4_242
RUNS = 5
"""The work is timed this many times after a first run, and the shortest time taken: the
machine's speed swings from moment to moment, and a slower run is one that other work
on the machine interrupted, not what the machine can do (the shortest is the one the
``timeit`` documentation recommends reading too). Eight start-ups' runs on a quiet
machine: 104-108 ms in six; 112-141 (a median of 131, the shortest
112) and 104-129 in the other two. The first run also fills the players' caches (it
took about twice as long)."""
REFERENCE_MS = {"deberts": 260.0, "thousand": 215.0}
"""By game, the time the work is calibrated to take: where hard's decisions with a choice
at the default budget take p50 >= 100 ms and p95 <= 250 ms (``python -m bot.bench think``,
6 games). On a machine where the work took about 128 and 104 ms: Deberts' decisions
with a choice p50 135 and 118 ms, p95 206 and 173 (speeds 2.02 and 1.87); Thousand's
p50 104, 110 and 106, p95 172, 206 and 175 (speeds 1.99, 2.07 and 2.04). About a third
of Thousand's decisions with a choice take a few milliseconds whatever the budget: the
exact solves of the last tricks with five cards or fewer, which run through the few
layouts left long before the budget is spent, and the blind pick of a talon of two
players. So its median falls among its searches: the card search's, the auction's, the
give-away's and the contract's, which take about as long as one another (p50 110-150
ms)."""
SLOWEST = 0.25
FASTEST = 4.0
"""The speeds a measurement is held within: a machine four times slower than the
calibration one still gets a quarter of the work rather than none, and a burst of
free CPU during the timing cannot give a decision many times its budget."""


def workload_ms(game_name: str) -> float:
    """The CPU time (ms) of the work timed for ``game_name``: hard's first
    :data:`WORKLOAD_DECISIONS` decisions with a choice in a seeded two-player game
    against easy."""
    spent = 0.0
    game = new_game(game_name, 2, None, seed=WORKLOAD_SEED)
    timed = step = 0
    while timed < WORKLOAD_DECISIONS and (seat := game.current_seat()) is not None:
        thinks = seat == 0 and len(game.legal_actions(seat)) > 1
        level = "hard" if seat == 0 else "easy"
        started = time.thread_time()
        action = choose(game, seat, level, WORKLOAD_SEED + step, WORKLOAD_BUDGET_MS)
        if thinks:
            spent += time.thread_time() - started
            timed += 1
        game.apply(seat, action)
        step += 1
    return spent * 1000


def speed_for(game_name: str, ms: float) -> float:
    """The speed at ``game_name`` of a machine that does its work in ``ms``: rounded to
    hundredths (as it is logged and pinned) and held within :data:`SLOWEST` and
    :data:`FASTEST`."""
    return min(FASTEST, max(SLOWEST, round(REFERENCE_MS[game_name] / max(ms, 1e-3), 2)))


def measure(runs: int = RUNS, names: Sequence[str] = GAME_NAMES) -> dict[str, float]:
    """This machine's speed at each game of ``names``: its work timed ``runs`` times
    after a first run, the shortest time taken."""
    found = {}
    for name in names:
        workload_ms(name)
        found[name] = speed_for(name, min(workload_ms(name) for _ in range(runs)))
    return found


def speeds(pinned: float | None, names: Sequence[str] = GAME_NAMES) -> dict[str, float]:
    """The speed at each game of ``names``: ``pinned`` (``BOT_SPEED``) for every one,
    else measured now."""
    return measure(names=names) if pinned is None else dict.fromkeys(names, pinned)


def describe(found: Mapping[str, float], budgets: Budgets) -> str:
    """The speeds and budgets as the bot logs them: ``deberts 1.97 (394 ms), ...``."""
    return ", ".join(
        f"{name} {speed:.2f} ({budgets[name]:.0f} ms)" for name, speed in found.items()
    )


def budgets_for(found: Mapping[str, float], budget_ms: float = DEFAULT_BUDGET_MS) -> Budgets:
    """What to give a decision of each game for ``budget_ms`` of thinking at the speeds
    ``found``."""
    return {name: budget_ms * speed for name, speed in found.items()}
