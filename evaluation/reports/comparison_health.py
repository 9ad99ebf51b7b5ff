"""Model health and usage of each configuration side by side: one row per figure, one column per run.

A success rate means little without how the models behaved: a run whose replies were
mostly unreadable, or whose streams the server kept cutting, fails for reasons that are
not the agent's. Health counts come from evaluation/running/run_health.py (added over all of a
configuration's samples, with the number of tasks each count came from); calls, tokens and
dollars from evaluation/reports/run_costs.py. "n/a" means unknown (a server that reports no usage, a
model without a price, records written before model health was kept), never 0.
"""

from __future__ import annotations

from typing import Any

from evaluation.reports.comparison import Comparison, ConfigurationResult
from evaluation.reports.run_costs import run_cost, shown
from evaluation.running.run_health import COUNTS, LABELS
from foundation.text_table import text_columns

TITLE = "model health and usage (all samples; count (tasks with it); n/a: unknown, never 0)"
# (label, run_costs key, digits): usage rows, totals over the samples.
_USAGE = (
    ("model calls", "model_calls", 0),
    ("calls replayed from disk", "cache_hits", 0),
    ("failed calls (after retries)", "failed_calls", 0),
    ("prompt tokens", "prompt_tokens", 0),
    ("output tokens", "completion_tokens", 0),
    ("cost $", "cost_usd", 4),
)
# Per episode step, so runs of different lengths compare.
_PER_STEP = (("calls per step", "model_calls", 2), ("prompt tokens per step", "prompt_tokens", 0),
             ("output tokens per step", "completion_tokens", 0))  # fmt: skip


def _health_cells(result: ConfigurationResult) -> dict[str, str]:
    records = [record for sample_records in result.records for record in sample_records]
    if not any(isinstance(record.model_health, dict) for record in records):
        return dict.fromkeys(COUNTS, "n/a")
    health = result.pooled["model_health"]
    return {name: f"{health['totals'][name]} ({health['tasks_with'][name]})" for name in COUNTS}


def _usage(result: ConfigurationResult) -> dict[str, Any]:
    """The run_costs totals over every sample (one sample: its own)."""
    costs = [cost for per_task in result.costs for cost in per_task.values()]
    return run_cost(costs, 0)


def health_usage_rows(comparison: Comparison) -> tuple[list[str], list[list[str]], list[str]]:
    """The header (figure, run 1, run 2, ...), one row of cells per figure, and the notes on n/a cells."""
    header = ["", *(f"run {index}" for index in range(1, len(comparison.results) + 1))]
    health = [_health_cells(result) for result in comparison.results]
    usage = [_usage(result) for result in comparison.results]
    steps = [int(result.pooled.get("steps") or 0) for result in comparison.results]
    rows = [["steps", *(str(count) for count in steps)]]
    rows += [[LABELS[name], *(cells[name] for cells in health)] for name in COUNTS]
    rows += [[label, *(shown(totals[key], digits) for totals in usage)] for label, key, digits in _USAGE]
    for label, key, digits in _PER_STEP:
        values = [None if totals[key] is None or not count else totals[key] / count for totals, count in
                  zip(usage, steps)]  # fmt: skip
        rows.append([label, *(shown(value, digits) for value in values)])
    notes = [f"run {index}: n/a because {note}" for index, totals in enumerate(usage, start=1)
             for note in totals["notes"]]  # fmt: skip
    notes += [f"run {index}: its records hold no model health (written before it was kept)"
              for index, cells in enumerate(health, start=1) if cells[COUNTS[0]] == "n/a"]  # fmt: skip
    return header, rows, notes


def health_usage_table(comparison: Comparison) -> str:
    header, rows, notes = health_usage_rows(comparison)
    # An empty second column: text_columns left-aligns two, and every run's figures should align right.
    lines = [[line[0], "", *line[1:]] for line in (header, *rows)]
    return "\n".join([TITLE + ":", text_columns(lines), *notes])
