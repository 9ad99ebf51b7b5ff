"""Per-video artifacts on disk: one JSON file per stage, recomputed only when its key changes.

    <cache>/processed/<video folder>/
        video.json                 the VideoRecord
        source.json                the video file's content hash (re-read only when size or mtime change)
        keyframes/                 changed frames (JPEGs) and their manifest
        changed_frames.json        \
        labeling.json               |  {"key": sha256, "stage": name, "data": ..., "stats": ...}
        merging.json                |  `data` is the stage's output, `stats` how it was made
        action_filtering.json       |  (calls, cache hits, skipped replies, seconds)
        trajectories.json           |
        trajectory_filtering.json  /

A stage's key is the sha256 of everything its output depends on: the output of
the stage before it (or the video's content hash), the settings it reads, its
prompt templates and the model's name and sampling settings. A stage is rerun
exactly when its key differs from the one stored; since keys hash the previous
stage's *output*, a rerun that produces the same output leaves later stages cached.
Files are replaced atomically, so a killed run leaves each file whole or absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

ARTIFACT_VERSION = 1
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_HASH_CHUNK = 1 << 20


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def stage_key(stage: str, inputs: Any, identity: dict[str, Any]) -> str:
    """sha256 of a stage's name, inputs and identity (settings, prompts, model)."""
    payload = {"v": ARTIFACT_VERSION, "stage": stage, "inputs": inputs, "identity": identity}
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def digest(value: Any) -> str:
    """Short stable digest of a JSON-ready value (a stage's output, as the next stage's input)."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def folder_name(video_id: str) -> str:
    """A file-system-safe folder name for a video id; ids that had to change get a short hash to stay unique."""
    safe = _UNSAFE.sub("_", video_id).strip("._") or "video"
    if safe == video_id:
        return safe
    return f"{safe[:80]}-{hashlib.sha256(video_id.encode()).hexdigest()[:8]}"


def write_json_atomic(path: Path, value: Any) -> None:
    """Write JSON to a temporary file beside `path`, then rename it over `path` (atomic on POSIX)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=".tmp-", delete=False)
    try:
        with handle:
            json.dump(value, handle, ensure_ascii=False, indent=1)
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> Any | None:
    """The JSON in `path`, or None when it is missing or unreadable (then it is simply recomputed)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class VideoArtifacts:
    """The artifact folder of one video."""

    def __init__(self, processed_dir: Path, video_id: str) -> None:
        self.video_id = video_id
        self.folder = Path(processed_dir) / folder_name(video_id)

    @property
    def keyframes_dir(self) -> Path:
        return self.folder / "keyframes"

    def stage_path(self, stage: str) -> Path:
        return self.folder / f"{stage}.json"

    def load(self, stage: str, key: str) -> dict[str, Any] | None:
        """The stored entry ({"data", "stats"}) of `stage` if it was made under `key`, else None."""
        entry = read_json(self.stage_path(stage))
        if not isinstance(entry, dict) or entry.get("key") != key or "data" not in entry:
            return None
        return entry

    def save(self, stage: str, key: str, data: Any, stats: dict[str, Any]) -> None:
        write_json_atomic(self.stage_path(stage), {"key": key, "stage": stage, "data": data, "stats": stats})

    def file_hash(self, path: Path, remember: bool = True) -> str:
        """sha256 of the video file's bytes, remembered while its path, size and mtime stay the same."""
        stat = path.stat()
        identity = {"path": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
        memo_path = self.folder / "source.json"
        memo = read_json(memo_path)
        if isinstance(memo, dict) and memo.get("identity") == identity and isinstance(memo.get("sha256"), str):
            return memo["sha256"]
        hasher = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(_HASH_CHUNK):
                hasher.update(chunk)
        value = hasher.hexdigest()
        if remember:
            write_json_atomic(memo_path, {"identity": identity, "sha256": value})
        return value
