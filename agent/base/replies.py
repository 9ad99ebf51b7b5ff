"""Reading the policy model's replies: reasoning and action, as the environment will read them, and the
scored part of an answer to the factual question (shared by the base agents and the video question)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from evaluation.browser_env.actions import Action, ActionParseError, parse_action
from model_access.replies import ReplyParseError, extract_code_block, fenced_blocks, strip_thinking


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


def answer_of(reply: str, scored: str) -> str:
    """What of a reply to the factual question is scored (`video_context.intermediate_answer`)."""
    if scored == "reply":  # VideoWA's runner matches the must-include phrases anywhere in the reply
        return strip_thinking(reply).strip()
    if scored != "fenced":
        raise ValueError(f"video_context.intermediate_answer is {scored!r}; use 'fenced' or 'reply'")
    try:
        return extract_code_block(reply)
    except ReplyParseError:
        return strip_thinking(reply).strip()
