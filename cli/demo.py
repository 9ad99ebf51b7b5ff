"""`videodemo demo`: the main job on the bundled sandbox with no model (what `make demo` runs).

Phases, each timed, each resumable (a second run reuses what the first made):
1. start the sandbox sites (left running; `videodemo sandbox stop` stops them);
2. record the tutorial videos that are missing or outdated;
3. process them with the model-free parts: OCR labeler, derived objectives, no
   filtering stages (they need a model), into the trajectory index;
4. score the labeled actions against the tutorials' ground-truth logs (free: the
   logs come with the recordings);
5. run the replay policy on the sandbox skill-retention tasks twice, through the
   runner (records, pages, summaries): with `--no-trajectory-selection` (the most
   relevant video's longest trajectory) and with two-stage embedding selection;
6. compare the two runs task by task, as `videodemo report` does: tasks helped and
   hurt by selection, exact McNemar p, the bootstrap interval, and the HTML report.
`--labelers` also scores the labeler on the styles other recorders made for other apps
(`tasks/labeler_recordings`: held-out and untouched, tuned on; sealed, never tuned on),
28 videos recorded in real time the first time (about 20 minutes on 2 cores), so it is
not part of the default demo. Everything printed is measured by this run. These are baselines: the VLM method
runs with `process-videos` and `videodemo run --policy video` once a model is set up.
`--quick` does the same with one tutorial and its tasks, for tests and a first look.
`--ladder` runs, after the recording and processing, the oracle ladder instead of the two runs
(cli/ladder.py): the replay baseline, then with oracle labels, oracle selection and oracle
grounding added one at a time, each compared with the rung below.
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path

QUICK_TUTORIALS = ("forum_browse_sort",)
# The reference first: the comparison reads helped/hurt as what selection changes against the whole video.
RUNS = (("--no-trajectory-selection (whole video)", False, "demo-replay-whole-video"),
        ("two-stage embedding selection", True, "demo-replay-selection"))  # fmt: skip
COMPARISON_LABELS = ["whole-video", "selection"]


def register(subparsers, common: argparse.ArgumentParser) -> None:
    demo = subparsers.add_parser(
        "demo",
        parents=[common],
        help="run the main job on the bundled sandbox with the model-free baseline (what `make demo` runs)",
        description="Record the sandbox tutorials, process them with the OCR labeler and derived objectives, "
        "score the labeler, run the replay policy on the skill-retention tasks without and with trajectory "
        "selection, and compare the two runs task by task (helped/hurt, McNemar p, interval). A model-free "
        "baseline, not the VLM method; a re-run reuses everything already done.",
    )
    demo.add_argument("--quick", action="store_true", help=f"only the tutorial {QUICK_TUTORIALS[0]} and its tasks")
    demo.add_argument("--workers", type=int, default=2, metavar="N", help="videos and tasks at once (default 2)")
    demo.add_argument("--fresh", action="store_true", help="run the tasks again instead of reusing finished ones")
    demo.add_argument(
        "--ladder",
        action="store_true",
        help="instead of the two runs: the oracle ladder (the replay baseline, then with ground-truth labels, "
        "selection and grounding added one at a time, each paired with the rung below; docs/baselines.md)",
    )
    demo.add_argument(
        "--labelers",
        action="store_true",
        help="also score the OCR labeler on the other apps' recordings (held-out/untouched styles, tuned on; sealed "
        "style, never tuned on): 28 videos recorded in real time the first time, about 20 minutes",
    )
    demo.set_defaults(handler=_demo)


class _Clock:
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


def _demo(args: argparse.Namespace) -> int:
    from foundation.errors import UserError
    from settings import load_settings_from_args
    from processing.plugins import LABELERS

    if args.workers < 1:
        raise UserError(f"--workers is {args.workers}: pass 1 or more")
    if args.ladder and args.labelers:
        raise UserError("--ladder and --labelers are two separate jobs: run `videodemo demo --labelers` on its own")
    if "ocr" not in LABELERS:
        raise UserError("the OCR labeler is not registered in processing/plugins.py: update the checkout")
    settings = load_settings_from_args(args)
    clock = _Clock()
    print("Model-free baseline on the bundled sandbox: OCR labeler + derived objectives + replay policy.")
    print("No model is called; these numbers are baselines, not the VLM method.\n", flush=True)

    _start_sites(settings, clock)
    names = _record(settings, clock, list(QUICK_TUTORIALS) if args.quick else None, args.workers)
    _process(settings, names, args.workers, clock)
    if args.ladder:
        from cli.ladder import run_ladder

        return run_ladder(settings, names, args, clock)

    from cli.demo_scores import accuracy_lines, labeler_accuracy

    since = time.perf_counter()
    accuracy = labeler_accuracy(settings, names)
    print("\n".join(accuracy_lines(accuracy)))
    clock.done("labeler accuracy, sandbox", since)
    accuracies = [accuracy]
    if args.labelers:
        accuracies += _other_styles(settings, args.quick, clock)
    else:
        print(f"(the labeler on other apps' recordings: `videodemo demo --labelers`, {LABELERS_COST})\n", flush=True)

    results = [_run(settings, names, label, selection, folder, args, clock) for label, selection, folder in RUNS]
    _final_report(accuracies, results, clock)
    return 0


LABELERS_COST = "28 videos recorded in real time the first time, about 20 minutes"


def _other_styles(settings, quick: bool, clock: _Clock) -> list:
    """The labeler on the held-out and untouched styles together (tuned on), then the sealed style (never tuned on)."""
    from cli.demo_scores import accuracy_lines, recordings_accuracy

    accuracies = []
    for group, what in (("tuned held-out", "held-out and untouched styles (tuned on)"),
                        ("sealed", "sealed style (not tuned on)")):  # fmt: skip
        since = time.perf_counter()
        print(f"labeling the {what} recordings (other apps and recorders; recorded once, then cached) ...", flush=True)
        accuracies.append(recordings_accuracy(settings, group, quick))
        print("\n".join(accuracy_lines(accuracies[-1])))
        clock.done(f"labeler accuracy, {group}", since)
    return accuracies


def _start_sites(settings, clock: _Clock) -> None:
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


def _record(settings, clock: _Clock, only: list[str] | None, workers: int) -> list[str]:
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


def _process(settings, names: list[str], workers: int, clock: _Clock) -> None:
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


def _run(settings, names: list[str], label: str, selection: bool, folder: str, args, clock: _Clock):
    from cli.demo_scores import RunResult
    from running.runner import RunSpec, run
    from tasks.loading import SANDBOX_CONFIGS_DIR

    since = time.perf_counter()
    run_settings = copy.deepcopy(settings)
    run_settings.agent.trajectory_selection = selection
    print(f"running the replay policy with {label} on the skill-retention tasks ...", flush=True)
    spec = RunSpec(
        tasks_path=SANDBOX_CONFIGS_DIR,
        policy="replay",
        policy_args=argparse.Namespace(),
        out_dir=Path(settings.paths.runs_dir) / (folder + ("-quick" if args.quick else "")),
        kind="skill",
        ids=_task_ids(settings, names) if args.quick else None,
        workers=args.workers,
        fresh=args.fresh,
    )
    run_dir = run(spec, run_settings)
    from reports.report import write_run_outputs

    seconds = time.perf_counter() - since
    clock.done(f"run: {label}", since)
    return RunResult(label, run_dir, write_run_outputs(run_dir, run_settings.report), seconds)


def _task_ids(settings, names: list[str]) -> str:
    """The skill-retention tasks whose tutorial is among `names`, as an --ids list."""
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    tasks = load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks
    return ",".join(task.key for task in tasks if task.kind == "skill" and set(task.videos) & set(names))


def _final_report(accuracies, results, clock: _Clock) -> None:
    """The figures, the phase times, then the paired comparison of the two runs (what the demo ends with)."""
    from cli.demo_scores import accuracy_lines, success_table
    from reports.command import report

    lines = [
        "",
        "=" * 78,
        "MODEL-FREE BASELINE (OCR labeler + derived objectives + replay policy) - not the VLM method",
        "=" * 78,
        *[line for accuracy in accuracies for line in accuracy_lines(accuracy)],
        "",
        "Replay policy on the sandbox skill-retention tasks (success = passed / scored):",
        *success_table(results),
        "",
        "each run's report:",
        *[f"  {result.label}: {result.run_dir / 'index.html'}" for result in results],
        "",
        "time per phase:",
        *clock.lines(),
        "",
        "=" * 78,
        f"Paired comparison, task by task (= videodemo report {' '.join(str(r.run_dir) for r in results)}):",
        "=" * 78,
        # Each run's own outputs were written as it ended (`_run`): not again.
        report(*(result.run_dir for result in results), labels=COMPARISON_LABELS, refresh_runs=False),
    ]
    print("\n".join(lines))
