"""AgentOccam's reduced action space, read strictly (`agentoccam.parser: strict`, ours), and how each
command reaches the environment (`original.py` reads an ACTION as AgentOccam's code does).

Page commands (click, type, go_back, stop, and scroll when enabled) are the
environment's own actions (`evaluation.browser_env.actions`). The others never touch the page
through the environment's action list; the policy carries them out itself:

- `note [text]` keeps a fact under the active plan (no page change);
- `branch [parent_id] [intent]` adds a sub-plan (no page change);
- `prune [plan_id] [reason]` returns to a plan, and the browser to its page (`goto`);
- `go_home` opens the home page that lists the sites (`goto`).

An ACTION may hold several commands, each starting a line (`note [..]` then
`click [..]`), as AgentOccam allows; a line that starts no command continues the one
before (a note over two lines, or a remark after a click). Every page command runs,
in order, in one step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.base.agentoccam import original
from evaluation.browser_env.actions import ActionKind, ActionParseError, format_action, parse_action

PAGE_COMMANDS = ("click", "type", "go_back", "stop", "scroll")
POLICY_COMMANDS = ("note", "go_home")
PLANNING_COMMANDS = ("branch", "prune")
# Any command a model may write, offered or not: each starts a new command of an ACTION.
_ANY_COMMAND = re.compile(
    r"^\s*(click|type|go_back|go_forward|go_home|stop|scroll|note|branch|prune|hover|press|goto|new_tab|"
    r"tab_focus|close_tab|select|clear)\b",
    re.I | re.M,
)

_NOTE = re.compile(r"note\s*\[(.*)\]\s*$", re.I | re.S)
_PLAN = re.compile(r"(branch|prune)\s*\[\s*(\d+)\s*\]\s*\[(.*)\]\s*$", re.I | re.S)
_SCROLL_WITH_REASON = re.compile(r"(scroll\s*\[\s*(?:up|down)\s*\])\s*\[.*\]\s*$", re.I | re.S)
_KEYWORD = re.compile(r"\s*([a-z_]+)", re.I)


@dataclass(frozen=True)
class Command:
    kind: str  # click, type, go_back, stop, scroll, note, go_home, branch, prune
    text: str  # the command as it goes on (the model's words, or its answer's normal form for stop)
    argument: str = ""  # note text, plan intent or prune reason
    plan_id: int | None = None
    element_id: str | None = None  # click and type

    @property
    def touches_page(self) -> bool:
        return self.kind in PAGE_COMMANDS or self.kind in ("go_home", "prune")


def offered(actions: list[str], planning: bool) -> list[str]:
    """The commands of this configuration, in the order the prompt lists them."""
    known = PAGE_COMMANDS + POLICY_COMMANDS
    chosen = [name for name in actions if name in known]
    return chosen + (list(PLANNING_COMMANDS) if planning else [])


def split_commands(text: str) -> list[str]:
    """The commands of an ACTION section, each with the lines that continue it."""
    text = text.strip().strip("`").strip()
    starts = [match.start() for match in _ANY_COMMAND.finditer(text)]
    if not starts or text[: starts[0]].strip():
        return [text] if text else []  # text before the first command: one bad command, said so when parsed
    return [text[start:end].strip() for start, end in zip(starts, starts[1:] + [len(text)])]


def parse_commands(text: str, allowed: list[str], stop_answer: str = "bracketed") -> list[Command]:
    """Every command in an ACTION section; ActionParseError (with a one-line reason) at the first bad one.
    `stop_answer` is how a stop's answer is read (`agentoccam.stop_answer`)."""
    parts = split_commands(text)
    if not parts:
        raise ActionParseError("the ACTION section holds no command")
    return [parse_command(part, allowed, stop_answer) for part in parts]


def parse_command(text: str, allowed: list[str], stop_answer: str = "bracketed") -> Command:
    """One command; ActionParseError (with a one-line reason) when it is not one of `allowed`."""
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
        return Command("go_home", "go_home")
    if keyword == "stop":
        answer = original.stop_answer(text, stop_answer)
        return Command("stop", f"stop [{answer}]", answer)
    scroll = _SCROLL_WITH_REASON.match(text)
    command = scroll[1] if scroll else text
    try:
        action = parse_action(command)
    except ActionParseError:
        first = command.splitlines()[0] if "\n" in command else ""
        if not first:
            raise
        action = parse_action(first)  # a remark on the lines after the command
    if action.kind.value != keyword:
        raise ActionParseError(f"bad syntax {text[:80]!r}")
    element = action.element_id if action.kind in (ActionKind.CLICK, ActionKind.TYPE) else None
    return Command(keyword, format_action(action), element_id=element)
