"""The manifest: what retrieval found for one task, read by `process-videos --source manifest`.

One JSON file per task::

    {"task": {"key", "intent", "sites"}, "query": "...", "created_at": "...", "complete": true,
     "videos":   [{"video_id": "yt-<id>", "youtube_id", "title", "description", "url", "path",
                   "transcript_path", "duration_s",
                   "decision": {"coarse_rank", "coarse_reason", "verified", "verification_reason"}}],
     "rejected": [{"youtube_id", "title", "stage", "reason"}],
     "errors":   [{"stage", "message", "youtube_id"}],
     "query_generation": {...}, "counts": {...}}

Only videos the content check confirmed are under "videos", best coarse rank first.
"rejected" says why every other candidate was left out; `stage` is one of
`details` (the API had no details: private or removed), `duration`, `language`,
`coarse`, `download`, `verification`. "complete" is false when an API request failed
(quota, network): a re-run fetches what is missing.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from foundation.errors import UserError

REJECTION_STAGES = ("details", "duration", "language", "coarse", "download", "verification")


@dataclass
class Decision:
    coarse_rank: int  # 1 = the coarse selection's first pick
    coarse_reason: str
    verified: bool
    verification_reason: str


@dataclass
class ManifestVideo:
    video_id: str  # "yt-<youtube id>": the id processing files the video under
    youtube_id: str
    title: str
    description: str
    url: str
    path: str  # the downloaded video file
    transcript_path: str | None  # subtitles or automatic captions (.vtt/.srt), None when there were none
    duration_s: float
    decision: Decision

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ManifestVideo":
        values = {name: data.get(name) for name in cls.__dataclass_fields__ if name != "decision"}
        return cls(**values, decision=Decision(**data["decision"]))


@dataclass
class Rejection:
    youtube_id: str
    title: str
    stage: str  # one of REJECTION_STAGES
    reason: str


@dataclass
class ErrorRecord:
    stage: str  # "query", "search", "details", "coarse", "verification", ...
    message: str
    youtube_id: str | None = None


@dataclass
class Manifest:
    task: dict[str, Any]  # {"key", "intent", "sites"}
    query: str
    created_at: str
    videos: list[ManifestVideo] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)
    complete: bool = True
    query_generation: dict[str, Any] = field(default_factory=dict)  # attempts, replies, whether cut
    counts: dict[str, int] = field(default_factory=dict)  # found, candidates, picked, downloaded, verified

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Manifest":
        return cls(
            task=dict(data["task"]),
            query=str(data.get("query", "")),
            created_at=str(data.get("created_at", "")),
            videos=[ManifestVideo.from_dict(video) for video in data.get("videos", [])],
            rejected=[Rejection(**item) for item in data.get("rejected", [])],
            errors=[ErrorRecord(**item) for item in data.get("errors", [])],
            complete=bool(data.get("complete", True)),
            query_generation=dict(data.get("query_generation", {})),
            counts=dict(data.get("counts", {})),
        )


def manifest_file_name(task_key: str) -> str:
    return task_key.replace(":", "_").replace("/", "_") + ".json"


def read_manifest(path: str | Path) -> Manifest:
    """A manifest from disk; a missing or malformed file is one line naming it."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"manifest {path} not found; write it with `videodemo retrieve` or pass an existing file")
    try:
        return Manifest.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, KeyError, TypeError) as exc:
        raise UserError(
            f"manifest {path} is not a retrieval manifest ({exc}); write it again with `videodemo retrieve`"
        ) from exc


def write_manifest(manifest: Manifest, path: Path) -> None:
    """Write atomically (temporary file, then rename), so a reader never sees half a manifest."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=".tmp-", delete=False)
    try:
        with handle:
            json.dump(manifest.to_dict(), handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
