"""``python -m bot.sim``: bot-versus-bot matches in duplicate form.

Every game seed is played once per rotation of the levels over the seats, so
each level meets the same deals from every seat and luck of the cards cancels
out. Prints a progress bar (stderr), a results table, and a JSON last line.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import itertools
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot import trials
from bot.ai import LEVELS, choose
from bot.ai.players import DEFAULT_BUDGET_MS, REFERENCE_LEVELS
from bot.engine import GAME_NAMES, game_class, new_game

__all__ = ["GameRecord", "MatchSpec", "play_game", "summarise", "wilson_interval"]


@dataclass(frozen=True)
class MatchSpec:
    game: str
    levels: tuple[str, ...]  # one per seat before rotation
    seed: int
    rotation: int
    conventions: dict[str, Any] = field(default_factory=dict)
    budget_ms: float = DEFAULT_BUDGET_MS

    def seat_levels(self) -> tuple[str, ...]:
        n = len(self.levels)
        return tuple(self.levels[(seat - self.rotation) % n] for seat in range(n))


@dataclass
class GameRecord:
    seat_levels: tuple[str, ...]
    winner: int | None
    totals: tuple[int, ...]
    deals: int
    # per deal: (bidder seat or None, contract made?)
    bids: list[tuple[int, bool]]
    decision_ms: dict[str, list[float]]
    # per scored deal: what each seat wrote
    deltas: list[tuple[int, ...]] = field(default_factory=list)
    # per contract played out (Thousand): (bidder, bid, contract, bidder's deal points)
    contracts: list[tuple[int, int, int, int]] = field(default_factory=list)
    # per deal conceded (Thousand): the bidder's seat
    conceded: list[int] = field(default_factory=list)
    # the game's seed and rotation (None in records saved before they were kept)
    seed: int | None = None
    rotation: int | None = None
    # the game played (None in records saved before it was kept)
    game: str | None = None

    def match_levels(self) -> tuple[str, ...]:
        """The match's levels in the order it was started with (``--levels``)."""
        n = len(self.seat_levels)
        turn = self.rotation or 0
        return tuple(self.seat_levels[(seat + turn) % n] for seat in range(n))

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(
            seat_levels=tuple(data["seat_levels"]),
            winner=data["winner"],
            totals=tuple(data["totals"]),
            deals=data["deals"],
            bids=[(bidder, made) for bidder, made in data["bids"]],
            decision_ms={level: list(ms) for level, ms in data["decision_ms"].items()},
            deltas=[tuple(row) for row in data["deltas"]],
            contracts=[(a, b, c, d) for a, b, c, d in data["contracts"]],
            conceded=list(data.get("conceded", [])),
            seed=data.get("seed"),
            rotation=data.get("rotation"),
            game=data.get("game"),
        )


def play_game(spec: MatchSpec, max_actions: int = 20_000) -> GameRecord:
    """Play one whole game with the spec's levels seated by its rotation."""
    cls = game_class(spec.game)
    conventions = cls.conventions_type.from_json(spec.conventions) if spec.conventions else None
    game = new_game(spec.game, len(spec.levels), conventions, seed=spec.seed)
    seat_levels = spec.seat_levels()
    timings: dict[str, list[float]] = {level: [] for level in set(seat_levels)}
    for step in range(max_actions):
        seat = game.current_seat()
        if seat is None:
            break
        level = seat_levels[seat]
        started = time.perf_counter()
        action = choose(
            game, seat, level, seed=spec.seed * 100_003 + step, budget_ms=spec.budget_ms
        )
        timings[level].append((time.perf_counter() - started) * 1000)
        game.apply(seat, action)
    else:
        raise RuntimeError(f"game {spec} did not finish in {max_actions} actions")
    sheet = game.scoresheet()
    bids = [
        (row.notes["bidder"], _contract_made(row.notes))
        for row in sheet.rows
        if row.notes.get("bidder") is not None
        and ("contract_made" in row.notes or "result" in row.notes or "outcome" in row.notes)
    ]
    deltas = [tuple(row.deltas) for row in sheet.rows]
    contracts = [
        (
            row.notes["bidder"],
            row.notes["bid"],
            row.notes["contract"],
            row.notes["points"][row.notes["bidder"]],
        )
        for row in sheet.rows
        if row.notes.get("bidder") is not None
        and row.notes.get("result") in ("made", "failed")
        and isinstance(row.notes.get("bid"), int)
        and isinstance(row.notes.get("contract"), int)
    ]
    conceded = [
        row.notes["bidder"]
        for row in sheet.rows
        if row.notes.get("bidder") is not None and row.notes.get("result") == "conceded"
    ]
    return GameRecord(
        seat_levels,
        sheet.winner,
        sheet.totals,
        len(sheet.rows),
        bids,
        timings,
        deltas,
        contracts,
        conceded,
        spec.seed,
        spec.rotation,
        spec.game,
    )


def _signed(target: int, points: int) -> int:
    return target if points >= target else -target


def raise_effect(contracts: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int]:
    """Contracts named above the bid: how many, the points they gained and lost.

    Each is set against the same deal played at a contract equal to the bid:
    a raise gains where the bidder made the higher contract, and loses where it
    failed a contract it would have made (or failed by more).
    """
    count = gained = lost = 0
    for _, bid, contract, points in contracts:
        if contract <= bid:
            continue
        count += 1
        change = _signed(contract, points) - _signed(bid, points)
        if change > 0:
            gained += change
        else:
            lost -= change
    return count, gained, lost


def _contract_made(notes: dict[str, Any]) -> bool:
    """Thousand notes ``result`` (made/failed/conceded), Deberts ``outcome`` (made/bait/hanging)."""
    if "contract_made" in notes:
        return bool(notes["contract_made"])
    return notes.get("result", notes.get("outcome")) == "made"


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def summarise(records: Sequence[GameRecord], levels: Sequence[str]) -> dict[str, Any]:
    """Per level: game win rate with its 95% CI, score margin per deal, bids made, timings."""
    summary: dict[str, Any] = {"games": len(records), "levels": {}}
    for level in dict.fromkeys(levels):
        wins = 0.0
        seats_played = 0
        margins: list[float] = []
        bids_made = bids_total = 0
        ms: list[float] = []
        written: list[int] = []
        contracts: list[tuple[int, int, int, int]] = []
        conceded = 0
        for record in records:
            seats = [s for s, lv in enumerate(record.seat_levels) if lv == level]
            if not seats:
                continue
            seats_played += 1
            if record.winner is not None and record.winner in seats:
                wins += 1
            others = [s for s in range(len(record.seat_levels)) if s not in seats]
            if others and record.deals:
                mine = statistics.fmean(record.totals[s] for s in seats)
                theirs = statistics.fmean(record.totals[s] for s in others)
                margins.append((mine - theirs) / record.deals)
            for bidder, made in record.bids:
                if bidder in seats:
                    bids_total += 1
                    bids_made += made
            ms.extend(record.decision_ms.get(level, ()))
            written.extend(row[s] for row in record.deltas for s in seats)
            contracts.extend(c for c in record.contracts if c[0] in seats)
            conceded += sum(1 for bidder in record.conceded if bidder in seats)
        raised, gained, lost = raise_effect(contracts)
        contracts_made = sum(points >= contract for _, _, contract, points in contracts)
        low, high = wilson_interval(wins, seats_played)
        summary["levels"][level] = {
            "games": seats_played,
            "win_rate": wins / seats_played if seats_played else 0.0,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "margin_per_deal": statistics.fmean(margins) if margins else 0.0,
            "bidder_success": bids_made / bids_total if bids_total else None,
            "bids": bids_total,
            "ms_p50": _percentile(ms, 0.50),
            "ms_p95": _percentile(ms, 0.95),
            "decisions": len(ms),
            "points_per_deal": statistics.fmean(written) if written else 0.0,
            "contracts": len(contracts),
            "contracts_made": contracts_made,
            "conceded": conceded,
            "raised": raised,
            "raise_gained": gained,
            "raise_lost": lost,
            "raise_net_per_game": (gained - lost) / seats_played if seats_played else 0.0,
        }
    return summary


def _specs(
    game: str,
    levels: tuple[str, ...],
    games: int,
    seed: int,
    conventions: dict[str, Any],
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> Iterator[MatchSpec]:
    rotations = len(levels)
    for i in itertools.count():
        for rotation in range(rotations):
            if i * rotations + rotation >= games:
                return
            yield MatchSpec(game, levels, seed + i, rotation, conventions, budget_ms)


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    bar = "#" * filled + "-" * (width - filled)
    sys.stderr.write(f"\r[{bar}] {done}/{total} games  {elapsed:5.0f}s  eta {eta:5.0f}s")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _print_table(summary: dict[str, Any]) -> None:
    print(
        f"{'level':<8} {'games':>6} {'win%':>6} {'95% CI':>15} {'margin/deal':>12} "
        f"{'bids made':>10} {'ms p50':>7} {'ms p95':>7}"
    )
    for level, row in summary["levels"].items():
        low, high = row["win_rate_ci95"]
        success = "-" if row["bidder_success"] is None else f"{100 * row['bidder_success']:.1f}%"
        print(
            f"{level:<8} {row['games']:>6} {100 * row['win_rate']:>5.1f}% "
            f"{f'{100 * low:.1f}-{100 * high:.1f}%':>15} {row['margin_per_deal']:>12.2f} "
            f"{success:>10} {row['ms_p50']:>7.1f} {row['ms_p95']:>7.1f}"
        )


def _print_contracts(summary: dict[str, Any]) -> None:
    """The bidder's side of a Thousand match: contracts made and what raising did."""
    print(
        f"{'level':<8} {'contracts':>9} {'made':>6} {'pts/deal':>9} {'raised':>7} "
        f"{'raise +':>8} {'raise -':>8} {'net/game':>9} {'conceded':>9}"
    )
    for level, row in summary["levels"].items():
        contracts = row["contracts"]
        made = f"{100 * row['contracts_made'] / contracts:.1f}%" if contracts else "-"
        print(
            f"{level:<8} {contracts:>9} {made:>6} {row['points_per_deal']:>9.2f} "
            f"{row['raised']:>7} {row['raise_gained']:>8} {row['raise_lost']:>8} "
            f"{row['raise_net_per_game']:>9.2f} {row['conceded']:>9}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.sim", description=__doc__)
    parser.add_argument(
        "--game", choices=GAME_NAMES, help="default: deberts, or with --report the files' game"
    )
    parser.add_argument(
        "--levels",
        help="comma-separated level per seat, e.g. hard,easy or hard,easy,easy "
        "(Thousand also hard,easy,easy,easy); default: easy,random, or with --report the "
        "files' levels",
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=DEFAULT_BUDGET_MS,
        help="time budget per decision passed to the bot players",
    )
    parser.add_argument(
        "--contracts",
        action="store_true",
        help="also print each level's contracts as bidder: made, points per deal, raises",
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="append each game's record to FILE (JSON lines), to report on later",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --save: play only the games FILE does not hold yet, and report on all "
        "of them, so a match stopped part-way goes on where it stopped",
    )
    parser.add_argument(
        "--report",
        nargs="+",
        metavar="FILE",
        help="play nothing: summarise the games saved in FILE(s) by --save",
    )
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="play every level against every other (two players, each game, --games "
        "games a pair from --seed) and print each pair's win rate with its 95%% interval",
    )
    parser.add_argument(
        "--deals",
        type=int,
        metavar="N",
        help="deal trials instead of games: the first deals of N seeds from --seed, from "
        "every seat, played by each player of --compare against --against in the "
        "other seats (bot.trials)",
    )
    parser.add_argument(
        "--compare",
        default="hard,easy:hard",
        help="with --deals: the players of the trial's seat, comma-separated; a level, "
        "or bidding:play levels (easy:hard bids as easy and plays the cards as hard)",
    )
    parser.add_argument("--against", default="easy", help="with --deals: the other seats' level")
    parser.add_argument(
        "--after",
        type=int,
        default=0,
        metavar="K",
        help="with --deals: the trial's deal is the one after K deals that --against plays "
        "in every seat (so the players have seen the others play)",
    )
    parser.add_argument("--seats", type=int, default=2, help="with --deals: players at the table")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table convention, e.g. --set target=301",
    )
    args = parser.parse_args(argv)
    loaded = _load(args.report) if args.report else []
    args.game = args.game or _saved_game(loaded) or "deberts"
    if args.ladder:
        return _ladder(args.games, args.seed, args.jobs, args.budget_ms, args.save)
    if args.deals:
        return _trials(args, parser)
    if args.levels:
        levels = tuple(args.levels.split(","))
    else:
        levels = loaded[0].match_levels() if loaded else ("easy", "random")
    if len(levels) not in _seat_counts(args.game):
        parser.error(
            "two to four levels, one per seat (four for Thousand only)"
            if args.game == "thousand"
            else "two or three levels, one per seat"
        )
    _check_levels(levels, parser)
    conventions = _parse_conventions(args.game, args.set, parser)
    if args.report:
        summary = summarise(loaded, levels)
        summary.update(game=args.game, seats=list(levels), files=args.report)
        _print_table(summary)
        if args.contracts:
            _print_contracts(summary)
        print(json.dumps(summary))
        return 0
    if args.resume and not args.save:
        parser.error("--resume goes with --save FILE")
    specs = list(_specs(args.game, levels, args.games, args.seed, conventions, args.budget_ms))
    saved = _saved_games(args.save, specs) if args.resume else []
    played = {(record.seed, record.rotation) for record in saved}
    specs = [spec for spec in specs if (spec.seed, spec.rotation) not in played]
    started = time.perf_counter()
    records = saved + _play_all(specs, args.jobs, args.save)
    summary = summarise(records, levels)
    summary.update(
        game=args.game,
        players=len(levels),
        seats=list(levels),
        conventions=conventions,
        budget_ms=args.budget_ms,
        seconds=round(time.perf_counter() - started, 1),
    )
    _print_table(summary)
    if args.contracts:
        _print_contracts(summary)
    print(json.dumps(summary))
    return 0


def _seat_counts(game: str) -> range:
    """How many players ``game`` seats: two up to its most."""
    return range(2, game_class(game).max_seats + 1)


def _check_levels(levels: Sequence[str], parser: argparse.ArgumentParser) -> None:
    known = (*LEVELS, *REFERENCE_LEVELS)
    unknown = [level for level in dict.fromkeys(levels) if level not in known]
    if unknown:
        parser.error(f"unknown level(s) {unknown}; known: {sorted(known)}")


def _trials(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    players = [trials.Player.parse(text) for text in args.compare.split(",")]
    _check_levels([*(lv for p in players for lv in (p.bidding, p.play)), args.against], parser)
    sizes = _seat_counts(args.game)
    if args.seats not in sizes:
        parser.error(f"{args.game} is played by {' or '.join(map(str, sizes))}")
    started = time.perf_counter()
    results = trials.run_trials(
        args.game,
        args.seats,
        players,
        args.against,
        args.deals,
        args.seed,
        args.jobs,
        args.budget_ms,
        args.after,
    )
    summary = trials.compare(results, players)
    summary.update(
        game=args.game,
        seats=args.seats,
        against=args.against,
        seeds=[args.seed, args.seed + args.deals - 1],
        after=args.after,
        budget_ms=args.budget_ms,
        seconds=round(time.perf_counter() - started, 1),
    )
    trials.print_comparison(summary)
    print(json.dumps(summary))
    return 0


def _saved_games(path: str, specs: Sequence[MatchSpec]) -> list[GameRecord]:
    """The records in ``path`` of games among ``specs`` (same seed, rotation and seats)."""
    if not Path(path).exists():
        return []
    wanted: dict[tuple[int | None, int | None], tuple[str, ...]] = {
        (spec.seed, spec.rotation): spec.seat_levels() for spec in specs
    }
    return [
        record
        for record in _load([path])
        if wanted.get((record.seed, record.rotation)) == record.seat_levels
    ]


def _play_all(specs: Sequence[MatchSpec], jobs: int, save_path: str | None) -> list[GameRecord]:
    """Play ``specs`` (in ``jobs`` processes), appending each record to ``save_path``."""
    save = open(save_path, "a", encoding="utf-8") if save_path else None  # noqa: SIM115
    records: list[GameRecord] = []
    started = time.perf_counter()
    _progress(0, len(specs), started)
    try:
        if jobs > 1:
            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                for record in pool.imap_unordered(play_game, specs):
                    records.append(record)
                    _keep(save, record)
                    _progress(len(records), len(specs), started)
        else:
            for spec in specs:
                records.append(play_game(spec))
                _keep(save, records[-1])
                _progress(len(records), len(specs), started)
    finally:
        if save is not None:
            save.close()
    return records


LADDER_ORDER = ("hard", "ismcts", "easy", "random")
"""The ladder names each pair's level of this order first."""


def ladder_levels(game: str) -> tuple[str, ...]:
    """The levels a game has: the shared random, its own, and its reference levels."""
    module = importlib.import_module(f"bot.ai.{game}")
    policies: dict[str, Any] = module.POLICIES
    return ("random", *(lv for lv in (*LEVELS, *REFERENCE_LEVELS) if lv in policies))


def _ladder(games: int, seed: int, jobs: int, budget_ms: float, save: str | None) -> int:
    """Every level against every other, two players, in each game: a table of win rates."""
    rows: list[dict[str, Any]] = []
    for game in GAME_NAMES:
        levels = ladder_levels(game)
        for pair in itertools.combinations(sorted(levels, key=LADDER_ORDER.index), 2):
            specs = list(_specs(game, pair, games, seed, {}, budget_ms))
            summary = summarise(_play_all(specs, jobs, save), pair)
            row = summary["levels"][pair[0]]
            rows.append(
                {
                    "game": game,
                    "level": pair[0],
                    "against": pair[1],
                    "games": row["games"],
                    "win_rate": round(row["win_rate"], 4),
                    "win_rate_ci95": row["win_rate_ci95"],
                    "margin_per_deal": round(row["margin_per_deal"], 2),
                }
            )
    print(f"{'game':<9} {'level':<7} {'against':<8} {'games':>6} {'win%':>6} {'95% CI':>13}")
    for row in rows:
        low, high = row["win_rate_ci95"]
        print(
            f"{row['game']:<9} {row['level']:<7} {row['against']:<8} {row['games']:>6} "
            f"{100 * row['win_rate']:>5.1f}% {f'{100 * low:.1f}-{100 * high:.1f}%':>13}"
        )
    print(json.dumps({"ladder": rows, "seed": seed, "budget_ms": budget_ms}))
    return 0


def _keep(save: TextIO | None, record: GameRecord) -> None:
    if save is not None:
        save.write(json.dumps(record.to_json()) + "\n")
        save.flush()


def _load(paths: Sequence[str]) -> list[GameRecord]:
    records: list[GameRecord] = []
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            records.extend(GameRecord.from_json(json.loads(line)) for line in lines if line.strip())
    return records


def _saved_game(records: Sequence[GameRecord]) -> str | None:
    """The game the saved records are of, when they say (records saved before the game
    was kept do not)."""
    games = {record.game for record in records} - {None}
    return games.pop() if len(games) == 1 else None


def _parse_conventions(
    game: str, pairs: list[str], parser: argparse.ArgumentParser
) -> dict[str, Any]:
    options = game_class(game).conventions_type.options()
    chosen: dict[str, Any] = {}
    for pair in pairs:
        name, _, raw = pair.partition("=")
        if name not in options:
            parser.error(f"unknown convention {name!r}; known: {', '.join(options)}")
        matches = [value for value in options[name] if str(value).lower() == raw.lower()]
        if not matches:
            parser.error(f"{name} takes one of {options[name]}")
        chosen[name] = matches[0]
    return chosen


if __name__ == "__main__":
    sys.exit(main())
