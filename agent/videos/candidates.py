"""The candidate trajectories stage 1 reads: every trajectory of the task's videos (the paper), or a pre-cut share.

By default every objective of every video of the task is listed, as the paper does.
A video with thousands of trajectories would not fit one prompt, so a pre-cut can be
switched on (`selection.stage1_precut`): when a video has more than
`selection.stage1_pool_per_video`, its trajectories are ranked and only the best are
listed, in the video's order; each step's record says the list was ranked. The ranking
(`selection.precut_ranking`): `replay`, the model-free selection's stage 1 for the task
and the page's title (agent/videos/stage1_ranking.py, what benchmarks/selection.py
measures); or `cosine`, FAISS's cosine of the objective and the task with the page (URL,
title, top of the tree), the ranking before issue 64. Each candidate gets a number,
unique across videos, by which the model names it in both stages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.videos.page import page_title, ranking_query
from agent.videos.stage1_ranking import RankingQuery, Stage1Ranking
from agent.videos.verdicts import check_mode, choose, verdict_label
from evaluation.browser_env.observation import Observation
from foundation.errors import UserError
from foundation.records.trajectory import Trajectory
from model_access.embeddings import Embedder, MemoEncoder
from processing.index import TrajectoryIndex
from settings import Settings

PRECUT_RANKINGS = ("replay", "cosine")


@dataclass
class Candidate:
    number: int  # how the prompts name it
    trajectory: Trajectory
    score: float | None  # its ranking score (stage 1's, or FAISS's cosine), when the video's list was ranked

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
        self.ranking: Stage1Ranking | None = None  # the pre-cut's ranking; None: FAISS's cosine to the query
        self._by_video: dict[str, list[Trajectory]] = {}

    @property
    def ranked_by(self) -> str:
        return "stage 1's ranking (replay)" if self.ranking is not None else "FAISS cosine"

    def trajectories(self, video_id: str) -> list[Trajectory]:
        """Every trajectory of the video that `selection.demonstrations` admits, in the video's order (verified
        first with `verified_first`); read once per process."""
        if video_id not in self._by_video:
            self._by_video[video_id] = choose(self.index.trajectories(video_id), self.demonstrations)
        return self._by_video[video_id]

    def pool(self, video_ids: list[str], intent: str, observation: Observation | None = None) -> CandidatePool:
        """The candidates of the videos for the task `intent` on this page (the page matters only to a pre-cut)."""
        pool = CandidatePool()
        for video_id in video_ids:
            every = self.trajectories(video_id)
            scores: dict[str, float] = {}
            if self.precut and len(every) > self.pool_per_video:
                hits = self.best(video_id, intent, observation)
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

    def best(self, video_id: str, intent: str, observation: Observation | None) -> list[tuple[Trajectory, float]]:
        """The pre-cut's `pool_per_video` best trajectories of the video, with their scores."""
        if self.ranking is None:
            return self.index.search(ranking_query(intent, observation), k=self.pool_per_video, video_ids=[video_id])
        query = RankingQuery(intent, page_title(observation) if observation is not None else "")
        return [(c.trajectory, c.stage1) for c in self.ranking.ranked(video_id, query, set(), self.pool_per_video)]


def method_candidates(settings: Settings, index: TrajectoryIndex, embedder: Embedder) -> CandidateSource:
    """The candidate source of the method's selection, with its pre-cut ranking as `selection` says."""
    selection = settings.selection
    if selection.precut_ranking not in PRECUT_RANKINGS:
        raise UserError(f"selection.precut_ranking is {selection.precut_ranking!r}; set it to one of "
                        f"{', '.join(PRECUT_RANKINGS)}")  # fmt: skip
    source = CandidateSource(index, selection.stage1_pool_per_video, selection.stage1_precut, selection.demonstrations)
    if selection.stage1_precut and selection.precut_ranking == "replay":
        source.ranking = Stage1Ranking(settings, source, MemoEncoder(embedder, "precut_ranking"))
    return source
