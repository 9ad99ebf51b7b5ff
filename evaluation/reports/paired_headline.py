"""What a paired report opens with: each pairing's result in one line (difference, interval, McNemar p), the runs
by their labels, the settings that differ between the runs, and the flipped tasks with how their "lost at" moved."""

from __future__ import annotations

from typing import Any

from evaluation.reports.comparison import Comparison, sample_record
from evaluation.reports.loss_run import stage_of
from evaluation.reports.run_index import identity_settings


def result_lines(comparison: Comparison) -> list[str]:
    """"B vs A: +4.0 points, 95% interval [-2.1, +10.1], McNemar p = 0.31 (25 paired tasks: 3 helped, 2 hurt)"."""
    reference = comparison.results[0].label
    lines = []
    for result, pair in zip(comparison.results[1:], comparison.pairs):
        counts = f"{len(pair.tasks)} paired tasks: {len(pair.helped)} helped, {len(pair.hurt)} hurt"
        if pair.difference is None:
            lines.append(f"{result.label} vs {reference}: no task scored in both ({counts})")
            continue
        interval = (f"{comparison.confidence:.0%} interval [{pair.interval.low * 100:+.1f}, "
                    f"{pair.interval.high * 100:+.1f}]" if pair.interval else "no interval (under 2 paired tasks)")
        lines.append(f"{result.label} vs {reference}: {pair.difference * 100:+.1f} points, {interval}, "
                     f"McNemar p = {pair.mcnemar_p:.2g} ({counts})")  # fmt: skip
    return lines


def differing_settings(comparison: Comparison) -> list[tuple[str, list[str]]]:
    """(setting, value per run) of every identity setting (run.json) not the same in all runs; "-" where unset.
    A run's first sample speaks for it (samples differ only in "sample")."""
    per_run = [dict(identity_settings(result.configuration.samples[0].manifest)) for result in comparison.results]
    per_run = [{name: value for name, value in run.items() if name != "sample"} for run in per_run]
    names = list(dict.fromkeys(name for run in per_run for name in run))
    rows = [(name, [run.get(name, "-") for run in per_run]) for name in names]
    return [(name, values) for name, values in rows if len(set(values)) > 1]


def _stage(comparison: Comparison, index: int, task_key: str, passed: bool) -> str:
    found = sample_record(comparison.results[index], task_key, passed)
    return stage_of(found[1]).replace("_", " ") if found else "not run"


def flip_change(comparison: Comparison, index: int, task_key: str, how: str) -> str:
    """"lost at covering not chosen → passed": the task's stage (or status) in the reference run, then in run
    `index` (0-based), each from the sample the pairing's majority points at."""
    helped = how == "helped"
    return f"{_stage(comparison, 0, task_key, not helped)} → {_stage(comparison, index, task_key, helped)}"


def run_labels(comparison: Comparison) -> list[dict[str, Any]]:
    return [{"number": n, "label": result.label} for n, result in enumerate(comparison.results, start=1)]
