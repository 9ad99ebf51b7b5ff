"""Send a stage's model requests and read structured answers out of the replies.

A reply that cannot be parsed is logged and asked once more: the retry repeats
the request with the unreadable reply and a short reminder appended
(prompts/reply_reminder.txt). That makes it a different request, so it bypasses
the cached bad reply and is itself cached: a re-run replays both without
sending anything. A reply still unreadable after the retry is skipped and counted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Sequence, TypeVar

from model_access.client import ChatRequest, ChatResult, ModelClient
from model_access.messages import assistant_message, user_message
from model_access.replies import strip_thinking
from processing.templates import render, template_text
from settings.schema import ProcessingSettings, Settings

log = logging.getLogger(__name__)

T = TypeVar("T")
REMINDER_TEMPLATE = "reply_reminder"


@dataclass
class StageStats:
    """How a stage's output was made: shown in progress lines and added up in the run summary."""

    calls: int = 0  # model requests, retries included, answered live or from the cache
    cached: int = 0  # of which replayed from the model-call cache
    retried: int = 0  # unreadable replies asked again
    unparseable: int = 0  # replies still unreadable after the retry, skipped
    problems: list[str] = field(default_factory=list)  # one line per skipped reply

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "cached": self.cached,
            "retried": self.retried,
            "unparseable": self.unparseable,
            "problems": list(self.problems),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StageStats:
        return cls(
            int(data.get("calls", 0)),
            int(data.get("cached", 0)),
            int(data.get("retried", 0)),
            int(data.get("unparseable", 0)),
            list(data.get("problems", [])),
        )

    def add(self, other: StageStats) -> None:
        self.calls += other.calls
        self.cached += other.cached
        self.retried += other.retried
        self.unparseable += other.unparseable
        self.problems += other.problems


@dataclass
class AskOutcome(Generic[T]):
    values: list[T | None]  # parsed answer per request; None where the reply stayed unreadable
    stats: StageStats


def ask_parsed(
    client: ModelClient,
    requests: Sequence[ChatRequest],
    parse: Callable[[int, str], T],
    settings: ProcessingSettings,
    labels: Sequence[str] | None = None,
) -> AskOutcome[T]:
    """Run `requests` concurrently; `parse(i, reply)` turns request i's reply into a value or raises ValueError."""
    labels = list(labels) if labels is not None else [f"request {i + 1}" for i in range(len(requests))]
    outcome: AskOutcome[T] = AskOutcome(values=[None] * len(requests), stats=StageStats())
    retry_at: list[int] = []
    retries: list[ChatRequest] = []
    for i, result in enumerate(client.chat_many(list(requests))):
        _count(outcome.stats, result)
        try:
            outcome.values[i] = parse(i, result.text)
        except ValueError as exc:
            log.warning("%s: %s: unreadable reply (%s); asking once more", requests[i].stage, labels[i], exc)
            retry_at.append(i)
            retries.append(_retry_request(requests[i], result, exc, settings))
    outcome.stats.retried = len(retries)
    for i, result in zip(retry_at, client.chat_many(retries)):
        _count(outcome.stats, result)
        try:
            outcome.values[i] = parse(i, result.text)
        except ValueError as exc:
            outcome.stats.unparseable += 1
            problem = f"{requests[i].stage}: {labels[i]}: reply unreadable twice, skipped ({exc})"
            outcome.stats.problems.append(problem)
            log.warning(problem)
    return outcome


def role_identity(settings: Settings, role: str) -> dict[str, Any]:
    """What of a model role changes its replies: part of the key of every stage that calls it."""
    role_settings = getattr(settings.models, role)
    return {
        "role": role,
        "model": role_settings.model,
        "temperature": role_settings.temperature,
        "max_tokens": role_settings.max_tokens,
        "reasoning_effort": role_settings.reasoning_effort,
        "extra_body": role_settings.extra_body,
        # Only when on, so stage keys made before the setting existed stay valid.
        **({"structured_output": role_settings.structured_output} if role_settings.structured_output != "off" else {}),
    }


def prompt_identity(settings: ProcessingSettings, *names: str) -> dict[str, str]:
    """The texts of a stage's templates (and the retry reminder), for its cache key."""
    return {name: template_text(name, settings) for name in (*names, REMINDER_TEMPLATE)}


def _count(stats: StageStats, result: ChatResult) -> None:
    stats.calls += 1
    stats.cached += int(result.cached)


def _retry_request(
    request: ChatRequest, result: ChatResult, error: Exception, settings: ProcessingSettings
) -> ChatRequest:
    problem = " ".join(str(error).split())[:200]
    reminder = render(REMINDER_TEMPLATE, settings, problem=problem)
    messages = [*request.messages, assistant_message(result.text), user_message(reminder)]
    return ChatRequest(
        request.role, messages, request.stage, dict(request.params), request.use_cache, request.reply_schema
    )


def after_heading(reply: str, heading: str) -> str:
    """The part of a reply after its last line starting with `heading` (the answer after the reasoning).

    The stage prompts ask for a reasoning section, then a heading, then the JSON; reasoning may quote
    brackets or even JSON, so the answer is read from after the heading. A reply without it is read whole.
    """
    text = strip_thinking(reply)
    lines = text.splitlines()
    for n in range(len(lines) - 1, -1, -1):
        if lines[n].strip().lstrip("#* ").upper().startswith(heading.upper()):
            rest = lines[n].strip().lstrip("#* ")[len(heading) :]
            return "\n".join([rest, *lines[n + 1 :]])
    return text
