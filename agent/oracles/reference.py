"""A task's reference solution as steps the oracles can compare with demonstrations and actions.

The solutions are those `--policy scripted` plays (evaluation/running/policies/solutions.py):
for the bundled sandbox, `tasks/sandbox/solutions/<source>.json`, which pass 45 of 45
skill tasks. Element actions name their element by role and name
(`click [link 'science']`, `type [searchbox 'Search'] [sourdough] [1]`,
`click [button 'Remove item':nth(2)]`); site placeholders are filled as for the scripted
policy. `oracle.solutions` points elsewhere; a task without a solution is a one-line error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.browser_env.actions import ActionParseError, parse_action
from evaluation.running.policies.solutions import Solutions, load_solutions
from evaluation.running.policies.targets import Target, parse_target
from foundation.errors import UserError
from settings import Settings
from tasks.placeholders import PlaceholderValues, fill_placeholders

MENU_ROLES = frozenset({"option", "menuitem", "combobox", "listbox"})  # a click on these chooses from a menu


@dataclass(frozen=True)
class ReferenceStep:
    """One action of a reference solution."""

    text: str  # as the solution writes it, placeholders filled
    verb: str  # click, type, clear, hover, goto, press, stop, ...
    target: Target | None  # the element, for element actions
    value: str = ""  # typed text, URL, key or the stop's answer
    enter: bool = False  # a `type` that presses Enter after the text

    @property
    def name(self) -> str:
        return self.target.name if self.target else ""

    @property
    def chooses(self) -> bool:
        """A click on a menu's option (`click [option 'Price']`): what a demonstration shows as a choice."""
        return self.verb == "click" and self.target is not None and self.target.role in MENU_ROLES


def parse_step(text: str) -> ReferenceStep:
    """A solution action as a step; UserError naming it when it cannot be read."""
    target = parse_target(text)
    try:
        action = parse_action(target.with_id("0") if target is not None else text)
    except ActionParseError as exc:
        raise UserError(f"reference solution action {text!r} cannot be read ({exc}); fix the solutions file") from None
    value = action.text or action.url or action.keys or action.answer or ""
    return ReferenceStep(text, action.kind.value, target, value, action.press_enter)


class ReferenceSolutions:
    """The reference solutions the oracles read (`oracle.solutions`, default the sandbox's), loaded once."""

    def __init__(self, settings: Settings) -> None:
        self.path = Path(settings.oracle.solutions).expanduser() if settings.oracle.solutions else _bundled()
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
        return [parse_step(action) for action in filled.value]


def _bundled() -> Path:
    from tasks.loading import SANDBOX_CONFIGS_DIR

    return SANDBOX_CONFIGS_DIR.parent / "solutions"
