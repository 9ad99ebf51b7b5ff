"""Stage 1's ranking of a video's trajectories for a task on a page, without a model: shared by the replay's
selection (agent/replay/embedding_selection.py) and the method's pre-cut (`selection.precut_ranking` replay,
agent/videos/candidates.py), so that the list the model reads is cut by the ranking the benchmark measures.

A trajectory's stage-1 score is `replay.objective_weight` x the cosine (FAISS) of its objective and the task with
the page's title (with `replay.match_abstracted`, the nearer of that and the cosine of both with their values taken
out, agent/videos/abstraction.py), a bonus per action up to a sub-task's length, optional narration and start-page
cosines, and `replay.evidence_weight` x the steps the task explains less those it does not (agent/videos/evidence.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

import numpy as np

from agent.videos.abstraction import abstract_intent, abstract_objective
from agent.videos.evidence import evidence, repeats, terms_for
from agent.videos.verdicts import choose, verdict_label, verdict_of
from foundation.records.trajectory import Trajectory
from processing.objectives.wording import objective_titles
from processing.index import TrajectoryIndex
from settings import Settings


class TrajectorySource(Protocol):
    """What the ranking reads of a candidate source (agent/videos/candidates.py `CandidateSource`)."""

    index: TrajectoryIndex
    demonstrations: str

    def trajectories(self, video_id: str) -> list[Trajectory]: ...


@dataclass
class FirstStep:
    """How a candidate's first step grounds on the live page."""

    similarity: float | None  # None: its first step needs no element (goto, press) or nothing is left to do
    grounded: bool
    note: str  # what it grounded on, or why not


@dataclass
class Scored:
    trajectory: Trajectory
    similarity: float  # cosine of objective and query
    stage1: float  # similarity + length bonus: the stage-1 ranking
    first: FirstStep | None = None
    total: float | None = None
    evidence: float | None = None  # the steps the task explains less the others (None: not read)
    repeats: bool = False  # a step repeats what the task explains and was done (agent/videos/evidence.py)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "trajectory_id": self.trajectory.trajectory_id,
            "video": self.trajectory.video_id,
            "objective": self.trajectory.objective,
            "score": round(self.similarity, 4),
            "stage1": round(self.stage1, 4),
            "verification": verdict_label(self.trajectory),
        }
        if self.first is not None:
            data["first_step"] = self.first.note
            data["grounding"] = None if self.first.similarity is None else round(self.first.similarity, 3)
        if self.total is not None:
            data["total"] = round(self.total, 4)
        if self.evidence is not None:
            data["evidence"] = round(self.evidence, 3)
        return data


def ranking_text(intent: str, page_title: str) -> str:
    """What objectives are compared with: the task, and the page it is on (worded like derived objectives)."""
    return f'{intent} (starting on "{page_title}")' if page_title.strip() else intent


@dataclass(frozen=True)
class RankingQuery:
    """What stage 1 ranks a video's trajectories against: the task, and the page it is on."""

    intent: str
    page_title: str = ""
    done: frozenset[str] = frozenset()  # what of the task this episode's steps have done (agent/videos/evidence.py)
    reached: bool = True  # the task's things to find are reached (agent/videos/evidence.py `reached`)

    @property
    def text(self) -> str:
        return ranking_text(self.intent, self.page_title)


Encode = Callable[[list[str]], np.ndarray]  # texts -> unit vectors


class Stage1Ranking:
    """Ranks the trajectories of `source` for a query; evidence is kept per trajectory, task and what is done, as
    it is asked again at every step."""

    def __init__(self, settings: Settings, source: TrajectorySource, encode: Encode | None = None) -> None:
        self.settings = settings
        self.source = source
        self.encode = encode
        self._evidence: dict[tuple[str, str, frozenset[str]], tuple[float, bool]] = {}  # -> (evidence, repeats)

    def ranked(self, video_id: str, query: RankingQuery, exclude: set[str], depth: int | None = 0) -> list[Scored]:
        """Stage-1 ranking of one video's trajectories (not in `exclude`), best first: the pool stage 1 reads
        (`depth` 0), the first `depth`, or all of them (None)."""
        replay = self.settings.replay
        pool = max(self.settings.selection.candidates_per_video,
                   replay.stage1_pool or self.settings.selection.stage1_pool_per_video)  # fmt: skip
        if depth is None:
            pool = len(self.source.trajectories(video_id))
        elif depth:
            pool = depth
        every = len(self.source.trajectories(video_id))
        if replay.pool_by_objective_cosine and depth is not None:
            # Before issue 64: the pool is the objective's nearest by cosine, only then ordered by the full score.
            every = min(every, pool + len(exclude)) if self.source.demonstrations == "all" else len(self.source.index)
        hits = [(t, float(s)) for t, s in self.source.index.search(query.text, k=every, video_ids=[video_id])]
        if replay.match_abstracted and self.encode is not None and hits:
            # The nearer of the two comparisons: as written, and with the values taken out (agent/videos/abstraction.py)
            vectors = self.encode([abstract_intent(query.intent)] + [abstract_objective(t) for t, _ in hits])
            hits = [(t, max(s, float(vectors[0] @ v))) for (t, s), v in zip(hits, vectors[1:])]
        found = [self._scored(t, s, query) for t, s in hits if t.trajectory_id not in exclude]
        found = choose(found, self.source.demonstrations, lambda c: c.trajectory)  # selection.demonstrations
        if self.source.demonstrations == "verified_first":
            found.sort(key=lambda c: (verdict_of(c.trajectory) != "verified", -c.stage1))
        else:
            found.sort(key=lambda c: -c.stage1)
        return found[:pool]

    def _scored(self, trajectory: Trajectory, similarity: float, query: RankingQuery) -> Scored:
        """The stage-1 score: `replay.objective_weight` x the objective's cosine, a bonus per action up to a
        sub-task's length, `replay.narration_weight` x the narration's cosine with the task, and
        `replay.evidence_weight` x the steps the task explains less those it does not (agent/videos/evidence.py)."""
        replay = self.settings.replay
        score = replay.objective_weight * similarity
        score += replay.length_bonus * min(trajectory.length, replay.length_bonus_cap)
        if replay.narration_weight and trajectory.narration and self.encode is not None:
            vectors = self.encode([query.intent, trajectory.narration])
            score += replay.narration_weight * float(vectors[0] @ vectors[1])
        if replay.start_page_weight and query.page_title.strip() and self.encode is not None:
            start = objective_titles(trajectory.objective)[0]
            if start:
                vectors = self.encode([query.page_title, start])
                score += replay.start_page_weight * float(vectors[0] @ vectors[1])
        found, again = None, False
        if replay.evidence_weight or replay.evidence_gate:
            key = (trajectory.trajectory_id, query.intent, query.done)
            if key not in self._evidence:
                terms = terms_for(query.intent, self.settings.replay)
                gain, cost = replay.evidence_gain, replay.evidence_cost
                self._evidence[key] = (evidence(trajectory.actions, terms, gain, cost, query.done),
                                       repeats(trajectory.actions, terms, query.done))  # fmt: skip
            found, again = self._evidence[key]
            score += replay.evidence_weight * found
        return Scored(trajectory, similarity, score, evidence=found, repeats=again)
