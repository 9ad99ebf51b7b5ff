"""CPU seconds each test module costs, browsers and servers included: the suite is CPU-bound on 2 cores, so these,
not the summed test times of a parallel run, say where its wall time goes (docs/testing.md).

Each module runs alone in one pytest process on an otherwise quiet machine; the CPU time is the whole machine's busy
time over the run (from /proc/stat), so the Chromium, site and model-server processes a module starts are counted.

    .venv/bin/python scripts/cpu_per_module.py tests/tasks/test_sandbox_tasks.py tests/cli/test_demo.py
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def busy_seconds() -> float:
    """CPU seconds the whole machine has been busy since boot (all but idle and iowait)."""
    fields = [int(value) for value in open("/proc/stat").readline().split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="+", help="test files, each run alone")
    args = parser.parse_args()
    env = dict(os.environ, VIDEODEMO_REQUIRE_REAL_SERVERS="1")
    print("| module | CPU s | wall s | cores busy | result |\n| --- | ---: | ---: | ---: | --- |", flush=True)
    for module in args.modules:
        busy_before = busy_seconds()
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", module],
                              capture_output=True, text=True, env=env)  # fmt: skip
        wall = time.perf_counter() - started
        busy = busy_seconds() - busy_before
        result = (done.stdout.strip().splitlines() or ["?"])[-1]
        print(f"| `{module}` | {busy:,.0f} | {wall:,.0f} | {busy / wall:.2f} | {result} |", flush=True)


if __name__ == "__main__":
    main()
