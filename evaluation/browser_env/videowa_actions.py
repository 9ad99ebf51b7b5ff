"""Reading a reply's action the way VideoWA's runner does (`agent.action_parser: videowa`).

The reference (VisualWebArena's prompt agent) takes the text between the first two
``` marks of the reply (a language tag after the opening fence stays part of it),
names the action by what comes before the first "[" (or the first word when there
is no "["), and then *searches* that text for the action's pattern, so trailing
words pass: `click [12] to open the menu` clicks 12, `stop [N/A] because ...`
answers "N/A", and `scroll down` scrolls. A reply without a closed fence, an
unknown action name (names are case-sensitive) or a pattern that is not found is
a parse failure, as there. Our own parser (`evaluation.browser_env.actions.parse_action`) is
stricter about the action and looser about the fence; it stays the default.
"""

from __future__ import annotations

import re
from typing import Callable

from evaluation.browser_env.actions import Action, ActionKind, ActionParseError, normalize_keys, parse_action
from model_access.replies import strip_thinking

# The reference's fence: the shortest text between the first ``` and the next one.
_FENCE = re.compile(r"```((.|\n)*?)```")
_ELEMENT = {
    "click": (ActionKind.CLICK, re.compile(r"click ?\[(\d+)\]")),
    "clear": (ActionKind.CLEAR, re.compile(r"clear ?\[(\d+)\]")),
    "hover": (ActionKind.HOVER, re.compile(r"hover ?\[(\d+)\]")),
}
_TYPE = re.compile(r"type ?\[(\d+)\] ?\[(.+)\] ?\[(\d+)\]")
_PRESS = re.compile(r"press ?\[(.+)\]")
_SCROLL = re.compile(r"scroll ?\[?(up|down)\]?")
_GOTO = re.compile(r"goto ?\[(.+)\]")
_TAB_FOCUS = re.compile(r"tab_focus ?\[(\d+)\]")
_STOP = re.compile(r"stop ?\[(.+)\]")
_BARE = {
    "new_tab": ActionKind.NEW_TAB,
    "go_back": ActionKind.GO_BACK,
    "go_forward": ActionKind.GO_FORWARD,
    "close_tab": ActionKind.CLOSE_TAB,
}


def parse_videowa_action(reply: str) -> Action:
    """The action of `reply` as VideoWA's runner reads it; raises ActionParseError otherwise."""
    # <think> sections are dropped first: the reference's models never wrote them, ours may.
    match = _FENCE.search(strip_thinking(reply))
    if match is None:
        raise ActionParseError("no ``` fenced block with the action (the reference reads only the first one)")
    return _from_text(match.group(1).strip())


def _from_text(text: str) -> Action:
    raw = text
    if "[" in text:
        name = text.split("[")[0].strip()
    else:
        words = text.split()
        if not words:
            raise ActionParseError("the first fenced block is empty")
        name = words[0]
    if name in _ELEMENT:
        kind, pattern = _ELEMENT[name]
        found = pattern.search(text)
        if found is None:
            raise ActionParseError(f"invalid {name} action {text!r}")
        return Action(kind, element_id=found[1], raw=raw)
    if name == "type":
        # The reference adds the Enter flag when the text does not end in [0] or [1].
        if not (text.endswith("[0]") or text.endswith("[1]")):
            text += " [1]"
        found = _TYPE.search(text)
        if found is None:
            raise ActionParseError(f"invalid type action {raw!r}")
        return Action(ActionKind.TYPE, element_id=found[1], text=found[2], press_enter=found[3] == "1", raw=raw)
    if name == "press":
        found = _PRESS.search(text)
        if found is None:
            raise ActionParseError(f"invalid press action {text!r}")
        return Action(ActionKind.PRESS, keys=_keys(found[1]), raw=raw)
    if name == "scroll":
        found = _SCROLL.search(text)
        if found is None:
            raise ActionParseError(f"invalid scroll action {text!r}")
        return Action(ActionKind.SCROLL, direction=found[1], raw=raw)
    if name == "goto":
        found = _GOTO.search(text)
        if found is None:
            raise ActionParseError(f"invalid goto action {text!r}")
        return Action(ActionKind.GOTO, url=found[1], raw=raw)
    if name == "tab_focus":
        found = _TAB_FOCUS.search(text)
        if found is None:
            raise ActionParseError(f"invalid tab_focus action {text!r}")
        return Action(ActionKind.TAB_FOCUS, tab_index=int(found[1]), raw=raw)
    if name in _BARE:
        return Action(_BARE[name], raw=raw)
    if name == "stop":
        found = _STOP.search(text)  # no bracket, or an empty one: an empty answer
        return Action(ActionKind.STOP, answer=found[1] if found else "", raw=raw)
    raise ActionParseError(f"invalid action {text!r}")


def _keys(keys: str) -> str:
    """Our key names where they apply; the reference hands any other text to the browser as it is."""
    try:
        return normalize_keys(keys)
    except ActionParseError:
        return keys


def reply_parser(name: str) -> Callable[[str], Action]:
    """The parser `agent.action_parser` names: "default" (ours) or "videowa" (the reference's)."""
    if name == "videowa":
        return parse_videowa_action
    if name == "default":
        return parse_action
    raise ValueError(f"agent.action_parser is {name!r}; use 'default' or 'videowa'")
