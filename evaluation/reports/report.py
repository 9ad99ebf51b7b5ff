"""Looking at runs: a page per task, an index per run, and success-rate tables (several runs side by side).

Success rate = passed / scored. Tasks that could not be scored (config error,
unscorable without a model, error) are counted beside it, never as failures, except in
records scored under AgentOccam's rules, whose tally counts them as failures
(evaluation/scoring/scoring_rules.py).
Rows are grouped by site (a multi-site task under its sites joined by "+"), kind,
difficulty and eval type; the eval-type rows count each evaluator's own verdict,
so a task with two evaluators counts once under each. The intermediate column is
the intermediate score of factual-retention tasks (passed / scored).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.reports.loss_run import account_run, lost_counts, lost_text
from evaluation.reports.run_groups import counted_records, errored_reason
from evaluation.reports.run_index import write_run_index
from evaluation.reports.summary_table import format_table
from evaluation.reports.task_story import write_task_page
from evaluation.running.run_health import health_text, run_health
from evaluation.running.run_records import SUMMARY_FILE, TASKS_DIR
from evaluation.running.task_record import iter_records
from evaluation.scoring.reference_quirks import decided_tasks, quirk_lines
from evaluation.scoring.scoring_rules import AGENTOCCAM, record_rules
from foundation.json_files import write_json
from foundation.records.eval_block import EVAL_TYPES
from foundation.records.task_record import TaskRecord
from foundation.text_table import text_columns
from model_access.accounting import tokens_text

STATUSES = ("passed", "failed", "unscorable", "config_error", "error")
GROUPS = ("site", "kind", "difficulty", "eval_type")


# ---- generic rendering of recorded values ----------------------------------------------------


# ---- tables -------------------------------------------------------------------------------------


def _group_values(record: TaskRecord, group: str) -> list[tuple[str, str, bool]]:
    """(value, status, counts its intermediate score) of each row the record counts in for `group`."""
    status = record.status
    if group == "site":
        return [("+".join(sorted(record.sites or [])) or "(none)", status, True)]
    if group in ("kind", "difficulty"):
        return [(getattr(record, group) or "(none)", status, True)]
    verdicts = {v.eval_type: v.status for v in record.verdicts if v.eval_type in EVAL_TYPES}
    if (record.recorded_status or status) != status:
        verdicts = {}  # the report's --errors rule changed the task's status: every type counts it so
    # A task that never reached its evaluators (config problems, an episode error) counts under
    # each type it lists, with the task's status.
    return [(eval_type, verdicts.get(eval_type, status), False) for eval_type in record.eval_types or []]


def _new_row(group: str, value: str) -> dict[str, Any]:
    row: dict[str, Any] = {"group": group, "value": value, "tasks": 0, "scored": 0}
    row.update({status: 0 for status in STATUSES})
    row.update(intermediate_scored=0, intermediate_passed=0)
    return row


def _count(row: dict[str, Any], status: str, record: TaskRecord | None) -> None:
    row["tasks"] += 1
    row[status if status in STATUSES else "error"] += 1
    if status in ("passed", "failed"):
        row["scored"] += 1
    if record is not None and record.intermediate_score is not None:
        row["intermediate_scored"] += 1
        row["intermediate_passed"] += int(record.intermediate_score == 1.0)


def _finish_row(row: dict[str, Any]) -> dict[str, Any]:
    row["success_rate"] = row["passed"] / row["scored"] if row["scored"] else None
    scored = row["intermediate_scored"]
    row["intermediate_rate"] = row["intermediate_passed"] / scored if scored else None
    return row


def summarize(records: list[TaskRecord]) -> dict[str, Any]:
    """Counts and rates for the whole run and per group, the tasks that changed site state, and model usage."""
    from model_access.accounting import UsageLedger

    rows: dict[tuple[str, str], dict[str, Any]] = {("all", "all"): _new_row("all", "all")}
    for record in records:
        _count(rows[("all", "all")], record.status, record)
        for group in GROUPS:
            for value, status, with_intermediate in _group_values(record, group):
                row = rows.setdefault((group, value), _new_row(group, value))
                _count(row, status, record if with_intermediate else None)
    ledgers = {"policy": UsageLedger(), "evaluation": UsageLedger()}
    for record in records:
        for role, ledger in ledgers.items():
            ledger.merge((record.usage or {}).get(role) or {})
    ordered = [rows[("all", "all")]] + [
        rows[key] for group in GROUPS for key in sorted(k for k in rows if k[0] == group)
    ]
    steps = sum(int(record.steps or 0) for record in records)
    return {
        "tasks": len(records),
        "rows": [_finish_row(row) for row in ordered],
        "errored": [f"{r.task_key} ({reason})" for r in records if (reason := errored_reason(r))],
        "changed_state": [r.task_key for r in records if (r.state or {}).get("counts_changed")],
        "require_reset": [r.task_key for r in records if r.require_reset],
        # Tasks whose score a reference quirk decided (evaluation.reference_quirks), by quirk.
        "reference_quirks": decided_tasks(records),
        # The rule sets that scored the records (evaluation.rules), and the tasks AgentOccam's tally counts as
        # failures although they have no score (their recorded status in brackets).
        "rules": sorted({record_rules(record) for record in records}),
        "counted_as_failed": [
            f"{r.task_key} ({r.recorded_status})" for r in records
            if record_rules(r) == AGENTOCCAM and (r.recorded_status or r.status) != r.status
        ],
        "usage": {role: ledger.to_dict() for role, ledger in ledgers.items()},
        "steps": steps,
        "policy_cost_per_step": cost_per_step(ledgers["policy"].to_dict(), steps),
        "model_health": run_health(records),
        # Where each failed task was lost (evaluation/reports/loss_account.py), by stage.
        "lost_at": lost_counts(records),
    }


# Ledger stages of the policy's own step call and of trajectory selection (agent/method/selection.py).
POLICY_STAGE = "policy"
SELECTION_PREFIX = "selection"
_COST_FIELDS = ("calls", "prompt_tokens", "completion_tokens", "images")
# Summed beside them so a stage whose server reported no token counts prints "n/a" (accounting.tokens_text).
_COUNT_FIELDS = ("cache_hits", "failures", "no_usage")


def cost_per_step(policy_usage: dict[str, Any], steps: int) -> list[dict[str, Any]]:
    """The policy's model usage per episode step, one row per ledger stage, plus "selection (all)" summing the
    selection stages beside the policy's own call, so what choosing demonstrations costs reads at a glance."""
    if not steps:
        return []
    rows: list[dict[str, Any]] = []
    selection = dict.fromkeys(_COST_FIELDS + _COUNT_FIELDS, 0)
    for row in policy_usage.get("rows", []):
        rows.append({"stage": row["stage"], **{name: row.get(name, 0) / steps for name in _COST_FIELDS},
                     **{name: row.get(name, 0) for name in _COUNT_FIELDS}, "total_calls": row.get("calls", 0)})
        if row["stage"].startswith(SELECTION_PREFIX):
            for name in _COST_FIELDS + _COUNT_FIELDS:
                selection[name] += row.get(name, 0)
    if any(row["stage"].startswith(SELECTION_PREFIX) for row in rows):
        per_step = {name: selection[name] / steps for name in _COST_FIELDS}
        counts = {name: selection[name] for name in _COUNT_FIELDS}
        rows.append({"stage": "selection (all)", **per_step, **counts, "total_calls": selection["calls"]})
    order = {POLICY_STAGE: 0, "selection (all)": 1}
    return sorted(rows, key=lambda row: (order.get(row["stage"], 2), row["stage"]))


def cost_table(summary: dict[str, Any]) -> str:
    rows = summary.get("policy_cost_per_step") or []
    if not rows:
        return ""
    lines = [["stage", "calls/step", "prompt tok/step", "compl tok/step", "images/step"]]
    for row in rows:
        counted = {**row, "calls": row.get("total_calls", 0)}  # whole calls, to tell whether any reported tokens
        lines.append([row["stage"], f"{row['calls']:.2f}", tokens_text(counted, "prompt_tokens"),
                      tokens_text(counted, "completion_tokens"), f"{row['images']:.2f}"])  # fmt: skip
    return f"policy model cost per step ({summary['steps']} steps):\n" + text_columns(lines)


def usage_tables(summary: dict[str, Any]) -> str:
    from model_access.accounting import UsageLedger

    parts = []
    for role, data in summary["usage"].items():
        if data.get("rows"):
            parts.append(f"model usage ({role}):\n" + UsageLedger.from_dict(data).summary_table())
    if cost_table(summary):
        parts.append(cost_table(summary))
    return "\n\n".join(parts) or "model usage: no model calls"


def state_lines(summary: dict[str, Any]) -> str:
    """Which tasks changed the sites (row counts moved) and how many were run after a reset."""
    changed = summary["changed_state"]
    text = f"tasks whose site row counts changed ({len(changed)}): {', '.join(changed) or 'none'}"
    if summary["require_reset"]:
        text += f"\ntasks marked require_reset (run after a site reset): {len(summary['require_reset'])}"
    return text


def summary_text(summary: dict[str, Any]) -> str:
    """The run's tables as printed at its end and by `videodemo report`."""
    errored = summary.get("errored") or []
    errored_line = f"errored tasks ({len(errored)}): {', '.join(errored) or 'none'}"
    parts = [format_table(summary), errored_line, state_lines(summary)]
    if lost := lost_text(summary):
        parts.append(lost)
    if quirks := quirk_lines(summary.get("reference_quirks") or {}):
        parts.append(quirks)
    if AGENTOCCAM in (summary.get("rules") or []):
        failed = summary.get("counted_as_failed") or []
        parts.append(
            f"scored under AgentOccam's rules (evaluation.rules): tasks without a score count as failures "
            f"({len(failed)}): {', '.join(failed) or 'none'}"
        )
    health = health_text(summary.get("model_health") or {}, summary.get("steps", 0))
    if health:
        parts.append(health)
    parts.append(usage_tables(summary))
    return "\n\n".join(parts)


def print_summary(summary: dict[str, Any]) -> None:
    print(summary_text(summary))


def write_run_outputs(run_dir: Path, settings: Any = None) -> dict[str, Any]:
    """Each failed task's account (`lost_at`, evaluation/reports/loss_run.py), then summary.json, index.html and every
    task's page of a run (drawn again, so each task in the index has one in the current layout), from its records;
    returns the summary. `settings` is the ReportSettings (defaults when None)."""
    run_dir = Path(run_dir)
    records = iter_records(run_dir)
    sources = account_run(run_dir, settings, records)
    for record in records:
        write_task_page(run_dir / TASKS_DIR / str(record.folder), record)
    summary = summarize(counted_records(records, "recorded"))  # as each record's rule set counts it
    summary["lost_at"]["sources"] = sources.to_dict()
    write_json(run_dir / SUMMARY_FILE, summary)
    write_run_index(run_dir, summary, records)
    return summary
