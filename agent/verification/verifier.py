"""Carrying out one trajectory on the live page, step by step, with the replay policy's grounding.

Each demonstrated step is planned by `agent.replay.steps.StepPlanner` (the element
found by text similarity, in view or in the whole page) with no task in mind, so
the demonstration's own values are typed. Per step the record says whether it was
found and carried out, and if not why; after a carried-out step, how much the page
looks like the video's next keyframe (`similarity`). Verification stops at the
first step that fails: the later ones would start from the wrong page.

A `select` whose label names no option counts as carried out once its menu is found (the
choice is the task's; the record says none was made).

Verdict: `verified` (every step carried out), `partly` (the first k of n), `not`.
Scrolls, hovers and drags are not replayed (as in the replay policy) and not counted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from agent.replay.grounding import Grounder, PageView
from agent.replay.policy import SKIPPED_KINDS
from agent.replay.steps import StepPlanner
from evaluation.browser_env.environment import BrowserEnv
from foundation.records.trajectory import LabeledAction, Trajectory
from agent.verification.similarity import page_similarity
from agent.verification.start_page import StartPage
from settings import Settings

VERIFIED, PARTLY, NOT = "verified", "partly", "not"
MAX_PREPARATIONS = 2  # clearing a field before typing: at most this many actions that complete no step


@dataclass
class StartTask:
    """What `BrowserEnv.reset` reads of a task: the trajectory's start page, logged in as the task would be."""

    key: str
    start_url: str
    sites: list[str]
    storage_state: str | None
    intent: str = ""
    require_login: bool = False
    viewport_size: dict | None = None

    @property
    def start_urls(self) -> list[str]:
        return [self.start_url]

    @property
    def config(self) -> dict:
        return {}


def verdict_of(carried: int, steps: int) -> str:
    if steps and carried == steps:
        return VERIFIED
    return PARTLY if carried else NOT


class TrajectoryVerifier:
    def __init__(self, settings: Settings, env: BrowserEnv, encode: Callable[[list[str]], np.ndarray]) -> None:
        self.settings = settings
        self.env = env
        grounder = Grounder(encode, settings.replay.grounding_min_similarity)
        self.planner = StepPlanner(grounder, settings.replay.substitution_min_similarity, lambda: env.url)

    def verify(
        self, trajectory: Trajectory, start: StartPage, task: StartTask, prefix: list[LabeledAction] | None = None
    ) -> dict[str, Any]:
        """The trajectory's record; with `prefix` (the video's actions before it), those are carried out first,
        unjudged, to bring the page into the state the video was in when the trajectory began."""
        started = time.perf_counter()
        env, planner = self.env, self.planner
        env.reset(task)
        planner.begin("", [])  # no task: the demonstration's own values
        if prefix:
            before = Trajectory("", "", "", list(prefix), ["" for _ in prefix], "", "", 0.0, 0.0, (0, len(prefix) - 1))
            _, _, why = self._steps(before)
            if why:
                return self._record(trajectory, start, [], f"the video's earlier steps could not be carried out "
                                                            f"to reach its start: {why}", started)  # fmt: skip
        steps, _, failure = self._steps(trajectory)
        return self._record(trajectory, start, steps, failure, started)

    def _record(
        self, trajectory: Trajectory, start: StartPage, steps: list[dict[str, Any]], failure: str, started: float
    ) -> dict[str, Any]:
        counted = [a for a in trajectory.actions if a.kind not in SKIPPED_KINDS]
        carried = sum(1 for s in steps if s["status"] == "done")
        verdict = verdict_of(carried, len(counted))
        if not counted:
            failure = "no step can be carried out (only scrolls, hovers or drags)"
        similarities = [s["similarity"] for s in steps if s.get("similarity") is not None]
        return {
            "verdict": verdict,
            "carried_out": carried,
            "steps": len(counted),
            "reason": failure or f"all {len(counted)} step(s) carried out",
            "start_page": start.to_dict(),
            "mean_similarity": round(float(np.mean(similarities)), 3) if similarities else None,
            "final_url": self.env.url,
            "seconds": round(time.perf_counter() - started, 2),
            "step_records": steps,
        }

    def _steps(self, trajectory: Trajectory) -> tuple[list[dict[str, Any]], int, str]:
        """Carry out the trajectory's steps up to the first that fails: (step records, steps done, why it failed)."""
        env = self.env
        actions = trajectory.actions
        steps: list[dict[str, Any]] = []
        failure = ""
        position = 0
        while position < len(actions) and not failure:
            action = actions[position]
            step: dict[str, Any] = {"step": position + 1, "action": action.describe()}
            steps.append(step)
            if action.kind in SKIPPED_KINDS:
                step.update(status="skipped", why=SKIPPED_KINDS[action.kind])
                position += 1
                continue
            done, why, advance = self._carry_out(actions, position, step)
            if not done:
                step.update(status="failed", why=why)
                failure = f"step {position + 1} ({action.describe()}): {why}"
                break
            after = position + advance - 1  # the last demonstrated step this action completed
            keyframe = trajectory.step_keyframes[after + 1] if after + 1 < len(actions) else trajectory.last_frame
            width = self.settings.verification.similarity_width
            similarity = page_similarity(env.observation.screenshot, keyframe, width)
            step["similarity"] = None if similarity is None else round(similarity, 3)
            floor = self.settings.verification.min_page_similarity
            if floor > 0 and similarity is not None and similarity < floor:
                step.update(status="failed", why=f"carried out, but the page differs from the video's next frame "
                                                 f"(similarity {similarity:.2f} < {floor})")  # fmt: skip
                failure = f"step {position + 1} ({action.describe()}): {step['why']}"
                break
            step["status"] = "done"
            for later in range(position + 1, position + advance):  # the Enter typed with the text
                steps.append({"step": later + 1, "action": actions[later].describe(), "status": "done",
                              "why": "carried out with the step before"})  # fmt: skip
            position += advance
        return steps, sum(1 for s in steps if s["status"] == "done"), failure

    def _carry_out(self, actions: list, position: int, step: dict[str, Any]) -> tuple[bool, str, int]:
        """(carried out, why not, demonstrated steps completed) for the step at `position`."""
        env = self.env
        for _ in range(MAX_PREPARATIONS + 1):
            page = PageView(env.observation.nodes, lambda: env.observe_full_page().nodes)
            plan = self.planner.plan(actions, position, page)
            if plan is None:
                action = actions[position]
                if action.kind == "select" and self.planner.grounder.ground(action.target, "select", page,
                                                                            lambda nodes: []):  # fmt: skip
                    # The label names no option (the labeler saw the menu, not the choice): which option a task
                    # wants is the task's to say, as the replay policy does. Finding the menu is what can be
                    # checked; the page's choice is kept and the step counts as carried out, with why.
                    step["why"] = f"found the menu {action.target!r}; the label names no option, so none was chosen"
                    return True, "", 1
                if action.kind in ("click", "right_click", "type", "select"):
                    return False, f"not found: nothing on the page matches {action.target!r}", 0
                return False, f"nothing to carry out for a {action.kind} with {action.text!r}", 0
            step["replayed"] = plan.record()
            result = env.step(plan.action)
            if not result.ok:
                return False, f"found but not carried out: {result.error}", 0
            self.planner.commit(plan)
            if plan.advance:
                return True, "", plan.advance
        return False, "the field could not be prepared for typing", 0
