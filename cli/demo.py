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
The runs play one skill task per intent template (its first instance); `--all-tasks` plays every
instance (about three per template), which gives paired comparisons the power to see a 10-point
difference, in run folders of their own (`-all` added).
`--selection` runs, instead of the two runs, the selection benchmark (cli/selection_probe.py): every skill task's
reference solution played and the default selection asked at each step, on the OCR and oracle-label indexes.
`--ladder` runs, after the recording and processing, the oracle ladder instead of the two runs
(cli/ladder.py): the replay baseline, then with oracle labels, oracle selection and oracle
grounding added one at a time, each compared with the rung below.
"""

from __future__ import annotations

import argparse
import time

from cli.demo_steps import PhaseClock, process, record, run_replay, start_sites

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
        "--all-tasks",
        action="store_true",
        help="every instance of each skill template (about three per template, 135 tasks), in run folders of their "
        "own; by default one task per template (its first instance), so the demo stays within minutes",
    )
    demo.add_argument(
        "--ladder",
        action="store_true",
        help="instead of the two runs: the oracle ladder (the replay baseline, then with ground-truth labels, "
        "selection and grounding added one at a time, each paired with the rung below; docs/baselines.md)",
    )
    demo.add_argument(
        "--selection",
        action="store_true",
        help="instead of the two runs: the selection benchmark (each task's reference solution played, the "
        "default selection asked at every step and scored against the ground truth) on the OCR and oracle-label "
        "indexes; benchmarks/selection.py also runs the ablations",
    )
    demo.add_argument(
        "--labelers",
        action="store_true",
        help="also score the OCR labeler on the other apps' recordings (held-out/untouched styles, tuned on; sealed "
        "style, never tuned on): 28 videos recorded in real time the first time, about 20 minutes",
    )
    demo.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    from foundation.errors import UserError
    from settings import load_settings_from_args
    from processing.plugins import LABELERS

    if args.workers < 1:
        raise UserError(f"--workers is {args.workers}: pass 1 or more")
    if sum((args.ladder, args.labelers, args.selection)) > 1:
        raise UserError("--ladder, --selection and --labelers are separate jobs: pass one of them at a time")
    if "ocr" not in LABELERS:
        raise UserError("the OCR labeler is not registered in processing/plugins.py: update the checkout")
    settings = load_settings_from_args(args)
    clock = PhaseClock()
    print("Model-free baseline on the bundled sandbox: OCR labeler + derived objectives + replay policy.")
    print("No model is called; these numbers are baselines, not the VLM method.\n", flush=True)

    start_sites(settings, clock)
    names = record(settings, clock, list(QUICK_TUTORIALS) if args.quick else None, args.workers)
    process(settings, names, args.workers, clock)
    if args.ladder:
        from cli.ladder import run_ladder

        return run_ladder(settings, names, args, clock)
    if args.selection:
        from cli.selection_probe import selection_benchmark

        lines, _ = selection_benchmark(settings, names, {"default": []}, args, clock)
        print("\n".join(lines + ["", "time per phase:", *clock.lines()]))
        return 0

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

    results = [run_replay(settings, names, label, selection, folder, args, clock) for label, selection, folder in RUNS]
    _final_report(accuracies, results, clock)
    return 0


LABELERS_COST = "28 videos recorded in real time the first time, about 20 minutes"


def _other_styles(settings, quick: bool, clock: PhaseClock) -> list:
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


def _final_report(accuracies, results, clock: PhaseClock) -> None:
    """The figures, the phase times, then the paired comparison of the two runs (what the demo ends with)."""
    from cli.demo_scores import accuracy_lines, success_table
    from evaluation.reports.command import report

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
