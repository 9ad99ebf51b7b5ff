"""Tasks per minute of `videodemo run` with `--workers 2` and with `--ray --workers 2`, on the sandbox.

Target (issue 16): Ray's overhead under 15%, i.e. Ray's wall time at most 1.15x that of the
worker processes on the same machine, measured in the same run. Starts both sandbox sites on
free ports with a private cache, then plays the sandbox task set (or `--ids`) with the scripted
policy and its solutions, fresh each time, alternating the two ways `--rounds` times. Each
wall time is the whole command: Ray's start and stop are part of its overhead. Reset tasks run
in the driver either way, so only the tasks without a reset are timed by default.

    .venv/bin/python benchmarks/ray_overhead.py [--rounds 2] [--ids 1-20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.private_sandbox import private_sandbox  # noqa: E402
from settings import load_settings  # noqa: E402
from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set  # noqa: E402
from tasks.sandbox import server  # noqa: E402

SOLUTIONS = ROOT / "tasks" / "sandbox" / "solutions"


def timed_run(settings, env: dict[str, str], out: Path, extra: list[str]) -> float:
    cmd = [
        sys.executable, "-m", "cli.main", "run", "--policy", "scripted", "--solutions", str(SOLUTIONS),
        "--out", str(out), "--fresh", "--no-progress", "--workers", "2",
        "--set", f"sandbox.reset_token={settings.sandbox.reset_token}", *extra,
    ]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"run failed ({' '.join(extra)}):\n{done.stderr[-3000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each way, alternated (default 2)")
    parser.add_argument("--ids", help="task ids to play (default: every sandbox task without require_reset)")
    args = parser.parse_args()

    settings = load_settings()
    settings.sandbox.reset_token = "bench-reset-token"
    tasks = [task for task in load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks if not task.require_reset]
    ids = args.ids or ",".join(str(task.task_id) for task in tasks)
    count = 0
    times: dict[str, list[float]] = {"workers": [], "ray": []}
    with private_sandbox("ray-bench-", settings=settings) as sandbox:
        env = dict(sandbox.env, PYTHONUNBUFFERED="1")
        for round_number in range(args.rounds):
            for way, extra in (("workers", []), ("ray", ["--ray"])):
                server.reset(settings)
                out = sandbox.cache / "runs" / way
                seconds = timed_run(settings, env, out, ["--ids", ids, *extra])
                count = sum(1 for _ in (out / "tasks").iterdir())
                times[way].append(seconds)
                print(f"round {round_number + 1} {way:8s}: {count} tasks in {seconds:.1f} s", flush=True)
    median = {way: statistics.median(values) for way, values in times.items()}
    for way in ("workers", "ray"):
        print(f"{way:8s} (2 workers): {60 * count / median[way]:.1f} tasks/min (median wall {median[way]:.1f} s)")
    ratio = median["ray"] / median["workers"]
    print(f"Ray overhead: {ratio:.3f}x the workers' wall time ({(ratio - 1):+.1%}); target under +15%")
    print(json.dumps({"tasks": count, "seconds": times, "ratio": round(ratio, 3)}))


if __name__ == "__main__":
    main()
