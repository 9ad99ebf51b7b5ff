"""The selection benchmark's run: every skill task's reference solution played, the replay's selection asked at each
step (`--policy selection-probe`, agent/replay/probe.py), then its figures (agent/replay/probe_scores.py).

`videodemo demo --selection` runs it on the demo's OCR index and on the oracle-labels index with the default
selection; `benchmarks/selection.py` also runs the ablations. A run folder per index and set of variants, resumable
like any run (`-quick` / `-all` as the demo's).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import time
from pathlib import Path

from cli.demo_steps import PhaseClock, run_folder, task_ids

PROBE_POLICY = "selection-probe"


def run_probe(settings, names: list[str], variants: dict[str, list[str]], args, clock: PhaseClock, label: str) -> Path:
    """Play the reference solutions of the skill tasks of `names` with the probe asking each variant; the run folder."""
    from evaluation.running.runner import RunSpec, run
    from tasks.loading import SANDBOX_CONFIGS_DIR

    since = time.perf_counter()
    key = hashlib.sha256(json.dumps(variants, sort_keys=True).encode()).hexdigest()[:8]
    labels = "oracle-labels" if settings.oracle.labels else "ocr"
    folder = run_folder(f"selection-probe-{labels}-{key}", args)
    print(f"selection benchmark on the {label} index: the reference solutions played, {len(variants)} selection "
          f"variant(s) asked at every step ...", flush=True)  # fmt: skip
    probe_settings = copy.deepcopy(settings)
    probe_settings.run.step_screenshots = False  # the probe reads trees, not pictures
    spec = RunSpec(
        tasks_path=SANDBOX_CONFIGS_DIR,
        policy=PROBE_POLICY,
        policy_args=argparse.Namespace(probe_variants=variants, probe_pages=str(pages_folder(settings))),
        out_dir=Path(settings.paths.runs_dir) / folder,
        kind="skill",
        ids=task_ids(settings, names, every_instance=getattr(args, "all_tasks", False)),
        workers=args.workers,
        fresh=getattr(args, "fresh", False),
    )
    run_dir = run(spec, probe_settings)
    clock.done(f"selection benchmark, {label}", since)
    return run_dir


def pages_folder(settings) -> Path:
    """Where the probe keeps the pages it was asked on, per index (agent/replay/probe.py: CapturedPages)."""
    return Path(settings.paths.cache_dir) / "selection-pages" / ("oracle-labels" if settings.oracle.labels else "ocr")


def replay_probe(settings, names: list[str], variants: dict[str, list[str]], args, clock: PhaseClock, label: str):
    """The variants asked again on the pages the last live probe kept (no browser): the probed steps per variant."""
    from agent.replay.probe import CapturedPages, replay_captured, variant_settings
    from agent.replay.probe_scores import probed_steps, task_groups
    from foundation.errors import UserError
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    since = time.perf_counter()
    pages = CapturedPages(pages_folder(settings))
    wanted = set(task_ids(settings, names, every_instance=getattr(args, "all_tasks", False)).split(","))
    tasks = [task for task in load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks if task.key in wanted]
    if not set(pages.task_keys()) & wanted:
        raise UserError(f"no captured pages in {pages.folder}: run the benchmark once without --captured")
    records = replay_captured(settings, variant_settings(settings, variants), pages, tasks)
    clock.done(f"selection variants on the captured pages, {label}", since)
    return probed_steps(records, task_groups(load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks))


def probe_lines(settings, run_dir: Path | None, label: str, details: bool = True, probes=None) -> list[str]:
    """The benchmark's tables for one run folder (or the probed steps given): variants side by side, then the
    default's details."""
    from agent.replay.probe_scores import detail_table, read_probes, task_groups, variant_table
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    if probes is None:
        groups = task_groups(load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks)
        probes = read_probes(run_dir, groups)
    if not probes:
        return [f"selection benchmark ({label}): no probed step in {run_dir}"]
    lines = [
        "",
        f"SELECTION AGAINST THE GROUND TRUTH ({label} index; the first instances are the tuning set)",
        variant_table(probes),
    ]
    if details:
        first = next(iter(probes))
        for by in ("decision", "video", "template"):
            lines += ["", f"{first}, per {by}:", detail_table(probes[first], by)]
    lines += [f"(run folder: {run_dir})" if run_dir else "(asked again on the pages the last live run captured)"]
    return lines


def selection_benchmark(settings, names: list[str], variants: dict[str, list[str]], args, clock: PhaseClock,
                        labels: tuple[bool, ...] = (False, True), captured: bool = False) -> tuple[list[str], dict]:  # fmt: skip
    """The benchmark on each index (`labels`: oracle.labels off, on): its tables and headline figures per index.
    Live (processing the tutorials first when needed), or asked again on the captured pages."""
    from agent.replay.probe_scores import read_probes, summary, task_groups
    from cli.demo_steps import process
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    groups = task_groups(load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks)
    lines: list[str] = []
    headline: dict = {}
    for oracle_labels in labels:
        index_settings = copy.deepcopy(settings)
        index_settings.oracle.labels = oracle_labels
        label = "oracle-labels" if oracle_labels else "OCR"
        if captured:
            probes, run_dir = replay_probe(index_settings, names, variants, args, clock, label), None
        else:
            process(index_settings, names, args.workers, clock)
            run_dir = run_probe(index_settings, names, variants, args, clock, label)
            probes = read_probes(run_dir, groups)
        lines += probe_lines(index_settings, run_dir, label, probes=probes)
        headline[label] = summary(probes)
    return lines, headline
