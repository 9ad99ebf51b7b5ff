"""What `process-videos --verify` buys on the sandbox, where the tutorials' true actions are known.

For a seeded sample of the sandbox index's trajectories (`--per-video N` per video):
verify each on the live, reset sandbox, then score its labels against the tutorial's
ground-truth action log (`processing.labeling_accuracy`: kind, and kind + target, matched
by time). The table gives, per verdict (verified / partly / not), how many trajectories,
the share whose every action has the right kind and target, the share of actions right,
and the seconds per trajectory. Then the same sample from an index whose labels were
spoiled on purpose (`processing.spoil_share`, seeded), to see the rejected share rise.

    .venv/bin/python benchmarks/verification.py [--per-video 5] [--spoil 0.3] [--workers 2] [--set KEY=VALUE ...]

The OCR-labeled sandbox index is (re)built first through `process-videos` (cached stages
are reused), the spoiled one into `<cache>/index-spoiled-<share>`. The sandbox sites are
started on the configured ports when they are not running, and stopped afterwards.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from processing.index import TrajectoryIndex  # noqa: E402
from processing.labeling_accuracy import ground_truth_actions, score_actions  # noqa: E402
from foundation.records.trajectory import Trajectory  # noqa: E402
from agent.verification.stage import verify_index  # noqa: E402
from settings import load_settings  # noqa: E402
from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks  # noqa: E402
from tasks.sandbox import server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PROCESS = ["--source", "sandbox", "--labeler", "ocr", "--objectives", "derived", "--no-action-filtering",
           "--no-trajectory-filtering"]  # fmt: skip
GROUPS = ("verified", "partly", "not")


def build_index(index_dir: Path, sets: list[str], spoil: float) -> None:
    command = [sys.executable, "-m", "cli.main", "process-videos", *PROCESS, "--index", str(index_dir)]
    for item in sets + ([f"processing.spoil_share={spoil}"] if spoil else []):
        command += ["--set", item]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"process-videos failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    print(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "")


def sample(index: TrajectoryIndex, per_video: int, seed: int) -> list[str]:
    draw = random.Random(seed)
    chosen: list[str] = []
    for video_id in index.videos():
        ids = [t.trajectory_id for t in index.trajectories(video_id)]
        chosen += sorted(draw.sample(ids, min(per_video, len(ids))))
    return chosen


def label_correctness(trajectory: Trajectory, truth_of: dict[str, list], tolerance: float) -> tuple[bool, int, int]:
    """(every action right in kind and target, actions right, actions) against the video's ground truth."""
    truth = truth_of[trajectory.video_id]
    report = score_actions(trajectory.actions, truth, tolerance)
    right = report.type_target.matched
    return right == len(trajectory.actions), right, len(trajectory.actions)


def table(index: TrajectoryIndex, ids: list[str], tolerance: float) -> tuple[str, dict[str, int]]:
    wanted = set(ids)
    truth_of: dict[str, list] = {}
    rows: dict[str, list[tuple[bool, int, int, float]]] = defaultdict(list)
    for video_id in index.videos():
        video = index.video(video_id)
        truth_of[video_id] = ground_truth_actions(Path(video.path).with_suffix(".actions.json"))  # type: ignore
        for trajectory in index.trajectories(video_id):
            if trajectory.trajectory_id not in wanted:
                continue
            found = trajectory.checks.get("verification")
            if not found:
                continue
            correct, right, total = label_correctness(trajectory, truth_of, tolerance)
            rows[found["verdict"]].append((correct, right, total, float(found.get("seconds", 0.0))))
    lines = ["| verdict | trajectories | share | labels all right (kind + target) | actions right | s / trajectory |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    every = sum(len(r) for r in rows.values())
    counts = {}
    for group in GROUPS:
        found = rows.get(group, [])
        counts[group] = len(found)
        if not found:
            lines.append(f"| {group} | 0 | 0% | - | - | - |")
            continue
        correct = sum(1 for r in found if r[0])
        right, total = sum(r[1] for r in found), sum(r[2] for r in found)
        seconds = sum(r[3] for r in found) / len(found)
        lines.append(f"| {group} | {len(found)} | {100 * len(found) / every:.0f}% | {correct}/{len(found)} "
                     f"({100 * correct / len(found):.0f}%) | {right}/{total} ({100 * right / total:.0f}%) | "
                     f"{seconds:.1f} |")  # fmt: skip
    return "\n".join(lines), counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-video", type=int, default=5, help="trajectories sampled per video (seeded)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--spoil", type=float, default=0.3, help="share of labels spoiled for the second table")
    parser.add_argument("--workers", type=int, default=2, help="browsers at once (one per site)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    settings = load_settings(overrides=args.set) if args.set else load_settings()
    tolerance = settings.processing.ocr_labeler.score_tolerance_s
    with server.sites_up(settings):
        tasks = load_tasks(SANDBOX_CONFIGS_DIR, settings=settings)
        conditions = [("as labeled", settings.paths.index_dir, 0.0)]
        if args.spoil > 0:
            conditions.append((f"{args.spoil:.0%} spoiled", settings.paths.cache_dir / f"index-spoiled-{args.spoil}",
                               args.spoil))  # fmt: skip
        ids: list[str] | None = None
        for name, index_dir, spoil in conditions:
            build_index(index_dir, args.set, spoil)
            index = TrajectoryIndex.load(index_dir, settings)
            ids = ids or sample(index, args.per_video, args.seed)  # the same spans in both conditions
            run = verify_index(index, settings, tasks, workers=args.workers, only=ids, report=lambda line: None)
            text, counts = table(index, ids, tolerance)
            print(f"\n## labels {name}: {len(ids)} trajectories ({args.per_video} per video, seed {args.seed}); "
                  f"{run.checked} checked now, {run.stored} stored; rejected (partly or not) "
                  f"{counts['partly'] + counts['not']}/{len(ids)}\n")  # fmt: skip
            print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
