"""Reading structured answers out of model replies, the same way in every stage.

Models wrap what was asked for in chatter and fences, and JSON in trailing
commas or Python spellings. These helpers find the first fenced block, the first
JSON object or array (fenced or not), or a yes/no verdict, and raise
`ReplyParseError` with a short excerpt when there is none, so a stage can count a
parse failure instead of crashing.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


class ReplyParseError(ValueError):
    """A reply without the expected structure; the message quotes the start of the reply."""

    def __init__(self, what: str, reply: str) -> None:
        excerpt = " ".join(reply.split())
        excerpt = excerpt if len(excerpt) <= 160 else excerpt[:157] + "..."
        super().__init__(f"no {what} in the model's reply: {excerpt!r}")
        self.reply = reply


def strip_thinking(reply: str) -> str:
    """The reply without `<think>...</think>` sections (reasoning models served without a reasoning parser)."""
    text = _THINK.sub("", reply)
    # A reply cut off mid-thought has an opening tag only; an answer after a lone closing tag is the answer.
    if "</think>" in text:
        text = text.split("</think>")[-1]
    return text.strip()


def fenced_blocks(reply: str) -> list[tuple[str, str]]:
    """(language, content) of every ``` fenced block, in order.

    A block closed on its opening line (```click [12]```, WebArena's action style) has no
    language; an unclosed last block runs to the end of the reply.
    """
    text = strip_thinking(reply)
    blocks: list[tuple[str, str]] = []
    pos = 0
    while (start := text.find("```", pos)) >= 0:
        after = start + 3
        line_end = text.find("\n", after)
        line_end = len(text) if line_end < 0 else line_end
        inline_close = text.find("```", after, line_end)
        if inline_close >= 0:
            blocks.append(("", text[after:inline_close].strip()))
            pos = inline_close + 3
            continue
        words = text[after:line_end].split()
        close = text.find("```", line_end)
        body = text[line_end + 1 : close if close >= 0 else len(text)]
        blocks.append((words[0].lower() if words else "", body.strip("\n")))
        if close < 0:
            break
        pos = close + 3
    return blocks


def extract_code_block(reply: str) -> str:
    """Content of the first fenced block (any language)."""
    blocks = fenced_blocks(reply)
    if not blocks:
        raise ReplyParseError("fenced ``` block", reply)
    return blocks[0][1].strip()


def extract_json(reply: str) -> Any:
    """The first JSON object or array in the reply.

    Fenced blocks are tried first (json-labelled ones before the others), then the
    text itself. Trailing commas, Python literals (True, None, single quotes) and
    text before or after the value are tolerated.
    """
    text = strip_thinking(reply)
    blocks = fenced_blocks(text)
    candidates = [body for lang, body in blocks if lang == "json"]
    candidates += [body for lang, body in blocks if lang != "json"]
    candidates.append(text)
    for candidate in candidates:
        value = _first_json_value(candidate)
        if value is not None:
            return value[0]
    raise ReplyParseError("JSON object or array", reply)


def extract_json_object(reply: str) -> dict[str, Any]:
    value = extract_json(reply)
    if not isinstance(value, dict):
        raise ReplyParseError("JSON object", reply)
    return value


def extract_json_list(reply: str) -> list[Any]:
    value = extract_json(reply)
    if isinstance(value, dict):
        # "Return a list" often comes back as {"items": [...]}: accept a single list-valued field.
        lists = [v for v in value.values() if isinstance(v, list)]
        if len(lists) == 1:
            return lists[0]
    if not isinstance(value, list):
        raise ReplyParseError("JSON list", reply)
    return value


def parse_yes_no(reply: str) -> bool:
    """The first standalone yes or no in the reply (after any thinking)."""
    match = _YES_NO.search(strip_thinking(reply))
    if match is None:
        raise ReplyParseError("yes/no answer", reply)
    return match.group(1).lower() == "yes"


def _first_json_value(text: str) -> tuple[Any] | None:
    """(value,) for the first balanced {...} or [...] that parses, scanning left to right."""
    for start, char in enumerate(text):
        if char not in "{[":
            continue
        end = _matching_close(text, start)
        if end is None:
            continue
        value = _loads_lenient(text[start : end + 1])
        if value is not None:
            return value
    return None


def _matching_close(text: str, start: int) -> int | None:
    """Index of the bracket closing the one at `start`, skipping brackets inside strings."""
    depth, quote, escaped = 0, "", False
    for i in range(start, len(text)):
        char = text[i]
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return i
    return None


def _loads_lenient(snippet: str) -> tuple[Any] | None:
    for attempt in (snippet, _TRAILING_COMMA.sub(r"\1", snippet)):
        try:
            return (json.loads(attempt),)
        except ValueError:
            pass
        try:
            value = ast.literal_eval(attempt)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(value, (dict, list)):
            return (value,)
    return None
