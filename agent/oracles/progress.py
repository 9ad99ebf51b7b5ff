"""How far an episode has come along the reference solution, read off the actions it carried out.

The position is the first reference step not yet done. An action carried out does a
reference step when it is the same command on the same element of the page it was
chosen on: the step's element is found there by role and name as the scripted policy
finds it (the viewport first, then the whole page; an `nth` is counted over the whole
page when it can be read); a choice (`click [option 'Price']`) is also done by typing
that option into a menu, as the replay policy chooses; a `clear` followed by typing
into the same field is done at once by typing into it; keys and addresses must be the
same. Only the step at the position counts, or the step selection aimed at when it
passed over steps no demonstration covers (`aim`); any other action leaves the
position where it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from agent.oracles.coverage import same_address
from agent.oracles.reference import MENU_ROLES, ReferenceStep
from evaluation.browser_env.actions import Action, ActionParseError, parse_action
from evaluation.browser_env.ax_tree import TreeNode
from processing.labeling_accuracy import normalise_name

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

    def node(self, node_id: str) -> TreeNode | None:
        for nodes in (self.view, self.full() or []):
            for node in nodes:
                if node.node_id == node_id:
                    return node
        return None


def does(action: Action, step: ReferenceStep, page: Page) -> bool:
    """Whether `action`, chosen on `page`, does `step` (module docstring)."""
    kind = action.kind.value
    if step.verb in ("goto", "press"):
        if kind != step.verb:
            return False
        return same_address(action.url or "", step.value) if kind == "goto" else (action.keys or "") == step.value
    found = page.element(step)
    if found is not None and kind == step.verb and action.element_id == found.node.node_id:
        return True
    if step.chooses and kind == "type" and action.element_id is not None:  # the option typed into its menu
        menu = page.node(action.element_id)
        return menu is not None and menu.role in MENU_ROLES and normalise_name(action.text or "") == normalise_name(
            step.name
        )
    return False


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


class ReferenceProgress:
    """The position along a task's reference steps, moved by the actions carried out."""

    def __init__(self, steps: list[ReferenceStep]) -> None:
        self.steps = steps
        self.position = 0
        self.target = 0  # the step the next action should do: the position, or a later step selection aimed at
        self._pending: tuple[Action | None, int, Page] | None = None  # chosen action, position after it, page

    def step(self, index: int) -> ReferenceStep | None:
        return self.steps[index] if 0 <= index < len(self.steps) else None

    @property
    def next_step(self) -> ReferenceStep | None:
        """The step the next action should do (None past the end)."""
        return self.step(self.target)

    def aim(self, index: int) -> None:
        """Let the next action do step `index`, passing over the steps before it."""
        self.target = max(self.position, index)

    def why_none_chosen(self, uncovered: str) -> str:
        """Aim back at the current step and say why no demonstration is chosen for it: the reference's stop is
        next, or else `uncovered` (how the remaining steps went uncovered)."""
        self.aim(self.position)
        step = self.step(self.position)
        if step is None or step.verb == "stop":
            return f"the reference solution's next step is its stop ({step.text if step else 'none left'})"
        return uncovered

    def position_after(self, action: Action | None, page: Page) -> int:
        """The position once `action`, chosen on `page`, is carried out."""
        if action is None:
            return self.position
        for index in dict.fromkeys((self.position, self.target)):
            step = self.step(index)
            if step is None or step.verb == "stop":
                continue
            if does(action, step, page):
                return index + 1
            following = self.step(index + 1)
            if step.verb == "clear" and following is not None and following.verb == "type":
                if following.target == step.target and does(action, following, page):
                    return index + 2  # typed straight into the field the solution clears first
        return self.position

    def on_track(self, action_text: str, page: Page) -> bool:
        """Whether an action, chosen on `page`, would do the next step (the position's or the aimed one), or
        clear the field that step types into (the replay policy clears a field before typing into it)."""
        action = parsed(action_text)
        if action is None:
            return False
        if self.position_after(action, page) > self.position:
            return True
        step = self.next_step
        found = page.element(step) if step is not None and step.verb in ("type", "clear") else None
        return action.kind.value == "clear" and found is not None and action.element_id == found.node.node_id

    def chose(self, action_text: str | None, page: Page) -> None:
        """The action the policy chose on `page` (its text, when the policy knows it); it counts once carried out."""
        action = parsed(action_text) if action_text else None
        self._pending = (action, self.position_after(action, page), page.frozen())

    def carried_out(self, step: Any) -> dict[str, Any] | None:
        """Move the position for what an episode step (`StepRecord`: its `action`, `ok` and, for a step of several
        commands, `commands`) carried out of the chosen action. Returns the record of the move, or None."""
        pending, self._pending = self._pending, None
        before = self.position
        if pending is not None:
            chosen, after, page = pending
            for action, ok in executed(step):
                if not ok or action is None:
                    break
                same = chosen is not None and (chosen.kind, chosen.element_id) == (action.kind, action.element_id)
                self.position = after if same and self.position == before else self.position_after(action, page)
                self.target = self.position
        self.target = self.position
        if self.position == before:
            return None
        return {"done": [step.text for step in self.steps[before : self.position]], "position": self.position}

    def record(self) -> dict[str, Any]:
        step = self.step(self.position)
        return {"position": self.position, "next": step.text if step else None, "of": len(self.steps)}
