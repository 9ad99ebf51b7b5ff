"""VideoWA's early-stop rules (VisualWebArena's runner), checked after every step in `agent.early_stop: videowa`.

The episode ends, answering "Early stop: <reason>" (which string_match then scores
like any answer), when:
  - the step limit is reached: "Reach max steps N";
  - the last K replies could not be parsed: "Failed to parse actions for K times";
  - the last action is not `type` and the last R actions are all equivalent to it:
    "Same action for R times";
  - the last action is `type` and R actions of the whole episode are equivalent to
    it (the same element, whatever was typed): "Same typing action for R times".
Equivalence follows the reference: element actions compare the element id only,
scrolls the direction, key presses the keys, goto the URL, tab_focus the tab,
stop the answer; new_tab, go_back, go_forward and close_tab are always equivalent.
"""

from __future__ import annotations

from evaluation.browser_env.actions import Action, ActionKind

ANSWER_PREFIX = "Early stop: "


def equivalent(a: Action, b: Action) -> bool:
    if a.kind is not b.kind:
        return False
    kind = a.kind
    if kind in (ActionKind.CLICK, ActionKind.HOVER, ActionKind.TYPE, ActionKind.CLEAR):
        return a.element_id is not None and a.element_id == b.element_id
    if kind is ActionKind.SCROLL:
        return a.direction == b.direction
    if kind is ActionKind.PRESS:
        return a.keys == b.keys
    if kind is ActionKind.GOTO:
        return a.url == b.url
    if kind is ActionKind.TAB_FOCUS:
        return a.tab_index == b.tab_index
    if kind is ActionKind.STOP:
        return a.answer == b.answer
    return True  # new_tab, go_back, go_forward, close_tab


def stop_reason(
    actions: list[Action | None], max_steps: int, parse_failures: int, repeats: int
) -> tuple[str, str] | None:
    """(stop_reason, reason text) when the reference would stop now; `actions` holds every step so far,
    None for a reply that gave no action."""
    if len(actions) >= max_steps:
        return "max_steps", f"Reach max steps {max_steps}"
    recent = actions[-parse_failures:]
    if len(recent) >= parse_failures and all(action is None for action in recent):
        return "parse_failures", f"Failed to parse actions for {parse_failures} times"
    if not actions or actions[-1] is None:
        return None
    last = actions[-1]
    if last.kind is not ActionKind.TYPE:
        recent = actions[-repeats:]
        if len(recent) >= repeats and all(action is not None and equivalent(action, last) for action in recent):
            return "repeated_action", f"Same action for {repeats} times"
    elif sum(1 for action in actions if action is not None and equivalent(action, last)) >= repeats:
        return "repeated_action", f"Same typing action for {repeats} times"
    return None
