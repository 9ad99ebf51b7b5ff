"""One `videodemo run` per run folder: a second command on a held folder (with or without `--fresh`)
is refused with one line naming the first, which keeps its records and finishes; a lock left by a
killed run is taken over with a warning; SIGTERM stops a run as Ctrl-C does and gives the folder back.

The first run is held in the middle by its judge: the scripted judge answers the fuzzy-match task
only after JUDGE_DELAY_S, long enough for the second commands to start and be refused.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from foundation.records.task_record import RECORD_FILE
from evaluation.running.task_record import iter_records
from foundation.folder_lock import LOCK_NAME
from model_access.scripted_server import ScriptedServer
from settings import PROJECT_ROOT

from tests.evaluation.running.task_set import TASKS, write_task_set
from tests.evaluation.running.test_runner import environment

JUDGE_DELAY_S = 45
FUZZY = "One Stop Market"
SLOW_JUDGE = {
    "name": "slow-judge",
    "rules": [{"contains": FUZZY, "reply": "correct", "delay_s": JUDGE_DELAY_S}],
    "default": "incorrect",
}


@pytest.fixture(scope="module")
def slow_judge():
    with ScriptedServer(SLOW_JUDGE) as server:
        yield server


@pytest.fixture(autouse=True)
def judge_holds_back(slow_judge):
    """Each test starts with the judge holding its reply back; a test releases it once it has seen it held."""
    slow_judge.hold_delays()


@pytest.fixture(scope="module")
def task_files(tmp_path_factory):
    return write_task_set(tmp_path_factory.mktemp("task-set"))


def command(task_files, out: Path, judge: ScriptedServer, *extra: str) -> list[str]:
    tasks, solutions = task_files
    return [
        sys.executable, "-m", "cli.main", "run", "--tasks", str(tasks), "--policy", "scripted",
        "--solutions", str(solutions), "--out", str(out), "--no-progress",
        "--set", "sandbox.reset_token=test-reset-token",
        # A model name of its own: no judge reply of another test is in the model-call cache.
        "--judge-url", judge.base_url, "--judge-model", "slow-judge", *extra,
    ]  # fmt: skip


def records(out: Path) -> dict[str, tuple[str, int]]:
    """task key -> (started_at, record file mtime)."""
    return {
        r.task_key: (r.started_at, (out / "tasks" / r.folder / RECORD_FILE).stat().st_mtime_ns)
        for r in iter_records(out)
    }


def wait_for(condition, process: subprocess.Popen, what: str, timeout_s: float = 300) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert process.poll() is None, f"the run ended before {what}: {process.stderr.read()[-2000:]}"
        assert time.monotonic() < deadline, f"waited {timeout_s}s for {what}"
        time.sleep(0.05)


def test_a_second_command_on_a_held_folder_is_refused_and_the_first_finishes(
    sandbox, test_settings, task_files, slow_judge, tmp_path
):
    sandbox.reset()
    out = tmp_path / "run"
    env = environment(test_settings)
    cmd = command(task_files, out, slow_judge)
    first = subprocess.Popen(
        cmd, env=env, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: any(FUZZY in json.dumps(r["body"]) for r in slow_judge.requests()), first, "the judge call")
        held = records(out)
        assert held, "tasks before the judged one have records"

        for extra in ([], ["--fresh"]):
            second = subprocess.run(cmd + extra, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)
            assert second.returncode == 2, second.stdout + second.stderr
            lines = second.stderr.strip().splitlines()
            assert len(lines) == 1, second.stderr
            line = lines[0]
            assert line.startswith(f"error: {out} is in use by PID {first.pid} on {socket.gethostname()}"), line
            assert "cli.main run" in line and "since " in line and "another --out DIR" in line
            assert records(out) == held  # nothing deleted or rewritten
            assert json.loads((out / LOCK_NAME).read_text())["pid"] == first.pid

        slow_judge.release_delays()  # seen held: the first command may finish now
        stdout, stderr = first.communicate(timeout=JUDGE_DELAY_S + 300)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
    assert first.returncode == 0, stderr[-3000:]
    after = records(out)
    assert len(after) == len(TASKS)
    assert {key: after[key] for key in held} == held
    sessions = json.loads((out / "run.json").read_text())["sessions"]
    assert [s["outcome"] for s in sessions] == ["finished"]  # the refused commands opened no session
    assert not (out / LOCK_NAME).exists()  # released at the end


def test_a_lock_left_by_a_killed_run_is_taken_over_with_a_warning(
    sandbox, test_settings, task_files, slow_judge, tmp_path
):
    out = tmp_path / "run"
    env = environment(test_settings)
    cmd = command(task_files, out, slow_judge, "--ids", "1,2")
    killed = subprocess.Popen(
        cmd, env=env, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    wait_for(lambda: (out / "run.json").is_file(), killed, "its session opened")
    os.killpg(killed.pid, signal.SIGKILL)  # no clean-up code runs: the lock file stays
    killed.wait()
    killed.stderr.close()
    assert json.loads((out / LOCK_NAME).read_text())["pid"] == killed.pid

    slow_judge.release_delays()  # the takeover is what this checks, not the judge's pace
    done = subprocess.run(cmd, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    warning = next(line for line in done.stderr.splitlines() if line.startswith("warning:"))
    assert f"taking over the lock of PID {killed.pid}" in warning and "no longer running" in warning
    assert len(records(out)) == 2
    assert not (out / LOCK_NAME).exists()


def test_sigterm_stops_a_run_cleanly_and_gives_the_folder_back(
    sandbox, test_settings, task_files, slow_judge, tmp_path
):
    out = tmp_path / "run"
    cmd = command(task_files, out, slow_judge, "--ids", "7", "--no-cache")  # --no-cache: the judge is asked again
    asked = len([r for r in slow_judge.requests() if FUZZY in json.dumps(r["body"])])
    run = subprocess.Popen(
        cmd, env=environment(test_settings), cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )  # fmt: skip
    try:
        judged = lambda: len([r for r in slow_judge.requests() if FUZZY in json.dumps(r["body"])]) > asked  # noqa: E731
        wait_for(judged, run, "the judge call")
        run.send_signal(signal.SIGTERM)  # to the command alone, as `kill PID` does
        _, stderr = run.communicate(timeout=JUDGE_DELAY_S - 10)  # well before the judge answers
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 128 + signal.SIGTERM, stderr[-2000:]
    assert "stopped by SIGTERM" in stderr
    assert not (out / LOCK_NAME).exists()
    sessions = json.loads((out / "run.json").read_text())["sessions"]
    assert [s["outcome"] for s in sessions] == ["interrupted"]


def test_rescore_is_refused_while_another_command_holds_the_folder(tmp_path, capsys):
    from cli.main import main
    from foundation.folder_lock import FolderLock

    out = tmp_path / "run"
    (out / "tasks").mkdir(parents=True)
    with FolderLock(out, advice="go elsewhere"):  # held by this process: a second lock in it is refused too
        code = main(["rescore", str(out)])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith(f"error: {out} is in use by PID {os.getpid()}") and "then rescore" in lines[0]
