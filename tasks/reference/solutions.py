"""Scripted solutions: the actions that solve each task, in a JSON file or a folder of them.

    {
      "3": ["goto [__SHOPPING__/checkout/cart/]", "click [button 'Proceed to Checkout']", "stop []"],
      "shop_tasks:4": {"actions": ["stop [42]"], "intermediate_answer": "blue"}
    }

Keys are a task's id, or its full key `source:task_id` (source = the config file's
stem). A value is the list of actions, or an object with `actions` and, for
factual-retention tasks, the `intermediate_answer`. In a folder, a bare id in
`<source>.json` belongs to the tasks of that config source first; elsewhere it matches
any task with that id, unless several files claim it.

`ReferenceSolutions` is how the oracles, the ladder and the reports read them as
reference steps (`oracle.solutions`, default the sandbox's), placeholders filled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from settings import Settings
from tasks.placeholders import PlaceholderValues, fill_placeholders
from tasks.reference.steps import ReferenceStep, reference_steps


@dataclass(frozen=True)
class Solution:
    actions: list[str]
    intermediate_answer: str | None
    origin: str  # "file.json: key", for messages


@dataclass
class Solutions:
    by_key: dict[str, Solution]  # "source:task_id" -> solution (explicit keys and per-source files)
    by_id: dict[str, list[Solution]]  # bare task id -> the solutions claiming it

    def find(self, source: str, task_id: Any) -> Solution | None:
        """The solution of task `source:task_id`; UserError when a bare id is ambiguous."""
        found = self.by_key.get(f"{source}:{task_id}")
        if found is not None:
            return found
        candidates = self.by_id.get(str(task_id), [])
        if len(candidates) > 1:
            places = ", ".join(solution.origin for solution in candidates)
            raise UserError(
                f"task {source}:{task_id} has several scripted solutions ({places}); key them as {source}:{task_id}"
            )
        return candidates[0] if candidates else None


def load_solutions(path: str | Path) -> Solutions:
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*.json") if p.is_file())
    elif path.is_file():
        files = [path]
    else:
        raise UserError(f"solutions path {path} does not exist; pass a JSON file or a folder of them to --solutions")
    solutions = Solutions({}, {})
    for file in files:
        for key, solution in _read(file).items():
            if ":" in key:
                solutions.by_key[key] = solution
            else:
                if path.is_dir():
                    solutions.by_key.setdefault(f"{file.stem}:{key}", solution)
                solutions.by_id.setdefault(key, []).append(solution)
    return solutions


def _read(file: Path) -> dict[str, Solution]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"solutions file {file} is not readable JSON ({exc}); fix it or leave it out") from None
    if not isinstance(data, dict):
        raise UserError(f"solutions file {file} must hold an object keyed by task id")
    solutions = {}
    for key, value in data.items():
        origin = f"{file.name}: {key}"
        if isinstance(value, dict):
            actions, answer = value.get("actions"), value.get("intermediate_answer")
        else:
            actions, answer = value, None
        if not isinstance(actions, list) or not all(isinstance(action, str) for action in actions):
            raise UserError(f"solution {origin} must be a list of action strings (or {{\"actions\": [...]}})")
        if answer is not None and not isinstance(answer, str):
            raise UserError(f"solution {origin}: intermediate_answer must be a string")
        solutions[str(key)] = Solution(list(actions), answer, origin)
    return solutions


class ReferenceSolutions:
    """The reference solutions the oracles read (`oracle.solutions`, default the sandbox's), loaded once."""

    def __init__(self, settings: Settings) -> None:
        self.path = Path(settings.oracle.solutions).expanduser() if settings.oracle.solutions else bundled_solutions()
        self.solutions: Solutions = load_solutions(self.path)
        self.placeholders = PlaceholderValues(settings)

    def steps(self, task: Any, switch: str) -> list[ReferenceStep]:
        """The reference steps of `task`; UserError, naming `switch`, when it has none."""
        solution = self.solutions.find(task.source, task.task_id)
        if solution is None:
            raise UserError(
                f"{switch} is on but task {task.key} has no reference solution in {self.path}; the oracles need "
                "ground truth, which the sandbox tasks have (or point oracle.solutions at yours)"
            )
        filled = fill_placeholders(solution.actions, self.placeholders)
        if filled.unfilled:
            raise UserError(f"reference solution {solution.origin} names __{sorted(filled.unfilled)[0]}__, which "
                            "has no URL: set that environment variable")  # fmt: skip
        return reference_steps(filled.value)


def bundled_solutions() -> Path:
    """The sandbox tasks' solutions, beside their configs."""
    from tasks.loading import SANDBOX_CONFIGS_DIR

    return SANDBOX_CONFIGS_DIR.parent / "solutions"
