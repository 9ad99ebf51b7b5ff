"""AgentOccam's own reading of an ACTION (`agentoccam.parser: original`), rule for rule as its code reads it.

Its reading searches rather than matches, so more passes than our strict parser lets through:

- the ACTION is cut into commands where a line starts with a command's name; text before the
  first command makes the whole ACTION invalid, text after a command belongs to it;
- a command is valid when its name (the text before its first `[`) is known and, for
  `click [id]` and `type [id] [text] [0/1]`, when the pattern is found somewhere in it and
  the id is on the page: `click [12] (Orders)` passes; `goto [url]` passes though not offered;
- a note is everything after `note [`, one final `]` dropped: `note [x] because` keeps `x] because`;
- a branch or prune counts only when the ACTION starts with it, its text running to the last `]`;
- the page actions are cut again with its environment's longer list of names (`press`,
  `scroll`, `hover`... run when they start a line after an offered command) and run in order;
  one that does not fit its pattern voids them all;
- `go_home` anywhere, or a prune, replaces the page actions with that one `goto`.

The stop answer follows `agentoccam.stop_answer` (`stop_answer` below).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from evaluation.browser_env.actions import Action, ActionKind, ActionParseError, format_action, normalize_keys

# What its environment splits an ACTION into (more than the policy offers); the last three are not page actions.
ENVIRONMENT_COMMANDS = (
    "click", "hover", "type", "press", "scroll", "goto", "new_tab", "go_back", "go_forward", "tab_focus",
    "close tab", "stop", "select", "record", "branch", "prune", "note",
)  # fmt: skip
# Names its validity check accepts without looking further (the offered list decides what is cut out).
_ALWAYS_VALID = frozenset({"go_back", "go_home", "note", "stop", "branch", "prune", "goto", "scroll"})

_CLICK = re.compile(r"click ?\[(\d+)\]")
_HOVER = re.compile(r"hover ?\[(\d+)\]")
_TYPE = re.compile(r"type ?\[(\d+)\] ?\[(.*)\] ?\[(\d+)\]", re.S)
_PRESS = re.compile(r"press ?\[(.+)\]")
_SCROLL = re.compile(r"scroll ?\[?(up|down)\]?")
_GOTO = re.compile(r"goto ?\[(.+)\] \[(\d+)\]")
_TAB_FOCUS = re.compile(r"tab_focus ?\[(\d+)\]")
_STOP_ORIGINAL = re.compile(r"stop ?\[?(.+)\]?", re.S)
_STOP_BRACKETED = re.compile(r"stop\s*\[(.*)\]", re.I | re.S)
_NOTE = re.compile(r"note ?\[?(.+)", re.S)


def split(text: str, names: tuple[str, ...] | list[str]) -> list[str]:
    """The commands of `text`, each running until a line starts with one of `names`; [] when `text`
    does not start with one."""
    boundary = "|".join(map(re.escape, names))
    rest, parts = text, []
    while rest:
        found = False
        for name in names:  # as its loop does: later names are tried on what is left
            if rest.startswith(name):
                part = re.search(rf"({re.escape(name)}\s*(.*?))(?=\n(?:{boundary})|$)", rest, re.S)[0]
                parts.append(part)
                rest = rest[len(part) :].strip()
                found = True
        if not found:
            break
    return parts


def name_of(part: str) -> str:
    """A command's name: the text before its first `[`, else its first word."""
    return part.split("[")[0].strip() if "[" in part else (part.split() or [""])[0].strip()


def problem(part: str, on_page: Callable[[str], bool]) -> str | None:
    """Why AgentOccam refuses this command, None when it accepts it."""
    name = name_of(part)
    if name == "click":
        match = _CLICK.search(part)
        if match is None:
            return "bad syntax: expected `click [id]`"
        return None if on_page(match[1]) else f"element [{match[1]}] is not in the current observation"
    if name == "type":
        match = _TYPE.search(_with_flag(part))
        if match is None:
            return "bad syntax: expected `type [id] [content] [0|1]`"
        return None if on_page(match[1]) else f"element [{match[1]}] is not in the current observation"
    if name in _ALWAYS_VALID:
        return None
    return f"`{name}` is not a command"


def note_text(part: str) -> str | None:
    """The note a command holds (everything after `note [`, one final `]` dropped); None for other commands."""
    if "note [" not in part:
        return None
    text = _NOTE.search(part)[1]
    return text[:-1] if text.endswith("]") else text


def plan_command(action: str, planning: list[str]) -> tuple[str, int, str] | None:
    """(kind, plan id, text) when the ACTION starts with branch or prune; the text runs to the last `]`.
    ValueError when it starts with one but does not fit `kind [id] [text]`."""
    kind = next((name for name in planning if action.startswith(name)), None)
    if kind is None:
        return None
    match = re.search(rf"{kind} ?\[(\d+)\] ?\[(.+)\]", action, re.S)
    if match is None:
        raise ValueError(f"bad syntax: expected `{kind} [plan_id] [text]`")
    return kind, int(match[1]), match[2]


def stop_answer(part: str, style: str) -> str:
    """A stop's answer: "original" keeps all after `stop [` but one final `]`; "bracketed" runs to the last `]`."""
    if style == "bracketed":
        match = _STOP_BRACKETED.search(part)
        return match[1].strip() if match else ""
    match = _STOP_ORIGINAL.search(part)
    if match is None:
        return ""
    answer = match[1]
    return answer[:-1] if answer.endswith("]") else answer


def page_actions(action: str, stop_style: str) -> list[str]:
    """The page actions its environment runs for this ACTION, in order, as our canonical texts;
    ActionParseError when one does not fit its pattern (then none runs)."""
    texts = []
    for part in split(action, ENVIRONMENT_COMMANDS):
        built = _action(part, stop_style)
        if built is not None:
            texts.append(format_action(built))
    return texts


def _action(part: str, stop_style: str) -> Action | None:
    name = name_of(part)
    simple = {"new_tab": ActionKind.NEW_TAB, "go_back": ActionKind.GO_BACK, "go_forward": ActionKind.GO_FORWARD}
    if name in simple:
        return Action(simple[name])
    if name == "stop":
        return Action(ActionKind.STOP, answer=stop_answer(part, stop_style))
    if name in ("click", "hover"):
        match = (_CLICK if name == "click" else _HOVER).search(part)
        return Action(ActionKind(name), element_id=_found(match, part)[1])
    if name == "type":
        match = _found(_TYPE.search(_with_flag(part)), part)
        return Action(ActionKind.TYPE, element_id=match[1], text=match[2], press_enter=match[3] == "1")
    if name == "press":
        return Action(ActionKind.PRESS, keys=normalize_keys(_found(_PRESS.search(part), part)[1]))
    if name == "scroll":
        return Action(ActionKind.SCROLL, direction=_found(_SCROLL.search(part), part)[1])
    if name == "goto":
        return Action(ActionKind.GOTO, url=_found(_GOTO.search(_with_flag(part)), part)[1])
    if name == "tab_focus":
        return Action(ActionKind.TAB_FOCUS, tab_index=int(_found(_TAB_FOCUS.search(part), part)[1]))
    return None  # note, branch, prune, and select/record, which our environment has no counterpart for


def _with_flag(part: str) -> str:
    """A missing final `[0]`/`[1]` means `[1]`, as its code appends it before matching."""
    return part if part.endswith("[0]") or part.endswith("[1]") else part + " [1]"


def _found(match: re.Match[str] | None, part: str) -> re.Match[str]:
    if match is None:
        raise ActionParseError(f"invalid {name_of(part)} action {part[:80]!r}")
    return match
