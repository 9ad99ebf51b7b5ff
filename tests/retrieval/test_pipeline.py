"""The whole retrieval for several tasks: recorded YouTube answers, scripted models, real downloads and frames."""

from __future__ import annotations

import json
import logging

from googleapiclient.http import HttpMockSequence
from tests.retrieval.helpers import api_mock, sent_requests

from model_access.client import ModelClient
from retrieval.applications import RetrievalTask
from retrieval.download import Downloader
from retrieval.manifest import read_manifest
from retrieval.pipeline import Retriever
from retrieval.youtube import YouTubeApi

WISH_LIST = RetrievalTask("shop_tasks:1", "Add the cheapest wireless mouse to my wish list", ("shopping",))
REORDER = RetrievalTask("shop_tasks:2", "Reorder my most recent order", ("shopping",))
FORUM = RetrievalTask("forum_tasks:7", "Post a question in the books forum", ("reddit",))
SHOP_QUERY = "Magento 2 storefront shopping tutorial for customers"
FORUM_QUERY = "Postmill reddit forum tutorial"


def shop(number: int) -> str:
    return f"shop{number:07d}"


def picks(*ids: str) -> str:
    return json.dumps([{"id": youtube_id, "reason": f"title fits ({youtube_id})"} for youtube_id in ids])


# Picks for the wish-list task: a made-up id, a repeat, and twelve real candidates (two beyond the limit).
WISH_LIST_PICKS = [shop(2), shop(4), "madeUpId123", shop(2)]
WISH_LIST_PICKS += [shop(n) for n in (6, 10, 12, 14, 15, 18, 19, 20, 21, 22)]

SCRIPT = {
    "name": "retrieval-test",
    "rules": [
        # Query generation, per application. The forum's first query is too long and is asked for again.
        {"contains": "Your last query", "reply": json.dumps({"query": FORUM_QUERY})},
        {
            "regex": r"Application: an online store.*Write one YouTube search query",
            "reply": json.dumps({"query": SHOP_QUERY}),
        },
        {
            "regex": r"Application: a Reddit-style.*Write one YouTube search query",
            "reply": '{"query": "how to use a reddit style forum to post comment vote and subscribe to communities"}',
        },
        # Coarse selection, per task.
        {"regex": r"most likely to show.*Task: Add the cheapest wireless mouse", "reply": picks(*WISH_LIST_PICKS)},
        {"regex": r"most likely to show.*Task: Reorder my most recent order", "reply": picks(shop(2), shop(12))},
        {"regex": r"most likely to show.*Task: Post a question", "reply": picks("redd0000001", "redd0000002")},
        # Content check: three shopping videos and one forum video really show the site being used.
        {
            "regex": r"Content check.*Video title: ([^\n]*\(part (2|14|19)\)|How to use Postmill[^\n]*)\n",
            "reply": '{"answer": "yes", "reason": "the storefront is operated on screen"}',
        },
        {"contains": "Content check", "reply": '{"answer": "no", "reason": "slides, no site on screen"}'},
    ],
}


def run_retrieval(settings, http, tasks):
    with ModelClient(settings) as client:
        youtube = YouTubeApi(settings, api_key="test-key", http=http)
        retriever = Retriever(settings, client, youtube, Downloader(settings))
        return retriever.run(tasks), retriever, client.ledger


def test_retrieval_for_three_tasks_then_a_free_second_run(settings, scripted, video_site):
    server = scripted(SCRIPT, settings)
    video_site.missing.add(shop(6))  # removed from the site between search and download
    http = api_mock(
        "search_shopping_page1", "search_shopping_page2", "videos_shopping", "search_reddit", "videos_reddit"
    )

    outcomes, retriever, _ = run_retrieval(settings, http, [WISH_LIST, REORDER, FORUM])

    # One query per task; both shopping tasks' queries come back in the same words, so the second search is
    # answered from the API cache.
    assert [method for method, _ in sent_requests(http)] == ["search", "search", "videos", "search", "videos"]
    assert sent_requests(http)[0][1]["q"] == SHOP_QUERY and sent_requests(http)[3][1]["q"] == FORUM_QUERY
    stages = [entry["body"]["messages"][-1]["content"] for entry in server.requests()]
    assert sum("Write one YouTube search query" in text for text in stages) == 4  # one per task, forum twice
    assert sum("Reorder my" in text for text in stages if "Write one YouTube search query" in text) == 1
    assert sum("most likely to show" in text for text in stages) == 3  # one coarse call per task

    wish = read_manifest(outcomes[0].path)
    assert outcomes[0].path == settings.paths.cache_dir / "retrieval" / "manifests" / "shop_tasks_1.json"
    assert wish.complete and wish.errors == []
    assert wish.query == SHOP_QUERY and wish.query_generation["truncated"] is False
    assert wish.task == {"key": "shop_tasks:1", "intent": WISH_LIST.intent, "sites": ["shopping"]}
    assert [video.youtube_id for video in wish.videos] == [shop(2), shop(14), shop(19)]
    assert [video.decision.coarse_rank for video in wish.videos] == [1, 6, 9]
    first = wish.videos[0]
    assert first.video_id == f"yt-{shop(2)}" and first.decision.verified
    assert first.decision.coarse_reason == f"title fits ({shop(2)})"
    assert first.decision.verification_reason == "the storefront is operated on screen"
    assert first.title == "Magento 2 storefront tour for customers (part 2)" and "Chapters:" in first.description
    assert first.path.endswith(f"videos/youtube/{shop(2)}.mp4") and first.transcript_path.endswith(".en.vtt")
    assert 0 < first.duration_s < 600 and first.url == f"{video_site.base_url}/{shop(2)}.html"
    assert wish.counts == {"found": 50, "candidates": 41, "picked": 10, "downloaded": 9, "verified": 3}

    by_stage: dict[str, dict[str, str]] = {}
    for item in wish.rejected:
        by_stage.setdefault(item.stage, {})[item.youtube_id] = item.reason
    assert set(by_stage["details"]) == {shop(7)}
    assert set(by_stage["duration"]) == {shop(n) for n in (3, 5, 8, 9)}
    assert set(by_stage["language"]) == {shop(n) for n in (11, 13, 16, 17)}
    assert "made up" in by_stage["coarse"]["madeUpId123"]
    assert "after the first 10" in by_stage["coarse"][shop(21)]
    assert by_stage["coarse"][shop(1)] == "not picked by the coarse selection"
    assert set(by_stage["download"]) == {shop(6)} and "not found" in by_stage["download"][shop(6)]
    assert set(by_stage["verification"]) == {shop(n) for n in (4, 10, 12, 15, 18, 20)}
    assert set(by_stage["verification"].values()) == {"slides, no site on screen"}
    # Every one of the 50 search results is accounted for, once.
    judged = [item.youtube_id for item in wish.rejected if item.youtube_id != "madeUpId123"]
    judged += [video.youtube_id for video in wish.videos]
    assert sorted(judged) == [shop(n) for n in range(1, 51)]

    # The content check saw the transcript and ten frames.
    checks = [entry for entry in server.requests() if "Content check" in json.dumps(entry["body"])]
    assert len(checks) == 9 + 2 + 2
    parts = checks[0]["body"]["messages"][-1]["content"]
    assert sum(part["type"] == "image_url" for part in parts) == 10
    assert "wireless mouse" in parts[0]["text"]

    reorder = read_manifest(outcomes[1].path)
    assert [video.youtube_id for video in reorder.videos] == [shop(2)]
    assert reorder.counts["downloaded"] == 2
    forum = read_manifest(outcomes[2].path)
    assert forum.query == FORUM_QUERY and len(forum.query_generation["attempts"]) == 2
    assert [video.youtube_id for video in forum.videos] == ["redd0000001"]
    assert {item.youtube_id for item in forum.rejected if item.stage == "duration"} == {"redd0000003"}
    # Each video fetched once (the removed one tried once), though two tasks picked some of them.
    assert retriever.downloader.fetched == 10 + 2

    # Second run: no API request (an empty mock fails on any), no model request, no download.
    model_requests, site_requests = len(server.log), len(video_site.requests)
    empty = HttpMockSequence([])
    again, retriever2, ledger = run_retrieval(settings, empty, [WISH_LIST, REORDER, FORUM])
    assert empty.request_sequence == [] and sum(retriever2.youtube.sent.values()) == 0
    assert len(server.log) == model_requests and len(video_site.requests) == site_requests
    assert ledger.usage().calls == ledger.usage().cache_hits > 0
    for before, after in zip(outcomes, again):
        old, new = before.manifest.to_dict(), read_manifest(after.path).to_dict()
        old.pop("created_at"), new.pop("created_at")
        assert new == old


def test_quota_exhaustion_is_reported_once_and_the_other_tasks_go_on(settings, scripted, video_site, caplog):
    server = scripted(SCRIPT, settings)
    # An earlier run retrieved the forum task: its search is in the cache.
    run_retrieval(settings, api_mock("search_reddit", "videos_reddit"), [FORUM])
    forum_calls = len(server.log)

    http = api_mock("quota")  # the shopping search meets a spent quota; nothing else is answered
    with caplog.at_level(logging.WARNING, logger="retrieval"):
        outcomes, retriever, _ = run_retrieval(settings, http, [WISH_LIST, FORUM, REORDER])

    assert len(http.request_sequence) == 1
    assert [record.message.count("quota") > 0 for record in caplog.records].count(True) == 1
    assert retriever.youtube.quota_message and "midnight Pacific" in retriever.youtube.quota_message
    wish, forum, reorder = (read_manifest(outcome.path) for outcome in outcomes)
    assert not wish.complete and wish.videos == [] and "quota" in wish.errors[0].message
    assert not reorder.complete and "quota ran out earlier in this run" in reorder.errors[0].message
    assert forum.complete and [video.youtube_id for video in forum.videos] == ["redd0000001"]
    # The forum task was answered from the caches; the shopping tasks only cost their query.
    new_prompts = [json.dumps(entry["body"]) for entry in server.log[forum_calls:]]
    assert len(new_prompts) == 2 and all("Write one YouTube search query" in p for p in new_prompts)


def test_a_task_typed_as_text_without_sites(settings, scripted, video_site):
    server = scripted(
        {
            "rules": [
                {"contains": "Write one YouTube search query", "reply": '{"query": "Postmill forum tutorial"}'},
                {"contains": "most likely to show", "reply": picks("redd0000002", "redd0000005")},
                {"contains": "Video title: Editing your profile", "reply": '{"answer": "yes", "reason": "shown"}'},
                {"contains": "Content check", "reply": "No. It is a different site."},
            ]
        },
        settings,
    )
    task = RetrievalTask.from_text("Change my forum profile's about text")
    outcomes, _, _ = run_retrieval(settings, api_mock("search_reddit", "videos_reddit"), [task])

    manifest = read_manifest(outcomes[0].path)
    assert manifest.task["sites"] == [] and manifest.task["key"].startswith("text:")
    assert [video.youtube_id for video in manifest.videos] == ["redd0000005"]
    rejected = {item.youtube_id: item for item in manifest.rejected if item.stage == "verification"}
    assert rejected["redd0000002"].reason.startswith("No. It is a different site")
    assert "Change my forum profile" in json.dumps(server.log[0]["body"])
