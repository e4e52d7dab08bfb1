"""``python -m bot.bench think``: decision times of a level, and the loop's lag meanwhile."""

from __future__ import annotations

import json

import pytest

from bot.bench.think import main, percentile


def test_percentile_takes_the_value_at_or_above_the_share() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95)) == (50.0, 95.0)
    assert percentile([], 0.5) == 0.0


def test_think_times_every_decision_of_the_level(capsys: pytest.CaptureFixture[str]) -> None:
    # a tiny budget keeps it short: the figures' shape is what is checked here
    args = ["--game", "deberts", "--games", "1", "--budget-ms", "1", "--level", "hard"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["deberts"]
    assert figures["all"]["n"] >= figures["with a choice"]["n"] > 0
    assert figures["all"]["n"] == sum(
        row["n"]
        for phase, row in figures.items()
        if phase not in ("all", "with a choice") and phase != "loop_lag_ms"
    )
    assert figures["loop_lag_ms"]["ticks"] > 0
