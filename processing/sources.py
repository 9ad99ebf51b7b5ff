"""Where `process-videos` finds its videos. The `dir` source: video files in a folder.

Bad files do not stop a run: `check_videos` probes every file and returns the good ones
with one line per problem, naming the file and the fault, for the caller to report.
"""

from __future__ import annotations

from pathlib import Path

from cli.errors import UserError
from processing.video_io import VideoError, VideoInfo, probe

VIDEO_SUFFIXES = frozenset({".mp4", ".mov", ".webm", ".mkv", ".avi", ".m4v"})


def videos_in_dir(folder: str | Path, recursive: bool = False) -> list[Path]:
    """Video files in `folder` (by extension, any case), sorted by path; hidden files skipped."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UserError(f"video folder {folder} does not exist: pass a folder that holds the tutorial videos")
    candidates = folder.rglob("*") if recursive else folder.iterdir()
    return sorted(
        path
        for path in candidates
        if path.suffix.lower() in VIDEO_SUFFIXES
        and not path.name.startswith(".")
        and path.is_file()
    )


def check_videos(paths: list[Path]) -> tuple[list[VideoInfo], list[str]]:
    """Probe each video: (the usable ones, one line per unusable one naming the file and the fault)."""
    good: list[VideoInfo] = []
    problems: list[str] = []
    for path in paths:
        try:
            good.append(probe(path))
        except VideoError as exc:
            problems.append(str(exc))
    return good, problems
