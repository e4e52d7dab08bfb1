"""bot.sim: the contract report, saved and resumed matches, the ladder, deal trials."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bot import sim, trials
from bot.ai import choose
from bot.engine import new_game
from bot.sim import GameRecord, MatchSpec, main, play_game, raise_effect, summarise


def test_raise_effect_counts_gains_and_losses_against_the_bid() -> None:
    contracts = [
        (0, 100, 100, 90),  # not raised: left out
        (0, 100, 120, 130),  # made 120 where the bid made 100: +20
        (0, 100, 120, 110),  # failed 120 where the bid made 100: -220
        (0, 100, 120, 90),  # failed either way: -120 against -100, -20
    ]
    assert raise_effect(contracts) == (3, 20, 240)


def test_saved_games_report_as_played(tmp_path: Path) -> None:
    record = play_game(MatchSpec("thousand", ("easy", "random"), seed=3, rotation=0))
    assert record.contracts and len(record.deltas) == record.deals
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    summary = summarise([record], ["easy", "random"])
    easy = summary["levels"]["easy"]
    seat = record.seat_levels.index("easy")
    assert easy["points_per_deal"] == sum(d[seat] for d in record.deltas) / record.deals
    assert easy["conceded"] == record.conceded.count(seat)
    saved = tmp_path / "games.jsonl"
    saved.write_text(json.dumps(record.to_json()) + "\n")
    args = ["--game", "thousand", "--levels", "easy,random", "--contracts", "--report"]
    assert main([*args, str(saved)]) == 0


def test_ladder_plays_each_pair_of_levels_in_each_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sim.ladder_levels("deberts") == ("random", "easy", "hard", "ismcts")
    assert sim.ladder_levels("thousand") == ("random", "easy", "hard", "ismcts")
    # two quick levels keep the test short; the ladder itself takes every level
    monkeypatch.setattr(sim, "ladder_levels", lambda game: ("random", "easy"))
    assert main(["--ladder", "--games", "2", "--seed", "5"]) == 0
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["ladder"]
    assert [(r["game"], r["level"], r["against"], r["games"]) for r in rows] == [
        ("deberts", "easy", "random", 2),
        ("thousand", "easy", "random", 2),
    ]
    for row in rows:
        low, high = row["win_rate_ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1


def test_a_resumed_match_plays_only_the_games_not_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "games.jsonl"
    match = ["--game", "deberts", "--levels", "easy,random", "--seed", "7", "--save", str(saved)]
    assert main([*match, "--games", "2"]) == 0
    first = [json.loads(line) for line in saved.read_text().splitlines()]
    assert [(g["seed"], g["rotation"]) for g in first] == [(7, 0), (7, 1)]
    capsys.readouterr()

    assert main([*match, "--games", "4", "--resume"]) == 0
    games = [json.loads(line) for line in saved.read_text().splitlines()]
    assert games[:2] == first
    assert [(g["seed"], g["rotation"]) for g in games] == [(7, 0), (7, 1), (8, 0), (8, 1)]
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["levels"]["easy"]["games"] == 4
    fresh = play_game(MatchSpec("deberts", ("easy", "random"), seed=8, rotation=1))
    assert GameRecord.from_json(games[3]).totals == fresh.totals


def test_a_level_against_itself_scores_each_deal_from_both_seats_alike() -> None:
    # Duplicate deals: the same level in both seats writes the same deal twice, once
    # from each side, so what one seat gains the other loses.
    easy = trials.Player.parse("easy")
    results = trials.run_trials("deberts", 2, [easy], "easy", deals=4, seed=11, budget_ms=5)
    by_seed: dict[int, list[float]] = {}
    for result in results:
        by_seed.setdefault(result.seed, []).append(result.value)
    assert sorted(by_seed) == [11, 12, 13, 14]
    assert all(len(values) == 2 and values[0] == -values[1] for values in by_seed.values())
    assert any(values[0] for values in by_seed.values())


@pytest.mark.parametrize("game", ["deberts", "thousand"])
def test_a_player_split_by_phase_bids_as_its_bidding_level(game: str) -> None:
    # easy:random bids as easy does, so its deals reach the card play as easy's do (the
    # same bidder each time); its cards are random's, and that shows in the values.
    players = [trials.Player.parse(p) for p in ("easy", "easy:random", "random:easy")]
    results = trials.run_trials(game, 2, players, "easy", deals=6, seed=40, budget_ms=5)
    deals = {(r.player, r.seed, r.seat): r for r in results}
    keys = [(seed, seat) for seed in range(40, 46) for seat in (0, 1)]
    assert all(deals["easy", *k].bidder == deals["easy:random", *k].bidder for k in keys)
    assert any(deals["easy", *k].value != deals["easy:random", *k].value for k in keys)
    summary = trials.compare(results, players)
    rows = {row["player"]: row for row in summary["players"]}
    assert rows["easy"]["gain"] == 0.0 and rows["easy"]["deals"] == 12
    assert rows["easy:random"]["gain"] == pytest.approx(
        sum(deals["easy:random", *k].value - deals["easy", *k].value for k in keys) / 12
    )
    assert rows["easy:random"]["bidder_deals"] + rows["easy:random"]["defender_deals"] == 12


def test_deal_trials_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--game", "thousand", "--deals", "2", "--seed", "3", "--budget-ms", "5"]
    assert main([*args, "--compare", "easy,random", "--against", "easy"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [row["player"] for row in summary["players"]] == ["easy", "random"]
    assert summary["seeds"] == [3, 4] and summary["against"] == "easy"
    with pytest.raises(SystemExit):
        main([*args, "--compare", "easy,clever"])


def test_a_trial_after_earlier_deals_scores_the_deal_that_follows_them() -> None:
    # After one deal that easy plays in every seat, easy in the trial's seat plays the
    # second deal of the same game as easy everywhere would: its row is the trial's.
    trial = trials.Trial(
        "thousand",
        2,
        seed=21,
        seat=1,
        player=trials.Player.parse("easy"),
        against="easy",
        budget_ms=5,
        after=1,
    )
    result = trials.play_deal(trial)
    game = new_game("thousand", 2, seed=21)
    step = 0
    while game.rows_scored < 2:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, choose(game, seat, "easy", seed=21 * 7919 + step, budget_ms=5))
        step += 1
    deltas = game.scoresheet().rows[1].deltas
    assert result.value == deltas[1] - deltas[0]
    assert result.value != trials.play_deal(dataclasses.replace(trial, after=0)).value


def test_a_report_takes_the_game_and_levels_from_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the third game of a three-seat match: its levels seated two seats round
    record = play_game(MatchSpec("thousand", ("easy", "random", "random"), seed=4, rotation=2))
    assert record.seat_levels == ("random", "random", "easy")
    saved = tmp_path / "games.jsonl"
    saved.write_text(json.dumps(record.to_json()) + "\n")
    assert main(["--report", str(saved)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["game"] == "thousand"
    assert summary["seats"] == ["easy", "random", "random"]
    assert summary["levels"]["easy"]["games"] == 1
    # records saved before the game was kept: --game says it, the default is Deberts
    old = record.to_json()
    del old["game"]
    saved.write_text(json.dumps(old) + "\n")
    assert main(["--report", str(saved)]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["game"] == "deberts"
