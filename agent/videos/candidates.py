"""The candidate trajectories stage 1 reads: every trajectory of the task's videos (the paper), or a pre-cut share.

By default every objective of every video of the task is listed, as the paper does.
A video with thousands of trajectories would not fit one prompt, so a pre-cut can be
switched on (`selection.stage1_precut`): when a video has more than
`selection.stage1_pool_per_video`, FAISS ranks its trajectories by how close their
objective is to the task and the current page (URL, title, top of the tree) and only
the closest are listed; each step's record says the list was ranked. Each candidate
gets a number, unique across videos, by which the model names it in both stages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.videos.verdicts import check_mode, choose, verdict_label
from processing.index import TrajectoryIndex
from foundation.records.trajectory import Trajectory


@dataclass
class Candidate:
    number: int  # how the prompts name it
    trajectory: Trajectory
    score: float | None  # FAISS similarity to the query, when the video's list was ranked

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "trajectory_id": self.trajectory.trajectory_id,
            "video": self.trajectory.video_id,
            "objective": self.trajectory.objective,
            "score": None if self.score is None else round(self.score, 4),
            "verification": verdict_label(self.trajectory),
        }


@dataclass
class CandidatePool:
    candidates: list[Candidate] = field(default_factory=list)
    per_video: dict[str, dict[str, Any]] = field(default_factory=dict)  # video -> counts and whether ranked

    def by_number(self) -> dict[int, Candidate]:
        return {candidate.number: candidate for candidate in self.candidates}

    def of_video(self, video_id: str) -> list[Candidate]:
        return [c for c in self.candidates if c.trajectory.video_id == video_id]


class CandidateSource:
    def __init__(
        self, index: TrajectoryIndex, pool_per_video: int, precut: bool = False, demonstrations: str = "all"
    ) -> None:
        self.index = index
        self.pool_per_video = max(1, pool_per_video)
        self.precut = precut
        self.demonstrations = check_mode(demonstrations)  # selection.demonstrations (agent/videos/verdicts.py)
        self._by_video: dict[str, list[Trajectory]] = {}

    def trajectories(self, video_id: str) -> list[Trajectory]:
        """Every trajectory of the video that `selection.demonstrations` admits, in the video's order (verified
        first with `verified_first`); read once per process."""
        if video_id not in self._by_video:
            self._by_video[video_id] = choose(self.index.trajectories(video_id), self.demonstrations)
        return self._by_video[video_id]

    def pool(self, video_ids: list[str], query: str) -> CandidatePool:
        pool = CandidatePool()
        for video_id in video_ids:
            every = self.trajectories(video_id)
            scores: dict[str, float] = {}
            if self.precut and len(every) > self.pool_per_video:
                hits = self.index.search(query, k=self.pool_per_video, video_ids=[video_id])
                scores = {trajectory.trajectory_id: score for trajectory, score in hits}
                # Listed in the video's order, which reads as the tutorial unfolds; the ranking only bounds the list.
                kept = [t for t in every if t.trajectory_id in scores]
                if scores and self.precut and self.demonstrations != "all":
                    kept = choose(kept, self.demonstrations)
            else:
                kept = every
            for trajectory in kept:
                number = len(pool.candidates) + 1
                pool.candidates.append(Candidate(number, trajectory, scores.get(trajectory.trajectory_id)))
            pool.per_video[video_id] = {"trajectories": len(every), "listed": len(kept), "ranked": bool(scores)}
        return pool
