"""How the models behaved in a run: the counts a researcher checks before trusting a success rate.

A real model's replies go wrong in ways that look like an agent's failures: a reply with
no readable action, a selection reply that names nothing, a reply cut at the length limit
before its ACTION, a call that timed out, a prompt longer than the model's context. Each
task record keeps these counts (`model_health`), every step keeps its own model usage
(calls, latency, tokens, cut replies), and the run's summary adds them up with the
episodes' stop reasons, so "3/10 passed" can be read beside "12 of 40 replies were cut".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from foundation.records.demonstration import UNREADABLE, SelectionRecord
from foundation.records.step_info import StepInfo
from foundation.text_table import text_columns
from model_access.accounting import tokens_unknown
from foundation.records.task_record import TaskRecord

# The selection decision agent/method/selection.py records when a selection reply could not be read.
UNREADABLE_SELECTION = UNREADABLE
COUNTS = ("unparseable_steps", "unreadable_selections", "truncated_replies", "cut_streams", "timeouts",
          "context_overflows", "retries")  # fmt: skip
# What each count is called in the run summary and the comparison's side-by-side table.
LABELS = {
    "unparseable_steps": "steps with no readable action",
    "unreadable_selections": "selection replies unreadable",
    "truncated_replies": "replies cut at the length limit",
    "cut_streams": "streams cut by the server (retried)",
    "timeouts": "calls timed out",
    "context_overflows": "prompts over the context",
    "retries": "retries",
}


def step_usage(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """A step's model usage from two snapshots of the policy's ledger totals, numbers rounded for reading."""
    keys = ("calls", "cache_hits", "retries", "prompt_tokens", "cached_prompt_tokens", "completion_tokens",
            "truncated", "cut_streams", "timeouts", "context_overflows", "failures", "no_usage")  # fmt: skip
    usage: dict[str, Any] = {key: int(after.get(key, 0) - before.get(key, 0)) for key in keys}
    if tokens_unknown(usage):  # the server reported no token counts for this step's calls: unknown, not 0
        usage.update(prompt_tokens="n/a", cached_prompt_tokens="n/a", completion_tokens="n/a")
    usage = {key: value for key, value in usage.items() if value}
    latency = float(after.get("latency_s", 0.0)) - float(before.get("latency_s", 0.0))
    if latency > 0:
        usage["latency_s"] = round(latency, 2)
    return usage


def task_health(steps: list[Any], policy_totals: dict[str, Any]) -> dict[str, int]:
    """The counts of one episode: from its steps (unreadable replies and selections) and the policy's usage."""
    unparseable = sum(1 for step in steps if has_no_readable_action(step))
    unreadable = sum(1 for step in steps if _selection_decision(_info(step)) == UNREADABLE_SELECTION)
    return {
        "unparseable_steps": unparseable,
        "unreadable_selections": unreadable,
        "truncated_replies": int(policy_totals.get("truncated", 0)),
        "cut_streams": int(policy_totals.get("cut_streams", 0)),
        "timeouts": int(policy_totals.get("timeouts", 0)),
        "context_overflows": int(policy_totals.get("context_overflows", 0)),
        "retries": int(policy_totals.get("retries", 0)),
    }


def has_no_readable_action(step: Any) -> bool:
    """A step whose reply gave no action to carry out: the environment could not parse it ("unparseable reply:
    ..."), or the policy gave up reading it and said why under `unparseable` (AgentOccam's "the ACTION section
    holds no command (N replies; ...)", a plan id not there, planning only; ReAct's unreadable reply)."""
    if step.action is not None or not step.error:
        return False
    return str(step.error).startswith("unparseable") or bool(_info(step).unparseable)


def _info(step: Any) -> StepInfo:
    """What the policy recorded of the step (its `extra`), read through the type."""
    return StepInfo.from_dict(step.extra) if isinstance(step.extra, dict) else StepInfo()


def _selection_decision(info: StepInfo) -> str:
    selection = info.selection  # a record an odd policy wrote otherwise is no decision
    return str(selection.decision or "") if isinstance(selection, SelectionRecord) else ""


def run_health(records: list[TaskRecord]) -> dict[str, Any]:
    """The counts added over a run's records, the tasks each count came from, and the stop reasons."""
    totals = dict.fromkeys(COUNTS, 0)
    tasks_with = {name: 0 for name in COUNTS}
    for record in records:
        health = record.model_health or {}
        for name in COUNTS:
            value = int(health.get(name, 0) or 0)
            totals[name] += value
            tasks_with[name] += int(value > 0)
    reasons = Counter(str(record.stop_reason or "none") for record in records)
    return {"totals": totals, "tasks_with": tasks_with, "stop_reasons": dict(sorted(reasons.items()))}


def health_text(health: dict[str, Any], steps: int) -> str:
    """Plain lines for the run summary and the report."""
    if not health:
        return ""
    lines = [["model replies", "count", "tasks"]]
    for name in COUNTS:
        lines.append([LABELS[name], str(health["totals"].get(name, 0)), str(health["tasks_with"].get(name, 0))])
    reasons = ", ".join(f"{reason} {count}" for reason, count in health.get("stop_reasons", {}).items())
    return f"model health ({steps} steps):\n" + text_columns(lines) + f"\nepisodes ended by: {reasons or '-'}"
