"""Our actions (evaluation/browser_env/actions.py) as calls of BrowserGym's high-level action set.

| ours | BrowserGym |
| --- | --- |
| `click [id]` | `click("id")`; on an option of a `<select>`: `select_option("select id", "label")` |
| `hover [id]` / `clear [id]` | `hover("id")` / `clear("id")` |
| `type [id] [text] [1]` | `fill("id", "text")` then `press("id", "Enter")` (`[0]`: no Enter) |
| `press [keys]` | `keyboard_press("keys")` |
| `scroll [down]` / `[up]` | `scroll(0, ±viewport height)` |
| `goto [url]`, `go_back`, `go_forward` | the same names |
| `new_tab`, `tab_focus [i]`, `close_tab` | `new_tab()`, `tab_focus(i)`, `tab_close()` |
| `stop [answer]` | `send_msg_to_user("answer")` |

BrowserGym's `fill` replaces a field's text, where our `type` (WebArena's) adds to it; on an empty field, as in every
sandbox solution, the two agree.
"""

from __future__ import annotations

from evaluation.browser_env.actions import Action, ActionKind
from evaluation.browser_env.observation import Observation

# The action-set subsets a bridged policy needs (BrowserGym's HighLevelActionSet).
ACTION_SUBSETS = ["chat", "bid", "nav", "tab"]


def to_browsergym(action: Action, observation: Observation, select_of: dict[str, str]) -> str:
    """One action of ours as BrowserGym action code (two calls for `type` with Enter)."""
    kind, target = action.kind, action.element_id
    if kind is ActionKind.CLICK:
        node = observation.nodes.get(target or "")
        if node is not None and node.role in ("option", "MenuListOption") and target in select_of:
            return f"select_option({select_of[target]!r}, {node.name!r})"
        return f"click({target!r})"
    if kind is ActionKind.HOVER:
        return f"hover({target!r})"
    if kind is ActionKind.CLEAR:
        return f"clear({target!r})"
    if kind is ActionKind.TYPE:
        code = f"fill({target!r}, {action.text or ''!r})"
        return code + (f"\npress({target!r}, 'Enter')" if action.press_enter else "")
    if kind is ActionKind.PRESS:
        return f"keyboard_press({action.keys or ''!r})"
    if kind is ActionKind.SCROLL:
        distance = observation.viewport[1] * (-1 if action.direction == "up" else 1)
        return f"scroll(0, {distance})"
    if kind is ActionKind.GOTO:
        return f"goto({action.url or ''!r})"
    if kind is ActionKind.GO_BACK:
        return "go_back()"
    if kind is ActionKind.GO_FORWARD:
        return "go_forward()"
    if kind is ActionKind.NEW_TAB:
        return "new_tab()"
    if kind is ActionKind.TAB_FOCUS:
        return f"tab_focus({int(action.tab_index or 0)})"
    if kind is ActionKind.CLOSE_TAB:
        return "tab_close()"
    if kind is ActionKind.STOP:
        return f"send_msg_to_user({action.answer or ''!r})"
    raise ValueError(f"no BrowserGym action for {kind.value}")
