"""What each step of a recorded episode did, as the reference tracker's acts (tasks/reference/progress.py).

An episode records actions by element id (`click [1383]`); the element behind the id is
read from the records, in this order: where the replay policy grounded it
(`extra.replayed.grounded.node`), where the scripted policy found it (`extra.target`), and
the page the step was taken on (the observation before it: `[id] role 'name'` lines). A
typed value into a menu (`type [id] [Price]` on a combobox) and a click on an option are
choices (`select`). An id found in none of them leaves the element unknown, and says so.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from evaluation.browser_env.actions import ActionParseError, parse_action
from tasks.reference.progress import Act

_NODE = re.compile(r"\[(\d+)\]\s+([A-Za-z]\w*)\s+('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")
_SCRIPTED = re.compile(r"^([A-Za-z]\w*)\s+('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")(?::nth\(\d+\))?\s*->\s*\[(\d+)\]")


def episode_acts(episode: dict[str, Any]) -> list[Act]:
    """The acts of an episode.json, in order (a step of several commands gives one act per command)."""
    acts = []
    page = episode.get("start_observation_text") or ""
    for step in episode.get("steps") or []:
        extra = step.get("extra") or {}
        known = _named_elements(page)
        known.update(_named_by_policy(extra))
        commands = step.get("commands") or []
        texts = [command.get("action", "") for command in commands] if len(commands) > 1 else [None]
        for text in texts:
            acts.append(_act(step, text, extra, known))
        page = step.get("observation_text") or page
    return acts


def _act(step: dict[str, Any], text: str | None, extra: dict[str, Any], known: dict[str, tuple[str, str]]) -> Act:
    action = step.get("action") if text is None else _parsed(text)
    number, ok = int(step.get("index") or 0), bool(step.get("ok"))
    if not action:
        return Act(number, "none", False, extra=extra)
    kind = action.get("kind", "")
    value = {"type": action.get("text"), "goto": action.get("url"), "press": action.get("keys"),
             "stop": action.get("answer")}.get(kind) or ""  # fmt: skip
    element_id = str(action.get("element_id") or "")
    role, name = known.get(element_id, ("", "")) if element_id else ("", "")
    return Act.of(number, kind, ok, element_id, role, name, value, known=not element_id or bool(role), extra=extra)


def _parsed(text: str) -> dict[str, Any] | None:
    try:
        return parse_action(text).to_dict()
    except ActionParseError:
        return None


def _named_elements(page: str) -> dict[str, tuple[str, str]]:
    """id -> (role, name) of every `[id] role 'name'` line of an observation's text."""
    return {match[1]: (match[2], _unquoted(match[3])) for match in _NODE.finditer(page)}


def _named_by_policy(extra: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The element a policy's step info names: the replay's grounding, the scripted policy's target."""
    found = {}
    grounded = (extra.get("replayed") or {}).get("grounded") if isinstance(extra.get("replayed"), dict) else None
    if isinstance(grounded, dict) and (match := _NODE.search(str(grounded.get("node") or ""))):
        found[match[1]] = (match[2], _unquoted(match[3]))
    if isinstance(extra.get("target"), str) and (match := _SCRIPTED.match(extra["target"])):
        found[match[3]] = (match[1], _unquoted(match[2]))
    return found


def _unquoted(text: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text[1:-1]
    return value if isinstance(value, str) else text[1:-1]
