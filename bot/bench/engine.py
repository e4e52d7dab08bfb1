"""``python -m bot.bench engine``: random deals per second through the rules engine.

Each game's module in this package exposes ``measure(players, seconds, warmup)``
returning figures such as ``play_deals_per_s`` and ``deals_per_s``, and ``PLAYERS``,
the table sizes it measures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform

GAMES = ("deberts", "thousand")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench engine")
    parser.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        help="timed run per figure, in three windows: the median window's rate is shown",
    )
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument("--game", choices=GAMES, action="append")
    args = parser.parse_args(argv)
    results: dict[str, object] = {"python": platform.python_version()}
    for game in args.game or GAMES:
        module = importlib.import_module(f"bot.bench.{game}")
        for players in module.PLAYERS:
            figures = module.measure(players, args.seconds, args.warmup)
            key = f"{game}_{players}p"
            results[key] = figures
            shown = ", ".join(f"{name} {value:,.0f}" for name, value in figures.items())
            print(f"{key:<12} {shown}", flush=True)
    print(json.dumps(results))
    return 0
