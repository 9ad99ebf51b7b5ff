"""Model-free two-stage trajectory selection through the FAISS index (the replay baseline's selection).

The same decisions as the method's selection (`agent.method.selection`), made with
embeddings and the live page instead of a model:
- continuation: the trajectory chosen before is kept while its next step still
  grounds on the current page (the caller checks the grounding and records it here);
- stage 1 (agent/videos/stage1_ranking.py, which the method's pre-cut shares): per
  task video, trajectories are ranked by the cosine similarity (FAISS) of their
  objective to the task intent plus the current page title, with a small
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

from typing import Any, Callable

from agent.videos.candidates import CandidateSource
from agent.videos.evidence import acts_before_reaching, does_what_is_left, terms_for, undoes_unasked
from agent.videos.stage1_ranking import Encode, FirstStep, RankingQuery, Scored, Stage1Ranking
from foundation.records.trajectory import Trajectory
from settings import Settings

CONTINUED = "continued"
RESELECTED = "reselected"
NONE_CHOSEN = "none"


class EmbeddingSelector:
    def __init__(self, settings: Settings, source: CandidateSource, encode: Encode | None = None) -> None:
        self.settings = settings
        self.source = source
        self.ranking = Stage1Ranking(settings, source, encode)
        self.video_ids: list[str] = []

    def reset(self, video_ids: list[str]) -> None:
        self.video_ids = list(video_ids)

    def ranked(self, video_id: str, query: RankingQuery, exclude: set[str], depth: int | None = 0) -> list[Scored]:
        """Stage 1's ranking of one video (agent/videos/stage1_ranking.py)."""
        return self.ranking.ranked(video_id, query, exclude, depth)

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
