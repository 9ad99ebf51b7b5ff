"""Any number of runs side by side: one column per run, the difference to the first run.

`videodemo report RUN_A RUN_B RUN_C ...` prints, for every group (site, kind, difficulty,
eval type), each run's success rate with passed/scored, then the same for the
intermediate (factual-retention) score, then the tasks whose outcome differs between
runs (assembled with the paired statistics and costs in evaluation/reports/comparison_text.py).
The first run is the reference: every other column carries its difference to it
in percentage points, so the paper's table (base, + transcript, + frames, + summary,
+ method) reads as gains over the base agent.

A run is named by its policy and the ablation flags it was run with (from run.json), or
by the `--labels` a user gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.running.run_records import RUN_FILE, natural_key
from foundation.json_files import read_json
from foundation.records.task_record import TaskRecord
from foundation.text_table import text_columns

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
    oracles = [name for name in ("labels", "selection", "grounding") if (identity.get("oracle") or {}).get(name)]
    if oracles:
        flags.append("(oracle: " + ", ".join(oracles) + ")")
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


def rate_table(summaries: list[dict[str, Any]], *, intermediate: bool = False, names: list[str] | None = None) -> str:
    """One row per group value, one column per run (headed by `names`, else "run N"); "" when no run has a row
    with a score of that kind."""
    passed_key, scored_key = ("intermediate_passed", "intermediate_scored") if intermediate else ("passed", "scored")
    by_run = [{(row["group"], row["value"]): row for row in summary["rows"]} for summary in summaries]
    lines = [["group", "value", *(names or (f"run {index}" for index in range(1, len(summaries) + 1)))]]
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


def differing_tasks(outcomes_per_run: list[dict[str, tuple[str, Any]]]) -> list[str]:
    """Tasks present in every run whose outcome is not the same in all of them: "key: o1 | o2 | ..."."""
    common = [key for key in outcomes_per_run[0] if all(key in run for run in outcomes_per_run[1:])]
    return [
        f"{key}: " + " | ".join(run[key][0] for run in outcomes_per_run)
        for key in sorted(common, key=natural_key)
        if len({run[key][1] for run in outcomes_per_run}) > 1
    ]


def task_outcomes(samples: list[list[TaskRecord]]) -> dict[str, tuple[str, Any]]:
    """Task key -> (what to show, what to compare): its status with one sample, "k/n passed" over several;
    compared as the pass frequency when every sample scored it (so "2/2 passed" equals "passed")."""
    statuses: dict[str, list[str]] = {}
    for records in samples:
        for record in records:
            statuses.setdefault(record.task_key, []).append(record.status)
    outcomes = {}
    for key, found in statuses.items():
        shown = found[0] if len(samples) == 1 else f"{found.count('passed')}/{len(found)} passed"
        scored = all(status in ("passed", "failed") for status in found)
        outcomes[key] = (shown, found.count("passed") / len(found) if scored else tuple(sorted(found)))
    return outcomes


def only_in_some(task_keys_per_run: list[set[str]]) -> int:
    """How many task keys are missing from at least one run (rates then cover different tasks)."""
    return len(set().union(*task_keys_per_run) - set.intersection(*task_keys_per_run))
