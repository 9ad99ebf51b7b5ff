"""Success per task template (the configs' `intent_template_id`), beside the per-task figures, as WebArena-Verified
reports them: tasks made from one template share their route, so a template's rate says more than one task's.

The records do not carry the template; it is read from the run's task configs (run.json's identity `tasks`).
A run whose configs have moved or name no templates gets no table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from foundation.records.task_record import TaskRecord
from tasks.loading import config_files, source_name


def template_of(tasks_path: Any) -> dict[tuple[str, str], str]:
    """(source, task id) -> intent_template_id of every config under `tasks_path`; {} when it cannot be read."""
    if not tasks_path:
        return {}
    root = Path(str(tasks_path))
    found: dict[tuple[str, str], str] = {}
    try:
        files = config_files(root)
    except UserError:  # moved or never there: the index goes without the table
        return {}
    for file in files:
        try:
            items = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for item in items if isinstance(items, list) else [items]:
            if isinstance(item, dict) and item.get("intent_template_id") is not None:
                found[(source_name(root, file), str(item.get("task_id")))] = str(item["intent_template_id"])
    return found


def template_rows(records: list[TaskRecord], templates: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    """One row per template: its tasks (keys), passed, scored and rate; templates in natural order."""
    from evaluation.running.run_records import natural_key

    rows: dict[str, dict[str, Any]] = {}
    for record in records:
        template = templates.get((str(record.source or ""), str(record.task_id)))
        if template is None:
            continue
        row = rows.setdefault(template, {"template": template, "tasks": [], "passed": 0, "scored": 0})
        row["tasks"].append(record.task_key)
        row["scored"] += record.status in ("passed", "failed")
        row["passed"] += record.status == "passed"
    for row in rows.values():
        row["rate"] = f"{row['passed'] / row['scored']:.0%}" if row["scored"] else "-"
        row["tasks"].sort(key=natural_key)
    return [rows[key] for key in sorted(rows, key=natural_key)]
