"""`videodemo run ... > log.txt 2>&1`: off a terminal the run's progress is one plain line per finished task,
not a bar redrawn after carriage returns. Its tasks have config problems, so no site or browser is needed."""

from __future__ import annotations

import json
import re

import pytest

from tests.processing.pipeline_helpers import run_cli

IDS = (1, 2, 3)


@pytest.fixture
def task_file(tmp_path, monkeypatch):
    monkeypatch.setenv("VIDEODEMO_CACHE", str(tmp_path / "cache"))
    tasks = [
        {"task_id": task_id, "sites": ["shopping"], "intent": f"task {task_id}", "start_url": "__SHOPPING__",
         "require_reset": False, "eval": {"eval_types": ["url_match"], "reference_url": "__SHOPPING__/",
                                          "url_note": ""}}  # an empty url_note: recorded as config_error
        for task_id in IDS
    ]  # fmt: skip
    path = tmp_path / "lines.json"
    path.write_text(json.dumps(tasks))
    solutions = tmp_path / "solutions.json"
    solutions.write_text(json.dumps({str(task_id): ["stop []"] for task_id in IDS}))
    return path, solutions


def play(task_file, out, *extra: str) -> tuple[int, str, str]:
    tasks, solutions = task_file
    return run_cli("run", "--tasks", str(tasks), "--policy", "scripted", "--solutions", str(solutions),
                   "--out", str(out), *extra)  # fmt: skip


def test_off_a_terminal_each_finished_task_is_one_line(task_file, tmp_path) -> None:
    code, stdout, stderr = play(task_file, tmp_path / "run")
    assert code == 0, stderr
    assert "\r" not in stdout + stderr
    lines = [line for line in stderr.splitlines() if line.startswith("[")]
    assert len(lines) == len(IDS), stderr
    for number, (task_id, line) in enumerate(zip(IDS, lines), start=1):
        assert re.fullmatch(rf"\[{number}/3\] lines:{task_id} config_error \(0 step\(s\), \d+\.\d s\)", line), line


def test_no_progress_prints_no_task_line(task_file, tmp_path) -> None:
    code, stdout, stderr = play(task_file, tmp_path / "run", "--no-progress")
    assert code == 0, stderr
    assert not [line for line in (stdout + stderr).splitlines() if line.startswith("[")]
