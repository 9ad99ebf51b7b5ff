"""Downloading a video with yt-dlp, used as a library: the one place that talks to yt-dlp.

Retrieval downloads the YouTube videos it found (remembering the ones that will never
come); the `urls` source of process-videos downloads the URLs a user lists. Both go
through here, so the format bound (`retrieval.max_height`), the caption language and the
way errors are classified are the same for both.
"""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path
from typing import Any, Protocol


class _DownloadBounds(Protocol):
    max_height: int
    language: str


class DownloadSettings(Protocol):
    """What a download reads: `retrieval.max_height` and `retrieval.language` (settings.Settings has them);
    named here so the ground floor refers to no floor above it, not even for types."""

    retrieval: _DownloadBounds

log = logging.getLogger(__name__)
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# (kind, words in yt-dlp's message that mean it), first match wins.
_ERROR_KINDS = (
    ("private", ("private video",)),
    ("unavailable", ("video unavailable", "has been removed", "no longer available", "not available",
                     "account associated with this video has been terminated")),
    ("restricted", ("sign in to confirm", "age-restricted", "members-only", "join this channel")),
    ("not found", ("http error 404",)),
    ("network", ("unable to download webpage", "transporterror", "timed out", "connection", "name resolution",
                 "temporary failure", "network is unreachable", "http error 5")),
)  # fmt: skip


def ytdlp_options(settings: DownloadSettings, outtmpl: str, *, subtitles: bool, label: str) -> dict[str, Any]:
    """yt-dlp options shared by retrieval and the `urls` source of process-videos: a bounded height,
    mp4 where ffmpeg can merge, captions in the wanted language, quiet (errors come back as exceptions)."""
    height = int(settings.retrieval.max_height)
    language = settings.retrieval.language
    merge = shutil.which("ffmpeg") is not None
    # Heights the site does not state (plain HTML5 pages) pass the bound ("<=?"); the worst format is the
    # last resort, so a video is never fetched above the bound.
    if merge:
        fmt = f"bv*[height<=?{height}]+ba/b[height<=?{height}]/wv*+ba/w"
    else:
        fmt = f"b[height<=?{height}]/w"
    options: dict[str, Any] = {
        "outtmpl": {"default": outtmpl},
        "format": fmt,
        "format_sort": [f"res:{height}", "ext:mp4:m4a"],
        "noplaylist": True,
        "overwrites": False,
        "quiet": True,
        "no_warnings": True,
        "noprogress": True,
        "logger": _YtDlpLog(label),
        "socket_timeout": 30,
        "retries": 3,
        "fragment_retries": 3,
    }
    if merge:
        options["merge_output_format"] = "mp4"
    if subtitles:
        options.update(
            writesubtitles=True,
            writeautomaticsub=True,
            subtitleslangs=[f"{language}.*", language],
            subtitlesformat="vtt/srt/best",
        )
    return options


class _YtDlpLog:
    """yt-dlp's messages go to our debug log; errors come back as exceptions and are reported there."""

    def __init__(self, label: str) -> None:
        self.prefix = f"yt-dlp {label}: "

    def debug(self, message: str) -> None:
        log.debug("%s%s", self.prefix, message)

    def info(self, message: str) -> None:
        log.debug("%s%s", self.prefix, message)

    def warning(self, message: str) -> None:
        log.debug("%s%s", self.prefix, message)

    def error(self, message: str) -> None:
        log.debug("%s%s", self.prefix, message)


def error_kind(message: str) -> str:
    lowered = message.lower()
    for kind, phrases in _ERROR_KINDS:
        if any(phrase in lowered for phrase in phrases):
            return kind
    return "failed"


def one_line(message: str) -> str:
    text = " ".join(_ANSI.sub("", message).split())
    return text.removeprefix("ERROR: ")


def video_id_for(info: dict) -> str:
    """"yt-<id>" for YouTube (as retrieval names them), "<site>-<id>" for other sites."""
    extractor = str(info.get("extractor_key") or info.get("extractor") or "web").lower()
    prefix = "yt" if extractor.startswith("youtube") else _UNSAFE.sub("", extractor) or "web"
    return f"{prefix}-{_UNSAFE.sub('_', str(info.get('id') or 'video'))}"


def download_url(url: str, folder: Path, settings: DownloadSettings) -> dict:
    """Download one URL into `folder` as `<video id>.<ext>` with its subtitles; yt-dlp's exception on failure.
    Returns the video id, the file's path, and the title and description the site reported."""
    import yt_dlp

    folder.mkdir(parents=True, exist_ok=True)
    options = ytdlp_options(settings, str(folder / "%(video_id)s.%(ext)s"), subtitles=True, label=url)
    with yt_dlp.YoutubeDL(options) as downloader:
        info = downloader.extract_info(url, download=False)
        video_id = video_id_for(info)
        info["video_id"] = video_id
        info = downloader.process_ie_result(info, download=True)
        downloads = info.get("requested_downloads") or []
        path = Path(downloads[0]["filepath"]) if downloads else Path(downloader.prepare_filename(info))
    log.info("downloaded %s to %s", url, path)
    return {
        "video_id": video_id,
        "path": str(path),
        "title": str(info.get("title") or ""),
        "description": str(info.get("description") or ""),
    }
