"""Objectives judged: each kept objective of a processed sandbox tutorial, graded 0-5 against the tutorial's script.

VideoGUI judges a predicted plan against a human-written one with a model: a short comment, then an integer
score from 0 (completely wrong) through 1-3 (partly right) to 4-5 (right). Here the "plan" is one kept objective
with its steps (a trajectory of `trajectory_filtering.json`), and the ground truth is what the sandbox tutorial's
script says it does (tasks/sandbox/tutorials/scripts/<name>.yaml): its description and the narration line of each
action step, in order. The judge (the `judge` model role) answers in the form of `prompts/objective_grade.txt`.

Objectives are graded in time order, whichever maker named them (the VLM's, or the model-free path's derived
ones: `objective_source`), so both are scored the same way. With no judge configured nothing is asked and one
line says so; a reply with no readable grade is recorded as such, not as 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from foundation.records.trajectory import Trajectory
from model_access.client import ChatRequest, ModelClient
from model_access.messages import user_message
from model_access.replies import strip_thinking
from processing.artifacts import VideoArtifacts, read_json
from processing.templates import render
from settings.schema import Settings

STAGE = "objective_grades"
TEMPLATE = "objective_grade"
ROLE = "judge"
NO_JUDGE = "objectives not judged: no judge model is configured (set models.judge.base_url and models.judge.model)"
GRADES = range(0, 6)
_SCORE = re.compile(r"\[?\bscore\]?\s*[:=]\s*\**\s*(\d+)", re.IGNORECASE)
_COMMENT = re.compile(r"\[?\bcomment\]?\s*:\s*(.+)", re.IGNORECASE)
NOT_ACTIONS = ("wait", "idle", "wander")  # script steps that only pass time


@dataclass(frozen=True)
class Subtasks:
    """A tutorial's ground truth: what it is for, and each action step as its author narrated it."""

    name: str
    description: str
    steps: list[str]


@dataclass
class ObjectiveGrade:
    video_id: str
    trajectory_id: str
    objective: str
    source: str  # "vlm" or "derived"
    grade: int | None  # None: the reply gave no grade
    reason: str


@dataclass
class GradeReport:
    grades: list[ObjectiveGrade] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line per video not graded, and why

    def mean(self, source: str | None = None) -> float | None:
        graded = [g.grade for g in self.grades if g.grade is not None and source in (None, g.source)]
        return sum(graded) / len(graded) if graded else None

    def lines(self) -> list[str]:
        """Per video the mean grade, then per objective maker the mean over all and how many had no grade."""
        lines = []
        for video in dict.fromkeys(g.video_id for g in self.grades):
            mine = [g for g in self.grades if g.video_id == video]
            graded = [g.grade for g in mine if g.grade is not None]
            mean = f"{sum(graded) / len(graded):.2f}" if graded else "n/a"
            lines.append(f"  {video}: {len(mine)} objectives, mean grade {mean} ({' '.join(_grade(g) for g in mine)})")
        for source in dict.fromkeys(g.source for g in self.grades):
            mine = [g for g in self.grades if g.source == source]
            ungraded = sum(g.grade is None for g in mine)
            mean = self.mean(source)
            lines.append(f"objective grade ({source} objectives, 0-5): mean {'n/a' if mean is None else f'{mean:.2f}'}"
                         f" over {len(mine) - ungraded} objectives" + (f"; {ungraded} replies gave no grade" if ungraded
                                                                        else ""))  # fmt: skip
        return lines + [f"  not graded: {line}" for line in self.skipped]


def _grade(grade: ObjectiveGrade) -> str:
    return "-" if grade.grade is None else str(grade.grade)


def script_subtasks(name: str) -> Subtasks | None:
    """The ground truth of sandbox tutorial `name` from its script, or None when there is no such script."""
    from tasks.sandbox.tutorials.script import SCRIPTS_DIR, load_script

    path = SCRIPTS_DIR / f"{name}.yaml"
    if not path.is_file():
        return None
    script = load_script(path)
    return Subtasks(name, script.description, [s.say for s in script.steps if s.kind not in NOT_ACTIONS])


def kept_objectives(processed_dir: Path, video_id: str) -> list[Trajectory] | None:
    """The trajectories kept for the index (`trajectory_filtering.json`), in time order; None when none is stored."""
    artifacts = VideoArtifacts(processed_dir, video_id)
    stored = read_json(artifacts.stage_path("trajectory_filtering"))
    if not isinstance(stored, dict) or not isinstance(stored.get("data"), dict):
        return None
    kept = [Trajectory.from_dict(item) for item in stored["data"].get("kept") or []]
    return sorted(kept, key=lambda t: (t.start_s, t.span))


def parse_grade(reply: str) -> tuple[int | None, str]:
    """(grade, the judge's comment) from a reply; grade None, with the reason, when no grade 0-5 is given."""
    text = strip_thinking(reply)
    scores = [int(m.group(1)) for m in _SCORE.finditer(text)]
    comment = _COMMENT.search(text)
    reason = " ".join(comment.group(1).split()) if comment else " ".join(text.split())[:200]
    if not scores or scores[-1] not in GRADES:
        shown = " ".join(text.split())[:120]
        return None, f"the judge's reply gives no grade from 0 to 5: {shown!r}"
    return scores[-1], reason


def grade_request(trajectory: Trajectory, truth: Subtasks, settings: Settings) -> ChatRequest:
    prompt = render(
        TEMPLATE,
        settings.processing,
        description=truth.description,
        steps="\n".join(f"{n}. {step}" for n, step in enumerate(truth.steps, 1)),
        objective=trajectory.objective,
        objective_steps="\n".join(f"{n}. {a.describe()}" for n, a in enumerate(trajectory.actions, 1)),
        start_s=f"{trajectory.start_s:.1f}",
        end_s=f"{trajectory.end_s:.1f}",
    )
    return ChatRequest(ROLE, [user_message(prompt)], STAGE)


def grade_objectives(
    settings: Settings, client: ModelClient, video_ids: list[str], processed_dir: Path | None = None
) -> GradeReport | None:
    """The judge's grade of every kept objective of `video_ids`; None when no judge is configured."""
    if not client.is_configured(ROLE):
        return None
    folder = processed_dir or settings.paths.processed_dir
    report = GradeReport()
    asked: list[tuple[str, Trajectory]] = []
    requests: list[ChatRequest] = []
    for video_id in video_ids:
        truth = script_subtasks(video_id)
        kept = kept_objectives(folder, video_id)
        if truth is None:
            report.skipped.append(f"{video_id}: no sandbox tutorial script of that name (no ground truth)")
        elif kept is None:
            report.skipped.append(f"{video_id}: not processed into {folder} (no trajectory_filtering.json)")
        elif not kept:
            report.skipped.append(f"{video_id}: no objective was kept")
        else:
            for trajectory in kept:
                asked.append((video_id, trajectory))
                requests.append(grade_request(trajectory, truth, settings))
    for (video_id, trajectory), result in zip(asked, client.chat_many(requests, return_exceptions=True)):
        if isinstance(result, Exception):
            grade, reason = None, f"the judge did not answer: {result}"
        else:
            grade, reason = parse_grade(result.text)
        report.grades.append(
            ObjectiveGrade(video_id, trajectory.trajectory_id, trajectory.objective, trajectory.objective_source,
                           grade, reason)
        )  # fmt: skip
    return report
