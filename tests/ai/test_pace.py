"""The machine's speed scales what the bot players are given to think."""

from __future__ import annotations

import pytest

from bot.ai import pace
from bot.ai.players import DEFAULT_BUDGET_MS
from bot.engine import GAME_NAMES, Game


def test_the_speed_is_the_reference_time_over_the_time_here_rounded_and_bounded() -> None:
    reference = pace.REFERENCE_MS["deberts"]
    assert pace.speed_for("deberts", reference) == 1.0
    assert pace.speed_for("deberts", reference / 2) == 2.0
    assert pace.speed_for("deberts", reference * 3) == 0.33  # to hundredths
    assert pace.speed_for("deberts", reference / 100) == pace.FASTEST
    assert pace.speed_for("deberts", reference * 100) == pace.SLOWEST
    assert pace.speed_for("deberts", 0.0) == pace.FASTEST


def test_budgets_scale_the_default_by_each_games_speed() -> None:
    budgets = pace.budgets_for({"deberts": 1.5, "thousand": 0.5})
    assert budgets == {"deberts": 1.5 * DEFAULT_BUDGET_MS, "thousand": 0.5 * DEFAULT_BUDGET_MS}


def test_the_work_timed_is_hards_decisions_with_a_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, str, float, int]] = []
    real = pace.choose

    def choose(game: Game, seat: int, level: str, seed: int, budget_ms: float) -> str:
        made.append((type(game).name, level, budget_ms, len(game.legal_actions(seat))))
        return real(game, seat, level, seed, budget_ms)

    monkeypatch.setattr(pace, "choose", choose)
    for name in GAME_NAMES:
        assert pace.workload_ms(name) > 0
    for name in GAME_NAMES:
        hard = [m for m in made if m[0] == name and m[1] == "hard" and m[3] > 1]
        assert len(hard) == pace.WORKLOAD_DECISIONS
        assert {m[2] for m in hard} == {pace.WORKLOAD_BUDGET_MS}
    # the same work each time: the same decisions in the same order
    first = list(made)
    made.clear()
    for name in GAME_NAMES:
        pace.workload_ms(name)
    assert made == first


def test_the_speed_is_read_off_the_shortest_run_after_a_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    times = {name: iter([40.0, 300.0, 80.0, 120.0, 500.0, 100.0]) for name in GAME_NAMES}
    monkeypatch.setattr(pace, "workload_ms", lambda name: next(times[name]))
    speeds = pace.measure(runs=5)
    # the first run is left out whatever it took (40 here); of 300, 80, 120, 500, 100
    # the shortest is 80: the others were slowed by other work
    assert speeds == {name: pace.speed_for(name, 80.0) for name in GAME_NAMES}
    assert all(pace.SLOWEST <= s <= pace.FASTEST for s in speeds.values())


def test_a_pinned_speed_is_every_games_and_is_logged_with_its_budget() -> None:
    speeds = pace.speeds(1.5)
    assert speeds == dict.fromkeys(GAME_NAMES, 1.5)
    assert pace.describe(speeds, pace.budgets_for(speeds)) == (
        "deberts 1.50 (300 ms), thousand 1.50 (300 ms)"
    )
