"""The scripted policy: plays each task's fixed list of actions from a solutions file.

For tests and for checking task configs (a config whose scripted solution fails is
suspect). Site placeholders in the actions (`__SHOPPING__`) are filled the way the
task loader fills configs. Element actions may name their target symbolically
(`click [button 'Add to Cart']`, see `targets`); the target is looked up in the
current observation and, when it is not in view, in a full-page tree from the
environment. A target found nowhere makes a failed step with the reason. After
the last action the policy stops with an empty answer.
"""

from __future__ import annotations

import argparse
from typing import Any

from foundation.errors import UserError
from evaluation.browser_env.observation import Observation
from tasks.reference.solutions import Solution, Solutions, load_solutions
from tasks.reference.targets import find_node, parse_target
from evaluation.running.policy import PolicyStep
from foundation.records.step_info import StepInfo
from settings import Settings
from tasks.placeholders import PlaceholderValues, fill_placeholders, unfilled_message


class ScriptedPolicy:
    name = "scripted"
    reads_screenshots = False  # with run.step_screenshots off, its episodes take none

    def __init__(self, solutions: Solutions, settings: Settings) -> None:
        self.solutions = solutions
        self.placeholders = PlaceholderValues(settings)
        self.env = None
        self.solution: Solution | None = None
        self.actions: list[str] = []
        self.position = 0

    def attach_environment(self, env: Any) -> None:
        self.env = env

    def reset(self, task: Any) -> None:
        solution = self.solutions.find(task.source, task.task_id)
        if solution is None:
            raise UserError(f"no scripted solution for task {task.key}; add one to the --solutions file")
        filled = fill_placeholders(solution.actions, self.placeholders)
        if filled.unfilled:
            raise UserError(f"solution {solution.origin}: {unfilled_message(sorted(filled.unfilled)[0])}")
        self.solution, self.actions, self.position = solution, list(filled.value), 0

    def act(self, observation: Observation) -> PolicyStep:
        if self.position >= len(self.actions):
            return PolicyStep("stop []", StepInfo(scripted="(solution finished without stop)"))
        action = self.actions[self.position]
        self.position += 1
        info = StepInfo(scripted=action)  # the line played, and where its target was found: the policy's own keys
        target = parse_target(action)
        if target is None:
            return PolicyStep(action, info)
        node = find_node(observation.nodes, target)
        where = "in view"
        if node is None and self.env is not None:
            node = find_node(self.env.observe_full_page().nodes, target)
            where = "in the full page"
        if node is None:
            if self.env is not None:
                self.env.observe()  # back to the usual view for the steps that follow
            reason = f"scripted target {target.describe()} is not on the page (looked in view and in the full page)"
            return PolicyStep(action, info, error=reason)
        info.put("target", f"{target.describe()} -> [{node.node_id}] ({where})")
        return PolicyStep(target.with_id(node.node_id), info)

    def answer_intermediate(self, question: str) -> str | None:
        return self.solution.intermediate_answer if self.solution else None

    def usage(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        self.env = None


def build_scripted_policy(settings: Settings, args: argparse.Namespace) -> ScriptedPolicy:
    path = getattr(args, "solutions", None)
    if not path:
        from tasks.loading import SANDBOX_CONFIGS_DIR

        default = SANDBOX_CONFIGS_DIR.parent / "solutions"
        if not default.exists():
            raise UserError("the scripted policy needs --solutions FILE_OR_DIR (JSON actions keyed by task id)")
        path = default
    return ScriptedPolicy(load_solutions(path), settings)
