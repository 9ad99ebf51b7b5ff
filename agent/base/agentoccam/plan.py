"""The plan tree: AgentOccam's memory of what it is trying, grown with `branch`, cut back with `prune`.

Node 0 is the task itself. `branch [parent] [intent]` adds a sub-plan under any visible
plan and makes it the active one; `prune [id] [reason]` gives up on everything done
since plan `id` was made, as AgentOccam does: its sub-plans and the plans after it at its
level are hidden, it becomes active again with its notes cleared, its steps now the step
that made it and those of its sub-plans (so their lessons stay in the history), the
reason is kept, and the browser returns to the page the plan was made on. Notes
(`note [text]`) attach to the active plan. `prune_hides="plans"` hides the later plans
only, as AgentOccam's code does (AgentOccam.py:658-665): their sub-plans stay listed and
can be named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class PlanNode:
    plan_id: int
    intent: str
    level: int
    url: str  # the page the plan was made on: where `prune` returns to
    step: int  # the step that made it (the first for the task)
    parent: PlanNode | None = None
    children: list[PlanNode] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    resume_reasons: list[str] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)  # steps taken under this plan: its interaction history
    visible: bool = True

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


class PlanError(ValueError):
    """A planning command that names no visible plan."""


def our_note_record(step: int, text: str) -> str:
    return f"STEP {step}: {text}"


class PlanTree:
    def __init__(
        self,
        objective: str,
        url: str,
        note_record: Callable[[int, str], str] = our_note_record,
        prune_hides: str = "subtrees",
    ) -> None:
        self.root = PlanNode(0, objective, 0, url, 1)  # made with the first step, as in AgentOccam
        self.active = self.root
        self._next_id = 1
        self.note_record = note_record  # how a note is kept: (the step, the text) -> its line
        self.prune_hides = prune_hides  # "subtrees" (ours) or "plans" (AgentOccam's: later plans, not their sub-plans)

    def find(self, plan_id: int) -> PlanNode:
        for node in self.root.walk():
            if node.visible and node.plan_id == plan_id:
                return node
        raise PlanError(f"there is no plan [{plan_id}]; the plans are listed under PREVIOUS PLANS")

    def branch(self, parent_id: int, intent: str, url: str, step: int) -> PlanNode:
        parent = self.find(parent_id)
        node = PlanNode(self._next_id, intent, parent.level + 1, url, step, parent)
        self._next_id += 1
        parent.children.append(node)
        self.active = node
        return node

    def prune(self, plan_id: int, reason: str) -> PlanNode:
        node = self.find(plan_id)
        if node.parent is not None:  # the plans made after it at its level are abandoned too
            later = node.parent.children[node.parent.children.index(node) + 1 :]
            for sibling in later:
                for hidden in sibling.walk() if self.prune_hides == "subtrees" else [sibling]:
                    hidden.visible = False
        steps = [node.step]
        for descendant in list(node.walk())[1:]:
            descendant.visible = False
            steps += [descendant.step, *descendant.steps]
        node.steps = sorted(set(steps) - {0})
        node.notes = []
        node.resume_reasons.append(reason)
        self.active = node
        return node

    def note(self, text: str, step: int) -> None:
        self.active.notes.append(self.note_record(step, text))

    def flag(self, text: str) -> None:
        """A note of the policy's own on the active plan (no step), as AgentOccam notes a bad plan command."""
        self.active.notes.append(text)

    def record_step(self, step: int) -> None:
        self.active.steps.append(step)

    def text(self) -> str:
        """The visible plans, indented by level, the active one marked, with notes and resume reasons."""
        lines = []
        for node in self.root.walk():
            if not node.visible:
                continue
            indent = "\t" * node.level
            mark = " (ACTIVE PLAN)" if node is self.active else ""
            line = f"{indent}[{node.plan_id}]{mark} {node.intent}"
            if node.resume_reasons:
                line += " # resumed here because: " + "; ".join(node.resume_reasons)
            lines.append(line)
            lines += [f"{indent}Note: {note}" for note in node.notes]
        return "\n".join(lines)
