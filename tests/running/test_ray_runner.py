"""`videodemo run --ray` on a real local Ray (127.0.0.1, two worker actors) against the `--workers 2` path:
the same verdicts in the same run-folder layout; a Ray worker killed mid-run loses no record, and
running the command again runs nothing that is already recorded."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from running.run_records import RECORD_FILE
from running.task_record import iter_records
from settings import PROJECT_ROOT

from tests.running.task_set import TASKS
from tests.running.test_runner import (  # noqa: F401 - the fixtures are used by name
    by_id,
    command,
    environment,
    finish,
    judge_server,
    task_files,
)

pytest.importorskip("ray", reason="ray is not installed; `pip install -e .[scale]` runs these tests")


def verdicts(record: dict) -> list[tuple[str, str]]:
    return [(v["eval_type"], v["status"]) for v in record["verdicts"]]


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def task_worker_pids(root: int) -> list[int]:
    pids = []
    for pid in descendants(root):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        if title.startswith("ray::TaskWorker"):
            pids.append(pid)
    return pids


@pytest.fixture(scope="module")
def worker_run(sandbox, test_settings, task_files, judge_server, tmp_path_factory):  # noqa: F811
    sandbox.reset()
    out = tmp_path_factory.mktemp("runs") / "workers"
    finish(command(task_files, out, judge_server, "--workers", "2"), environment(test_settings))
    return out


@pytest.fixture(scope="module")
def ray_run(worker_run, sandbox, test_settings, task_files, judge_server, tmp_path_factory):  # noqa: F811
    """`--ray --workers 2`; one Ray worker is killed (SIGKILL) as soon as the first record exists."""
    sandbox.reset()
    out = tmp_path_factory.mktemp("runs") / "ray"
    env = environment(test_settings)
    cmd = command(task_files, out, judge_server, "--workers", "2", "--ray")
    process = subprocess.Popen(cmd, env=env, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)  # fmt: skip
    killed = None
    deadline = time.monotonic() + 300
    try:
        while process.poll() is None and time.monotonic() < deadline:
            pids = task_worker_pids(process.pid)
            if len(pids) == 2 and list(out.glob(f"tasks/*/{RECORD_FILE}")):
                killed = pids[0]
                os.kill(killed, signal.SIGKILL)
                break
            time.sleep(0.05)
        stdout, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, stdout + stderr
    return out, killed, stdout + stderr


def test_ray_gives_the_verdicts_of_workers_even_with_a_worker_killed(worker_run, ray_run) -> None:
    out, killed, _ = ray_run
    assert killed is not None, "the kill should land while tasks were running"
    assert not list(Path(str(out)).glob("tasks/*/*.tmp"))
    ray_records, worker_records = by_id(out), by_id(worker_run)
    assert sorted(ray_records) == sorted(worker_records) == sorted(range(1, len(TASKS) + 1))
    assert {i: verdicts(r) for i, r in ray_records.items()} == {i: verdicts(r) for i, r in worker_records.items()}
    assert {i: (r["status"], r["score"]) for i, r in ray_records.items()} == {
        i: (r["status"], r["score"]) for i, r in worker_records.items()
    }
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in worker_run.iterdir())


def test_running_the_ray_command_again_runs_nothing_already_recorded(ray_run, test_settings, task_files,
                                                                      judge_server) -> None:  # noqa: F811
    out = ray_run[0]
    mtimes = {r.task_key: (out / "tasks" / r.folder / RECORD_FILE).stat().st_mtime_ns for r in iter_records(out)}
    cmd = command(task_files, out, judge_server, "--workers", "2", "--ray")
    done = finish(cmd, environment(test_settings))
    assert f"{len(TASKS)} task(s) already finished" in done.stderr
    after = {r.task_key: (out / "tasks" / r.folder / RECORD_FILE).stat().st_mtime_ns for r in iter_records(out)}
    assert after == mtimes
