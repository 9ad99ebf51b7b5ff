"""How long recording every sandbox tutorial takes (target: under 5 minutes for all of them).

Records all tutorial scripts from scratch into a private cache, with both sandbox sites
started on free ports, and prints per tutorial the length of the video, the wall time
and the CPU time it took, then the totals. CPU time counts this process and the children
it waits for (ffmpeg, the Playwright driver and its Chromium), so it shows the work when
other jobs share the machine and wall times stretch.

    .venv/bin/python benchmarks/tutorial_recording.py [--only NAME ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.private_sandbox import private_sandbox  # noqa: E402
from tasks.sandbox.tutorials.recorder import RecordingResult, record_tutorials  # noqa: E402

TARGET_S = 300.0


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="only this tutorial (repeatable)")
    args = parser.parse_args()

    print(f"{'tutorial':<26} {'video':>8} {'wall':>8} {'cpu':>8}")
    marks = {"cpu": 0.0}

    def report(result: RecordingResult) -> None:
        now = cpu_seconds()
        print(f"{result.name:<26} {result.duration_s:7.1f}s {result.elapsed_s:7.1f}s {now - marks['cpu']:7.1f}s")
        marks["cpu"] = now

    with private_sandbox("tutorial-bench-") as sandbox:
        started, cpu_start = time.monotonic(), cpu_seconds()
        marks["cpu"] = cpu_start
        results = record_tutorials(sandbox.settings, only=args.only, force=True, report=report)
    wall, cpu = time.monotonic() - started, cpu_seconds() - cpu_start
    video = sum(result.duration_s for result in results)
    print(f"{'total':<26} {video:7.1f}s {wall:7.1f}s {cpu:7.1f}s   (target: all under {TARGET_S:.0f}s wall)")
    print(f"load average while it ran: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
