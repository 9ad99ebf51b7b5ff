"""FolderLock between real processes: a live holder refuses others by name, a killed one is taken over."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from foundation.folder_lock import LOCK_NAME, FolderBusy, FolderLock
from settings import PROJECT_ROOT

HOLDER = """
import sys, time
from pathlib import Path
from foundation.folder_lock import FolderLock
lock = FolderLock(Path(sys.argv[1]), advice="go elsewhere").acquire()
print("held", flush=True)
time.sleep(120)
"""


@pytest.fixture
def holder(tmp_path):
    """start(folder): a python process that holds `folder` until killed."""
    processes: list[subprocess.Popen] = []

    def start(folder: Path) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(folder), "--marker"], cwd=PROJECT_ROOT, stdout=subprocess.PIPE, text=True
        )
        processes.append(process)
        assert process.stdout.readline().strip() == "held"
        return process

    yield start
    for process in processes:
        process.kill()
        process.wait()


def test_a_live_holder_is_named_and_nothing_in_the_folder_changes(tmp_path, holder):
    folder = tmp_path / "run"
    process = holder(folder)
    (folder / "record.json").write_text("{}")
    before = sorted(p.name for p in folder.iterdir())
    with pytest.raises(FolderBusy) as refused:
        FolderLock(folder, advice="go elsewhere").acquire()
    message = str(refused.value)
    assert f"PID {process.pid} on {socket.gethostname()}" in message
    assert "--marker" in message and "since " in message and message.endswith("; go elsewhere")
    assert "\n" not in message
    assert sorted(p.name for p in folder.iterdir()) == before
    assert json.loads((folder / LOCK_NAME).read_text())["pid"] == process.pid  # its record is left as it was


def test_a_lock_left_by_a_killed_process_is_taken_over_with_a_warning(tmp_path, holder):
    folder = tmp_path / "run"
    process = holder(folder)
    process.send_signal(signal.SIGKILL)
    process.wait()
    warnings: list[str] = []
    with FolderLock(folder, advice="go elsewhere", warn=warnings.append) as lock:
        assert lock.taken_over is not None and lock.taken_over.pid == process.pid
        assert len(warnings) == 1 and f"PID {process.pid}" in warnings[0] and "no longer running" in warnings[0]
        assert json.loads((folder / LOCK_NAME).read_text())["pid"] == os.getpid()
    assert not (folder / LOCK_NAME).exists()


def test_a_record_from_another_host_is_refused_with_how_to_clear_it(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    record = {"pid": 4242, "host": "other-node-7", "command": "videodemo run --out x", "since": "2026-01-01T10:00:00Z"}
    (folder / LOCK_NAME).write_text(json.dumps(record))
    with pytest.raises(FolderBusy) as refused:
        FolderLock(folder, advice="go elsewhere").acquire()
    assert "PID 4242 on other-node-7" in str(refused.value) and f"delete {folder / LOCK_NAME}" in str(refused.value)
    assert json.loads((folder / LOCK_NAME).read_text()) == record  # not removed by the refusal


def test_two_locks_in_one_process_exclude_each_other_and_release_frees(tmp_path):
    folder = tmp_path / "video"
    first = FolderLock(folder, advice="skip it").acquire()
    with pytest.raises(FolderBusy, match=f"PID {os.getpid()}"):
        FolderLock(folder, advice="skip it").acquire()
    first.release()
    assert not folder.exists()  # made by the lock and left empty: removed again
    with FolderLock(folder, advice="skip it"):
        (folder / "stage.json").write_text("{}")
    assert sorted(p.name for p in folder.iterdir()) == ["stage.json"]


def test_clear_folder_keeps_only_the_lock(tmp_path):
    folder = tmp_path / "run"
    (folder / "tasks" / "a").mkdir(parents=True)
    (folder / "run.json").write_text("{}")
    with FolderLock(folder, advice="x") as lock:
        lock.clear_folder()
        assert [p.name for p in folder.iterdir()] == [LOCK_NAME]
        with pytest.raises(FolderBusy):  # still held while it was cleared
            FolderLock(folder, advice="x").acquire()

