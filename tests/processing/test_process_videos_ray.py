"""`process-videos --ray` on a real local Ray (127.0.0.1, two worker actors) against `--workers 2`, both on
the two generated tutorials with the SCRIPTED model: the same stage files, summary counts and index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.processing.pipeline_helpers import pipeline_script, pipeline_settings, process, read_summary, video_summary

from model_access.scripted_server import ScriptedServer
from processing.index import TrajectoryIndex

pytest.importorskip("ray", reason="ray is not installed; `pip install -e .[scale]` runs these tests")

VIDEO_IDS = ("cart_tutorial", "search_tutorial")
COUNTS = ("keyframes", "labeled_actions", "actions", "spans", "named", "kept", "dropped")


def without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if key != "seconds"}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def stage_files(processed: Path, cache: Path) -> dict[str, Any]:
    """Every stored stage file by its path under the processed folder: its content with the cache folder's own
    path blanked and the wall-clock seconds left out (the only thing allowed to differ)."""
    files = {}
    for path in sorted(processed.rglob("*.json")):
        if path.name != "summary.json":
            text = path.read_text().replace(str(cache.resolve()), "<cache>").replace(str(cache), "<cache>")
            files[str(path.relative_to(processed))] = without_timings(json.loads(text))
    return files


@pytest.fixture(scope="module")
def two_runs(tutorial_videos, tmp_path_factory):
    videos = Path(tutorial_videos["search_tutorial"]).parent
    with ScriptedServer(pipeline_script()) as server:
        runs = {}
        for name, extra in (("workers", ()), ("ray", ("--ray",))):
            settings = pipeline_settings(tmp_path_factory.mktemp(name) / "cache", server.base_url)
            code, out, err = process(settings, "--source", "dir", "--videos", str(videos), "--workers", "2", *extra)
            assert code == 0, out + err
            runs[name] = settings
        yield runs


def test_ray_stores_the_stage_files_and_index_of_the_worker_path(two_runs):
    local, ray = two_runs["workers"], two_runs["ray"]
    local_files = stage_files(local.paths.processed_dir, local.paths.cache_dir)
    ray_files = stage_files(ray.paths.processed_dir, ray.paths.cache_dir)
    assert any("labeling" in name for name in local_files), sorted(local_files)
    assert ray_files == local_files
    local_summary, ray_summary = read_summary(local), read_summary(ray)
    for video_id in VIDEO_IDS:
        expected = {key: video_summary(local_summary, video_id)[key] for key in COUNTS}
        assert {key: video_summary(ray_summary, video_id)[key] for key in COUNTS} == expected
        assert expected["kept"] > 0
    local_index = TrajectoryIndex.load(local.paths.index_dir, local)
    ray_index = TrajectoryIndex.load(ray.paths.index_dir, ray)
    assert sorted(ray_index.videos()) == sorted(local_index.videos()) == sorted(VIDEO_IDS)
    assert len(ray_index) == len(local_index)
