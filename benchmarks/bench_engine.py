"""Print the engine's speed figures for every registered game and player count.

Usage: ``python benchmarks/bench_engine.py [SECONDS]`` (playout time per player count,
default 2). The same measurements as ``closingbell bench``; figures only, never asserted.
"""

from __future__ import annotations

import platform
import sys

import closingbell
from closingbell.sim.bench import DEFAULT_SECONDS, format_table, run_bench


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else DEFAULT_SECONDS
    print(
        f"closingbell {closingbell.__version__}, {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()} ({platform.platform()}), one core"
    )
    print(format_table(run_bench(seconds=seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
