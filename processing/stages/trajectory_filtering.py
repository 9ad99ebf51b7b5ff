"""Trajectory filtering: a VLM checks each named trajectory against its objective.

One call per trajectory. The VLM sees the objective, the steps and the frames
before and after them, reasons first, then judges (after a JUDGMENT: heading)
alignment, coherence, naturalness, no extra steps, no backtracking and no overly
complex route (the paper's four criteria, its "reasonableness" split in three); a
trajectory is kept only when all six hold. The verdicts and the
reason are kept in `Trajectory.checks`. A reply unreadable twice drops the
trajectory: it was never confirmed (and is counted as skipped).
Off with `--no-trajectory-filtering` (processing.trajectory_filtering=false): every
named trajectory is kept.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model_access.client import ChatRequest, ModelClient
from model_access.replies import ReplyParseError, extract_json_object
from processing.changed_frames import KeyFrame
from foundation.records.trajectory import Trajectory
from processing.stages.asking import StageStats, after_heading, ask_parsed, prompt_identity, role_identity
from processing.stages.trajectories import format_steps, frames_around, two_frame_message
from processing.templates import render, reply_schema
from settings.schema import Settings

STAGE = "trajectory_filtering"
TEMPLATE = "trajectory_check"
CHECKS = ("aligned", "coherent", "natural", "no_extra_steps", "no_backtracking", "not_overly_complex")
ANSWER_HEADING = "JUDGMENT:"


def identity(settings: Settings) -> dict[str, Any]:
    p = settings.processing
    if not p.trajectory_filtering:
        return {"enabled": False}
    return {
        "enabled": True,
        "model_image_max_side": p.model_image_max_side,
        "prompts": prompt_identity(p, TEMPLATE),
        "model": role_identity(settings, "vlm"),
    }


def parse_checks(reply: str) -> dict[str, Any]:
    """The six verdicts (booleans) and the reason; a reply missing a verdict is unreadable."""
    data = extract_json_object(after_heading(reply, ANSWER_HEADING))
    checks: dict[str, Any] = {}
    for name in CHECKS:
        value = data.get(name)
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "false", "no"):
            value = value.strip().lower() in ("true", "yes")
        if not isinstance(value, bool):
            raise ReplyParseError(f'true/false "{name}"', reply)
        checks[name] = value
    checks["reason"] = " ".join(str(data.get("reason") or "").split())
    return checks


def check_trajectories(
    trajectories: list[Trajectory], keyframes: list[KeyFrame], settings: Settings, client: ModelClient
) -> tuple[list[Trajectory], list[Trajectory], StageStats]:
    """(kept, dropped), each with its `checks` filled in."""
    if not settings.processing.trajectory_filtering:
        kept = [replace(t, checks={"filtering": "off"}) for t in trajectories]
        return kept, [], StageStats()
    requests = []
    schema = reply_schema(TEMPLATE, settings.processing)
    for trajectory in trajectories:
        prompt = render(
            TEMPLATE, settings.processing, objective=trajectory.objective, actions=format_steps(trajectory.actions)
        )
        before, after = frames_around(trajectory.actions, keyframes)
        message = two_frame_message(prompt, before, after, settings)
        requests.append(ChatRequest("vlm", [message], STAGE, reply_schema=schema))
    labels = [t.trajectory_id for t in trajectories]
    outcome = ask_parsed(client, requests, lambda _, reply: parse_checks(reply), settings.processing, labels)
    kept: list[Trajectory] = []
    dropped: list[Trajectory] = []
    for trajectory, checks in zip(trajectories, outcome.values):
        if checks is None:
            dropped.append(replace(trajectory, checks={"unreadable": True}))
        elif all(checks[name] for name in CHECKS):
            kept.append(replace(trajectory, checks=checks))
        else:
            dropped.append(replace(trajectory, checks=checks))
    return kept, dropped, outcome.stats
