"""The phases `videodemo demo` is made of, each timed by a PhaseClock and each reusing what an earlier run made:
start the sandbox sites, record the tutorials, process them into the index, run the replay policy. The oracle
ladder (cli/ladder.py) and benchmarks/method_cost.py build on the same phases."""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path


class PhaseClock:
    """Times each phase and says when it is done."""

    def __init__(self) -> None:
        self.phases: list[tuple[str, float]] = []
        self.started = time.perf_counter()

    def done(self, name: str, since: float, note: str = "") -> None:
        seconds = time.perf_counter() - since
        self.phases.append((name, seconds))
        print(f"[{name}: {seconds:.1f} s{', ' + note if note else ''}]\n", flush=True)

    def lines(self) -> list[str]:
        width = max([len(name) for name, _ in self.phases] + [5])
        rows = [f"  {name:<{width}} {seconds:7.1f} s" for name, seconds in self.phases]
        return rows + [f"  {'total':<{width}} {time.perf_counter() - self.started:7.1f} s"]


def start_sites(settings, clock: PhaseClock) -> None:
    from tasks.cli import print_sites
    from tasks.sandbox import server

    since = time.perf_counter()
    others = server.sites_of_others(settings)  # up before the demo, from another cache: their database, not ours
    server.start_background(settings)
    down = [row.name for row in server.status(settings) if not row.up]
    if down:
        from foundation.errors import UserError

        raise UserError(f"sandbox sites not answering: {', '.join(down)}; see `videodemo sandbox status`")
    print_sites(settings)
    for line in others:
        print(f"note: {line}; the demo plays on it (a task that needs a fresh site resets it to that site's seed)")
    clock.done("sandbox sites", since, "left running; `videodemo sandbox stop` stops them")


def record(settings, clock: PhaseClock, only: list[str] | None, workers: int = 1) -> list[str]:
    from tasks import recording_store
    from tasks.sandbox.tutorials.recorder import RecordingResult, record_tutorials

    since = time.perf_counter()
    print("recording the tutorials that are missing or outdated ...", flush=True)

    def report(result: RecordingResult) -> None:
        if result.recorded:
            print(f"  {result.name:<26} {result.duration_s:5.1f} s of video, recorded in {result.elapsed_s:4.1f} s")
        elif result.from_store:
            print(f"  {result.name:<26} copied from the recordings store ({recording_store.store_root()})")

    results = record_tutorials(settings, only=only, report=report, workers=workers)
    made = sum(result.recorded for result in results)
    copied = sum(result.from_store for result in results)
    stored = f", {copied} copied from the recordings store" if copied else ""
    clock.done("tutorial recording", since, f"{made} recorded{stored}, {len(results) - made - copied} up to date")
    return sorted(result.name for result in results)


def process(settings, names: list[str], workers: int, clock: PhaseClock) -> None:
    """process-videos --source sandbox --labeler ocr --objectives derived, without the filtering stages
    (with `oracle.labels` on: the ground-truth logs instead of the labeler, into folders of their own)."""
    from processing import sources
    from processing.oracle_labels import default_index_dir
    from processing.pipeline import indexing_pipeline

    since = time.perf_counter()
    processing_settings = copy.deepcopy(settings)
    p = processing_settings.processing
    p.labeler, p.objectives, p.trajectory_filtering, p.action_filtering = "ocr", "derived", False, False
    index_dir = default_index_dir(settings)
    labels = "the ground-truth logs (oracle.labels)" if settings.oracle.labels else "ocr"
    print(f"processing {len(names)} tutorial(s) into {index_dir} (labeler {labels}, objectives derived) ...",
          flush=True)  # fmt: skip
    with indexing_pipeline(processing_settings, index_dir) as pipeline:
        found = sources.from_sandbox(processing_settings)
        videos = [video for video in found.videos if video.video_id in names]
        outcomes = pipeline.run(videos, workers)
        summary = pipeline.summary(outcomes, found.problems, time.perf_counter() - since)
    print(summary.format())
    failed = [outcome.video_id for outcome in outcomes if not outcome.ok]
    name = "processing, oracle labels" if settings.oracle.labels else "processing"
    clock.done(name, since, f"failed: {', '.join(failed)}" if failed else "")


def run_replay(settings, names: list[str], label: str, selection: bool, folder: str, args, clock: PhaseClock):
    from cli.demo_scores import RunResult
    from evaluation.running.runner import RunSpec, run
    from tasks.loading import SANDBOX_CONFIGS_DIR

    since = time.perf_counter()
    run_settings = copy.deepcopy(settings)
    run_settings.agent.trajectory_selection = selection
    print(f"running the replay policy with {label} on the skill-retention tasks ...", flush=True)
    spec = RunSpec(
        tasks_path=SANDBOX_CONFIGS_DIR,
        policy="replay",
        policy_args=argparse.Namespace(),
        out_dir=Path(settings.paths.runs_dir) / run_folder(folder, args),
        kind="skill",
        ids=task_ids(settings, names, every_instance=args.all_tasks),
        workers=args.workers,
        fresh=args.fresh,
    )
    run_dir = run(spec, run_settings)
    from evaluation.reports.report import write_run_outputs

    seconds = time.perf_counter() - since
    clock.done(f"run: {label}", since)
    return RunResult(label, run_dir, write_run_outputs(run_dir, run_settings.report), seconds)


def run_folder(folder: str, args) -> str:
    """The demo run's folder under <cache>/runs: `-quick` for one tutorial, `-all` for every task instance."""
    return folder + ("-quick" if args.quick else "") + ("-all" if args.all_tasks else "")


def task_ids(settings, names: list[str], every_instance: bool = False) -> str:
    """The skill-retention tasks whose tutorial is among `names`, as an --ids list: the first instance of each intent
    template (the lowest task id), or every instance."""
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    tasks = load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks
    chosen, seen = [], set()
    for task in sorted(tasks, key=lambda task: (task.source, int(task.task_id))):
        template = (task.source, task.config.get("intent_template_id", task.task_id))
        if task.kind != "skill" or not set(task.videos) & set(names) or (template in seen and not every_instance):
            continue
        seen.add(template)
        chosen.append(task.key)
    return ",".join(chosen)
