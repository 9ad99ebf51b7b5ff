"""The reference tracker (tasks/reference/progress.py) fed live: actions chosen on a page, then carried out.

An action the policy chose by element id becomes an `Act` by the page it was chosen on
(the element's role, name and which of its same-named elements it is: counted over the
whole page when it can be read, else the viewport). The oracles count an act on the
right element with another value as done (`values_count=False`: the value is the
policy's business), and they see a clear of the field the next step types into as on
track (the replay clears a field before typing into it).
"""


from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from evaluation.browser_env.actions import Action, ActionParseError, parse_action
from evaluation.browser_env.ax_tree import TreeNode
from tasks.reference.progress import Act, ReferenceProgress
from tasks.reference.steps import ReferenceStep

FullPage = Callable[[], "list[TreeNode] | None"]


@dataclass(frozen=True)
class Element:
    node: TreeNode
    where: str  # "in view" or "in the full page"


class Page:
    """The nodes an action is chosen on: the viewport's, and the whole page's when it can be read."""

    def __init__(self, view: list[TreeNode], full: FullPage | None = None, loaded: FullPage | None = None) -> None:
        self.view = view
        self._full = full
        self._loaded = loaded  # the whole page if it was read already (without reading it); None: `full` says

    def full(self) -> list[TreeNode] | None:
        return self._full() if self._full is not None else None

    def frozen(self) -> Page:
        """This page as read so far, for use after the browser has moved on."""
        whole = self._loaded() if self._loaded is not None else self.full()
        return Page(self.view, (lambda: whole) if whole is not None else None)

    def element(self, step: ReferenceStep | None) -> Element | None:
        """The step's element here, or None (no element, or not on this page)."""
        target = step.target if step is not None else None
        if target is None:
            return None
        if not target.nth:
            found = _nth(self.view, target.role, target.name, 0)
            if found is not None:
                return Element(found, "in view")
        whole = self.full()
        if whole is None:  # no whole page to count in: the viewport is all there is
            found = _nth(self.view, target.role, target.name, target.nth) if target.nth else None
            return Element(found, "in view") if found is not None else None
        found = _nth(whole, target.role, target.name, target.nth)
        return Element(found, "in the full page") if found is not None else None

    def nth_of(self, node: TreeNode) -> int | None:
        """Which of the same-named elements `node` is: counted over the whole page when it can be read."""
        for nodes in (self.full(), self.view):
            same = [other.node_id for other in nodes or [] if (other.role, other.name) == (node.role, node.name)]
            if node.node_id in same:
                return same.index(node.node_id)
        return None

    def node(self, node_id: str) -> TreeNode | None:
        for nodes in (self.view, self.full() or []):
            for node in nodes:
                if node.node_id == node_id:
                    return node
        return None


def parsed(action_text: str) -> Action | None:
    try:
        return parse_action(action_text)
    except ActionParseError:
        return None


def executed(step: Any) -> list[tuple[Action | None, bool]]:
    """The actions an episode step ran, each with whether it went through, in order."""
    commands = getattr(step, "commands", None) or []
    if commands:
        return [(parsed(command.get("action", "")), bool(command.get("ok"))) for command in commands]
    action = getattr(step, "action", None)
    try:
        return [(Action.from_dict(action) if action else None, bool(getattr(step, "ok", False)))]
    except (KeyError, ValueError):
        return [(None, False)]


def _nth(nodes: list[TreeNode], role: str, name: str, nth: int) -> TreeNode | None:
    matches = [node for node in nodes if node.role == role and node.name == name]
    return matches[nth] if nth < len(matches) else None


def act_on(action: Action, page: Page, step: int = 0, ok: bool = True) -> Act:
    """The act `action` is on `page`: its element by role and name (unknown when the page does not hold it)."""
    kind = action.kind.value
    value = {"type": action.text, "goto": action.url, "press": action.keys, "stop": action.answer}.get(kind) or ""
    element_id = str(action.element_id) if action.element_id is not None else ""
    node = page.node(element_id) if element_id else None
    if node is None:
        return Act.of(step, kind, ok, element_id, value=value, known=not element_id)
    return Act.of(step, kind, ok, element_id, node.role, node.name, value, nth=page.nth_of(node))


class LiveProgress(ReferenceProgress):
    """The position along a task's reference steps as the oracles follow it while the episode runs."""

    def __init__(self, steps: list[ReferenceStep]) -> None:
        super().__init__(steps, values_count=False)
        self._pending: tuple[str | None, Page] | None = None  # the chosen action's text and its frozen page

    def on_track(self, action_text: str, page: Page) -> bool:
        """Whether an action, chosen on `page`, would do the next step (the position's or the aimed one), or
        clear the field that step types into."""
        action = parsed(action_text)
        if action is None:
            return False
        act = act_on(action, page)
        if self.position_after(act) > self.position:
            return True
        step = self.next_step
        found = page.element(step) if step is not None and step.verb in ("type", "clear") else None
        return act.kind == "clear" and found is not None and act.element_id == found.node.node_id

    def chose(self, action_text: str | None, page: Page) -> None:
        """The action the policy chose on `page` (its text, when the policy knows it); it counts once carried out."""
        self._pending = (action_text, page.frozen())

    def carried_out(self, step: Any) -> dict[str, Any] | None:
        """Move the position for what an episode step (`StepRecord`: its `action`, `ok` and, for a step of several
        commands, `commands`) carried out. Returns the record of the move, or None."""
        pending, self._pending = self._pending, None
        before = self.position
        if pending is not None:
            _, page = pending
            for action, ok in executed(step):
                if not ok or action is None:
                    break
                self.advance(act_on(action, page))
        self.target = self.position
        if self.position == before:
            return None
        return {"done": [step.text for step in self.steps[before : self.position]], "position": self.position}
