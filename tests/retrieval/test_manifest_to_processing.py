"""End to end: retrieve tutorials for a task, then `process-videos --source manifest` turns them into trajectories."""

from __future__ import annotations

import json

from tests.processing.pipeline_helpers import (
    FILTER_MARKER,
    TRAJECTORY_MARKER,
    fenced,
    labeling_rules,
    pipeline_script,
    pipeline_settings,
    step_list,
    targets_between,
)
from tests.retrieval.helpers import api_mock

from cli.main import main
from model_access.client import ModelClient
from model_access.embeddings import Embedder
from processing.index import TrajectoryIndex
from retrieval.applications import RetrievalTask
from retrieval.download import Downloader
from retrieval.manifest import read_manifest
from retrieval.pipeline import Retriever
from retrieval.youtube import YouTubeApi

TASK = RetrievalTask("forum_tasks:7", "Post a question in the books forum", ("reddit",))
TITLE = "How to use Postmill forums"  # redd0000001 in the recorded search results
OBJECTIVE = "Open the first three items of a forum page"


def scripted_models() -> dict:
    """SCRIPTED retrieval replies, then the processing pipeline's scripted replies for this video's title."""
    retrieval = [
        {"contains": "Write one YouTube search query", "reply": '{"query": "Postmill forum tutorial"}'},
        {"contains": "most likely to show", "reply": '[{"id": "redd0000001", "reason": "forum basics"}]'},
        {"contains": "Content check", "reply": '{"answer": "yes", "reason": "the forum is used on screen"}'},
    ]
    steps = step_list(targets_between(TITLE, "How item 0-a", "How item 0-c"))
    named = {"contains": steps, "regex": TRAJECTORY_MARKER, "reply": fenced({"objective": OBJECTIVE})}
    return pipeline_script(retrieval + [named] + labeling_rules(TITLE))


def as_overrides(settings) -> list[str]:
    """The settings this test changed, as `--set` options for the command line."""
    models, processing = settings.models, settings.processing
    items = [f"paths.cache_dir={settings.paths.cache_dir}"]
    for role in ("vlm", "llm"):
        items += [f"models.{role}.base_url={getattr(models, role).base_url}"]
        items += [f"models.{role}.model={getattr(models, role).model}"]
    for name in ("backend", "base_url", "model"):
        items.append(f"models.embedding.{name}={getattr(models.embedding, name)}")
    for name in ("max_retries", "backoff_initial_s", "backoff_max_s"):
        items.append(f"models.{name}={getattr(models, name)}")
    for name in ("clip_frames", "clip_overlap", "model_image_max_side"):
        items.append(f"processing.{name}={getattr(processing, name)}")
    return [arg for item in items for arg in ("--set", item)]


def test_a_retrieval_manifest_feeds_process_videos(tmp_path, scripted, video_site, capsys):
    server = scripted(scripted_models())
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    settings.retrieval.download_url_template = video_site.url_template

    with ModelClient(settings) as client:
        youtube = YouTubeApi(settings, api_key="test-key", http=api_mock("search_reddit", "videos_reddit"))
        outcome = Retriever(settings, client, youtube, Downloader(settings)).retrieve(TASK)
    manifest = read_manifest(outcome.path)
    assert [video.video_id for video in manifest.videos] == ["yt-redd0000001"]

    code = main(["process-videos", "--source", "manifest", "--manifest", str(outcome.path), *as_overrides(settings)])

    output = capsys.readouterr().out
    assert code == 0, output
    summary = json.loads((settings.paths.processed_dir / "summary.json").read_text())
    assert "yt-redd0000001" in json.dumps(summary)
    # The action filter read what retrieval found: the video's title, description and downloaded captions.
    filtering = [json.dumps(entry["body"]) for entry in server.requests() if FILTER_MARKER in json.dumps(entry["body"])]
    assert filtering and TITLE in filtering[0] and "Chapters:" in filtering[0] and "wireless mouse" in filtering[0]
    # The trajectory the scripted VLM named is in the index, filed under the manifest's video id.
    with ModelClient(settings) as client:
        index = TrajectoryIndex.load(settings.paths.index_dir, settings, Embedder(settings, client.ledger))
        assert index.videos() == ["yt-redd0000001"]
        best, _ = index.search(OBJECTIVE, k=1)[0]
    assert best.objective == OBJECTIVE
