"""The record of one episode: every step's action, outcome, page and timings.

It is plain data: `to_dict()` / `from_dict()` round-trip through JSON, and
`save(folder)` writes `episode.json` with one PNG per observation beside it
(`step_000.png` is the page the episode started on, `step_NNN.png` the page
after step NNN). Later stages attach their own per-step data (the agent's
reasoning, the chosen demonstration) under `extra`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

RECORD_FILE = "episode.json"


@dataclass
class StepRecord:
    index: int  # 1-based; 0 is the starting observation
    action_text: str  # what the agent sent (the whole reply when it sent one)
    action: dict[str, Any] | None  # the parsed action (`Action.to_dict()`), None when unparseable
    ok: bool
    error: str | None
    url_before: str
    url_after: str
    observation_text: str  # the observation after the step, as the agent saw it (cut to the budget)
    timings: dict[str, float] = field(default_factory=dict)
    screenshot: str | None = None  # file name beside the record, set by `save`
    extra: dict[str, Any] = field(default_factory=dict)
    # The policy's model calls for this step (calls, latency_s, tokens, replies cut at the length limit...).
    model_usage: dict[str, Any] = field(default_factory=dict)
    screenshot_png: bytes | None = field(default=None, repr=False, compare=False)  # kept until saved
    # A step of several actions (AgentOccam's ACTION): each one's text, ok and error, in the order run;
    # `action` is then the last one run. Empty for a step of one action.
    commands: list[dict[str, Any]] = field(default_factory=list)
    # The chat calls the policy's client answered for this step: messages sent and reply
    # (evaluation/running/step_calls.py, `run.keep_model_calls`). Empty when none were made or none kept.
    model_calls: list[dict[str, Any]] = field(default_factory=list)
    # [x, y, w, h] of the element the step's first command acted on (click, hover, type, clear), in the pixels of
    # the screenshot before the step (the previous step's, or the start's), read before acting; None otherwise.
    # Left out of the JSON when None, so a step without one reads as records from before it existed.
    target_box: list[float] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("screenshot_png")
        if data["target_box"] is None:
            data.pop("target_box")
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StepRecord:
        return cls(**data)


@dataclass
class EpisodeRecord:
    task_key: str
    intent: str
    start_urls: list[str]
    start_observation_text: str = ""
    start_screenshot: str | None = None
    steps: list[StepRecord] = field(default_factory=list)
    answer: str | None = None  # the `stop [answer]` text, None when the agent never stopped
    final_url: str = ""
    # "stop", "max_steps", "parse_failures", "repeated_action", "browser_error", "context_overflow"
    stop_reason: str | None = None
    duration_s: float = 0.0
    # Whether each step's model_calls were kept (`run.keep_model_calls`): an empty list then means no chat call.
    model_calls_kept: bool = False
    start_screenshot_png: bytes | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        data = {key: value for key, value in asdict(self).items() if key not in ("steps", "start_screenshot_png")}
        data["steps"] = [step.to_dict() for step in self.steps]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EpisodeRecord:
        fields = {key: value for key, value in data.items() if key != "steps"}
        return cls(**fields, steps=[StepRecord.from_dict(step) for step in data.get("steps", [])])

    def save(self, folder: Path) -> Path:
        """Write the record and its screenshots into `folder`; returns the record's path."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        if self.start_screenshot_png is not None:
            self.start_screenshot = _write_png(folder, 0, self.start_screenshot_png)
        for step in self.steps:
            if step.screenshot_png is not None:
                step.screenshot = _write_png(folder, step.index, step.screenshot_png)
        path = folder / RECORD_FILE
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False))
        partial.replace(path)
        return path

    @classmethod
    def load(cls, folder: Path) -> EpisodeRecord:
        return cls.from_dict(json.loads((Path(folder) / RECORD_FILE).read_text()))


def _write_png(folder: Path, index: int, png: bytes) -> str:
    name = f"step_{index:03d}.png"
    (folder / name).write_bytes(png)
    return name
