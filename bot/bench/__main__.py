"""``python -m bot.bench <name>``: run a benchmark; its last output line is JSON."""

from __future__ import annotations

import argparse
import importlib
import sys

BENCHMARKS = {"engine": "bot.bench.engine", "load": "bot.bench.load"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench")
    parser.add_argument("name", choices=sorted(BENCHMARKS))
    args, rest = parser.parse_known_args(argv)
    module = importlib.import_module(BENCHMARKS[args.name])
    result: int = module.main(rest)
    return result


if __name__ == "__main__":
    sys.exit(main())
