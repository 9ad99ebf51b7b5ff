"""Model-free two-stage trajectory selection through the FAISS index (the replay baseline's selection).

The same decisions as the method's selection (`agent.method.selection`), made with
embeddings and the live page instead of a model:
- continuation: the trajectory chosen before is kept while its next step still
  grounds on the current page (the caller checks the grounding and records it here);
- stage 1: per task video, trajectories are ranked by the cosine similarity (FAISS)
  of their objective to the task intent plus the current page title, with a small
  bonus per action up to `replay.length_bonus_cap` actions (a sub-task's length: a
  longer demonstration carries the task further, where a short fragment often wins
  on wording alone, but whole videos should not win by length); going down that
  ranking (at most `selection.stage1_pool_per_video` deep), the first
  `selection.candidates_per_video` whose first step can be done on this page are the
  candidates (the others are recorded as passed over);
- stage 2: each candidate's score is its stage-1 score + `replay.grounding_weight` x
  how well its first step grounds; the best is chosen, or none when no candidate's
  cosine similarity reaches `replay.selection_min_similarity`.
A trajectory that starts at a step already replayed in this episode is passed over:
tutorials move forward, and choosing it again would repeat what was done, or loop.

The record of each decision has the shape of the method's selection record:
`previous`, `continuation`, `candidates`, `stage1`, `stage2`, `decision`, `chosen`,
plus `continued` and `reason`. Other policies may reuse `EmbeddingSelector`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from agent.replay.abstraction import abstract_intent, abstract_objective
from agent.replay.evidence import acts_before_reaching, does_what_is_left, evidence, repeats, terms_for, undoes_unasked
from agent.videos.candidates import CandidateSource
from agent.videos.verdicts import choose, verdict_label, verdict_of
from foundation.records.trajectory import Trajectory
from processing.objectives.wording import objective_titles
from settings import Settings

CONTINUED = "continued"
RESELECTED = "reselected"
NONE_CHOSEN = "none"


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
    repeats: bool = False  # a step repeats what the task explains and was done (agent/replay/evidence.py)

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
    done: frozenset[str] = frozenset()  # what of the task this episode's steps have done (agent/replay/evidence.py)
    reached: bool = True  # the task's things to find are reached (agent/replay/evidence.py `reached`)

    @property
    def text(self) -> str:
        return ranking_text(self.intent, self.page_title)


Encode = Callable[[list[str]], np.ndarray]  # texts -> unit vectors


class EmbeddingSelector:
    def __init__(self, settings: Settings, source: CandidateSource, encode: Encode | None = None) -> None:
        self.settings = settings
        self.source = source
        self.encode = encode
        self.video_ids: list[str] = []
        self._evidence: dict[tuple[str, str, frozenset[str]], tuple[float, bool]] = {}  # -> (evidence, repeats)

    def reset(self, video_ids: list[str]) -> None:
        self.video_ids = list(video_ids)

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
            # The nearer of the two comparisons: as written, and with the values taken out (agent/replay/abstraction.py)
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
        `replay.evidence_weight` x the steps the task explains less those it does not (agent/replay/evidence.py)."""
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

    def select(
        self,
        query: RankingQuery,
        first_step: Callable[[Trajectory], FirstStep],
        replayed: Callable[[Trajectory], bool],
        exclude: set[str],
        previous: Trajectory | None,
        why_reselect: str,
    ) -> tuple[Trajectory | None, dict[str, Any]]:
        """Stages 1 and 2: the chosen trajectory (or None) and the record of the decision."""
        replay = self.settings.replay
        per_video = self.settings.selection.candidates_per_video
        record: dict[str, Any] = {"previous": previous.trajectory_id if previous else None, "query": query.text}
        if previous is not None:
            record["continuation"] = {"relevant": False, "reason": why_reselect}
        candidates: list[Scored] = []
        passed_over: list[str] = []
        terms = terms_for(query.intent, self.settings.replay)
        for video_id in self.video_ids:
            taken = 0
            for candidate in self.ranked(video_id, query, exclude):
                if replayed(candidate.trajectory) and not (
                    replay.back_for_undone and does_what_is_left(candidate.trajectory.actions, terms, query.done)
                ):
                    passed_over.append(f"{candidate.trajectory.trajectory_id} (starts at a step already replayed)")
                    continue
                if replay.evidence_gate and candidate.repeats and (candidate.evidence or 0.0) <= 0:
                    passed_over.append(f"{candidate.trajectory.trajectory_id} (repeats what was done, and does no "
                                       "more of the task than besides)")  # fmt: skip
                    continue
                if replay.reach_before_acting and not query.reached and acts_before_reaching(
                    candidate.trajectory.actions, terms
                ):
                    passed_over.append(f"{candidate.trajectory.trajectory_id} (acts on the task's thing before the "
                                       "episode has reached it)")  # fmt: skip
                    continue
                if not replay.follow_undoing_detours and undoes_unasked(candidate.trajectory.actions[0], terms):
                    passed_over.append(f"{candidate.trajectory.trajectory_id} (its first step takes back what the "
                                       "task does not ask to take back)")  # fmt: skip
                    continue
                candidate.first = first_step(candidate.trajectory)
                if not candidate.first.grounded:
                    passed_over.append(f"{candidate.trajectory.trajectory_id} (its first step does not ground here)")
                    continue
                grounding = candidate.first.similarity if candidate.first.similarity is not None else 0.5
                candidate.total = candidate.stage1 + replay.grounding_weight * grounding
                candidates.append(candidate)
                taken += 1
                if taken >= per_video:
                    break
        record["stage1"] = {
            "picks": [c.trajectory.trajectory_id for c in candidates],
            "passed_over": passed_over[:20],
            "reason": f"closest objectives (cosine + {replay.length_bonus} per action) whose first step can be "
            f"done here, {per_video} per video",
        }
        record["candidates"] = [c.to_dict() for c in candidates]
        underway = replay.underway_by_evidence and bool(query.done)
        eligible = [
            c for c in candidates
            if c.similarity >= replay.selection_min_similarity or (underway and (c.evidence or 0.0) > 0)
        ]  # fmt: skip
        if not eligible:
            reason = (
                "no candidate: no trajectory of the task's videos that does not go back over what was done can "
                "start on this page"
                if not candidates and replay.evidence_gate
                else "no candidate: no trajectory of the task's videos can start on this page"
                if not candidates
                else f"no candidate is similar enough to the task (cosine < {replay.selection_min_similarity})"
            )
            record.update(stage2={"choice": None, "reason": reason}, decision=NONE_CHOSEN, chosen=None)
            record.update(continued=False, reason=reason)
            return None, record
        best = max(eligible, key=lambda c: c.total)  # type: ignore[arg-type, return-value]
        reason = f"highest stage-1 score + {replay.grounding_weight} x first-step grounding"
        record.update(stage2={"choice": best.trajectory.trajectory_id, "reason": reason}, decision=RESELECTED)
        record.update(chosen=best.trajectory.trajectory_id, continued=False, reason=reason)
        return best.trajectory, record

    @staticmethod
    def continued(trajectory: Trajectory, step_number: int, note: str) -> dict[str, Any]:
        """The record of keeping `trajectory` because its next step grounds."""
        reason = f"its step {step_number} still grounds on this page ({note})"
        return {
            "previous": trajectory.trajectory_id,
            "continuation": {"relevant": True, "reason": reason},
            "decision": CONTINUED,
            "chosen": trajectory.trajectory_id,
            "continued": True,
            "reason": reason,
        }
