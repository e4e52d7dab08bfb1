"""``python -m bot.bench http`` run tiny: the figures are there and plausible."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_http_benchmark_tiny() -> None:
    command = [sys.executable, "-m", "bot.bench", "http", "--calls", "400", "--repeat", "2"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(figures["windows_us"]) == 2
    # a call costs the client some CPU, and far less than a second of it
    assert 0 < figures["cpu_us_per_call"] < 1_000_000
    assert figures["calls_per_window"] == 400
