"""Run folders grouped into configurations, and each task's outcome under the report's rule for errored tasks.

`videodemo run --samples N` writes N sibling folders of one configuration: the first
keeps the plain identity, sample K>1 adds `"sample": K` to run.json's identity. Folders
whose identities are equal once "sample" is dropped are samples of one configuration.
A folder without run.json is a configuration of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from evaluation.running.run_manifest import configuration_identity
from evaluation.running.run_records import RUN_FILE
from foundation.json_files import read_json
from evaluation.running.task_record import iter_records
from foundation.records.task_record import TaskRecord
from evaluation.scoring.scoring_rules import AGENTOCCAM, counted_status, record_rules

ERROR_MODES = ("recorded", "fail", "exclude")
OVERFLOW_STOP = "context_overflow"  # the runner's stop reason when a prompt outgrew the model


@dataclass
class Sample:
    folder: Path
    number: int  # 1 for the folder without "sample" in its identity
    records: list[TaskRecord]
    manifest: dict[str, Any]


@dataclass
class Configuration:
    label: str
    samples: list[Sample] = field(default_factory=list)

    @property
    def folders(self) -> list[Path]:
        return [sample.folder for sample in self.samples]


def identity_without_sample(manifest: dict[str, Any] | None, folder: Path) -> str:
    identity = (manifest or {}).get("identity") or {}
    if not identity:
        return f"folder:{Path(folder).resolve()}"
    return json.dumps(configuration_identity(identity), sort_keys=True)


def group_configurations(folders: list[Path], labels: list[str] | None = None) -> list[Configuration]:
    """Configurations in the order their first folder was given; `labels` names configurations."""
    from evaluation.reports.run_comparison import run_label

    groups: dict[str, list[Sample]] = {}
    for folder in map(Path, folders):
        manifest = read_json(folder / RUN_FILE) or {}
        number = int(((manifest.get("identity") or {}).get("sample")) or 1)
        sample = Sample(folder, number, iter_records(folder), manifest)
        groups.setdefault(identity_without_sample(manifest, folder), []).append(sample)
    if labels is not None and len(labels) != len(groups):
        raise UserError(
            f"--labels names {len(labels)} runs but {len(folders)} run folders were given "
            f"({len(groups)} configurations once samples of one configuration are grouped); give one label each"
        )
    configurations = []
    for index, samples in enumerate(groups.values()):
        samples.sort(key=lambda sample: sample.number)
        numbers = [sample.number for sample in samples]
        if len(set(numbers)) != len(numbers):
            shown = ", ".join(str(sample.folder) for sample in samples)
            raise UserError(f"the same sample of one configuration was given twice ({shown}); pass each folder once")
        label = labels[index] if labels else run_label(samples[0].folder)
        configurations.append(Configuration(label, samples))
    return configurations


def errored_reason(record: TaskRecord) -> str | None:
    """Why a task counts as errored ("error": the episode or its scoring raised; "context overflow"), or None."""
    if (record.recorded_status or record.status) == "error":
        return "error"
    if record.stop_reason == OVERFLOW_STOP:
        return "context overflow"
    return None


def outcome(record: TaskRecord, errors: str) -> str:
    """The status a report counts for a task: its own, or an errored task's under `errors` (ERROR_MODES).
    A record scored under AgentOccam's rules is counted by their tally whatever `errors` says: every task that
    did not pass is a failure (evaluation/scoring/scoring_rules.py)."""
    status = record.status
    if record_rules(record) == AGENTOCCAM:
        return counted_status(record)
    if errors == "recorded" or errored_reason(record) is None:
        return status
    return "failed" if errors == "fail" else "error"


def check_error_mode(errors: str) -> str:
    if errors not in ERROR_MODES:
        raise UserError(f"report.errors is {errors!r}; use one of {', '.join(ERROR_MODES)} (--errors)")
    return errors


def counted_records(records: list[TaskRecord], errors: str) -> list[TaskRecord]:
    """Copies of the records with `status` as the report counts it (the recorded one kept as `recorded_status`)."""
    return [_counted(record, outcome(record, errors)) for record in records]


def _counted(record: TaskRecord, status: str) -> TaskRecord:
    counted = record.copy()
    counted.recorded_status = record.status
    counted.status = status
    return counted


ERRORS_NOTE = {
    "recorded": "as recorded (an error is not scored, a context overflow is scored on what was done)",
    "fail": "counted as failures",
    "exclude": "left out of the rate, as VideoWA's run.py leaves out tasks that raise",
}
