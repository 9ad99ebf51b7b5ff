"""One YouTube query per task, abstracting its operation, written by the LLM (stage "query_generation").

The query must stay under the word limit (`retrieval.query_max_words`). A longer one
is asked for again once, with the count pointed out; if the second is still too long
it is cut to the limit. Every reply and what was done with it is recorded, and the
model call cache makes a re-run free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from model_access.client import ModelClient
from model_access.messages import user_message
from model_access.replies import ReplyParseError, extract_json_object
from retrieval.applications import Application
from retrieval.prompt_templates import render, reply_schema

STAGE = "query_generation"
_LABEL = re.compile(r"^\s*(?:search\s+)?query\s*:\s*", re.IGNORECASE)


@dataclass
class QueryResult:
    application: str
    query: str  # "" when no usable query came back
    truncated: bool = False
    attempts: list[dict[str, Any]] = field(default_factory=list)  # per call: the reply, the query read, its words
    error: str | None = None

    def record(self) -> dict[str, Any]:
        return {"application": self.application, "truncated": self.truncated, "attempts": self.attempts}


def generate_query(client: ModelClient, application: Application, max_words: int) -> QueryResult:
    result = QueryResult(application.key, "")
    previous: str | None = None
    for _ in range(2):
        message = user_message(_prompt(application, max_words, previous))
        reply = client.chat("llm", [message], stage=STAGE, reply_schema=reply_schema("query")).text
        query = read_query(reply)
        words = len(query.split())
        result.attempts.append({"reply": reply, "query": query, "words": words})
        if query and words <= max_words:
            result.query = query
            return result
        previous = query or None
    if previous:
        result.query = " ".join(previous.split()[:max_words])
        result.truncated = True
    else:
        result.error = "the model gave no query twice; see query_generation.attempts"
    return result


def read_query(reply: str) -> str:
    """The query in a reply: the "query" field of a JSON object, else the first non-empty line."""
    try:
        value = extract_json_object(reply).get("query")
        text = value if isinstance(value, str) else ""
    except ReplyParseError:
        lines = [line for line in reply.splitlines() if line.strip() and not line.strip().startswith("```")]
        text = _LABEL.sub("", lines[0]) if lines else ""
    return " ".join(text.strip().strip("\"'`").split())


def _prompt(application: Application, max_words: int, previous: str | None) -> str:
    task_block = render("query_task_block", task=application.task_text) if application.task_text else ""
    retry_note = ""
    if previous:
        retry_note = render("query_retry_note", previous=previous, count=len(previous.split()), max_words=max_words)
    text = render(
        "query",
        application=application.description,
        task_block=task_block,
        max_words=max_words,
        retry_note=retry_note,
    )
    return re.sub(r"\n{3,}", "\n\n", text)
