"""``python -m bot.bench think``: how long a bot level thinks per decision, and what
the event loop feels meanwhile.

Plays two-player games of ``--level`` against easy in each game and times every
decision of ``--level`` as the running bot makes it: through ``asyncio.to_thread``
while the event loop keeps a ticker every 5 ms (a stand-in for other tables'
presses). Prints decision wall times (p50, p95, max; all decisions and those with
more than one legal action), by phase, and how late the ticker ran (the loop's lag).
Each decision's CPU time in its thread is shown too: on a machine shared with other
work the wall time grows with the load, the CPU time much less. The budget is scaled by
the machine's speed at each game as the bot scales it (:mod:`bot.ai.pace`), timed first
unless ``--speed`` gives it.

The work per decision is a fixed amount per level and budget (so a seed always
gives the same decision): the ``*_PER_MS`` constants of ``bot/ai/deberts/search.py``
and ``bot/ai/thousand/hard.py`` set it, and the machine's speed at each game scales the
budget so that hard's decisions at the default budget take p50 >= 100 ms and p95 <= 250
ms of wall time on any machine; ``REFERENCE_MS`` in ``bot/ai/pace.py`` is calibrated
with this command.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import time
from collections.abc import Sequence
from typing import Any

from bot.ai import pace
from bot.ai.players import DEFAULT_BUDGET_MS, choose
from bot.engine import new_game
from bot.engine.base import Game

GAMES = ("deberts", "thousand")
TICK_S = 0.005


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


async def _ticker(lags: list[float], running: asyncio.Event) -> None:
    while not running.is_set():
        started = time.perf_counter()
        await asyncio.sleep(TICK_S)
        lags.append((time.perf_counter() - started - TICK_S) * 1000)


def _timed_choose(
    game: Game, seat: int, level: str, seed: int, budget_ms: float
) -> tuple[str, float]:
    """The decision and the CPU time its thread spent on it (ms)."""
    started = time.thread_time()
    action = choose(game, seat, level, seed, budget_ms)
    return action, (time.thread_time() - started) * 1000


async def _play(
    game_name: str, level: str, seed: int, budget_ms: float, games: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Decision wall and CPU times of ``level`` by phase, all, and with a choice."""
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for number in range(games):
        game = new_game(game_name, 2, None, seed=seed + number)
        seats = (level, "easy") if number % 2 == 0 else ("easy", level)
        step = 0
        while (seat := game.current_seat()) is not None:
            who = seats[seat]
            decision_seed = (seed + number) * 100_003 + step
            if who == level:
                legal = game.legal_actions(seat)
                phase = str(game.view(seat)["phase"])
                started = time.perf_counter()
                action, cpu_ms = await asyncio.to_thread(
                    _timed_choose, game, seat, level, decision_seed, budget_ms
                )
                ms = (time.perf_counter() - started) * 1000
                kinds = [phase, "all"] + (["with a choice"] if len(legal) > 1 else [])
                for kind in kinds:
                    times.setdefault(kind, []).append(ms)
                    cpu.setdefault(kind, []).append(cpu_ms)
            else:
                action = choose(game, seat, who, decision_seed, budget_ms)
            game.apply(seat, action)
            step += 1
    return times, cpu


async def _measure(
    game_name: str, level: str, seed: int, budget_ms: float, games: int
) -> tuple[dict[str, list[float]], dict[str, list[float]], list[float]]:
    lags: list[float] = []
    done = asyncio.Event()
    ticker = asyncio.create_task(_ticker(lags, done))
    try:
        times, cpu = await _play(game_name, level, seed, budget_ms, games)
    finally:
        done.set()
        await ticker
    return times, cpu, lags


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench think", description=__doc__)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--games", type=int, default=2, help="games per game type")
    parser.add_argument("--seed", type=int, default=70_000)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument(
        "--speed",
        type=float,
        help="the budget's scale, as BOT_SPEED pins it; default: timed now, as the bot "
        "times it at start-up (bot.ai.pace); 1: the work the matches are played at",
    )
    args = parser.parse_args(argv)
    games = args.game or GAMES
    speeds = pace.speeds(args.speed, games)
    budgets = pace.budgets_for(speeds, args.budget_ms)
    results: dict[str, Any] = {"level": args.level, "budget_ms": args.budget_ms, "speed": speeds}
    print("speed " + pace.describe(speeds, budgets), flush=True)
    for game_name in games:
        times, cpu, lags = asyncio.run(
            _measure(game_name, args.level, args.seed, budgets[game_name], args.games)
        )
        figures: dict[str, Any] = {}
        for phase, ms in sorted(times.items()):
            spent = cpu[phase]
            figures[phase] = {
                "n": len(ms),
                "p50": round(percentile(ms, 0.5), 1),
                "p95": round(percentile(ms, 0.95), 1),
                "max": round(max(ms), 1),
                "cpu_p50": round(percentile(spent, 0.5), 1),
                "cpu_p95": round(percentile(spent, 0.95), 1),
            }
            print(
                f"{game_name:<9} {phase:<14} n {len(ms):>5}  wall p50 {percentile(ms, 0.5):7.1f}"
                f"  p95 {percentile(ms, 0.95):7.1f}  max {max(ms):7.1f}  |  cpu p50 "
                f"{percentile(spent, 0.5):7.1f}  p95 {percentile(spent, 0.95):7.1f} ms",
                flush=True,
            )
        figures["loop_lag_ms"] = {
            "ticks": len(lags),
            "p50": round(percentile(lags, 0.5), 2),
            "p99": round(percentile(lags, 0.99), 2),
            "max": round(max(lags, default=0.0), 2),
        }
        print(
            f"{game_name:<9} event loop lag over {len(lags)} ticks: "
            f"p50 {percentile(lags, 0.5):.2f}  p99 {percentile(lags, 0.99):.2f}  "
            f"max {max(lags, default=0.0):.2f} ms",
            flush=True,
        )
        results[game_name] = figures
    print(json.dumps(results))
    return 0
