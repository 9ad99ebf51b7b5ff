"""One task's record (`<run>/tasks/<task>/record.json`) as a typed object.

    record = TaskRecord.load(folder)      # None when the task has no readable record (it is not finished)
    record.rescored_at = now()
    record.save(folder)

Running writes it, scoring, the reports and the tools beside them read it, so it lives here below them
all; the run folder's own functions (every record of a run, whether a task is finished) stay in
evaluation/running/task_record.py.

A record behaves like the JSON object it is read from and written to: a key is on disk once it was
read or set, in the order it first was, so every record an earlier version wrote is saved again byte
for byte. A field that was never read nor set holds its default (what a reader takes for a missing
key) and stays off the disk: a config-error record has no `answer`, `state`, ... Keys this version
does not know are kept in `extra` and written back in their place. `folder` (the task's folder name,
from `iter_records`) and `recorded_status` (set by a report that counts errors its own way) are never
written.
"""

from __future__ import annotations

import copy
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

from foundation.json_files import read_json, write_json
from foundation.records.verdict import Verdict

RECORD_FILE = "record.json"  # <run>/tasks/<task>/record.json

# Fields that live in memory only: never read from nor written to record.json.
_MEMORY_ONLY = ("folder", "recorded_status", "extra", "key_order")


@dataclass(init=False)
class TaskRecord:
    # The task, as its config gave it (evaluation/running/task_runner.py: task_record).
    task_key: str = ""
    task_id: Any = None  # the config's id: a number or a name
    source: str | None = None
    sites: list[str] = field(default_factory=list)
    kind: str | None = None
    difficulty: str | None = None
    eval_types: list[str] = field(default_factory=list)
    intent: str = ""
    images: list[str] = field(default_factory=list)
    intermediate_intent: str | None = None
    video: str | None = None
    require_reset: bool = False
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Who played it, when, and under which rules.
    policy: str | None = None
    sample: int | None = None
    started_at: str | None = None
    worker_pid: int | None = None
    rules: str | None = None  # absent on records made before rule sets: videowa's (scoring_rules.record_rules)
    network_trace: str | None = None  # with run.record_network: the file's name, or why it was not saved
    # The evaluation (evaluation/scoring/evaluate.py: TaskEvaluation.to_dict).
    status: str = "error"
    score: float | None = None
    verdicts: list[Verdict] = field(default_factory=list)  # one per eval type (a dict given is read as one)
    intermediate: Verdict | None = None
    intermediate_score: float | None = None
    quirks: list[str] = field(default_factory=list)
    # The episode (absent on a config-error record, which was never played).
    answer: str | None = None
    intermediate_answer: str | None = None
    final_url: str = ""
    stop_reason: str | None = None
    steps: int | None = None
    actions: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    state: dict[str, Any] | None = None
    policy_info: Any = None
    usage: dict[str, Any] | None = None  # {"policy": UsageLedger.to_dict(), "evaluation": ...}
    model_health: dict[str, Any] | None = None
    timings: dict[str, float] | None = None
    finished_at: str | None = None
    complete: bool = False
    # Written by later commands.
    rescored_at: str | None = None  # evaluation/running/rescore.py
    lost_at: dict[str, Any] | None = None  # evaluation/reports/loss_run.py: {"stage", "evidence", "reason"}
    # In memory only.
    folder: str | None = None  # the task's folder under <run>/tasks (iter_records)
    recorded_status: str | None = None  # the status on disk, where a report counts another (counted_records)
    extra: dict[str, Any] = field(default_factory=dict)  # keys this version does not know, as read
    key_order: list[str] = field(default_factory=list)  # the keys on disk, in their order

    def __init__(self, **values: Any) -> None:
        """A record holding `values` (field names), in that order; every other field is absent."""
        for spec in fields(self):
            default = _default(spec)
            object.__setattr__(self, spec.name, default)
        for name, value in values.items():
            if name not in _FIELD_NAMES:
                raise TypeError(f"TaskRecord has no field {name!r}")
            setattr(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, _typed(name, value))
        if name in DISK_FIELDS and name not in self.key_order:
            self.key_order.append(name)  # a key set for the first time goes last, as in a dict

    def has(self, name: str) -> bool:
        """Whether `name` is on disk (read or set), as `name in record` was for the dict."""
        return name in self.key_order

    def drop(self, name: str) -> None:
        """Take a key off the disk (a field reads as its default again)."""
        if name in self.key_order:
            self.key_order.remove(name)
        if name in DISK_FIELDS:
            object.__setattr__(self, name, _default(_FIELDS[name]))
        else:
            self.extra.pop(name, None)

    def set_evaluation(self, evaluation: dict[str, Any]) -> None:
        """The keys of `TaskEvaluation.to_dict()` (status, score, verdicts, intermediate, ..., quirks if any);
        the verdicts are kept as `Verdict`s."""
        for key, value in evaluation.items():
            self._put(key, value)

    def _put(self, key: str, value: Any) -> None:
        """Set a key of the JSON object: its field, or `extra` for a key with no field (kept, never lost)."""
        if key in DISK_FIELDS:
            setattr(self, key, value)
        else:
            self.extra[key] = value
            if key not in self.key_order:
                self.key_order.append(key)

    def copy(self) -> TaskRecord:
        """A copy whose fields can be set without touching this record (nested values are shared)."""
        other = copy.copy(self)
        object.__setattr__(other, "key_order", list(self.key_order))
        object.__setattr__(other, "extra", dict(self.extra))
        return other

    @classmethod
    def from_dict(cls, data: dict[str, Any], folder: str | None = None) -> TaskRecord:
        record = cls()
        for key, value in data.items():
            record._put(key, value)
        record.folder = folder
        return record

    def to_dict(self) -> dict[str, Any]:
        """The JSON object on disk: the keys read or set, in their order, unknown ones in their place."""
        data = {key: _plain(getattr(self, key)) if key in DISK_FIELDS else self.extra[key] for key in self.key_order}
        data.update((key, value) for key, value in self.extra.items() if key not in data)
        return data

    @classmethod
    def load(cls, folder: Path) -> TaskRecord | None:
        data = read_json(Path(folder) / RECORD_FILE)
        return cls.from_dict(data, Path(folder).name) if isinstance(data, dict) else None

    def save(self, folder: Path) -> None:
        write_json(Path(folder) / RECORD_FILE, self.to_dict())


def _typed(name: str, value: Any) -> Any:
    """The verdicts as `Verdict`s, whether they come from disk (dicts) or from scoring."""
    if name == "verdicts" and isinstance(value, list):
        return [Verdict.from_dict(item) if isinstance(item, dict) else item for item in value]
    if name == "intermediate" and isinstance(value, dict):
        return Verdict.from_dict(value)
    return value


def _plain(value: Any) -> Any:
    """A field as JSON holds it: verdicts as their dicts."""
    if isinstance(value, Verdict):
        return value.to_dict()
    if isinstance(value, list) and any(isinstance(item, Verdict) for item in value):
        return [item.to_dict() if isinstance(item, Verdict) else item for item in value]
    return value


def _default(spec: Any) -> Any:
    return spec.default_factory() if spec.default_factory is not MISSING else spec.default


_FIELDS = {spec.name: spec for spec in fields(TaskRecord)}
_FIELD_NAMES = frozenset(_FIELDS)
DISK_FIELDS = frozenset(name for name in _FIELDS if name not in _MEMORY_ONLY)


__all__ = ["DISK_FIELDS", "RECORD_FILE", "TaskRecord"]
