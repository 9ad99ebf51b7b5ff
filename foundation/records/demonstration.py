"""What a video policy records of a step: the demonstration it showed, how it was chosen, how a step was grounded.

The policies write these (the method, agent/method; the replay, agent/replay) into their step's record
(`StepInfo`, foundation/records/step_info.py); the run keeps them in episode.json under each step's `extra`; the
report pages and the run's health read them back through these types. Each is a `KeyedRecord`: it writes the
JSON object records have always held and reads every earlier one unchanged (keys it does not know kept in
`extra`), so old and new run folders read alike.

    "demonstration": DemonstrationShown   what was shown (a trajectory, or the videos' narration); null: nothing
    "selection":     SelectionRecord      the decision: candidates and scores, stage 1 and 2, the continuation
    "demonstrated":  DemonstratedStep     the replay: the demonstration's step it carries out next
    "replayed":      ReplayedStep         the replay: that step as carried out here, where it grounded
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from foundation.records.keyed import KeyedRecord

# How a demonstration came to be shown.
SELECTED, CONTINUED, WHOLE_VIDEO, TRANSCRIPT = "selected", "continued", "whole_video", "transcript"
# What a selection decided.
DECIDED_CONTINUED, RESELECTED, NONE_CHOSEN, UNREADABLE = "continued", "reselected", "none", "unreadable_reply"


@dataclass(init=False)
class DemonstrationShown(KeyedRecord):
    """What a step showed from the tutorial videos: one trajectory (its objective, steps and keyframes), or the
    videos' narration (`videos`, `transcript`)."""

    how: str = ""  # SELECTED, CONTINUED, WHOLE_VIDEO or TRANSCRIPT
    trajectory_id: str = ""
    video: str = ""
    objective: str = ""
    actions: list[str] = field(default_factory=list)  # each step in a person's words
    video_time: str = ""  # "12.0-31.5 s"
    verification: str = ""  # what `process-videos --verify` found on the live site
    # The keyframe before each step: pictures (files beside the record once saved) the first time the trajectory is
    # shown; later a note ("(as at step 3)"), as also when the policy was not shown images.
    keyframes: list[Any] | str | None = None
    videos: list[str] = field(default_factory=list)  # a narration's videos
    transcript: str = ""  # the narration, or "(shown in full at step N)"

    @property
    def shows_steps(self) -> bool:
        """A trajectory's steps (not narration): what the task page draws as a strip of screens."""
        return self.has("objective") and self.has("actions") and isinstance(self.actions, list)

    @property
    def keyframe_list(self) -> list[Any] | None:
        """The keyframes when this record holds them (the first showing), else None."""
        return self.keyframes if isinstance(self.keyframes, list) else None


@dataclass(init=False)
class StageDecision(KeyedRecord):
    """One part of a selection decision: the continuation check, stage 1 (picks) or stage 2 (the choice)."""

    relevant: bool | None = None  # continuation: whether the previous demonstration still applies
    picks: list[Any] | None = None  # stage 1: the candidates kept (numbers or trajectory ids)
    passed_over: list[str] | None = None  # stage 1: those left out, and why
    ignored: Any = None  # stage 1: picks the reply named that were not candidates
    choice: Any = None  # stage 2: the candidate chosen (number or trajectory id), None for none
    reason: str | None = None  # the model's (or the rule's) reason


@dataclass(init=False)
class CandidateRecord(KeyedRecord):
    """A trajectory selection considered, with its scores."""

    number: int | None = None  # its number in the selection prompt
    trajectory_id: str = ""
    video: str = ""
    objective: str = ""
    score: float | None = None  # similarity to the task (or the ranking score)
    stage1: float | None = None  # the replay's stage-1 score (similarity and length bonus)
    verification: str = ""
    first_step: str | None = None  # where its first step grounds here, or why not
    grounding: float | None = None  # that grounding's similarity
    total: float | None = None  # the replay's stage-2 score


@dataclass(init=False)
class SelectionRecord(KeyedRecord):
    """How a step's demonstration was chosen: two-stage selection (the method), embedding selection (the replay),
    or the selection oracle. Keys not named here (the pool per video, the precut, the selection's usage, the
    oracle's reference steps) stay in `extra`."""

    NESTED: ClassVar[dict[str, type[KeyedRecord]]] = {}  # set below, once the classes exist

    oracle: str | None = None  # the selection oracle's note, when it chose
    previous: str | None = None  # the trajectory shown at the step before
    query: str | None = None  # the replay's ranking text
    continuation: StageDecision | None = None
    candidates: list[CandidateRecord] | None = None
    stage1: StageDecision | None = None
    stage2: StageDecision | None = None
    decision: str | None = None  # DECIDED_CONTINUED, RESELECTED, NONE_CHOSEN or UNREADABLE
    chosen: str | None = None  # the trajectory chosen, None for none
    continued: bool | None = None
    reason: str | None = None
    note: str | None = None
    error: str | None = None  # why a reply could not be read (UNREADABLE)
    reused_from_step: int | None = None  # the decision of an earlier step with the same context, reused

    def why(self) -> str:
        """The reason that decided, first found: stage 2's, the continuation's, the record's own, stage 1's, a note
        or the error."""
        said = [_reason(self.stage2), _reason(self.continuation), self.reason, _reason(self.stage1), self.note,
                self.error]  # fmt: skip
        return next((str(text) for text in said if text), "")


def _reason(part: Any) -> str | None:
    return part.reason if isinstance(part, StageDecision) else None  # a part an odd record wrote otherwise: none


SelectionRecord.NESTED = {
    "continuation": StageDecision, "stage1": StageDecision, "stage2": StageDecision, "candidates": CandidateRecord,
}  # fmt: skip


@dataclass(init=False)
class DemonstratedStep(KeyedRecord):
    """The replay: the demonstration's step it carries out at this step."""

    step: int | None = None  # its number in the demonstration
    action: str = ""


# Grounding similarities this close to the best count as equally good: the replay grounds on such a tie, and
# the reports flag it.
TIE_MARGIN = 0.02


@dataclass(init=False)
class ReplayedStep(KeyedRecord):
    """The replay: the demonstrated step as carried out on this page."""

    action: str = ""  # the action sent to the page
    grounded: dict[str, Any] | None = None  # the element it grounded on: looked_for, node, similarity, where
    substitutions: list[dict[str, Any]] | None = None  # the task's values put in place of the video's
    note: str | None = None
