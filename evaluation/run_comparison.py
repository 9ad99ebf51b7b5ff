"""Any number of runs side by side: one column per run, the difference to the first run.

`videodemo report RUN_A RUN_B RUN_C ...` prints, for every group (site, kind, difficulty,
eval type), each run's success rate with passed/scored, then the same for the
intermediate (factual-retention) score, then the tasks whose outcome differs between
runs. The first run is the reference: every other column carries its difference to it
in percentage points, so the paper's table (base, + transcript, + frames, + summary,
+ method) reads as gains over the base agent.

A run is named by its policy and the ablation flags it was run with (from run.json), or
by the `--labels` a user gives.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from evaluation.run_records import RUN_FILE, read_json
from evaluation.text_table import text_columns

# Agent ablation flags as run.json keeps them, and the command-line flag that names a non-default value.
_ABLATION_FLAGS = {
    "use_videos": (False, "--no-videos"),
    "trajectory_selection": (False, "--no-trajectory-selection"),
    "visual": (False, "--no-visual"),
    "transcript_only": (True, "--transcript-only"),
}


def run_label(run_dir: Path) -> str:
    """"policy [flags]" from the run's manifest; the folder's name when it has none."""
    identity = (read_json(Path(run_dir) / RUN_FILE) or {}).get("identity") or {}
    if not identity.get("policy"):
        return Path(run_dir).name
    flags = [
        flag
        for name, (value, flag) in _ABLATION_FLAGS.items()
        if (identity.get("agent") or {}).get(name) == value
    ]
    if identity.get("harness"):
        flags.append("(harness: " + ", ".join(sorted(identity["harness"])) + ")")
    return " ".join([identity["policy"], *flags])


def _rate(passed: int, scored: int) -> float | None:
    return passed / scored if scored else None


def _cell(rate: float | None, passed: int, scored: int, reference: float | None, first: bool) -> str:
    if rate is None:
        return "-"
    text = f"{rate:.1%} ({passed}/{scored})"
    if not first and reference is not None:
        text += f" {(rate - reference) * 100:+.1f}"
    return text


def _ordered_keys(summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    keys: list[tuple[str, str]] = []
    for summary in summaries:
        for row in summary["rows"]:
            key = (row["group"], row["value"])
            if key not in keys:
                keys.append(key)
    return keys


def rate_table(summaries: list[dict[str, Any]], *, intermediate: bool = False) -> str:
    """One row per group value, one column per run; "" when no run has a row with a score of that kind."""
    passed_key, scored_key = ("intermediate_passed", "intermediate_scored") if intermediate else ("passed", "scored")
    by_run = [{(row["group"], row["value"]): row for row in summary["rows"]} for summary in summaries]
    lines = [["group", "value", *(f"run {index}" for index in range(1, len(summaries) + 1))]]
    for key in _ordered_keys(summaries):
        counts = [(rows[key][passed_key], rows[key][scored_key]) if key in rows else (0, 0) for rows in by_run]
        if not any(scored for _, scored in counts):
            continue
        rates = [_rate(passed, scored) for passed, scored in counts]
        reference = rates[0]
        cells = [
            _cell(rate, passed, scored, reference, index == 0)
            for index, (rate, (passed, scored)) in enumerate(zip(rates, counts))
        ]
        lines.append([key[0], key[1], *cells])
    return text_columns(lines) if len(lines) > 1 else ""


def differing_tasks(records_per_run: list[list[dict[str, Any]]]) -> list[str]:
    """Tasks present in every run whose status is not the same in all of them: "key: s1 | s2 | ..."."""
    statuses = [{record["task_key"]: record.get("status", "error") for record in records} for records in records_per_run]
    common = [key for key in statuses[0] if all(key in run for run in statuses[1:])]
    return [
        f"{key}: " + " | ".join(run[key] for run in statuses)
        for key in sorted(common, key=_natural)
        if len({run[key] for run in statuses}) > 1
    ]


def _natural(key: str) -> list[Any]:
    """"shop:9" before "shop:10": numbers compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key)]


def only_in_some(records_per_run: list[list[dict[str, Any]]]) -> int:
    """How many task keys are missing from at least one run (rates then cover different tasks)."""
    keys = [{record["task_key"] for record in records} for records in records_per_run]
    return len(set().union(*keys) - set.intersection(*keys))


def comparison_text(
    run_dirs: list[Path],
    summaries: list[dict[str, Any]],
    records_per_run: list[list[dict[str, Any]]],
    labels: list[str] | None = None,
) -> str:
    names = labels or [run_label(folder) for folder in run_dirs]
    header = "\n".join(
        f"run {index}: {name}  ({folder}, {summary['tasks']} tasks)"
        for index, (name, folder, summary) in enumerate(zip(names, run_dirs, summaries), start=1)
    )
    parts = [header, "success rate (passed/scored), points vs run 1:\n" + rate_table(summaries)]
    intermediate = rate_table(summaries, intermediate=True)
    if intermediate:
        parts.append("intermediate score of factual-retention tasks (passed/scored), points vs run 1:\n" + intermediate)
    missing = only_in_some(records_per_run)
    if missing:
        parts.append(f"note: {missing} tasks are not in every run, so the rates above cover different task sets")
    differing = differing_tasks(records_per_run)
    parts.append(
        f"tasks whose outcome differs ({len(differing)}):" + ("\n  " + "\n  ".join(differing) if differing else " none")
    )
    return "\n\n".join(parts)
