"""Carrying out one parsed action on the live browser.

Element actions find their element by the id in the last observation, scroll it
into view, and act with the real mouse and keyboard at the centre of its box,
the way a person would (and the way WebArena does). Native `<select>` menus are
the exception: headless Chromium draws their pop-up outside the page, so an
option is chosen by clicking its `option` id or with `type [select id] [option text]`,
both of which set the selection and fire the page's input/change events. With
`select_keys` (AgentOccam's, its actions.py:1375-1381) `type` on a menu is what it is on
any field: a click, select all, Backspace, the keys, Enter when asked; what Chromium's
menu makes of those keys is the outcome (a menu's type-ahead choice sticks on Enter).

`type` appends to what a field holds, as WebArena's and VideoWA's runners do; with
`clear_field` (AgentOccam's `type`) it first empties the field (click, select all,
Backspace), and fills it directly when the field cannot be brought into view.

Anything that makes an action impossible (an unknown id, an element that is gone
or not displayed, a bad key, a tab that does not exist, a page that fails to
load) raises `ActionError` with a reason the agent can read.
"""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

from evaluation.browser_env.actions import Action, ActionKind
from evaluation.browser_env.ax_tree import TreeNode
from evaluation.browser_env.tabs import Tabs
from foundation.cdp import send_json
from foundation.page_settle import SettleLimits
from tasks.reference.steps import MENU_ROLES

_OBJECT_GROUP = "videodemo-action"
BLANK = "about:blank"
_SELECT_ROLES = MENU_ROLES  # the project's one list of menu roles (tasks/reference/steps.py)

_NEW_TAB_WAIT_S = 3.0
# True when clicking the element follows a link into another tab (target=_blank or a named window).
_OPENS_NEW_TAB_JS = """function () {
  const link = this.closest ? this.closest("a[href][target]") : null;
  const target = link ? link.target.toLowerCase() : "";
  return target !== "" && !["_self", "_top", "_parent"].includes(target);
}"""

_CHOOSE_OPTION_JS = """function () {
  const select = this.tagName === 'OPTION' ? this.closest('select') : null;
  if (!select) return 'not-select';
  if (this.disabled || select.disabled) return 'disabled';
  if (select.multiple) { this.selected = !this.selected; } else { select.selectedIndex = this.index; }
  select.dispatchEvent(new Event('input', {bubbles: true}));
  select.dispatchEvent(new Event('change', {bubbles: true}));
  return 'ok';
}"""

_CHOOSE_BY_TEXT_JS = """function (wanted) {
  if (this.tagName !== 'SELECT') return {status: 'not-select'};
  const norm = (s) => String(s).replace(/\\s+/g, ' ').trim().toLowerCase();
  const target = norm(wanted);
  const options = Array.from(this.options);
  let match = options.find((o) => norm(o.label) === target || norm(o.value) === target);
  if (!match) {
    const partial = options.filter((o) => norm(o.label).includes(target));
    if (partial.length > 1) return {status: 'ambiguous', labels: partial.map((o) => o.label)};
    match = partial[0];
  }
  if (!match) return {status: 'missing', labels: options.map((o) => o.label)};
  if (match.disabled || this.disabled) return {status: 'disabled', labels: [match.label]};
  this.focus();
  this.selectedIndex = match.index;
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {status: 'ok', labels: [match.label]};
}"""

# AgentOccam's fallback for a field it cannot bring into view: set the value, as Playwright's fill does.
_FILL_JS = """function (text) {
  this.focus();
  if (this.isContentEditable) { this.textContent = text; }
  else if ('value' in this) { this.value = text; }
  else { return false; }
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"""

_SCROLL_JS = """(down) => {
  const dy = (down ? 1 : -1) * window.innerHeight;
  const before = window.scrollY;
  window.scrollBy({top: dy, left: 0, behavior: 'instant'});
  if (window.scrollY !== before) return true;
  // Some pages scroll inside a container: move the scrollable box under the viewport's centre.
  let el = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
  while (el && el !== document.body && el !== document.documentElement) {
    const overflow = getComputedStyle(el).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && el.scrollHeight > el.clientHeight) {
      const top = el.scrollTop;
      el.scrollBy({top: dy, left: 0, behavior: 'instant'});
      return el.scrollTop !== top;
    }
    el = el.parentElement;
  }
  return false;
}"""


class ActionError(Exception):
    """The action could not be carried out; the message says why, for the agent and the record."""


def execute_action(
    action: Action,
    tabs: Tabs,
    nodes: dict[str, TreeNode],
    limits: SettleLimits,
    navigation_timeout_ms: int,
    clear_field: bool = False,
    select_keys: bool = False,
) -> dict[str, float]:
    """Carry out `action` (any kind but stop), wait for the page to settle; returns the time of each part.
    `clear_field`: `type` replaces the field's text instead of adding to it; `select_keys`: `type` on a menu
    presses keys as on any field (AgentOccam's), instead of choosing the option its text names."""
    started = time.perf_counter()
    kind = action.kind
    if kind is ActionKind.NEW_TAB:
        tabs.open()
    elif kind is ActionKind.TAB_FOCUS:
        try:
            tabs.focus(int(action.tab_index or 0))
        except IndexError as exc:
            raise ActionError(str(exc)) from None
    elif kind is ActionKind.CLOSE_TAB:
        tabs.close_current()
    else:
        return _act_and_settle(action, tabs, nodes, limits, navigation_timeout_ms, started, clear_field, select_keys)
    return {"action_s": time.perf_counter() - started, "wait_s": 0.0}


def _act_and_settle(
    action: Action,
    tabs: Tabs,
    nodes: dict[str, TreeNode],
    limits: SettleLimits,
    navigation_timeout_ms: int,
    started: float,
    clear_field: bool = False,
    select_keys: bool = False,
) -> dict[str, float]:
    page = tabs.current
    watcher = tabs.watcher(page)
    watcher.mark()
    tabs.take_opened()
    try:
        _act_on_page(action, page, tabs, nodes, navigation_timeout_ms, clear_field, select_keys)
    except PlaywrightError as exc:
        raise ActionError(f"the browser refused `{action.kind.value}`: {_first_line(exc)}") from None
    acted = time.perf_counter()
    if not page.is_closed():
        watcher.settle(limits)
    opened = tabs.take_opened()  # known only now: a pop-up's tab appears a moment after the click
    if opened:  # the action opened a tab (target=_blank, window.open): follow it, as WebArena does
        tabs.current = opened[-1]
        try:
            tabs.current.wait_for_load_state("load", timeout=navigation_timeout_ms)
        except PlaywrightError:
            pass  # a slow pop-up is observed as it is
        tabs.current.bring_to_front()
        tabs.watcher().settle(limits)
    tabs.ensure_current()
    return {"action_s": acted - started, "wait_s": time.perf_counter() - acted}


def _act_on_page(
    action: Action,
    page,
    tabs: Tabs,
    nodes: dict[str, TreeNode],
    navigation_timeout_ms: int,
    clear_field: bool = False,
    select_keys: bool = False,
) -> None:
    kind = action.kind
    if kind is ActionKind.PRESS:
        _press(page, action.keys or "")
    elif kind is ActionKind.SCROLL:
        page.evaluate(_SCROLL_JS, action.direction == "down")
    elif kind is ActionKind.GOTO:
        try:
            page.goto(action.url or "", wait_until="load", timeout=navigation_timeout_ms)
        except PlaywrightError as exc:
            raise ActionError(f"could not open {action.url}: {_first_line(exc)}") from None
    elif kind in (ActionKind.GO_BACK, ActionKind.GO_FORWARD):
        before = page.url
        move = page.go_back if kind is ActionKind.GO_BACK else page.go_forward
        response = move(wait_until="load", timeout=navigation_timeout_ms)
        if kind is ActionKind.GO_BACK and BLANK in page.url:
            # A blank page (where every tab starts) is never what a user goes back to: forward again, as AgentOccam's
            # browser does (its browser_env/actions.py:1408-1411), under every preset.
            page.go_forward(wait_until="load", timeout=navigation_timeout_ms)
            raise ActionError("there is no previous page in this tab's history, only a blank one")
        if response is None and page.url == before:
            direction = "previous" if kind is ActionKind.GO_BACK else "next"
            raise ActionError(f"there is no {direction} page in this tab's history")
    else:
        node = _node(nodes, action.element_id or "")
        cdp = tabs.cdp(page)
        if kind is ActionKind.CLICK:
            _click(page, tabs, cdp, node)
        elif kind is ActionKind.HOVER:
            page.mouse.move(*_centre(page, cdp, node))
        elif kind is ActionKind.TYPE:
            _type(page, cdp, node, action.text or "", action.press_enter, clear_field, select_keys)
        elif kind is ActionKind.CLEAR:
            page.mouse.click(*_centre(page, cdp, node))
            page.keyboard.press("ControlOrMeta+a")
            page.keyboard.press("Backspace")
        else:
            raise ActionError(f"`{kind.value}` is not an action on a page")


def _node(nodes: dict[str, TreeNode], element_id: str) -> TreeNode:
    node = nodes.get(element_id)
    if node is None:
        raise ActionError(f"there is no element [{element_id}] in the current observation")
    if node.backend_id is None:
        raise ActionError(f"element [{element_id}] ({node.role} {node.name!r}) has no page element to act on")
    return node


def _describe(node: TreeNode) -> str:
    return f"[{node.node_id}] ({node.role} {node.name!r})"


def _centre(page, cdp, node: TreeNode) -> tuple[float, float]:
    """Scroll the element into view and return the centre of its visible box, in viewport pixels."""
    try:
        send_json(cdp, "DOM.scrollIntoViewIfNeeded", {"backendNodeId": node.backend_id})
        quads = send_json(cdp, "DOM.getContentQuads", {"backendNodeId": node.backend_id})["quads"]
    except PlaywrightError:
        raise ActionError(f"element {_describe(node)} is no longer on the page; look at the new observation") from None
    boxes = [_box(quad) for quad in quads]
    boxes = [box for box in boxes if box[2] > box[0] and box[3] > box[1]]
    if not boxes:
        raise ActionError(f"element {_describe(node)} is not displayed, so it cannot be acted on")
    viewport = page.viewport_size or {"width": 1280, "height": 720}
    left, top, right, bottom = max(boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    # Aim at the part of the box inside the viewport (a box taller than the screen is only partly shown).
    left, top = max(left, 0.0), max(top, 0.0)
    right, bottom = min(right, float(viewport["width"])), min(bottom, float(viewport["height"]))
    if right <= left or bottom <= top:
        raise ActionError(f"element {_describe(node)} could not be scrolled into view")
    return (left + right) / 2, (top + bottom) / 2


def _box(quad: list[float]) -> tuple[float, float, float, float]:
    xs, ys = quad[0::2], quad[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _call_on_element(cdp, node: TreeNode, function: str, *args) -> object:
    """Run a JavaScript function with the element as `this`; returns its JSON value."""
    try:
        remote = send_json(cdp, "DOM.resolveNode", {"backendNodeId": node.backend_id, "objectGroup": _OBJECT_GROUP})
        result = send_json(
            cdp,
            "Runtime.callFunctionOn",
            {
                "objectId": remote["object"]["objectId"],
                "functionDeclaration": function,
                "arguments": [{"value": arg} for arg in args],
                "returnByValue": True,
            },
        )
    except PlaywrightError:
        raise ActionError(f"element {_describe(node)} is no longer on the page; look at the new observation") from None
    finally:
        try:
            send_json(cdp, "Runtime.releaseObjectGroup", {"objectGroup": _OBJECT_GROUP})
        except PlaywrightError:
            pass
    return result.get("result", {}).get("value")


def _click(page, tabs: Tabs, cdp, node: TreeNode) -> None:
    if node.role in ("option", "MenuListOption"):
        outcome = _call_on_element(cdp, node, _CHOOSE_OPTION_JS)
        if outcome == "ok":
            return
        if outcome == "disabled":
            raise ActionError(f"option {_describe(node)} is disabled")
    point = _centre(page, cdp, node)
    opens_tab = _call_on_element(cdp, node, _OPENS_NEW_TAB_JS)
    page.mouse.click(*point)
    if opens_tab:
        # On a busy machine the new tab can appear after the page has settled: give it a moment
        # (the page may also cancel the link, so this is bounded rather than a hard wait).
        deadline = time.perf_counter() + _NEW_TAB_WAIT_S
        while not tabs.has_opened() and time.perf_counter() < deadline:
            page.wait_for_timeout(50)


def _type(
    page, cdp, node: TreeNode, text: str, press_enter: bool, clear_field: bool = False, select_keys: bool = False
) -> None:
    menu = node.role in _SELECT_ROLES
    if menu and not select_keys:
        outcome = _call_on_element(cdp, node, _CHOOSE_BY_TEXT_JS, text)
        status = outcome.get("status") if isinstance(outcome, dict) else "not-select"
        if status == "ok":
            return  # Enter is not pressed on a menu: it would only reopen it
        if status != "not-select":
            labels = ", ".join(repr(label) for label in (outcome or {}).get("labels", [])[:20])
            reasons = {
                "missing": "has no option",
                "ambiguous": "has several options matching",
                "disabled": "cannot choose",
            }
            raise ActionError(f"menu {_describe(node)} {reasons.get(status, status)} {text!r}; options: {labels}")
    try:
        point = _centre(page, cdp, node)
    except ActionError:
        if not clear_field:
            raise
        if _call_on_element(cdp, node, _FILL_JS, text) is not True:  # not a field: report why it was out of view
            raise
        if press_enter:
            page.keyboard.press("Enter")
        return
    page.mouse.click(*point)
    if clear_field:  # AgentOccam's type: select what the field holds and delete it first
        page.keyboard.press("ControlOrMeta+a")
        page.keyboard.press("Backspace")
    page.keyboard.type(text)
    if press_enter:
        page.keyboard.press("Enter")


def _press(page, keys: str) -> None:
    try:
        page.keyboard.press(keys)
    except PlaywrightError as exc:
        if "Unknown key" in str(exc):
            raise ActionError(f"unknown key {keys!r}; use names like Enter, Tab, ArrowDown, Control+a") from None
        raise


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
