"""`videodemo run` with a model endpoint that does not answer: stopped before any task, in one line."""

from __future__ import annotations

import socket
import time

from tests.evaluation.running.task_set import write_task_set
from tests.processing.pipeline_helpers import run_cli


def test_a_dead_judge_endpoint_stops_the_run_before_any_task(tmp_path, monkeypatch):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"  # nothing listens here once closed
    monkeypatch.setenv("VIDEODEMO_CACHE", str(tmp_path / "cache"))
    tasks, solutions = write_task_set(tmp_path / "task-set")
    out = tmp_path / "run"

    started = time.perf_counter()
    code, stdout, err = run_cli(
        "run", "--tasks", str(tasks), "--policy", "scripted", "--solutions", str(solutions), "--out", str(out),
        "--no-progress", "--judge-url", url, "--judge-model", "judge",
    )  # fmt: skip
    took = time.perf_counter() - started

    assert code == 2
    assert took < 10, f"took {took:.1f} s"
    lines = [line for line in (stdout + err).splitlines() if url in line]
    assert len(lines) == 1 and "model role 'judge'" in lines[0] and "does not answer" in lines[0], err
    assert not list(out.glob("tasks/*")), "a task was started"
