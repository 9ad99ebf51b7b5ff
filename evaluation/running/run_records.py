"""The files of a run folder: their names, and the folder each task's files go in.

    <run>/run.json                 what was run, by whom, with which code (one entry per session)
    <run>/summary.json             success rates of the finished tasks
    <run>/index.html               every task, linked to its page
    <run>/tasks/<task>/record.json verdicts, score, steps, timings, usage of one task
                                   (foundation/records/task_record.py)
    <run>/tasks/<task>/evidence.json   what the score was based on (answer, final URL, page contents)
    <run>/tasks/<task>/episode.json    every step, with step_NNN.png screenshots beside it
    <run>/tasks/<task>/network_trace.zip   the episode's requests, with run.record_network (a Playwright trace)
    <run>/tasks/<task>/report.html     the task's page

Every JSON file is written to a temporary name and renamed (foundation/json_files.py), so a
killed run never leaves half a record: a task whose record.json exists is finished.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

RUN_FILE = "run.json"
SUMMARY_FILE = "summary.json"
INDEX_FILE = "index.html"
TASKS_DIR = "tasks"
EVIDENCE_FILE = "evidence.json"
NETWORK_TRACE_FILE = "network_trace.zip"
TASK_PAGE = "report.html"

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def natural_key(key: str) -> list[Any]:
    """"shop:9" before "shop:10": numbers compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key)]


def task_folder(run_dir: Path, task_key: str) -> Path:
    """`shop_tasks:3` -> <run>/tasks/shop_tasks-3 (plus a short hash when other characters had to change)."""
    name = task_key.replace(":", "-", 1)
    safe = _UNSAFE.sub("_", name)
    if safe != name:
        safe += "-" + hashlib.sha1(task_key.encode()).hexdigest()[:6]
    return Path(run_dir) / TASKS_DIR / safe


def record_collisions(tasks: list[Any], run_dir: Path) -> list[tuple[Any, Any]]:
    """Pairs of tasks whose records would land in one folder (same key, or keys that map to one name)."""
    first: dict[Path, Any] = {}
    clashes = []
    for task in tasks:
        folder = task_folder(run_dir, task.key)
        if folder in first:
            clashes.append((first[folder], task))
        else:
            first[folder] = task
    return clashes


def usage_difference(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """`UsageLedger.to_dict()` of the calls made between two snapshots of the same ledger."""
    from model_access.accounting import UsageLedger

    earlier = {(row["stage"], row["role"]): row for row in (before or {}).get("rows", [])}
    ledger = UsageLedger()
    for row in (after or {}).get("rows", []):
        base = earlier.get((row["stage"], row["role"]), {})
        counts = {
            key: value - base.get(key, 0)
            for key, value in row.items()
            if key not in ("stage", "role") and isinstance(value, (int, float))
        }
        if any(counts.values()):
            ledger.record(row["stage"], row["role"], **counts)
    return ledger.to_dict()
