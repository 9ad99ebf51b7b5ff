"""What a policy records of one step (`PolicyStep.info`), kept with the step in episode.json (its `extra`) and
read back by the run's health and the report pages.

Typed fields for what more than one policy records; everything else a policy wants kept and shown goes in
`extra` by its own key (AgentOccam's sections, plan and re-asked replies; the replay's skipped steps, answer and
reference progress; the scripted policy's line and where its target was found): the task page shows those as they
are. A step record is a `KeyedRecord`, so the JSON object is what it always was, and old episodes read unchanged:

    StepInfo(reasoning="...", images_sent=1, plans="...")   # free keys as keyword arguments, in order
    info = StepInfo.from_dict(step["extra"])                 # a recorded step
    info.selection.decision if info.selection else None
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from foundation.records.demonstration import (
    DemonstratedStep,
    DemonstrationShown,
    ReplayedStep,
    SelectionRecord,
)
from foundation.records.keyed import KeyedRecord


@dataclass(init=False)
class StepInfo(KeyedRecord):
    NESTED: ClassVar[dict[str, type[KeyedRecord]]] = {
        "demonstration": DemonstrationShown, "selection": SelectionRecord, "demonstrated": DemonstratedStep,
        "replayed": ReplayedStep,
    }  # fmt: skip
    OPEN: ClassVar[bool] = True  # a policy's own keys go to `extra`

    reasoning: str | None = None  # the model's reasoning before its action (the model policies)
    # Why the reply gave no action to carry out, in the policy's words (the run's health counts such steps).
    unparseable: str | None = None
    images_sent: int | None = None  # images in the step's request to the policy model
    # A video policy: why it has no demonstrations (said at the first step), how it chose the one video of the
    # whole-video mode (the first step), how this step's demonstration was chosen, and what it showed (null:
    # nothing at this step).
    reason: str | None = None
    whole_video_choice: dict[str, Any] | None = None
    selection: SelectionRecord | None = None
    demonstration: DemonstrationShown | None = None
    # The replay: the demonstration's step it carries out, as carried out here, and why it stopped.
    demonstrated: DemonstratedStep | None = None
    replayed: ReplayedStep | None = None
    stop_reason: str | None = None

    def why_chosen(self) -> str:
        """One line on how the step's demonstration was decided: "reselected (id): reason"."""
        selection = self.selection if isinstance(self.selection, SelectionRecord) else SelectionRecord()
        reason = selection.why() or str(self.reason or "")
        chosen = f"({selection.chosen})" if selection.chosen else None
        head = " ".join(str(part) for part in (selection.decision, chosen) if part)
        return f"{head}: {reason}" if head and reason else head or reason
