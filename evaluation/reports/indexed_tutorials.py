"""The videos of a trajectory index as the loss account reads them: trajectories, labels and ground-truth logs.

    tutorials = IndexedTutorials.load(index_dir, tolerance_s=1.0)   # None when there is no index
    covers = covering(tutorials.trajectories(["shop_order_history"]), steps, intent, from_start=False)

The index is read from the files processing/index.py writes (`trajectories.sqlite`, read
only), so the reports need nothing of processing. A recorded tutorial's log lies beside
its video (tasks/reference/logs.py); a labeled action stands for the logged action
nearest in time to it, within `tolerance_s`.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foundation.records.trajectory import LabeledAction, Trajectory
from tasks.reference.coverage import truth_trajectory
from tasks.reference.logs import log_path, nearest, read_log

INDEX_DB = "trajectories.sqlite"  # processing/index.py's DB_NAME: the index is read here as a file
# What a trajectory record written by hand (a test, an older index) may leave out: nothing the account reads.
TRAJECTORY_DEFAULTS: dict[str, Any] = {"objective": "", "step_keyframes": [], "first_frame": "", "last_frame": "",
                                       "start_s": 0.0, "end_s": 0.0}  # fmt: skip


@dataclass
class IndexedVideo:
    video_id: str
    path: str
    trajectories: list[Trajectory] = field(default_factory=list)  # in the index's order
    log: list[LabeledAction] | None = None  # None: the tutorial has no ground-truth log
    log_path: str = ""


class IndexedTutorials:
    """The videos of a trajectory index: their trajectories and (where recorded) logs."""

    def __init__(self, videos: dict[str, IndexedVideo], tolerance_s: float, source: str = "") -> None:
        self.videos = videos
        self.tolerance_s = tolerance_s
        self.source = source  # where it was read from, for messages
        self._by_id = {t.trajectory_id: t for video in videos.values() for t in video.trajectories}

    @classmethod
    def load(cls, index_dir: Path, tolerance_s: float) -> IndexedTutorials | None:
        """The index in `index_dir` with each video's log beside its file, or None when there is no index."""
        database = Path(index_dir) / INDEX_DB
        if not database.is_file():
            return None
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            videos = [json.loads(rec) for (rec,) in connection.execute(
                "SELECT record FROM videos ORDER BY position")]  # fmt: skip
            trajectories = [json.loads(rec) for (rec,) in connection.execute("SELECT record FROM trajectories")]
        finally:
            connection.close()
        whole = [record["whole_video"] for record in videos if isinstance(record.get("whole_video"), dict)]
        return cls.from_records(videos, trajectories + whole, tolerance_s, str(index_dir))

    @classmethod
    def from_records(
        cls, videos: list[dict[str, Any]], trajectories: list[dict[str, Any]], tolerance_s: float, source: str = ""
    ) -> IndexedTutorials:
        """From video records (`VideoRecord.to_dict()`) and trajectories (`Trajectory.to_dict()`)."""
        found: dict[str, IndexedVideo] = {}
        for record in videos:
            video = IndexedVideo(record["video_id"], str(record.get("path") or ""))
            if video.path:
                video.log_path = str(log_path(video.path))
                video.log = read_log(video.log_path)
            found[video.video_id] = video
        for data in trajectories:
            trajectory = Trajectory.from_dict({**TRAJECTORY_DEFAULTS, **data})
            found.setdefault(trajectory.video_id, IndexedVideo(trajectory.video_id, "")).trajectories.append(trajectory)
        return cls(found, tolerance_s, source)

    def trajectories(self, videos: list[str]) -> list[Trajectory]:
        """The labeled trajectories of `videos`, in their order."""
        return [t for video_id in videos if video_id in self.videos for t in self.videos[video_id].trajectories]

    def truths(self, videos: list[str]) -> list[Trajectory]:
        """The logged tutorials among `videos`, each its whole log as one trajectory: what the tutorial shows."""
        return [truth_trajectory(video_id, self.videos[video_id].log or []) for video_id in videos
                if video_id in self.videos and self.videos[video_id].log is not None]  # fmt: skip

    def unlogged(self, videos: list[str]) -> list[str]:
        return [video_id for video_id in videos if video_id in self.videos and self.videos[video_id].log is None]

    def trajectory(self, trajectory_id: str) -> Trajectory | None:
        return self._by_id.get(trajectory_id)

    def video_of(self, trajectory_id: str) -> IndexedVideo | None:
        trajectory = self.trajectory(trajectory_id)
        return self.videos.get(trajectory.video_id) if trajectory is not None else None

    def labeled_at(self, trajectory_id: str, position: int) -> LabeledAction | None:
        """The trajectory's action at `position` (0-based), or None."""
        trajectory = self.trajectory(trajectory_id)
        if trajectory is None or not 0 <= position < len(trajectory.actions):
            return None
        return trajectory.actions[position]

    def truth_of(self, trajectory_id: str, position: int) -> LabeledAction | None:
        """The logged action the trajectory's action at `position` stands for, or None."""
        labeled, video = self.labeled_at(trajectory_id, position), self.video_of(trajectory_id)
        if labeled is None or video is None or video.log is None:
            return None
        return nearest(labeled, video.log, self.tolerance_s)
