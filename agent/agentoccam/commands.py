"""AgentOccam's reduced action space and how each command reaches the environment.

Page commands (click, type, go_back, stop, and scroll when enabled) are the
environment's own actions (`evaluation.actions`). The others never touch the page
through the environment's action list; the policy carries them out itself:

- `note [text]` keeps a fact under the active plan (no page change);
- `branch [parent_id] [intent]` adds a sub-plan (no page change);
- `prune [plan_id] [reason]` returns to a plan, and the browser to its page (`goto`);
- `go_home` returns to the task's start page (`goto`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from evaluation.actions import ActionKind, ActionParseError, parse_action

PAGE_COMMANDS = ("click", "type", "go_back", "stop", "scroll")
POLICY_COMMANDS = ("note", "go_home")
PLANNING_COMMANDS = ("branch", "prune")

_NOTE = re.compile(r"note\s*\[(.*)\]\s*$", re.I | re.S)
_PLAN = re.compile(r"(branch|prune)\s*\[\s*(\d+)\s*\]\s*\[(.*)\]\s*$", re.I | re.S)
_SCROLL_WITH_REASON = re.compile(r"(scroll\s*\[\s*(?:up|down)\s*\])\s*\[.*\]\s*$", re.I | re.S)
_KEYWORD = re.compile(r"\s*([a-z_]+)", re.I)


@dataclass(frozen=True)
class Command:
    kind: str  # click, type, go_back, stop, scroll, note, go_home, branch, prune
    text: str  # the command as the model wrote it
    argument: str = ""  # note text, plan intent or prune reason
    plan_id: int | None = None
    element_id: str | None = None  # click and type


def offered(actions: list[str], planning: bool) -> list[str]:
    """The commands of this configuration, in the order the prompt lists them."""
    known = PAGE_COMMANDS + POLICY_COMMANDS
    chosen = [name for name in actions if name in known]
    return chosen + (list(PLANNING_COMMANDS) if planning else [])


def parse_command(text: str, allowed: list[str]) -> Command:
    """The command in an ACTION section; ActionParseError (with a one-line reason) when there is none."""
    text = text.strip().strip("`").strip()
    keyword_match = _KEYWORD.match(text)
    keyword = keyword_match.group(1).lower() if keyword_match else ""
    if not keyword:
        raise ActionParseError("the ACTION section holds no command")
    if keyword not in allowed:
        raise ActionParseError(f"`{keyword}` is not one of the allowed commands ({', '.join(allowed)})")
    if keyword == "note":
        match = _NOTE.match(text)
        if match is None or not match[1].strip():
            raise ActionParseError("bad syntax: expected `note [content]`")
        return Command("note", text, match[1].strip())
    if keyword in PLANNING_COMMANDS:
        match = _PLAN.match(text)
        if match is None:
            second = "new_subplan_intent" if keyword == "branch" else "reason"
            raise ActionParseError(f"bad syntax: expected `{keyword} [plan_id] [{second}]`")
        return Command(keyword, text, match[3].strip(), int(match[2]))
    if keyword == "go_home":
        return Command("go_home", text)
    scroll = _SCROLL_WITH_REASON.match(text)
    action = parse_action(scroll[1] if scroll else text)
    if action.kind.value != keyword:
        raise ActionParseError(f"bad syntax {text[:80]!r}")
    element = action.element_id if action.kind in (ActionKind.CLICK, ActionKind.TYPE) else None
    return Command(keyword, scroll[1] if scroll else text, element_id=element)
