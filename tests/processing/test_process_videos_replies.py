"""Unreadable model replies: asked once more, then skipped and counted; never the end of the video."""

from __future__ import annotations

import shutil

import pytest
from tests.processing.pipeline_helpers import (
    REMINDER_MARKER,
    chat_requests_by_stage,
    pipeline_settings,
    process,
    read_summary,
    video_summary,
)

FIRST_CLIP = r"Video title: search tutorial\n.*This clip shows frames 0 to 3 "


@pytest.fixture
def search_only(tutorial_videos, tmp_path):
    folder = tmp_path / "videos"
    folder.mkdir()
    shutil.copy(tutorial_videos["search_tutorial"], folder)
    return folder


def _first_clip_requests(server):
    return [r for r in server.requests() if "This clip shows frames 0 to 3 " in str(r["body"])]


def test_a_reply_unreadable_twice_is_skipped_and_counted(search_only, tmp_path, scripted_model):
    chatter = {"regex": FIRST_CLIP, "reply": "I can see a web page with a search box and some products."}
    server = scripted_model([chatter])
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    code, out, _ = process(settings, "--source", "dir", "--videos", str(search_only), "--no-action-filtering")
    assert code == 0, out

    asked = _first_clip_requests(server)
    assert len(asked) == 2  # the request and one retry
    assert REMINDER_MARKER not in str(asked[0]["body"]) and REMINDER_MARKER in str(asked[1]["body"])
    summary = read_summary(settings)
    assert summary["unparseable_replies_skipped"] == {"labeling": 1}
    assert "unparseable replies skipped: labeling 1" in out
    video = video_summary(summary, "search_tutorial")
    assert summary["videos"]["processed"] == 1
    # Frames 0 and 1 are seen only by the skipped clip; frames 2 and 3 also by the next one.
    assert video["actions"] == 3 * (video["keyframes"] - 2)
    assert len(video["problems"]) == 1 and "reply unreadable twice" in video["problems"][0]
    # The merge call reads the actions of the clips that were read: one call for the video.
    assert chat_requests_by_stage(server)["merging"] == 1


def test_a_reply_readable_on_the_retry_is_used_and_cached(search_only, tmp_path, scripted_model):
    once = {"regex": FIRST_CLIP, "reply": "Sure! [click on the search box]", "times": 1}
    server = scripted_model([once])
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    code, out, _ = process(settings, "--source", "dir", "--videos", str(search_only), "--no-action-filtering")
    assert code == 0, out
    assert len(_first_clip_requests(server)) == 2
    summary = read_summary(settings)
    video = video_summary(summary, "search_tutorial")
    assert video["actions"] == 3 * video["keyframes"]  # nothing lost
    assert video["stages"]["labeling"]["retried"] == 1 and summary["unparseable_replies_skipped"] == {}

    # Both the unreadable reply and the retry's answer are in the call cache: a fresh run sends nothing.
    shutil.rmtree(settings.paths.processed_dir)
    shutil.rmtree(settings.paths.index_dir)
    before = len(server.requests())
    code, _, _ = process(settings, "--source", "dir", "--videos", str(search_only), "--no-action-filtering")
    assert code == 0 and len(server.requests()) == before
