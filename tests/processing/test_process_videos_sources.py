"""Where `process-videos` takes its videos from, and what it says when one cannot be used."""

from __future__ import annotations

import functools
import json
import re
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
from tests.processing.pipeline_helpers import (
    FILTER_MARKER,
    chat_requests_by_stage,
    pipeline_settings,
    process,
    read_summary,
    run_cli,
)

from model_access.messages import prompt_text
from processing.index import TrajectoryIndex
from foundation.records.trajectory import VideoRecord


def _task(task_id: int, video) -> dict:
    return {
        "task_id": task_id,
        "sites": ["shopping"],
        "intent": f"task {task_id}",
        "start_url": "http://127.0.0.1:1/",
        "video": video,
        "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "x"}},
    }


def test_a_corrupt_and_an_empty_video_are_named_and_the_good_one_is_processed(
    tutorial_videos, tmp_path, scripted_model
):
    folder = tmp_path / "videos"
    folder.mkdir()
    shutil.copy(tutorial_videos["cart_tutorial"], folder)  # the good one
    (folder / "broken.mp4").write_bytes(np.random.default_rng(3).bytes(200_000))
    (folder / "empty.mp4").write_bytes(b"")
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)

    code, out, _ = process(settings, "--source", "dir", "--videos", str(folder))
    assert code == 1  # something could not be processed
    skipped = [line for line in out.splitlines() if line.startswith("skipped ")]
    assert len(skipped) == 2
    assert skipped[0].startswith("skipped broken.mp4: ") and "corrupt" in skipped[0]
    assert skipped[1].startswith("skipped empty.mp4: ") and "empty (0 bytes)" in skipped[1]
    summary = read_summary(settings)
    assert summary["videos"]["processed"] == 1
    assert [item["video"] for item in summary["videos"]["failed"]] == ["broken.mp4", "empty.mp4"]
    index = TrajectoryIndex.load(settings.paths.index_dir, settings)
    assert index.videos() == ["cart_tutorial"] and index.trajectories("cart_tutorial")


def test_videowa_tutorials_processes_the_named_videos_and_reports_a_missing_one(
    tutorial_videos, tmp_path, scripted_model
):
    folder = tmp_path / "videowa"
    folder.mkdir()
    shutil.copy(tutorial_videos["search_tutorial"], folder / "search_tutorial.mov")  # .mov is looked up first
    shutil.copy(tutorial_videos["cart_tutorial"], folder / "cart_tutorial.mp4")
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([_task(1, "cart_tutorial"), _task(2, "missing_video"),
                                 _task(3, ["search_tutorial", "cart_tutorial"])]))  # fmt: skip
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)

    code, out, _ = process(
        settings, "--source", "videowa_tutorials", "--videos", str(folder), "--tasks", str(tasks),
    )  # fmt: skip
    assert code == 1
    # VideoWA runs keep every action by default, as in the paper; said once, and no filtering call is made
    assert out.splitlines()[0].startswith("action filtering is off for --source videowa_tutorials")
    assert "action_filtering" not in chat_requests_by_stage(server)
    out = "\n".join(out.splitlines()[1:])
    reason = (
        f"video missing_video not found in {folder} (looked for missing_video.mov, missing_video.mp4); "
        f"download the VideoWA tutorial videos (see docs/processing.md) into {folder}"
    )
    lines = out.splitlines()
    assert lines[0] == f"skipped missing_video: {reason}"  # said once, before the work starts...
    assert f"  failed: missing_video: {reason}" in lines  # ...and again in the summary at the end
    assert sum("missing_video" in line for line in lines) == 2
    summary = read_summary(settings)
    assert summary["videos"]["processed"] == 2
    catalogue = json.loads((settings.paths.processed_dir / "videowa_catalogue.json").read_text())
    assert catalogue == {"cart_tutorial": ["tasks:1", "tasks:3"], "missing_video": ["tasks:2"],
                         "search_tutorial": ["tasks:3"]}  # fmt: skip
    record = VideoRecord.from_dict(
        json.loads((settings.paths.processed_dir / "search_tutorial" / "video.json").read_text())
    )
    assert record.path.endswith("search_tutorial.mov") and record.task_keys == ["tasks:3"]
    assert record.source == "videowa_tutorials"


def test_a_manifest_feeds_title_description_and_transcript_to_action_filtering(
    tutorial_videos, tmp_path, scripted_model
):
    video = tmp_path / "downloads" / "yt-abc123.mp4"
    video.parent.mkdir()
    shutil.copy(tutorial_videos["cart_tutorial"], video)
    captions = video.with_suffix(".en.vtt")
    captions.write_text("WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nFirst open the cart page.\n")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({
        "task": {"key": "shop:7", "intent": "Empty my cart", "sites": ["shopping"]},
        "query": "cart tutorial",
        "videos": [{"video_id": "yt-abc123", "title": "cart tutorial", "description": "How to empty a cart.",
                    "url": "https://www.youtube.com/watch?v=abc123", "path": str(video),
                    "transcript_path": str(captions), "duration_s": 4.6, "decision": {}}],
    }))  # fmt: skip
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    code, out, _ = process(settings, "--source", "manifest", "--manifest", str(manifest))
    assert code == 0, out
    asked = [prompt_text(r["body"]["messages"]) for r in server.requests() if FILTER_MARKER in str(r["body"])]
    assert len(asked) == 1
    assert "Title: cart tutorial" in asked[0] and "Description: How to empty a cart." in asked[0]
    assert "Transcript: First open the cart page." in asked[0]
    assert TrajectoryIndex.load(settings.paths.index_dir, settings).videos() == ["yt-abc123"]


def test_urls_are_downloaded_once_and_a_failing_one_is_reported(tutorial_videos, tmp_path, scripted_model):
    served = tmp_path / "site"
    served.mkdir()
    shutil.copy(tutorial_videos["cart_tutorial"], served / "cart_tutorial.mp4")
    handler = functools.partial(_QuietHandler, directory=str(served))
    http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{http.server_address[1]}"
    try:
        server = scripted_model()
        settings = pipeline_settings(tmp_path / "cache", server.base_url)
        urls = tmp_path / "urls.txt"
        urls.write_text(f"# tutorials\n{base}/cart_tutorial.mp4\n{base}/gone.mp4\n")
        code, out, _ = process(settings, "--source", "urls", "--urls", str(urls), "--no-action-filtering")
        assert code == 1
        failed = [line for line in out.splitlines() if line.startswith("skipped ")]
        assert len(failed) == 1 and f"download of {base}/gone.mp4 failed" in failed[0]
        downloaded = settings.paths.videos_dir / "generic-cart_tutorial.mp4"
        assert downloaded.is_file()
        assert read_summary(settings)["videos"]["processed"] == 1

        served.joinpath("cart_tutorial.mp4").unlink()  # a second run must not need the site
        code, out, _ = process(settings, "--source", "urls", "--urls", f"{base}/cart_tutorial.mp4",
                               "--no-action-filtering")  # fmt: skip
        assert code == 0 and "stored" in out
    finally:
        http.shutdown()
        http.server_close()


def test_an_unconfigured_vlm_is_one_line_before_any_video_is_touched(tutorial_videos, tmp_path, scripted_model):
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    settings.models.vlm.base_url = ""
    folder = tutorial_videos["cart_tutorial"].parent
    code, out, err = process(settings, "--source", "dir", "--videos", str(folder))
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0
    assert err.startswith("error: model role 'vlm' is not configured") and "models.vlm.base_url" in err
    assert not settings.paths.processed_dir.exists() and server.log == []


def record_sandbox_tutorial(settings, tutorial_videos) -> None:
    """The cart tutorial as the sandbox's recorded `shop_cart`, with its subtitles and (empty) action log."""
    recorded = settings.paths.sandbox_dir / "tutorials"
    recorded.mkdir(parents=True)
    shutil.copy(tutorial_videos["cart_tutorial"], recorded / "shop_cart.mp4")
    (recorded / "shop_cart.srt").write_text("1\n00:00:00,000 --> 00:00:01,500\nOpen the cart.\n")
    (recorded / "shop_cart.actions.json").write_text(
        json.dumps({"name": "shop_cart", "title": "cart tutorial", "description": "Empty the cart.", "actions": []})
    )


def test_sandbox_tutorials_bring_their_title_description_and_narration(tutorial_videos, tmp_path, scripted_model):
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    record_sandbox_tutorial(settings, tutorial_videos)
    code, out, _ = process(settings, "--source", "sandbox")
    assert code == 0, out
    record = json.loads((settings.paths.processed_dir / "shop_cart" / "video.json").read_text())
    assert (record["title"], record["description"], record["transcript"]) == (
        "cart tutorial", "Empty the cart.", "Open the cart."
    )
    assert record["source"] == "sandbox"
    assert TrajectoryIndex.load(settings.paths.index_dir, settings).trajectories("shop_cart")


def test_the_dry_run_estimate_is_within_a_factor_of_two_of_the_calls_a_run_makes(tutorial_videos, tmp_path,
                                                                                  scripted_model):
    """The issue's run: the model-free labeler and objectives, both filters on (one call a video, one a span)."""
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    record_sandbox_tutorial(settings, tutorial_videos)
    flags = ("--source", "sandbox", "--labeler", "ocr", "--objectives", "derived")
    code, out, _ = process(settings, *flags, "--dry-run")
    assert code == 0 and server.log == []
    assert not settings.paths.processed_dir.exists()
    estimate = int(re.search(r"model calls to come: (\d+) in all", out).group(1))
    code, out, _ = process(settings, *flags)
    made = len(server.requests("/chat/completions"))
    assert code == 0 and made > 1, out
    assert made / 2 <= estimate <= made * 2, (estimate, made)


def test_sandbox_source_without_recordings_says_to_record_them(tmp_path, scripted_model):
    settings = pipeline_settings(tmp_path / "cache", scripted_model().base_url)
    code, _, err = process(settings, "--source", "sandbox")
    assert code == 2
    folder = settings.paths.sandbox_dir / "tutorials"
    assert err.strip() == f"error: no sandbox tutorials in {folder}: run `videodemo sandbox record` first"


def test_an_unknown_labeler_lists_the_registered_ones(tmp_path, scripted_model):
    settings = pipeline_settings(tmp_path / "cache", scripted_model().base_url)
    code, _, err = process(settings, "--source", "sandbox", "--labeler", "magic")
    assert code == 2 and "unknown labeler 'magic': registered ones are ocr, vlm" in err


@pytest.mark.parametrize("args, fix", [
    (["--source", "dir"], "--videos DIR"),
    (["--source", "videowa_tutorials"], "--tasks PATH"),
    (["--source", "manifest"], "--manifest FILE"),
    (["--source", "urls"], "--urls URL"),
])  # fmt: skip
def test_a_source_without_its_input_says_which_option_to_pass(args, fix, tmp_path, scripted_model):
    settings = pipeline_settings(tmp_path / "cache", scripted_model().base_url)
    code, _, err = process(settings, *args)
    assert code == 2 and fix in err


def test_index_inspect_without_an_index_says_to_process_first(tmp_path):
    code, _, err = run_cli("index", "inspect", "--index", str(tmp_path / "none"))
    assert code == 2 and "run `process-videos` first" in err


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
        pass
