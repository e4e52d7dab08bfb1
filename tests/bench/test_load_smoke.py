"""``python -m bot.bench load`` run tiny: the real bot process, two tables, a few seconds.

Checks that every figure is there and sane, not that the goals are met. The benchmark's
own side runs in the test's process, which has loaded the bot's modules already; the bot
is a process of its own, ``python -m bot``, as in every run of the benchmark.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.bench.__main__ import main as bench_main
from bot.bench.load import moves_checked

FIGURES = (
    "presses_per_s",
    "handling_p50_ms",
    "handling_p99_ms",
    "latency_p50_ms",
    "latency_p99_ms",
    "api_calls_per_card",
    "peak_rss_kb",
    "rss_per_table_kb",
    "window_rss_kb",
    "rss_growth_kb_per_min",
    "db_bytes_per_finished_game",
    "bot_cpu_cores",
    "bench_cpu_cores",
)


def test_load_benchmark_tiny(capsys: pytest.CaptureFixture[str]) -> None:
    options = [
        "load",
        "--tables",
        "2",
        "--game",
        "deberts",
        "--warmup",
        "0",
        "--seconds",
        "60",
        "--games",
        "6",  # three a table: more results than a group gets a minute at Telegram's pace
        "--stall-timeout",
        "20",
    ]
    assert bench_main(options) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert len(lines) > 5, out  # the human-readable table comes first
    figures = json.loads(lines[-1])

    for name in FIGURES:
        assert figures[name] is not None, name
    assert figures["tables"] == 2
    assert figures["finished_games"] >= 6
    assert figures["group_messages_per_minute"] is None  # the fake Telegram sets no limit
    assert figures["presses"] > 10
    assert figures["presses_per_s"] > 0
    assert 0 < figures["latency_p50_ms"] <= figures["latency_p99_ms"] <= figures["latency_max_ms"]
    assert figures["latency_p99_ms"] < 60_000
    # handling is the part of a press's latency after the bot took it from the queue
    assert 0 < figures["handling_p50_ms"] <= figures["handling_p99_ms"]
    assert figures["handling_p99_ms"] <= figures["handling_max_ms"] <= figures["latency_max_ms"]
    assert figures["cards_played"] > 0
    assert 1 <= figures["api_calls_per_card"] < 50
    assert figures["api_calls_by_method"]["answerCallbackQuery"] >= figures["presses"]
    # every card has its answer, hands in private chats and the group's table
    kinds = figures["api_calls_per_card_by_kind"]
    assert kinds["answers"] >= 1
    assert kinds["private"] > 0
    assert kinds["group"] > 0
    assert sum(kinds.values()) <= figures["api_calls_per_card"] + 0.02
    assert figures["presses_per_card"] >= 1
    assert figures["idle_rss_kb"] > 10_000
    assert figures["peak_rss_kb"] >= figures["idle_rss_kb"]
    assert figures["rss_per_table_kb"] >= 0
    start, end = figures["window_rss_kb"]
    assert figures["idle_rss_kb"] <= start <= figures["peak_rss_kb"]
    assert 0 < end <= figures["peak_rss_kb"]
    assert 0 < figures["db_bytes_per_finished_game"] <= figures["db_bytes"]
    assert figures["bot_cpu_cores"] > 0
    assert figures["stalled_tables"] == 0
    assert figures["setup_failures"] == {}
    assert figures["refused_presses"] == 0
    assert figures["moves_taken"] >= figures["cards_played"]
    assert (figures["moves_lost"], figures["moves_doubled"]) == (0, 0)
    assert figures["bot_exit_code"] is not None  # the bot process was stopped


def test_each_benchmark_explains_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    for name, option in (("load", "--tables"), ("engine", "--seconds")):
        with pytest.raises(SystemExit) as stopped:
            bench_main([name, "-h"])
        assert stopped.value.code == 0
        usage = capsys.readouterr().out
        assert usage.startswith(f"usage: python -m bot.bench {name}") and option in usage


def test_moves_taken_twice_from_one_state_or_missing_from_the_database_are_counted() -> None:
    taken = Counter({(1, 5): 1, (1, 6): 1, (1, 7): 2, (2, 3): 1, (2, 4): 1})
    # table 1 holds its last move; table 2's last move (made at version 4) is not there
    assert moves_checked(taken, {1: 8, 2: 4}) == {
        "moves_taken": 6,
        "moves_doubled": 1,
        "moves_lost": 1,
    }
    assert moves_checked(Counter({(1, 5): 1, (1, 6): 1}), {1: 7})["moves_lost"] == 0
