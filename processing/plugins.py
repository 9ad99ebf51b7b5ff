"""Pluggable parts of processing: who labels the actions and who names the objectives.

`processing.labeler` / `--labeler` and `processing.objectives` / `--objectives` pick
one by name. The method's VLM implementations are registered here; a model-free
labeler or objective maker is added by one `register_*` line naming its class
("module:Class"), imported only when chosen.

A labeler turns a video's keyframes into actions, clip by clip (the merge stage
then removes actions labeled twice at clip borders; a labeler that sees the whole
video at once returns a single clip). An objective maker names the objective of
each candidate span of actions, or says it has none. Both tell which model roles
they call (checked before any video is touched) and return an `identity()`: every
setting, prompt and model name their output depends on, hashed into the stage's cache key.
A labeler that calls a model is taken to label overlapping clips, so the run also
needs the `llm` role for merging; one without roles needs no model at all.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol

from foundation.errors import UserError
from model_access.client import ModelClient
from processing.changed_frames import KeyFrame
from foundation.records.trajectory import LabeledAction, VideoRecord
from processing.stages.asking import StageStats
from settings.schema import Settings

LABELERS: dict[str, str] = {
    "vlm": "processing.stages.labeling:VlmLabeler",
    "ocr": "processing.ocr_labeler.plugin:OcrPipelineLabeler",  # model-free baseline
}
OBJECTIVE_MAKERS: dict[str, str] = {
    "vlm": "processing.stages.trajectories:VlmObjectives",
    "derived": "processing.objectives.derived:DerivedObjectives",  # model-free baseline
}
# With oracle.labels the tutorials' ground-truth logs stand in for whichever labeler is chosen.
ORACLE_LABELER = "processing.oracle_labels:OracleLabeler"


@dataclass
class Clip:
    """Keyframes first..last (inclusive) labeled together, and the actions found in them."""

    first: int
    last: int
    actions: list[LabeledAction] | None  # None: the labeler's reply could not be read, the clip is skipped

    def to_dict(self) -> dict[str, Any]:
        actions = None if self.actions is None else [a.to_dict() for a in self.actions]
        return {"first": self.first, "last": self.last, "actions": actions}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Clip:
        actions = data.get("actions")
        parsed = None if actions is None else [LabeledAction.from_dict(a) for a in actions]
        return cls(int(data["first"]), int(data["last"]), parsed)


class Labeler(Protocol):
    name: str
    roles: tuple[str, ...]  # model roles it calls

    def identity(self) -> dict[str, Any]: ...

    def estimate_calls(self, frame_count: int) -> int:
        """Model calls `label` makes for a video with this many keyframes (for --dry-run; 0 for none)."""
        ...

    def label(
        self, video: VideoRecord, keyframes: list[KeyFrame], client: ModelClient
    ) -> tuple[list[Clip], StageStats]: ...


class ObjectiveMaker(Protocol):
    name: str
    roles: tuple[str, ...]

    def identity(self) -> dict[str, Any]: ...

    def name_objectives(
        self,
        video: VideoRecord,
        actions: list[LabeledAction],
        keyframes: list[KeyFrame],
        spans: list[tuple[int, int]],
        client: ModelClient,
    ) -> tuple[list[str | None], StageStats]:
        """One objective (or None) per (i, j) span of `actions`, in the order of `spans`."""
        ...


def register_labeler(name: str, target: str) -> None:
    """Make `name` selectable with --labeler; `target` is "module:Class", built as Class(settings)."""
    LABELERS[name] = target


def register_objective_maker(name: str, target: str) -> None:
    """Make `name` selectable with --objectives; `target` is "module:Class", built as Class(settings)."""
    OBJECTIVE_MAKERS[name] = target


def create_labeler(settings: Settings) -> Labeler:
    if settings.oracle.labels:  # the tutorials' ground-truth logs instead of any labeler
        return _build(ORACLE_LABELER, settings)
    return _create(LABELERS, settings.processing.labeler, "labeler", settings)


def create_objective_maker(settings: Settings) -> ObjectiveMaker:
    return _create(OBJECTIVE_MAKERS, settings.processing.objectives, "objectives", settings)


def _create(registry: dict[str, str], name: str, what: str, settings: Settings) -> Any:
    if name not in registry:
        known = ", ".join(sorted(registry))
        raise UserError(f"unknown {what} {name!r}: registered ones are {known} (--{what} or processing.{what})")
    return _build(registry[name], settings)


def _build(target: str, settings: Settings) -> Any:
    """Class(settings) for a "module:Class" target; imported by name, as plugins import this module."""
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)(settings)
