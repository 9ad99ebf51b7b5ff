"""Where `process-videos` finds its videos: a folder (`dir`), the VideoWA tutorials named by task
configs, the recorded sandbox tutorials, retrieval manifests (and URLs, in `downloads.py`).

Bad files do not stop a run: `check_videos` probes every file and returns the good ones
with one line per problem, naming the file and the fault, for the caller to report.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from foundation.errors import UserError
from foundation.records.trajectory import VideoRecord
from foundation.subtitles import load_transcript, parse_subtitles
from foundation.video_io import VIDEO_SUFFIXES, VideoError, VideoInfo, probe
from settings.schema import Settings



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


# -- sources of `process-videos` ------------------------------------------------------------------
# Each returns the videos to process as VideoRecords and one (name, line) per video that cannot be.

SOURCES = ("videowa_tutorials", "dir", "urls", "sandbox", "manifest")
VIDEOWA_SUFFIXES = (".mov", ".mp4")


@dataclass
class SourceResult:
    videos: list[VideoRecord] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (video name, one line naming it and the fix)
    catalogue: dict[str, list[str]] | None = None  # videowa_tutorials: video name -> keys of the tasks using it
    not_downloaded: list[str] = field(default_factory=list)  # urls, dry run: what a real run would download


def file_video_ids(paths: list[Path]) -> dict[Path, str]:
    """Each file's stem as its id; stems shared by several files get a short hash of the path added."""
    stems: dict[str, int] = {}
    for path in paths:
        stems[path.stem] = stems.get(path.stem, 0) + 1

    def unique(path: Path) -> str:
        return f"{path.stem}-{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:6]}"

    return {path: path.stem if stems[path.stem] == 1 else unique(path) for path in paths}


def probe_all(paths: list[Path]) -> tuple[list[VideoInfo], list[tuple[str, str]]]:
    """Probe each file: (usable ones, (file name, fault) per unusable one)."""
    good: list[VideoInfo] = []
    problems: list[tuple[str, str]] = []
    for path in paths:
        try:
            good.append(probe(path))
        except VideoError as exc:
            problems.append((path.name, str(exc)))
    return good, problems


def transcript_text(video_path: Path, language: str, subtitle_path: Path | None = None) -> str:
    """The transcript beside the video (or in `subtitle_path`), as one line of text; "" when there is none."""
    if subtitle_path is not None:
        if not subtitle_path.is_file():
            return ""
        cues = parse_subtitles(subtitle_path.read_text(encoding="utf-8-sig", errors="replace"))
        return " ".join(cue.text for cue in cues)
    transcript = load_transcript(video_path, language)
    return transcript.text if transcript else ""


def from_dir(folder: str | Path, settings: Settings) -> SourceResult:
    """Every video file in the folder; the stem is the video id and, made readable, its title."""
    good, problems = probe_all(videos_in_dir(folder))
    ids = file_video_ids([info.path for info in good])
    videos = [file_record(info, ids[info.path], "dir", settings) for info in good]
    return SourceResult(videos, problems)


def from_videowa(videos_dir: str | Path, tasks_path: str | Path, settings: Settings) -> SourceResult:
    """The videos the task configs name, in order of first use, looked up as NAME.mov then NAME.mp4."""
    from tasks.loading import load_task_set

    videos_dir = Path(videos_dir)
    task_set = load_task_set(tasks_path, settings=settings)
    catalogue: dict[str, list[str]] = {}
    for task in task_set.tasks:
        for name in task.videos:
            keys = catalogue.setdefault(name, [])
            if task.key not in keys:
                keys.append(task.key)
    if not catalogue:
        raise UserError(
            f"no task in {tasks_path} names a video (`video` field): pass the VideoWA task configs to --tasks"
        )
    result = SourceResult(catalogue=catalogue)
    found: dict[Path, str] = {}
    for name in catalogue:
        path = _videowa_file(videos_dir, name)
        if path is None:
            looked = ", ".join(f"{_videowa_stem(name)}{suffix}" for suffix in VIDEOWA_SUFFIXES)
            result.problems.append(
                (name, f"video {name} not found in {videos_dir} (looked for {looked}); "
                       f"download the VideoWA tutorial videos (see docs/processing.md) into {videos_dir}")
            )  # fmt: skip
        else:
            found[path] = name
    good, problems = probe_all(list(found))
    result.problems += [(found[videos_dir / file_name], line) for file_name, line in problems]
    for info in good:
        name = found[info.path]
        record = file_record(info, name, "videowa_tutorials", settings)
        record.title = _readable(_videowa_stem(name))
        record.task_keys = list(catalogue[name])
        result.videos.append(record)
    order = list(catalogue)
    result.videos.sort(key=lambda video: order.index(video.video_id))
    return result


def from_sandbox(settings: Settings) -> SourceResult:
    """The bundled tutorials recorded by `videodemo sandbox record`, with their titles and narration."""
    folder = settings.paths.sandbox_dir / "tutorials"
    paths = sorted(folder.glob("*.mp4")) if folder.is_dir() else []
    if not paths:
        raise UserError(f"no sandbox tutorials in {folder}: run `videodemo sandbox record` first")
    good, problems = probe_all(paths)
    videos = []
    for info in good:
        record = file_record(info, info.path.stem, "sandbox", settings)
        ground_truth = info.path.with_name(info.path.stem + ".actions.json")
        try:
            data = json.loads(ground_truth.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if isinstance(data, dict):
            record.title = str(data.get("title") or record.title)
            record.description = str(data.get("description") or "")
        videos.append(record)
    return SourceResult(videos, problems)


def from_manifests(files: list[str | Path], settings: Settings) -> SourceResult:
    """The videos listed in retrieval manifests, with their titles, descriptions and transcripts."""
    result = SourceResult()
    seen: set[str] = set()
    for file in files:
        file = Path(file)
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise UserError(
                f"manifest {file} cannot be read ({exc.strerror}): pass a file written by retrieval"
            ) from exc
        except ValueError as exc:
            raise UserError(f"manifest {file} is not JSON ({exc}): pass a file written by retrieval") from exc
        entries = data.get("videos") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise UserError(f"manifest {file} has no \"videos\" list: pass a file written by retrieval")
        for entry in entries:
            if not isinstance(entry, dict) or not entry.get("path"):
                result.problems.append((file.name, f'manifest {file}: a video entry without a "path" was skipped'))
                continue
            path = Path(str(entry["path"])).expanduser()
            if not path.is_absolute():
                path = file.parent / path  # relative paths are read from the manifest's folder
            video_id = str(entry.get("video_id") or path.stem)
            if video_id in seen:
                continue
            seen.add(video_id)
            try:
                info = probe(path)
            except VideoError as exc:
                result.problems.append((video_id, str(exc)))
                continue
            transcript_path = entry.get("transcript_path")
            subtitles = Path(transcript_path) if transcript_path else None
            record = file_record(info, video_id, "manifest", settings, subtitles)
            record.title = str(entry.get("title") or record.title)
            record.description = str(entry.get("description") or "")
            task_key = (data.get("task") or {}).get("key") if isinstance(data.get("task"), dict) else None
            if task_key:
                record.task_keys = [str(task_key)]
            result.videos.append(record)
    return result


def file_record(
    info: VideoInfo, video_id: str, source: str, settings: Settings, subtitle_path: Path | None = None
) -> VideoRecord:
    return VideoRecord(
        video_id=video_id,
        path=str(info.path.resolve()),
        source=source,
        title=_readable(info.path.stem),
        transcript=transcript_text(info.path, settings.retrieval.language, subtitle_path),
        duration_s=round(info.duration_s, 3),
    )


def _readable(stem: str) -> str:
    """A file stem as a title: "how_to-sort_results" -> "how to sort results"."""
    return " ".join(stem.replace("_", " ").replace("-", " ").split())


def _videowa_stem(name: str) -> str:
    return name[: -len(Path(name).suffix)] if Path(name).suffix.lower() in VIDEO_SUFFIXES else name


def _videowa_file(folder: Path, name: str) -> Path | None:
    stem = _videowa_stem(name)
    candidates = [folder / name] if stem != name else []
    candidates += [folder / f"{stem}{suffix}" for suffix in VIDEOWA_SUFFIXES]
    return next((path for path in candidates if path.is_file()), None)
