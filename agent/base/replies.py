"""Splitting the policy's reply into its reasoning and its action, as the environment will read it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from evaluation.actions import Action, ActionParseError, parse_action
from model_access.replies import fenced_blocks, strip_thinking


@dataclass(frozen=True)
class PolicyReply:
    reasoning: str  # the text before the action's block
    action: str  # the action text, or the whole reply when it holds none
    problem: str | None  # why the environment will not find an action in it, or None


def read_reply(reply: str, parse: Callable[[str], Action] = parse_action) -> PolicyReply:
    """`parse` is the environment's parser (`agent.action_parser`), so the policy's history agrees with it."""
    text = strip_thinking(reply)
    fence = text.find("```")
    reasoning = (text[:fence] if fence >= 0 else "").strip()
    blocks = fenced_blocks(text)
    action = blocks[0][1].strip() if blocks else text.strip()
    try:
        parse(reply)
    except ActionParseError as exc:
        return PolicyReply(reasoning or text.strip(), action, exc.reason)
    return PolicyReply(reasoning, action, None)
