"""The `urls` source: download videos with yt-dlp into `<cache>/videos/`, with their subtitles.

A URL is downloaded once: `<cache>/videos/urls.json` remembers which video id each
URL gave and the title and description yt-dlp reported, so a re-run finds the file
without asking the network. Ids: "yt-<id>" for YouTube (as retrieval names them),
"<site>-<id>" for other sites. Subtitles and automatic captions in
`retrieval.language` are saved beside the video, where `transcripts` finds them.
A URL that fails is reported on its own line and the others go on.
"""

from __future__ import annotations

import logging
from pathlib import Path

from processing.artifacts import read_json, write_json_atomic
from processing.sources import SourceResult, file_record, probe_all
from foundation.video_download import download_url, one_line
from settings.schema import Settings

log = logging.getLogger(__name__)
REGISTRY_NAME = "urls.json"


def read_url_list(items: list[str]) -> list[str]:
    """URLs given directly and the lines of files given instead (blank lines and # comments skipped)."""
    urls: list[str] = []
    for item in items:
        path = Path(item)
        if "://" not in item and path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            urls += [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
        else:
            urls.append(item.strip())
    return list(dict.fromkeys(url for url in urls if url))


def from_urls(urls: list[str], settings: Settings, dry_run: bool = False) -> SourceResult:
    folder = settings.paths.videos_dir
    registry_path = folder / REGISTRY_NAME
    registry: dict[str, dict] = read_json(registry_path) or {}
    result = SourceResult()
    paths: dict[Path, tuple[str, dict]] = {}
    for url in urls:
        known = registry.get(url)
        path = Path(known["path"]) if known else None
        if known is None or path is None or not path.is_file():
            if dry_run:
                result.not_downloaded.append(url)
                continue
            try:
                known = download_url(url, folder, settings)
            except Exception as exc:  # yt-dlp raises its own errors for every network or site failure
                reason = one_line(str(exc))[:300]
                result.problems.append((url, f"download of {url} failed ({reason}): check the URL and the network"))
                continue
            registry[url] = known
            write_json_atomic(registry_path, registry)
            path = Path(known["path"])
        paths[path] = (url, known)
    good, problems = probe_all(list(paths))
    result.problems += problems
    for info in good:
        url, known = paths[info.path]
        record = file_record(info, known["video_id"], "urls", settings)
        record.title = known.get("title") or record.title
        record.description = known.get("description") or ""
        result.videos.append(record)
    return result
