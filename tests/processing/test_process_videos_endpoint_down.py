"""`process-videos` with a model endpoint that is down from the start, or dies in the middle of a run.

The model is the SCRIPTED server; "down" is a port nothing listens on, or the server stopped.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

from tests.processing.pipeline_helpers import pipeline_script, pipeline_settings, process

from processing.artifacts import VideoArtifacts
from processing.summary import STAGES


def dead_url() -> str:
    """An OpenAI-style base URL on a local port that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_dead_endpoint_stops_the_command_at_once_with_one_line(tutorial_videos, tmp_path):
    url = dead_url()
    settings = pipeline_settings(tmp_path / "cache", url)
    settings.models.max_retries = 6  # as a user has it: the check must not wait for retries
    settings.models.backoff_initial_s = 1.0
    videos = Path(tutorial_videos["search_tutorial"]).parent

    started = time.perf_counter()
    code, out, err = process(settings, "--source", "dir", "--videos", str(videos))
    took = time.perf_counter() - started

    assert code != 0
    assert took < 10, f"took {took:.1f} s"
    lines = [line for line in err.splitlines() if url in line]
    assert len(lines) == 1, err
    assert "model role 'vlm'" in lines[0] and "does not answer" in lines[0]
    processed = settings.paths.processed_dir
    assert not processed.exists() or not any(processed.glob("*/video.json")), "a video was touched"
    assert "processing" not in out


def test_a_server_dying_mid_run_stops_new_videos_and_keeps_the_finished_one(tutorial_videos, tmp_path, scripted_server):
    # Three videos, one worker: the server is stopped the moment the second video starts.
    videos = tmp_path / "videos"
    videos.mkdir()
    for name in ("cart_tutorial", "search_tutorial"):
        shutil.copy(tutorial_videos[name], videos / f"{name}.mp4")
    shutil.copy(tutorial_videos["search_tutorial"], videos / "zz_search_tutorial.mp4")
    server = scripted_server(pipeline_script())
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    limit = 3  # below the attempts of one call (max_retries + 1), as with the defaults (5 of 7)
    settings.models.stop_after_connection_failures = limit
    settings.models.max_retries = 4
    second = VideoArtifacts(settings.paths.processed_dir, "search_tutorial").folder / "video.json"

    def stop_when_the_second_video_starts() -> None:
        deadline = time.monotonic() + 120
        while not second.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        server.stop()

    watcher = threading.Thread(target=stop_when_the_second_video_starts, daemon=True)
    watcher.start()
    code, out, err = process(settings, "--source", "dir", "--videos", str(videos), "--workers", "1")
    watcher.join()

    assert code == 1
    first = VideoArtifacts(settings.paths.processed_dir, "cart_tutorial")
    for stage in STAGES[:-1]:  # the index stage writes into the index, not a stage file
        assert first.stage_path(stage).is_file(), f"finished video lost its {stage} stage"
    assert f"{limit} attempts in a row failed" in out
    assert "stopped early, 1 video(s) not started" in out
    assert not VideoArtifacts(settings.paths.processed_dir, "zz_search_tutorial").folder.exists()
    failed = [line for line in out.splitlines() if line.strip().startswith("failed: search_tutorial")]
    assert len(failed) == 1 and server.base_url in failed[0]
