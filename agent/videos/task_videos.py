"""Which of a task's tutorial videos the agent can draw on: those present in the trajectory index."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from processing.index import DB_NAME, TrajectoryIndex
from processing.oracle_labels import default_index_dir
from settings import Settings

PROCESS_HINT = "run `process-videos --source videowa_tutorials --tasks CONFIGS` (or `--source sandbox`) to process it"


def index_folder(settings: Settings) -> Path:
    """`agent.index_dir`, else the default index (a folder of its own under `oracle.labels`)."""
    return Path(settings.agent.index_dir).expanduser() if settings.agent.index_dir else default_index_dir(settings)


def open_index(settings: Settings, embedder: Any = None) -> TrajectoryIndex | None:
    """The trajectory index the agent reads, or None when none was built yet (tasks then run without videos)."""
    folder = index_folder(settings)
    if not (folder / DB_NAME).is_file():
        # Each task's record says so too; this line keeps a whole run without videos from going unnoticed.
        print(
            f"warning: no trajectory index in {folder}, so every task runs without demonstrations; build it with "
            "`process-videos --source videowa_tutorials --tasks CONFIGS` (or `--source sandbox`), or pass --index DIR",
            file=sys.stderr,
        )
        return None
    index = TrajectoryIndex.load(folder, settings, embedder)
    index.check_embedding_model()  # another embedding model: a one-line error before any task runs
    return index


@dataclass
class TaskVideos:
    processed: list[str] = field(default_factory=list)  # in the index, with at least one trajectory
    not_processed: dict[str, str] = field(default_factory=dict)  # video -> why it cannot be used
    titles: dict[str, str] = field(default_factory=dict)

    @property
    def reason(self) -> str | None:
        """Why the task runs without demonstrations, or None when it has some."""
        if self.processed:
            return None
        if not self.not_processed:
            return "the task names no tutorial video"
        return "; ".join(self.not_processed.values())

    def to_dict(self) -> dict[str, Any]:
        return {"processed": self.processed, "not_processed": self.not_processed}


def task_videos(task: Any, index: TrajectoryIndex | None, folder: Path, limit: int = 0) -> TaskVideos:
    """The task's videos the agent may use; with `limit` > 0 only the first `limit` processed ones (paper Table 3)."""
    found = TaskVideos()
    known = set(index.videos()) if index is not None else set()
    for video in task.videos:
        if index is None:
            why = f"there is no trajectory index in {folder}"
            found.not_processed[video] = f"video {video} not processed: {why} ({PROCESS_HINT})"
        elif video not in known:
            why = f"it is not in the trajectory index {folder}"
            found.not_processed[video] = f"video {video} not processed: {why} ({PROCESS_HINT})"
        elif not index.trajectories(video):
            found.not_processed[video] = f"video {video} was processed but gave no trajectory: nothing to show"
        elif limit > 0 and len(found.processed) >= limit:
            found.not_processed[video] = f"video {video} left out: agent.videos_per_task is {limit}"
        else:
            found.processed.append(video)
            record = index.video(video)
            found.titles[video] = (record.title if record is not None else "") or video
    return found
