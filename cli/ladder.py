"""`videodemo demo --ladder`: where the replay baseline loses its tasks, one stage replaced by ground truth at a time.

After the demo's recording and processing (reused when done), the tutorials are processed
once more with the labels oracle (their ground-truth action logs instead of the OCR
labeler, into an index of its own), then the replay policy with trajectory selection runs
on the skill-retention tasks at four rungs, each adding one oracle to the rung below:

    replay baseline      the demo's run with selection (its folder is shared with the demo)
    + oracle labels      oracle.labels
    + oracle selection   oracle.labels, oracle.selection
    + oracle grounding   oracle.labels, oracle.selection, oracle.grounding
    + oracle values      oracle.labels, oracle.selection, oracle.grounding, oracle.values

and one rung beside them, the selection oracle on the labeler's own labels (oracle.selection): the ceiling of
selection on real labels, compared with the replay baseline (the same index).

Each rung is a normal, resumable run folder. The table gives each rung's passed/scored and
its paired comparison with the rung below (evaluation/reports/paired_stats.py, as `videodemo
report` pairs runs: the change, helped/hurt, the exact McNemar p); the rung whose oracle
gains the most tasks names the stage that loses the most. The definitions of the oracles
are in docs/baselines.md ("The oracle ladder").
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli.demo_scores import RunResult
from cli.demo_steps import process, run_replay


@dataclass(frozen=True)
class Rung:
    label: str
    folder: str  # under <cache>/runs ("-quick" added with --quick)
    oracles: tuple[str, ...]  # the oracle switches on
    stage: str  # what the rung's own oracle replaces ("" for the baseline)


RUNGS = (
    Rung("replay baseline", "demo-replay-selection", (), ""),
    Rung("+ oracle labels", "demo-ladder-labels", ("labels",), "labeling (OCR labeler)"),
    Rung("+ oracle selection", "demo-ladder-labels-selection", ("labels", "selection"), "selection (embeddings)"),
    Rung(
        "+ oracle grounding", "demo-ladder-labels-selection-grounding", ("labels", "selection", "grounding"),
        "grounding (name similarity)",
    ),
    Rung(
        "+ oracle values", "demo-ladder-labels-selection-grounding-values",
        ("labels", "selection", "grounding", "values"), "values and answers (the task's rules)",
    ),
)  # fmt: skip
# Beside the ladder, compared with its baseline: selection's ceiling on the labeler's labels.
SELECTION_ON_LABELER = Rung("oracle selection, OCR labels", "demo-ladder-selection", ("selection",),
                            "selection (embeddings), on the labeler's labels")  # fmt: skip


def run_ladder(settings, names: list[str], args, clock) -> int:
    """Process with oracle labels, run the four rungs, print the table (the demo has done sites, recording and
    the OCR processing)."""
    oracle_labels = copy.deepcopy(settings)
    oracle_labels.oracle.labels = True
    process(oracle_labels, names, args.workers, clock)
    results = []
    for rung in RUNGS:
        rung_settings = copy.deepcopy(settings)
        for name in rung.oracles:
            setattr(rung_settings.oracle, name, True)
        results.append(run_replay(rung_settings, names, rung.label, True, rung.folder, args, clock))
    side_settings = copy.deepcopy(settings)
    side_settings.oracle.selection = True
    rung = SELECTION_ON_LABELER
    side = run_replay(side_settings, names, rung.label, True, rung.folder, args, clock)
    beyond = beyond_the_top(oracle_labels, results[-1].run_dir)
    print("\n".join(ladder_lines(results, settings.report, clock, beyond, side)))
    return 0


def beyond_the_top(settings, run_dir: Path) -> list[str]:
    """What the top rung still fails, split by whether the tutorials show every step of the task's reference
    solution (tasks/reference/coverage.py `cover_chain`, over the oracle-label index): `settings` has oracle.labels."""
    from tasks.reference.coverage import cover_chain
    from tasks.reference.solutions import ReferenceSolutions
    from agent.videos.task_videos import index_folder
    from evaluation.running.task_record import iter_records
    from processing.index import TrajectoryIndex
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    failed = {record.task_key for record in iter_records(run_dir) if record.status != "passed"}
    if not failed:
        return []
    index = TrajectoryIndex.load(index_folder(settings), settings)
    references = ReferenceSolutions(settings)
    uncovered, covered = [], []
    for task in load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks:
        if task.key not in failed:
            continue
        trajectories = [t for video in task.videos for t in index.trajectories(video)]
        _, missing = cover_chain(trajectories, references.steps(task, "the ladder"), task.intent)
        (uncovered if missing else covered).append(task.key)
    return [
        f"Beyond the top rung, {len(failed)} tasks fail with every oracle on: {len(uncovered)} need a step that no "
        "trajectory of their videos shows (by names: a tutorial not covering the task), and "
        f"{len(covered)} are covered step by step yet fail on what no oracle replaces (the answer read off the "
        f"page, the values typed){': ' + ', '.join(covered) if covered else ''}.",
    ]


@dataclass
class RungResult:
    rung: Rung
    run_dir: Path
    passed: int
    scored: int
    pair: Any = None  # PairedComparison with the rung below


def compare_rungs(results: list[RunResult], report_settings: Any) -> list[RungResult]:
    """Each rung's counts and its paired comparison with the rung below (errored tasks as `report.errors` says)."""
    from evaluation.reports.comparison import compare
    from evaluation.reports.paired_stats import compare_pair
    from evaluation.reports.run_groups import group_configurations

    folders = [result.run_dir for result in results]
    comparison = compare(group_configurations(folders, [r.label for r in RUNGS[: len(folders)]]), report_settings, {})
    rungs = []
    for index, (rung, configuration) in enumerate(zip(RUNGS, comparison.results)):
        passed = sum(p for p, _ in configuration.frequencies.values())
        scored = sum(s for _, s in configuration.frequencies.values())
        below = comparison.results[index - 1].frequencies if index else None
        pair = compare_pair(below, configuration.frequencies, report_settings) if below is not None else None
        rungs.append(RungResult(rung, folders[index], passed, scored, pair))
    return rungs


def side_rung(baseline: RunResult, side: RunResult, report_settings: Any) -> RungResult:
    """The rung beside the ladder, paired with the replay baseline."""
    from evaluation.reports.comparison import compare
    from evaluation.reports.paired_stats import compare_pair
    from evaluation.reports.run_groups import group_configurations

    labels = [RUNGS[0].label, SELECTION_ON_LABELER.label]
    first, second = compare(group_configurations([baseline.run_dir, side.run_dir], labels), report_settings, {}).results
    passed = sum(p for p, _ in second.frequencies.values())
    scored = sum(s for _, s in second.frequencies.values())
    pair = compare_pair(first.frequencies, second.frequencies, report_settings)
    return RungResult(SELECTION_ON_LABELER, side.run_dir, passed, scored, pair)


def ladder_lines(
    results: list[RunResult], report_settings: Any, clock: Any = None, beyond: list[str] | None = None,
    side: RunResult | None = None,
) -> list[str]:
    from foundation.text_table import text_columns

    rungs = compare_rungs(results, report_settings)
    gains = {index: len(r.pair.helped) - len(r.pair.hurt) for index, r in enumerate(rungs) if r.pair is not None}
    most = [index for index in gains if gains[index] == max(gains.values())]
    rows = [["rung", "oracles", "passed", "change vs rung below", "McNemar p", "helped", "hurt"]]
    for index, rung in enumerate(rungs):
        rate = f"{rung.passed}/{rung.scored}" + (f" = {rung.passed / rung.scored:.1%}" if rung.scored else "")
        change = p = helped = hurt = ""
        if rung.pair is not None:
            pair = rung.pair
            points = f"{pair.difference * 100:+.1f} points" if pair.difference is not None else "-"
            change = f"{gains[index]:+d} tasks ({points})" + (" <- most" if index in most else "")
            p = f"{pair.mcnemar_p:.3g}" if pair.mcnemar_p is not None else "-"
            helped, hurt = str(len(pair.helped)), str(len(pair.hurt))
        rows.append([rung.rung.label, ", ".join(rung.rung.oracles) or "none", rate, change, p, helped, hurt])
    lines = [
        "",
        "=" * 78,
        "ORACLE LADDER: the replay baseline with one more stage replaced by ground truth per rung (diagnostics)",
        "=" * 78,
        text_columns(rows),
        "",
    ]
    if most and gains[most[0]] > 0:
        stages = " and ".join(rungs[index].rung.stage for index in most)
        each = "each gains" if len(most) > 1 else "its oracle gains"
        lines.append(f"The stage that loses the most tasks: {stages}: {each} {gains[most[0]]:+d} tasks over the rung "
                     "below.")  # fmt: skip
    elif most:
        lines.append("No oracle gains tasks over the rung below: no single stage loses them.")
    for rung in rungs:
        if rung.pair is not None and (rung.pair.helped or rung.pair.hurt):
            lines.append(f"  {rung.rung.label}: helped {', '.join(rung.pair.helped) or '-'}; "
                         f"hurt {', '.join(rung.pair.hurt) or '-'}")  # fmt: skip
    lines += beyond or []
    if side is not None and results:
        beside = side_rung(results[0], side, report_settings)
        pair = beside.pair
        p = f"{pair.mcnemar_p:.3g}" if pair.mcnemar_p is not None else "-"
        lines += ["", f"Beside the ladder, {beside.rung.label} ({beside.rung.stage}): {beside.passed}/{beside.scored}, "
                  f"{len(pair.helped) - len(pair.hurt):+d} tasks vs the replay baseline (helped {len(pair.helped)}, "
                  f"hurt {len(pair.hurt)}, McNemar p {p}); run folder {beside.run_dir}"]  # fmt: skip
    lines += ["", "each rung's run folder (`videodemo report` them side by side for the flipped tasks' pages):"]
    lines += [f"  {rung.rung.label}: {rung.run_dir}" for rung in rungs]
    if clock is not None:
        lines += ["", "time per phase:", *clock.lines()]
    return lines
