"""A run killed in the middle of a video resumes without repeating a finished model call."""

from __future__ import annotations

import json
import shutil
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

from model_access.messages import prompt_text
from processing.index import TrajectoryIndex
from settings.schema import PROJECT_ROOT

# A subsequence in the middle of the trajectory stage; its first request hangs until the run is killed.
HANGING_STEPS = step_list(targets_between("search tutorial", "Search item 0-c", "Search item 3-b"))


def _body(request) -> str:
    return json.dumps(request["body"], sort_keys=True)


def _asks_hanging_steps(request) -> bool:
    return HANGING_STEPS in prompt_text(request["body"]["messages"])


def _index_objectives(settings) -> set[str]:
    index = TrajectoryIndex.load(settings.paths.index_dir, settings)
    return {t.objective for video in index.videos() for t in index.trajectories(video)}


def test_killed_mid_video_then_restarted_repeats_no_finished_call(tutorial_videos, tmp_path, scripted_model):
    videos = tmp_path / "videos"
    videos.mkdir()
    shutil.copy(tutorial_videos["search_tutorial"], videos)

    clean_server = scripted_model()
    clean = pipeline_settings(tmp_path / "clean" / "cache", clean_server.base_url)
    assert process(clean, "--source", "dir", "--videos", str(videos))[0] == 0
    clean_bodies = sorted(_body(r) for r in clean_server.requests())

    hang = {"contains": HANGING_STEPS, "regex": TRAJECTORY_MARKER, "reply": "{}", "delay_s": 20, "times": 1}
    server = scripted_model([hang])
    settings = pipeline_settings(tmp_path / "killed" / "cache", server.base_url)
    settings.models.max_concurrency = 1  # one request in flight: every earlier one is answered and cached
    command = [sys.executable, "-m", "cli.main", "process-videos", "--source", "dir", "--videos", str(videos),
               "--config", str(config_file(settings))]  # fmt: skip
    run = subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not any(_asks_hanging_steps(r) for r in server.requests()):
            assert run.poll() is None, run.stderr.read().decode()
            assert time.monotonic() < deadline, "the run never reached the hanging request"
            time.sleep(0.05)
    finally:
        run.kill()
        run.wait()
    finished = {_body(r) for r in server.requests() if r["status"] == 200}
    assert len(finished) > 10
    trajectory_stage = settings.paths.processed_dir / "search_tutorial" / "trajectories.json"
    assert (settings.paths.processed_dir / "search_tutorial" / "labeling.json").is_file()
    assert not trajectory_stage.exists()  # killed inside the trajectory stage

    before = len(server.requests())
    assert process(settings, "--source", "dir", "--videos", str(videos))[0] == 0
    resumed = [_body(r) for r in server.requests()[before:]]
    assert not finished & set(resumed), "a call answered before the kill was sent again"
    assert sorted([*finished, *resumed]) == clean_bodies  # together: exactly one clean run's calls
    assert _index_objectives(settings) == _index_objectives(clean)
