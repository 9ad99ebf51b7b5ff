"""The text action space of VideoWA: parsing a model's reply into an `Action` and back.

Syntax (one action per step):

    click [id]            hover [id]            clear [id]
    type [id] [text] [0|1]   (1, the default, presses Enter after typing)
    press [keys]          (Playwright key names joined by '+', e.g. Control+a)
    scroll [up|down]      (`scroll [direction=down]`, WebArena's spelling, is accepted too)
    new_tab   tab_focus [index]   close_tab
    goto [url]   go_back   go_forward
    stop [answer]         (the answer may be empty and may contain brackets; bare `stop` = empty)

Where the action is taken from: the first fenced block (``` with or without a
language tag) of the reply. A reply with no fence is accepted only when the
whole reply, stripped, is itself one valid action; anything else is a parse
error, so a chatty reply never has an action guessed out of its prose. When a
fenced block holds several lines and does not parse as a whole, its first
non-empty line is tried, so "click [3]" followed by a stray comment still works.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from enum import Enum


class ActionParseError(ValueError):
    """The reply holds no valid action; `reason` says why in one line."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ActionKind(str, Enum):
    CLICK = "click"
    HOVER = "hover"
    TYPE = "type"
    CLEAR = "clear"
    PRESS = "press"
    SCROLL = "scroll"
    NEW_TAB = "new_tab"
    TAB_FOCUS = "tab_focus"
    CLOSE_TAB = "close_tab"
    GOTO = "goto"
    GO_BACK = "go_back"
    GO_FORWARD = "go_forward"
    STOP = "stop"


ELEMENT_KINDS = frozenset({ActionKind.CLICK, ActionKind.HOVER, ActionKind.TYPE, ActionKind.CLEAR})


@dataclass(frozen=True)
class Action:
    kind: ActionKind
    element_id: str | None = None
    text: str | None = None  # typed text (type)
    press_enter: bool = False  # type: press Enter after typing
    keys: str | None = None  # press
    direction: str | None = None  # scroll: "up" | "down"
    url: str | None = None  # goto
    tab_index: int | None = None  # tab_focus
    answer: str | None = None  # stop
    raw: str = field(default="", compare=False)  # the text the action was parsed from

    def to_dict(self) -> dict:
        data = asdict(self)
        data["kind"] = self.kind.value
        return {key: value for key, value in data.items() if value is not None}

    @classmethod
    def from_dict(cls, data: dict) -> Action:
        return cls(**{**data, "kind": ActionKind(data["kind"])})


# Common spellings of modifier and special keys mapped to Playwright's names.
_KEY_ALIASES = {
    "ctrl": "Control",
    "control": "Control",
    "cmd": "Meta",
    "command": "Meta",
    "meta": "Meta",
    "win": "Meta",
    "alt": "Alt",
    "option": "Alt",
    "shift": "Shift",
    "enter": "Enter",
    "return": "Enter",
    "esc": "Escape",
    "escape": "Escape",
    "del": "Delete",
    "delete": "Delete",
    "backspace": "Backspace",
    "tab": "Tab",
    "space": "Space",
    "spacebar": "Space",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "home": "Home",
    "end": "End",
    "insert": "Insert",
}

_FENCE = re.compile(r"```(.*?)```", re.DOTALL)
_ID = r"\[\s*(\d+)\s*\]"
_PATTERNS: list[tuple[ActionKind, re.Pattern[str]]] = [
    (ActionKind.CLICK, re.compile(rf"click\s*{_ID}", re.I)),
    (ActionKind.HOVER, re.compile(rf"hover\s*{_ID}", re.I)),
    (ActionKind.CLEAR, re.compile(rf"clear\s*{_ID}", re.I)),
    (ActionKind.PRESS, re.compile(r"press\s*\[(.+)\]", re.I | re.S)),
    (ActionKind.SCROLL, re.compile(r"scroll\s*\[\s*(?:direction\s*=\s*)?(up|down)\s*\]", re.I)),
    (ActionKind.NEW_TAB, re.compile(r"new_tab", re.I)),
    (ActionKind.TAB_FOCUS, re.compile(r"tab_focus\s*\[\s*(\d+)\s*\]", re.I)),
    (ActionKind.CLOSE_TAB, re.compile(r"close_tab", re.I)),
    (ActionKind.GOTO, re.compile(r"goto\s*\[(.+)\]", re.I | re.S)),
    (ActionKind.GO_BACK, re.compile(r"go_back", re.I)),
    (ActionKind.GO_FORWARD, re.compile(r"go_forward", re.I)),
]
# `type` is tried with the Enter flag first: a greedy text group would otherwise swallow "[1]".
_TYPE_WITH_FLAG = re.compile(rf"type\s*{_ID}\s*\[(.*)\]\s*\[\s*([01])\s*\]", re.I | re.S)
_TYPE_NO_FLAG = re.compile(rf"type\s*{_ID}\s*\[(.*)\]", re.I | re.S)
_STOP = re.compile(r"stop\s*(?:\[(.*)\])?", re.I | re.S)
_KEYWORD = re.compile(r"[a-z_]+", re.I)


def extract_action_text(reply: str) -> str:
    """The action text of a reply: the body of its first fenced block, else the whole reply."""
    match = _FENCE.search(reply)
    if match is None:
        if "```" in reply:
            raise ActionParseError("the reply opens a ``` block but never closes it")
        return reply.strip()
    body = match.group(1)
    first_line, newline, rest = body.partition("\n")
    # A lone word on the fence line is a language tag (```text), unless it is the whole block.
    if newline and rest.strip() and re.fullmatch(r"[\w+-]*", first_line.strip()):
        body = rest
    return body.strip()


def parse_action(reply: str) -> Action:
    """Parse the action of a model reply; raises ActionParseError with the reason."""
    text = extract_action_text(reply)
    if not text:
        raise ActionParseError("the reply holds no action (empty code block or empty reply)")
    try:
        return _parse_one(text)
    except ActionParseError:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(lines) > 1:
            return _parse_one(lines[0])
        raise


# A line that starts with an action's name starts the next action of a block of several.
_ACTION_START = re.compile(rf"^[ \t]*(?:{'|'.join(kind.value for kind in ActionKind)})\b", re.M)


def parse_actions(reply: str) -> list[Action]:
    """Every action of a block that holds several, one starting each line (a line that starts none
    continues the one before, as a typed text or an answer over two lines); raises ActionParseError."""
    text = extract_action_text(reply)
    starts = [match.start() for match in _ACTION_START.finditer(text)]
    if len(starts) < 2 or text[: starts[0]].strip():
        return [parse_action(reply)]
    return [_parse_one(text[start:end]) for start, end in zip(starts, starts[1:] + [len(text)])]


def _parse_one(text: str) -> Action:
    raw = text
    text = text.strip()
    keyword_match = _KEYWORD.match(text)
    keyword = keyword_match.group(0).lower() if keyword_match else ""

    if keyword == "type":
        match = _TYPE_WITH_FLAG.fullmatch(text)
        if match:
            return Action(ActionKind.TYPE, element_id=match[1], text=match[2], press_enter=match[3] == "1", raw=raw)
        match = _TYPE_NO_FLAG.fullmatch(text)
        if match:
            return Action(ActionKind.TYPE, element_id=match[1], text=match[2], press_enter=True, raw=raw)
        raise ActionParseError(f"bad syntax {_clip(text)!r}: expected `type [id] [text] [0|1]`")

    if keyword == "stop":
        match = _STOP.fullmatch(text)
        if match:
            return Action(ActionKind.STOP, answer=match[1] or "", raw=raw)
        raise ActionParseError(f"bad syntax {_clip(text)!r}: expected `stop [answer]`")

    for kind, pattern in _PATTERNS:
        if keyword != kind.value:
            continue
        match = pattern.fullmatch(text)
        if match is None:
            raise ActionParseError(f"bad syntax {_clip(text)!r}: expected `{_USAGE[kind]}`")
        return _build(kind, match, raw)

    known = ", ".join(kind.value for kind in ActionKind)
    raise ActionParseError(f"unknown action {_clip(text)!r}; valid actions: {known}")


def _build(kind: ActionKind, match: re.Match[str], raw: str) -> Action:
    if kind in ELEMENT_KINDS:
        return Action(kind, element_id=match[1], raw=raw)
    if kind is ActionKind.PRESS:
        return Action(kind, keys=normalize_keys(match[1]), raw=raw)
    if kind is ActionKind.SCROLL:
        return Action(kind, direction=match[1].lower(), raw=raw)
    if kind is ActionKind.TAB_FOCUS:
        return Action(kind, tab_index=int(match[1]), raw=raw)
    if kind is ActionKind.GOTO:
        url = match[1].strip()
        if not url:
            raise ActionParseError("goto needs a URL: `goto [url]`")
        return Action(kind, url=url, raw=raw)
    return Action(kind, raw=raw)


_USAGE = {
    ActionKind.CLICK: "click [id]",
    ActionKind.HOVER: "hover [id]",
    ActionKind.CLEAR: "clear [id]",
    ActionKind.PRESS: "press [keys]",
    ActionKind.SCROLL: "scroll [up|down]",
    ActionKind.NEW_TAB: "new_tab",
    ActionKind.TAB_FOCUS: "tab_focus [index]",
    ActionKind.CLOSE_TAB: "close_tab",
    ActionKind.GOTO: "goto [url]",
    ActionKind.GO_BACK: "go_back",
    ActionKind.GO_FORWARD: "go_forward",
}


def normalize_keys(keys: str) -> str:
    """'ctrl+A' -> 'Control+a'-style Playwright names; single characters are kept as typed."""
    keys = keys.strip()
    if not keys:
        raise ActionParseError("press needs a key: `press [Enter]` or `press [Control+a]`")
    if keys == "+":
        return keys
    parts = [part.strip() for part in keys.split("+")]
    if any(not part for part in parts):
        raise ActionParseError(f"bad key combination {keys!r}: write keys joined by '+', e.g. Control+a")
    return "+".join(_KEY_ALIASES.get(part.lower(), part) for part in parts)


def format_action(action: Action) -> str:
    """The canonical text of an action; `parse_action(format_action(a)) == a`."""
    kind = action.kind
    if kind in (ActionKind.CLICK, ActionKind.HOVER, ActionKind.CLEAR):
        return f"{kind.value} [{action.element_id}]"
    if kind is ActionKind.TYPE:
        return f"type [{action.element_id}] [{action.text}] [{1 if action.press_enter else 0}]"
    if kind is ActionKind.PRESS:
        return f"press [{action.keys}]"
    if kind is ActionKind.SCROLL:
        return f"scroll [{action.direction}]"
    if kind is ActionKind.TAB_FOCUS:
        return f"tab_focus [{action.tab_index}]"
    if kind is ActionKind.GOTO:
        return f"goto [{action.url}]"
    if kind is ActionKind.STOP:
        return f"stop [{action.answer or ''}]"
    return kind.value


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
