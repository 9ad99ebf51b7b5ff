"""yt-dlp, used as a library, fetching a video and its subtitles from a local web page."""

from __future__ import annotations

from foundation.subtitles import load_transcript
from foundation.video_io import probe
from retrieval.download import Downloader, error_kind


def test_downloads_the_video_and_its_subtitles(settings, video_site, tutorial_video):
    downloader = Downloader(settings)
    result = downloader.fetch("abcDEF12345")

    assert result.ok and result.error is None and not result.already_there
    folder = settings.paths.videos_dir / "youtube"
    assert result.path == folder / "abcDEF12345.mp4"
    assert result.path.read_bytes() == tutorial_video.read_bytes()
    assert probe(result.path).duration_s > 5
    assert result.transcript_path == folder / "abcDEF12345.en.vtt"
    transcript = load_transcript(result.path)
    assert transcript is not None and "wireless mouse" in transcript.text
    assert result.url == f"{video_site.base_url}/abcDEF12345.html"


def test_a_video_already_on_disk_is_not_fetched_again(settings, video_site):
    Downloader(settings).fetch("already0001")
    before = len(video_site.requests)

    again = Downloader(settings).fetch("already0001")  # a new run

    assert len(video_site.requests) == before
    assert again.already_there and again.ok and again.transcript_path is not None


def test_a_missing_video_is_reported_and_the_next_one_still_downloads(settings, video_site):
    video_site.missing.add("removed0001")
    downloader = Downloader(settings)

    missing = downloader.fetch("removed0001")
    present = downloader.fetch("present0001")

    assert not missing.ok and missing.error_kind == "not found" and "404" in (missing.error or "")
    assert not (settings.paths.videos_dir / "youtube" / "removed0001.mp4").exists()
    assert present.ok and present.path.is_file()
    # Within a run a failure is remembered: asking again sends nothing.
    before = len(video_site.requests)
    assert downloader.fetch("removed0001") is missing and len(video_site.requests) == before


def test_yt_dlp_messages_map_to_kinds():
    assert error_kind("[youtube] abc: Private video. Sign in if you've been granted access") == "private"
    assert error_kind("[youtube] abc: Video unavailable. This video has been removed by the uploader") == "unavailable"
    assert error_kind("Unable to download webpage: <urlopen error [Errno -3] Temporary failure>") == "network"
    assert error_kind("something else went wrong") == "failed"
