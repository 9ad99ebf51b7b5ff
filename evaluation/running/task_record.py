"""The records of a run folder: every finished task's `TaskRecord` (foundation/records/task_record.py).

    records = iter_records(run_dir)       # every finished task of a run, each with its `folder`
    is_finished(folder)                   # whether a task has a readable record (retry_errors: and not an error)
"""

from __future__ import annotations

from pathlib import Path

from evaluation.running.run_records import TASKS_DIR
from foundation.records.task_record import TaskRecord

# The fields of a record a worker sends its parent (record_summary).
SUMMARY_FIELDS = ("task_key", "status", "score", "steps", "timings")


def read_record(folder: Path) -> TaskRecord | None:
    return TaskRecord.load(folder)


def is_finished(folder: Path, retry_errors: bool = False) -> bool:
    record = read_record(folder)
    if record is None:
        return False
    return not (retry_errors and record.status == "error")


def iter_records(run_dir: Path) -> list[TaskRecord]:
    """Every finished task record of a run, in folder order (each knows its `folder`)."""
    tasks_dir = Path(run_dir) / TASKS_DIR
    if not tasks_dir.is_dir():
        return []
    records = []
    for folder in sorted(p for p in tasks_dir.iterdir() if p.is_dir()):
        record = read_record(folder)
        if record is not None:
            records.append(record)
    return records


def record_summary(record: TaskRecord) -> TaskRecord:
    """What a worker sends its parent of a finished task: enough for the run's counts and progress line."""
    return TaskRecord(**{key: getattr(record, key) for key in SUMMARY_FIELDS if record.has(key)})


__all__ = ["is_finished", "iter_records", "read_record", "record_summary"]
