"""What a run costs the machine before it calls any model: a command's start, and the step screenshots.

1. Start: the CPU seconds a fresh interpreter spends importing the run and report commands' modules, against the
   same with `openai` and `jsonschema` imported up front (as every command did before they were imported on first
   use), median of `--starts` interpreters each.
2. Screenshots: `videodemo run --policy scripted` over the sandbox tasks `--ids` (reference solutions, one worker)
   with `run.step_screenshots` on (the default) and off, the whole machine's busy CPU seconds over each command
   (from /proc/stat: Chromium's processes count) and its wall time. Run it on an otherwise quiet machine.

    .venv/bin/python benchmarks/run_weight.py [--ids 1-63] [--starts 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.private_sandbox import private_sandbox  # noqa: E402
from scripts.cpu_per_module import busy_seconds  # noqa: E402
from settings import PROJECT_ROOT  # noqa: E402
from tasks.loading import SANDBOX_CONFIGS_DIR  # noqa: E402

VIDEODEMO = str(Path(sys.executable).parent / "videodemo")
COMMAND_MODULES = (
    "cli.main, evaluation.running.runner, evaluation.running.task_runner, evaluation.running.rescore, "
    "evaluation.reports.command"
)
MEASURE = "import resource, {modules}; u = resource.getrusage(resource.RUSAGE_SELF); print(u.ru_utime + u.ru_stime)"


def start_cpu(modules: str, starts: int) -> float:
    """Median CPU seconds of an interpreter that imports `modules` and exits."""
    seconds = []
    for _ in range(starts):
        done = subprocess.run([sys.executable, "-c", MEASURE.format(modules=modules)], cwd=PROJECT_ROOT,
                              capture_output=True, text=True, check=True)  # fmt: skip
        seconds.append(float(done.stdout.strip()))
    return statistics.median(seconds)


def timed_run(ids: str, screenshots: bool, env: dict[str, str], out: Path) -> tuple[float, float, int]:
    args = [VIDEODEMO, "run", "--tasks", str(SANDBOX_CONFIGS_DIR), "--policy", "scripted", "--ids", ids,
            "--solutions", str(SANDBOX_CONFIGS_DIR.parent / "solutions"), "--out", str(out), "--fresh",
            "--no-progress", "--workers", "1", "--set", f"run.step_screenshots={str(screenshots).lower()}"]  # fmt: skip
    busy, started = busy_seconds(), time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"the run (screenshots {screenshots}) failed: {result.stderr.strip()[-500:]}")
    return busy_seconds() - busy, time.perf_counter() - started, len(list(out.glob("tasks/*/step_*.png")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default="1-63", help="sandbox task ids to play (default: all 63)")
    parser.add_argument("--starts", type=int, default=5, help="interpreters per start measurement (default 5)")
    args = parser.parse_args()

    lazy = start_cpu(COMMAND_MODULES, args.starts)
    eager = start_cpu("openai, jsonschema, " + COMMAND_MODULES, args.starts)
    print(f"Importing the run and report commands ({COMMAND_MODULES}), CPU s, median of {args.starts}:")
    print("| imports | CPU s | vs up front |\n| --- | ---: | ---: |")
    print(f"| openai and jsonschema up front (before) | {eager:.2f} | 1.00x |")
    print(f"| on first use (now) | {lazy:.2f} | {lazy / eager:.2f}x |")

    with private_sandbox("videodemo-bench-weight-") as sandbox:
        on = timed_run(args.ids, True, sandbox.env, sandbox.cache / "runs" / "screenshots-on")
        off = timed_run(args.ids, False, sandbox.env, sandbox.cache / "runs" / "screenshots-off")
    print(f"\n`videodemo run --policy scripted --ids {args.ids} --workers 1`, machine busy CPU and wall:")
    print("| run.step_screenshots | CPU s | wall s | screenshots kept | CPU vs on | wall vs on |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, (cpu, wall, shots) in (("on (default)", on), ("off", off)):
        print(f"| {label} | {cpu:.1f} | {wall:.1f} | {shots} | {cpu / on[0]:.2f}x | {wall / on[1]:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
