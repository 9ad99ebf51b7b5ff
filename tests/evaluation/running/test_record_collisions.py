"""A run that would write two tasks into one record folder stops before it starts, naming both."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from foundation.errors import UserError
from evaluation.running.run_records import record_collisions, task_folder
from evaluation.running.runner import RunSpec, run
from tasks.loading import load_tasks


def _task(task_id: int, intent: str) -> dict:
    return {
        "sites": ["shopping"], "task_id": task_id, "require_login": False, "storage_state": None,
        "start_url": "http://127.0.0.1:9/", "intent": intent, "require_reset": False,
        "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "1"}},
    }  # fmt: skip


def _write(path: Path, tasks: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(tasks))


def test_same_named_files_in_two_folders_write_separate_records(tmp_path: Path, test_settings) -> None:
    _write(tmp_path / "configs" / "videowa" / "test_shopping.json", [_task(3, "Buy a kettle")])
    _write(tmp_path / "configs" / "vwa" / "test_shopping.json", [_task(3, "Buy a mug")])
    tasks = load_tasks(tmp_path / "configs", settings=test_settings)
    assert record_collisions(tasks, tmp_path / "run") == []
    folders = {task_folder(tmp_path / "run", task.key) for task in tasks}
    assert len(folders) == 2


def test_a_run_that_would_overwrite_a_record_stops_before_starting(tmp_path: Path, test_settings) -> None:
    configs = tmp_path / "configs"
    _write(configs / "shop.json", [_task(5, "Buy a kettle"), _task(6, "Buy a lamp"), _task(5, "Buy a mug")])
    out = tmp_path / "run"
    spec = RunSpec(tasks_path=configs, policy="stop", policy_args=argparse.Namespace(), out_dir=out, progress=False)
    with pytest.raises(UserError) as caught:
        run(spec, test_settings)
    message = str(caught.value)
    assert "1 pair(s) of tasks would write the same record" in message
    assert "shop:5 ('Buy a kettle') and shop:5 ('Buy a mug')" in message
    assert not out.exists()  # nothing was started
