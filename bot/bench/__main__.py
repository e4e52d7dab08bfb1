"""``python -m bot.bench <name>``: run a benchmark; its last output line is JSON."""

from __future__ import annotations

import argparse
import importlib
import sys

BENCHMARKS = {"engine": "bot.bench.engine", "load": "bot.bench.load", "think": "bot.bench.think"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench")
    parser.add_argument("name", choices=sorted(BENCHMARKS))
    # everything after the name is the benchmark's, its own -h included
    parser.add_argument("options", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    module = importlib.import_module(BENCHMARKS[args.name])
    result: int = module.main(args.options)
    return result


if __name__ == "__main__":
    sys.exit(main())
