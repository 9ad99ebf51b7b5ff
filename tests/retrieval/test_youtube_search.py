"""YouTube search through the real googleapiclient client, answered by recorded bodies (HttpMockSequence)."""

from __future__ import annotations

import json

import pytest
from googleapiclient.http import HttpMockSequence
from tests.retrieval.helpers import api_body, api_mock, sent_requests

from foundation.errors import UserError
from retrieval.candidates import find_candidates, language_verdict, parse_iso_duration
from retrieval.youtube import YouTubeApi

QUERY = "Magento 2 storefront tutorial for customers"


def shop(number: int) -> str:
    return f"shop{number:07d}"


def test_search_pages_stop_at_fifty_and_details_filter_duration_and_language(settings):
    http = api_mock("search_shopping_page1", "search_shopping_page2", "videos_shopping")
    api = YouTubeApi(settings, api_key="test-key", http=http)

    found = find_candidates(api, QUERY, settings.retrieval)

    sent = sent_requests(http)
    assert [method for method, _ in sent] == ["search", "search", "videos"]
    first, second, details = (params for _, params in sent)
    assert first["q"] == QUERY and first["type"] == "video" and first["part"] == "snippet"
    assert first["maxResults"] == "50" and "pageToken" not in first and first["key"] == "test-key"
    # The first page brought 30; the second is asked for the 20 still missing, and no third page is asked for.
    assert second["pageToken"] == "CB4QAA" and second["maxResults"] == "20"
    assert details["part"] == "contentDetails,snippet"
    assert details["id"].split(",") == [shop(n) for n in range(1, 51)]
    assert found.found == 50 and found.complete
    assert api.units_spent == 201 and sum(api.sent.values()) == 3

    rejected = {item.youtube_id: item for item in found.rejected}
    stages = {youtube_id: item.stage for youtube_id, item in rejected.items()}
    assert stages == {
        shop(7): "details",  # left out of videos.list: private or removed
        shop(3): "duration",  # 12:30
        shop(5): "duration",  # 1:02:03
        shop(8): "duration",  # exactly 10:00 is not under 10 minutes
        shop(9): "duration",  # P0D: a live stream
        shop(11): "language",  # spoken Spanish
        shop(13): "language",  # spoken Hindi, though the metadata says English
        shop(16): "language",  # no language stated, Japanese title
        shop(17): "language",  # metadata in German
    }
    assert "12:30" in rejected[shop(3)].reason and "10:00" in rejected[shop(8)].reason
    assert "es" in rejected[shop(11)].reason and "not stated" in rejected[shop(16)].reason

    kept = {candidate.youtube_id: candidate for candidate in found.candidates}
    assert set(kept) == {shop(n) for n in range(1, 51)} - set(rejected)
    assert kept[shop(14)].language == "en-GB"  # "zxx" (no speech) falls back to the metadata language
    assert kept[shop(15)].language is None and "not stated" in kept[shop(15)].language_note
    assert all(candidate.duration_s < 600 for candidate in kept.values())
    # Candidates keep the search's rank order and the full description from videos.list.
    assert [c.youtube_id for c in found.candidates][:3] == [shop(1), shop(2), shop(4)]
    assert "Chapters:" in kept[shop(1)].description


def test_a_second_search_is_answered_from_the_disk_cache(settings):
    api = YouTubeApi(settings, api_key="test-key", http=api_mock("search_reddit", "videos_reddit"))
    first = find_candidates(api, "Postmill forum tutorial", settings.retrieval)

    empty = HttpMockSequence([])  # any request would fail: nothing is left to answer it
    again = YouTubeApi(settings, api_key="test-key", http=empty)
    second = find_candidates(again, "Postmill forum tutorial", settings.retrieval)

    assert empty.request_sequence == [] and sum(again.sent.values()) == 0
    assert again.replayed == {"search.list": 1, "videos.list": 1}
    assert second == first
    assert [c.youtube_id for c in second.candidates] == ["redd0000001", "redd0000002", "redd0000004", "redd0000005"]
    cached = list((settings.paths.cache_dir / "retrieval" / "api").rglob("*.json"))
    assert len(cached) == 2 and all("test-key" not in path.read_text() for path in cached)


def test_quota_exhaustion_stops_all_further_requests(settings):
    http = api_mock("quota")
    api = YouTubeApi(settings, api_key="test-key", http=http)

    first = find_candidates(api, QUERY, settings.retrieval)
    second = find_candidates(api, "Postmill forum tutorial", settings.retrieval)

    assert len(http.request_sequence) == 1  # the second query is never sent
    assert api.quota_message is not None and "quota" in api.quota_message
    assert not first.complete and first.candidates == []
    assert [error.stage for error in first.errors] == ["search"] and "quota" in first.errors[0].message
    assert "not sent" in second.errors[0].message and api.skipped_for_quota == 1
    # Nothing of the failed request is cached: the next run asks again.
    assert not list((settings.paths.cache_dir / "retrieval" / "api").rglob("*.json"))


def test_other_api_errors_fail_one_request_and_the_next_is_sent(settings):
    bad_request = json.dumps({"error": {"code": 400, "message": "Invalid value", "errors": [{"reason": "badRequest"}]}})
    http = HttpMockSequence(
        [
            ({"status": "400"}, bad_request),
            ({"status": "200"}, api_body("search_reddit")),
            ({"status": "200"}, api_body("videos_reddit")),
        ]
    )
    api = YouTubeApi(settings, api_key="test-key", http=http)

    failed = find_candidates(api, QUERY, settings.retrieval)
    worked = find_candidates(api, "Postmill forum tutorial", settings.retrieval)

    assert "HTTP 400" in failed.errors[0].message and "badRequest" in failed.errors[0].message
    assert api.quota_message is None
    assert worked.complete and len(worked.candidates) == 4


def test_missing_api_key_names_the_environment_variable(settings, monkeypatch):
    monkeypatch.delenv("YOUTUBE_API_KEY", raising=False)
    api = YouTubeApi(settings)
    with pytest.raises(UserError, match="YOUTUBE_API_KEY"):
        api.search_page(QUERY, 50, None, "en")


@pytest.mark.parametrize(
    "text, seconds",
    [("PT4M13S", 253), ("PT1H2M3S", 3723), ("PT45S", 45), ("PT10M", 600), ("P1DT1S", 86401), ("P0D", 0)],
)
def test_iso_durations(text, seconds):
    assert parse_iso_duration(text) == seconds


@pytest.mark.parametrize("text", ["", None, "4:13", "PT", "P"])
def test_unreadable_durations(text):
    assert parse_iso_duration(text) is None


@pytest.mark.parametrize(
    "snippet, title, keep",
    [
        ({"defaultAudioLanguage": "en-US"}, "x", True),
        ({"defaultAudioLanguage": "en_GB"}, "x", True),
        ({"defaultAudioLanguage": "fr", "defaultLanguage": "en"}, "x", False),
        ({"defaultAudioLanguage": "und", "defaultLanguage": "en"}, "x", True),
        ({}, "How to checkout in Magento 2", True),
        ({}, "Как оформить заказ в Magento", False),
    ],
)
def test_language_verdicts(snippet, title, keep):
    assert language_verdict(snippet, title, "en")[0] is keep
