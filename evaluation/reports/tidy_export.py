"""The report's tidy table: one row per (run, sample, task), written as CSV for pandas (`pd.read_csv(path)`).

`outcome` is the status as the report counted it (under `--errors`), `recorded_status` the
record's own; `errored` names why a task errored ("error", "context overflow") or is empty.
Model health (evaluation/running/run_health.py: steps with no readable action, cut streams, re-asks
as retries, ...) is counted per task beside the usage. Unknown numbers (a server that reports
no usage, a model without a price, a record older than model health) are empty cells, which
pandas reads as NaN, never 0. `lost_at` is where a failed task was lost (the first stage,
evaluation/reports/loss_account.py), empty for the others.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.reports.comparison import Comparison
from evaluation.reports.loss_run import stage_of
from evaluation.reports.run_groups import errored_reason
from evaluation.running.run_health import COUNTS as HEALTH_COUNTS
from foundation.records.task_record import TaskRecord

TIDY_FILE = "tasks.csv"
COLUMNS = (
    "run", "label", "sample", "folder", "task_key", "sites", "kind", "difficulty", "outcome", "recorded_status",
    "errored", "counted", "score", "intermediate_score", "steps", "stop_reason", "prompt_tokens",
    "cached_prompt_tokens", "completion_tokens", "model_calls", "cache_hits", "failed_calls", "shared_cache_hits",
    "scripted_calls", "model_s", "browser_s", "task_s", "cost_usd", "cost_note", *HEALTH_COUNTS, "errors_rule",
    "lost_at",
)  # fmt: skip


def tidy_rows(comparison: Comparison) -> list[dict[str, Any]]:
    rows = []
    for index, result in enumerate(comparison.results, start=1):
        for sample, records, costs in zip(result.configuration.samples, result.records, result.costs):
            for record in records:
                rows.append({
                    "run": index, "label": result.label, "sample": sample.number, "folder": str(sample.folder),
                    "task_key": record.task_key, "sites": "+".join(sorted(record.sites or [])),
                    "kind": record.kind, "difficulty": record.difficulty, "outcome": record.status,
                    "recorded_status": record.recorded_status, "errored": errored_reason(record) or "",
                    "counted": record.status in ("passed", "failed"), "score": record.score,
                    "intermediate_score": record.intermediate_score, "steps": record.steps,
                    "stop_reason": record.stop_reason, **costs[record.task_key], **_health(record),
                    "errors_rule": comparison.errors, "lost_at": _lost_at(record),
                })  # fmt: skip
    return rows


def _lost_at(record: TaskRecord) -> str:
    """Where a failed task was lost (evaluation/reports/loss_account.py); empty for a task that did not fail."""
    return stage_of(record) if record.status == "failed" else ""


def _health(record: TaskRecord) -> dict[str, Any]:
    """The task's model-health counts; empty cells for a record written before they were kept (unknown, not 0)."""
    health = record.model_health
    if not isinstance(health, dict):
        return dict.fromkeys(HEALTH_COUNTS)
    return {name: int(health.get(name) or 0) for name in HEALTH_COUNTS}


def write_tidy(comparison: Comparison, folder: Path) -> Path:
    import pandas as pd

    path = Path(folder) / TIDY_FILE
    pd.DataFrame(tidy_rows(comparison), columns=list(COLUMNS)).to_csv(path, index=False)
    return path
