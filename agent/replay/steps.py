"""Turning one demonstrated step into an action on the live page (the replay policy's hands).

`StepPlanner.plan(actions, position, page)` returns the `Plan` for step `position`
of a demonstration, or None when it cannot be done here:
- clicks: the demonstrated element, or the task's thing in its place (a product
  link, a forum, an order number, the object of "Subscribe to food") when that is
  on the page and, if the demonstrated element is there too, in the same list;
- typing: the field (or the one the task names, "first name"), the task's value
  when the demonstration's is not the task's; a field holding other text is
  cleared first; Enter for search fields or when the video pressed it next;
- choosing: the menu, and the option the task names;
- keys as pressed; addresses moved to the host the task runs on.
One planner per policy; `begin` starts an episode, `commit` notes what a carried-out
plan used (values typed, the field just cleared).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import urlsplit, urlunsplit

from agent.replay.grounding import Grounder, Grounding, PageView, anchor_nodes, field_value, options_of
from agent.videos.intent_values import (
    IntentValue,
    Substitution,
    choose_option,
    choose_typed_value,
    mentioned_in,
    thing_values,
)
from evaluation.browser_env.ax_tree import TreeNode
from processing.objectives.wording import starts_with_verb, url_path
from foundation.records.trajectory import LabeledAction

if TYPE_CHECKING:
    from agent.replay.oracle_grounding import OracleGrounder

_OBJECT = re.compile(r"^(\S+(?:\s+(?:to|from|on|for|in|into|of))?)\s+(.+)$")
CLEARABLE = frozenset({"textbox", "searchbox", "spinbutton", "textarea"})  # fields whose text `clear` removes
_KEYS = {"enter": "Enter", "return": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape", "space": "Space"}


@dataclass
class Plan:
    """The action that carries out a demonstrated step here, and what it was based on."""

    action: str
    advance: int  # demonstrated steps it completes (0: a preparation such as clearing a field)
    grounding: Grounding | None = None
    substitutions: list[Substitution] = field(default_factory=list)
    note: str = ""

    @property
    def similarity(self) -> float | None:
        return self.grounding.similarity if self.grounding else None

    def describe(self) -> str:
        """Where it acts, for selection records."""
        if self.grounding is None:
            return self.action
        g = self.grounding
        return f"[{g.node.node_id}] {g.node.role} {g.node.name!r}, similarity {g.similarity:.2f}, {g.where}"

    def record(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action}
        if self.grounding is not None:
            data["grounded"] = self.grounding.to_dict()
        if self.substitutions:
            data["substitutions"] = [s.to_dict() for s in self.substitutions]
        if self.note:
            data["note"] = self.note
        return data


class StepPlanner:
    def __init__(
        self, grounder: Grounder | OracleGrounder, substitution_floor: float, page_url: Callable[[], str]
    ) -> None:
        self.grounder = grounder
        self.substitution_floor = substitution_floor
        self.page_url = page_url  # the current page's address ("" when unknown)
        self.begin("", [])

    @property
    def _oracle(self) -> bool:
        """Grounding by the reference solution (agent/replay/oracle_grounding.py), not by names."""
        return getattr(self.grounder, "is_oracle", False)

    def begin(self, intent: str, values: list[IntentValue]) -> None:
        self.intent = intent
        self.values = values
        self.used_values: set[str] = set()
        self.cleared: str | None = None  # the field cleared by the last step, typed into next

    def commit(self, plan: Plan) -> None:
        self.cleared = plan.grounding.node.node_id if plan.action.startswith("clear") and plan.grounding else None
        if plan.advance:
            self.used_values.update(substitution.used for substitution in plan.substitutions)

    def plan(self, actions: list[LabeledAction], position: int, page: PageView) -> Plan | None:
        action = actions[position]
        if self._oracle:  # the grounding oracle compares the step itself with the reference's next step
            self.grounder.demonstrated, self.grounder.intent = action, self.intent  # type: ignore[union-attr]
        following = actions[position + 1] if position + 1 < len(actions) else None
        if action.kind in ("click", "right_click"):
            return self._plan_click(action, page)
        if action.kind == "type":
            return self._plan_type(action, following, page)
        if action.kind == "select":
            return self._plan_select(action, page)
        if action.kind == "press":
            key = _KEYS.get(action.text.strip().lower(), action.text.strip())
            return Plan(f"press [{key}]", 1) if key else None
        if action.kind == "goto":
            url = self._rebased(action.text)
            return Plan(f"goto [{url}]", 1, note="the demonstrated address on this site") if url else None
        return None

    def _anchors(self, nodes: list[TreeNode]) -> list[TreeNode]:
        return anchor_nodes(nodes, [value.text for value in thing_values(self.values)])

    def _plan_click(self, action: LabeledAction, page: PageView) -> Plan | None:
        target = action.target.strip()
        floor = self.substitution_floor
        own = self.grounder.ground(target, "click", page, self._anchors)
        if self._oracle:  # the grounding oracle's element is the solution's: nothing to put in its place
            return Plan(f"click [{own.node.node_id}]", 1, own) if own is not None else None
        best: tuple[Grounding, Substitution] | None = None
        for rewritten, substitution in self._click_rewrites(target):
            found = self.grounder.ground(rewritten, "click", page, self._anchors)
            if found is None or found.similarity < floor:
                continue
            if best is not None and found.similarity <= best[0].similarity:
                continue
            # The demonstrated element is on this page too: only a sibling of it (same list) stands in for it.
            if own is not None and own.similarity >= floor and not _same_list(own.node, found.node):
                continue
            best = (found, substitution)
        if best is not None:
            return Plan(f"click [{best[0].node.node_id}]", 1, best[0], [best[1]])
        return Plan(f"click [{own.node.node_id}]", 1, own) if own is not None else None

    def _click_rewrites(self, target: str) -> list[tuple[str, Substitution]]:
        """The demonstrated click target with the task's thing put in place of the demonstrated one."""
        intent = self.intent
        if not target or mentioned_in(target, intent):
            return []
        things = thing_values(self.values)
        if re.fullmatch(r"\d{5,}", target):
            numbers = [v for v in things if v.kind == "long_number"]
            return [(v.text, Substitution(target, v.text, v.kind, "the task's number")) for v in numbers]
        if not starts_with_verb(target):
            return [(v.text, Substitution(target, v.text, v.kind, f"the task's {v.kind} instead")) for v in things]
        if len(target.split()) == 1:  # a bare verb ("Subscribe") whose object the video did not show
            return [(f"{target} {v.text}", Substitution("", v.text, v.kind, f"the task's {v.kind} as its object"))
                    for v in things]  # fmt: skip
        match = _OBJECT.match(target)
        if match is None or mentioned_in(match.group(2), intent):
            return []
        return [
            (f"{match.group(1)} {v.text}", Substitution(match.group(2), v.text, v.kind, f"the task's {v.kind} instead"))
            for v in things
        ]

    def _plan_type(self, action: LabeledAction, following: LabeledAction | None, page: PageView) -> Plan | None:
        found = self._field(action.target, "type", page)
        if found is None:
            return None
        node = found.node
        search = node.role == "searchbox" or "search" in f"{action.target} {node.name}".lower()
        substitution = choose_typed_value(
            action.text, node.name or action.target, self.intent, self.values, self.used_values, search
        )
        text = " ".join((substitution.used if substitution else action.text).split()).replace("]", ")")
        substitutions = [substitution] if substitution else []
        current = field_value(node)
        if current and current.strip() != text.strip() and node.role in CLEARABLE and node.node_id != self.cleared:
            note = f"the field holds {current!r}: cleared first"
            return Plan(f"clear [{node.node_id}]", 0, found, substitutions, note=note)
        presses_enter = (
            following is not None and following.kind == "press" and following.text.lower() in ("enter", "return")
        )
        enter = 1 if (search or presses_enter) else 0
        return Plan(f"type [{node.node_id}] [{text}] [{enter}]", 2 if presses_enter else 1, found, substitutions)

    def _plan_select(self, action: LabeledAction, page: PageView) -> Plan | None:
        found = self._field(action.target, "select", page)
        if found is None:
            return None
        if self._oracle and found.node.role == "option":  # the solution clicks the option itself
            return Plan(f"click [{found.node.node_id}]", 1, found)
        nodes = page.all_nodes() if found.where != "in view" else page.view
        substitution = choose_option(action.text, options_of(nodes, found.node), self.intent)
        option = (substitution.used if substitution else action.text).replace("]", ")").strip()
        if not option:
            return None  # neither the video nor the task says which option: nothing to replay
        return Plan(f"type [{found.node.node_id}] [{option}] [0]", 1, found, [substitution] if substitution else [])

    def _field(self, target: str, kind: str, page: PageView) -> Grounding | None:
        """The field or menu for `target`, or a field of the same kind that the task names instead ("first name")."""
        found = self.grounder.ground(target, kind, page, self._anchors)
        intent = self.intent
        if found is None or self._oracle or mentioned_in(target, intent):
            return found
        nodes = page.all_nodes() if found.where != "in view" else page.view
        named = [
            n for n in nodes
            if n.role == found.node.role and len(n.name.split()) >= 2 and mentioned_in(n.name, intent)
        ]  # fmt: skip
        if not named or named[0].node_id == found.node.node_id:
            return found
        note = [{"note": f"the task names the field {named[0].name!r} instead of {target!r}"}]
        return Grounding(named[0], 1.0, found.where, target, note)

    def _rebased(self, url: str) -> str:
        """A demonstrated address moved to the site the task runs on: its path on this page's host (the video's
        host and port are those of the recording, and an address read off a video often lacks its scheme)."""
        path = url_path(url)
        here = urlsplit(self.page_url()) if self.page_url() else None
        if not path or here is None or not here.netloc:
            return url.strip() if "://" in url else ""
        return urlunsplit((here.scheme, here.netloc, "", "", "")) + path


def _same_list(a: TreeNode, b: TreeNode) -> bool:
    """Whether two elements look like items of one list: same role, same height, aligned in a column or a row."""
    if a.role != b.role or a.rect is None or b.rect is None:
        return False
    ax, ay, _, ah = a.rect
    bx, by, _, bh = b.rect
    return abs(ah - bh) <= 6 and (abs(ax - bx) <= 4 or abs(ay - by) <= 4)
