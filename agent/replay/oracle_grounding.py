"""The grounding oracle (`oracle.grounding`): a demonstrated step acts on the reference solution's element.

In place of `Grounder` (similarity of names), `OracleGrounder` answers with the element
of the reference solution's next step (agent/oracles/progress.py: found by role and
name, in view, else in the whole page) when the demonstrated step stands for that step
by the coverage rule (tasks/reference/coverage.py `step_match`: the same kind of action
on an element of the same name, or on the tutorial's value where the task has its
own; a `clear` in the solution counts as the typing after it). For a choice the
option is the element, clicked as the solution clicks it. Any other demonstrated
step, or any step once the solution's next step is its stop, does not ground. The value
typed is still the policy's (agent/videos/intent_values.py): only the element is the oracle's.
"""

from __future__ import annotations

from typing import Any, Callable

from agent.oracles.progress import LiveProgress, Page
from agent.replay.grounding import Grounding, PageView
from evaluation.browser_env.ax_tree import TreeNode
from foundation.records.trajectory import LabeledAction
from tasks.reference.coverage import step_match
from tasks.reference.steps import ReferenceStep


def oracle_page(page: PageView) -> Page:
    """The replay's view of a page as the oracles read it."""
    return Page(page.view, page.full, page.loaded_full)


def stands_for(demonstrated: LabeledAction | None, progress: LiveProgress, intent: str) -> ReferenceStep | None:
    """The reference step whose element `demonstrated` is grounded on (the next one), or None when it does not
    stand for it."""
    step = progress.next_step
    if demonstrated is None or step is None or step.target is None:
        return None
    compared = step
    if step.verb == "clear":  # the clearing belongs to the typing that follows into the same field
        following = progress.step(progress.target + 1)
        compared = following if following is not None and following.target == step.target else step
    return step if step_match(demonstrated, compared, intent) else None


class OracleGrounder:
    """`Grounder`'s interface, answered from the reference solution. Each episode sets `progress`; the planner
    sets the step being planned (`demonstrated`) and the task's `intent` before grounding it."""

    is_oracle = True

    def __init__(self) -> None:
        self.progress: LiveProgress | None = None
        self.demonstrated: LabeledAction | None = None
        self.intent = ""

    def ground(
        self, target: str, kind: str, page: PageView, anchors_for: Callable[[list[TreeNode]], list[TreeNode]]
    ) -> Grounding | None:
        step = stands_for(self.demonstrated, self.progress, self.intent) if self.progress is not None else None
        found = oracle_page(page).element(step) if step is not None else None
        if found is None:
            return None
        note: list[dict[str, Any]] = [{"note": f"grounding oracle: the reference solution's next step, {step.text}"}]
        return Grounding(found.node, 1.0, found.where, target, note)
