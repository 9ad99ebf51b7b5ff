"""Download a video and its English subtitles (or automatic captions) with yt-dlp, used as a library.

Files land in `<cache>/videos/youtube/<id>.<ext>` with the transcript beside them as
`<id>.<lang>.vtt` (or .srt), where `foundation.subtitles` finds it. A video already
there is not fetched again. The format is bounded by `retrieval.max_height` (720p by
default) and merged into mp4 when ffmpeg is present. A private, removed or missing
video, or a network failure, gives a `Download` with an error and its kind; nothing is
raised, so a run goes on. A failure that will not heal (private, removed, restricted,
not found) is written beside the videos as `<id>.unavailable.json` and later runs take
it from there without asking again (delete the file to retry); a network error is
only remembered for the rest of the run.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yt_dlp

from foundation.video_download import error_kind, one_line, ytdlp_options
from foundation.video_io import VIDEO_SUFFIXES
from foundation.subtitles import find_subtitle
from settings.schema import Settings

log = logging.getLogger(__name__)

PERMANENT_KINDS = ("private", "unavailable", "restricted", "not found")

@dataclass
class Download:
    youtube_id: str
    url: str
    path: Path | None = None
    transcript_path: Path | None = None
    already_there: bool = False
    error: str | None = None  # one line, when the video could not be fetched
    error_kind: str | None = None  # private, unavailable, restricted, not found, network, failed
    note: str | None = None  # e.g. why there is no transcript

    @property
    def ok(self) -> bool:
        return self.path is not None


class Downloader:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.folder = settings.paths.videos_dir / "youtube"
        self.fetched = 0  # downloads attempted by this object (already-there videos not counted)
        self._results: dict[str, Download] = {}

    def url_for(self, youtube_id: str) -> str:
        return self.settings.retrieval.download_url_template.format(id=youtube_id)

    def local_video(self, youtube_id: str) -> Path | None:
        if not self.folder.is_dir():
            return None
        found = sorted(
            path
            for path in self.folder.glob(f"{glob_escape(youtube_id)}.*")
            if path.stem == youtube_id and path.suffix.lower() in VIDEO_SUFFIXES and path.stat().st_size > 0
        )
        return found[0] if found else None

    def fetch(self, youtube_id: str) -> Download:
        """The video on disk, downloading it first when it is not there yet."""
        if youtube_id not in self._results:
            self._results[youtube_id] = self._fetch(youtube_id)
        return self._results[youtube_id]

    def _fetch(self, youtube_id: str) -> Download:
        url = self.url_for(youtube_id)
        language = self.settings.retrieval.language
        existing = self.local_video(youtube_id)
        if existing is not None:
            return Download(youtube_id, url, existing, find_subtitle(existing, language), already_there=True)
        known = self._known_failure(youtube_id)
        if known is not None:
            return known
        self.folder.mkdir(parents=True, exist_ok=True)
        self.fetched += 1
        note = None
        try:
            try:
                self._run_ytdlp(url, youtube_id, subtitles=True)
            except yt_dlp.utils.DownloadError as exc:
                if "subtitle" not in str(exc).lower():
                    raise
                # Captions are often rate-limited when the video is not; a video without transcript still helps.
                note = f"no transcript: {one_line(str(exc))}"
                self._run_ytdlp(url, youtube_id, subtitles=False)
        except yt_dlp.utils.DownloadError as exc:
            message = one_line(str(exc))
            failed = Download(youtube_id, url, error=message, error_kind=error_kind(message))
            if failed.error_kind in PERMANENT_KINDS:
                self._remember_failure(failed)
            return failed
        path = self.local_video(youtube_id)
        if path is None:
            return Download(youtube_id, url, error="yt-dlp finished but wrote no video file", error_kind="failed")
        transcript = find_subtitle(path, language)
        if transcript is None and note is None:
            note = "no transcript: the video has no subtitles or captions in the wanted language"
        return Download(youtube_id, url, path, transcript, note=note)

    def failure_file(self, youtube_id: str) -> Path:
        return self.folder / f"{youtube_id}.unavailable.json"

    def _known_failure(self, youtube_id: str) -> Download | None:
        try:
            record = json.loads(self.failure_file(youtube_id).read_text())
            kind, message = str(record["kind"]), str(record["error"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        checked = record.get("checked_at", "an earlier run")
        note = f"as found on {checked}; delete {self.failure_file(youtube_id)} to retry"
        return Download(youtube_id, self.url_for(youtube_id), error=message, error_kind=kind, note=note)

    def _remember_failure(self, failed: Download) -> None:
        record = {"kind": failed.error_kind, "error": failed.error, "url": failed.url, "checked_at": _now()}
        try:
            self.failure_file(failed.youtube_id).write_text(json.dumps(record, indent=1))
        except OSError as exc:
            log.warning("could not remember that %s is unavailable (%s)", failed.youtube_id, exc)

    def _run_ytdlp(self, url: str, youtube_id: str, subtitles: bool) -> None:
        with yt_dlp.YoutubeDL(self._options(youtube_id, subtitles)) as ydl:
            ydl.download([url])

    def _options(self, youtube_id: str, subtitles: bool) -> dict[str, Any]:
        return ytdlp_options(
            self.settings, str(self.folder / f"{youtube_id}.%(ext)s"), subtitles=subtitles, label=youtube_id
        )


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
