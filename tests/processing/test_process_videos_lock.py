"""Two `process-videos` on one video: the second skips the video the first is processing (one line
naming the first), processes its other videos, and the first finishes with its files untouched."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time

from tests.processing.pipeline_helpers import (
    TRAJECTORY_MARKER,
    config_file,
    pipeline_settings,
    process,
    step_list,
    targets_between,
)

from foundation.folder_lock import LOCK_NAME
from model_access.messages import prompt_text
from processing.index import TrajectoryIndex
from settings.schema import PROJECT_ROOT

# One request of the search tutorial's trajectory stage answers late, holding the first command mid-video.
HANGING_STEPS = step_list(targets_between("search tutorial", "Search item 0-c", "Search item 3-b"))
HANG_S = 90  # the second command processes the other video meanwhile (about 30 s on a busy machine)


def test_a_second_command_skips_the_video_the_first_is_processing(tutorial_videos, tmp_path, scripted_model):
    first_videos, second_videos = tmp_path / "first", tmp_path / "second"
    first_videos.mkdir()
    second_videos.mkdir()
    shutil.copy(tutorial_videos["search_tutorial"], first_videos)
    for name in ("search_tutorial", "cart_tutorial"):
        shutil.copy(tutorial_videos[name], second_videos)  # same file names: the same video ids and folders

    hang = {"contains": HANGING_STEPS, "regex": TRAJECTORY_MARKER, "reply": "{}", "delay_s": HANG_S, "times": 1}
    server = scripted_model([hang])
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    command = [sys.executable, "-m", "cli.main", "process-videos", "--source", "dir", "--videos", str(first_videos),
               "--config", str(config_file(settings))]  # fmt: skip
    first = subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180
        while not any(HANGING_STEPS in prompt_text(r["body"]["messages"]) for r in server.requests()):
            assert first.poll() is None, first.stderr.read()
            assert time.monotonic() < deadline, "the first command never reached the hanging request"
            time.sleep(0.05)
        folder = settings.paths.processed_dir / "search_tutorial"
        files_before = {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file()}

        code, out, _ = process(settings, "--source", "dir", "--videos", str(second_videos))
        assert first.poll() is None, "the first command should still be in its hanging request"
        lines = [line for line in out.splitlines() if "search_tutorial: skipped:" in line]
        said = [line for line in lines if line.startswith("[")]  # as it happened
        listed = [line for line in lines if line.strip().startswith("failed:")]  # in the summary
        assert len(said) == 1 and len(listed) == 1, out
        assert f"is in use by PID {first.pid} on {socket.gethostname()}" in said[0]
        assert "process-videos" in said[0] and "left to it" in said[0]
        assert code == 1  # not every video was processed here
        assert "processed 1 video(s), 1 failed" in out
        assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file()} == files_before
        assert json.loads((folder / LOCK_NAME).read_text())["pid"] == first.pid

        server.release_delays()  # seen held: the first command may finish now
        stdout, stderr = first.communicate(timeout=HANG_S + 180)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 0, stdout[-2000:] + stderr[-2000:]
    assert not (folder / LOCK_NAME).exists()
    assert (folder / "trajectory_filtering.json").is_file()
    index = TrajectoryIndex.load(settings.paths.index_dir, settings)
    assert set(index.videos()) == {"search_tutorial", "cart_tutorial"}
