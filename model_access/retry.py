"""Retries with exponential backoff and full jitter, and the one-line error after the last.

Rate limits (429), dropped connections and server errors (5xx, 408) are worth
retrying: a vLLM server under load or an API at its quota recovers. Everything else
(a bad key, an unknown model, a malformed request) fails at once, since asking again
gives the same answer. Three cases real servers taught us:

- a timeout is retried at most `timeout_retries` times (the caller passes 0 when the
  timed-out request may still be running on the server: servers do not cancel a
  non-streamed request when the client goes, so a resend would queue behind it);
- the same server error twice in a row is not retried further (llama.cpp answers
  HTTP 500 to a request it can never serve, every time);
- a prompt over the model's context is `ContextOverflow`, never retried, with its
  own hint, whatever status the server chose for it (400, 413 or 500);
- a stream that ends without a finish reason (`StreamCut`: llama-cpp-python's server
  ends a running stream with `data: [DONE]` when another request arrives) is a failed
  attempt like a dropped connection, retried up to `max_retries`.

Full jitter (a uniform wait between 0 and the exponential cap) keeps many workers
from retrying in lockstep.
"""

from __future__ import annotations

import json
import logging
import random
import re
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from model_access.openai_sdk import openai

from foundation.errors import UserError

log = logging.getLogger(__name__)
T = TypeVar("T")


class ModelCallError(UserError):
    """A model call that failed for good; the message names the endpoint, the model and the last error."""


class ContextOverflow(ModelCallError):
    """The prompt (with room for the reply) does not fit the model's context: a property of the request."""


class CallTimedOut(ModelCallError):
    """The server gave no answer within the role's timeout_s (after the allowed timeout retries)."""


class StreamCut(Exception):
    """A streamed reply that ended without a finish reason: the server stopped it part-way, so it is no answer."""


STREAM_CUT_HINT = (
    "llama-cpp-python's server ends a running stream when another request arrives: start it with "
    "--interrupt_requests false, or set models.max_concurrency=1 (see docs/models.md)"
)


# How servers say a prompt is too long: vLLM ("maximum context length"), llama.cpp ("exceeds the available
# context size", "context length"), OpenAI ("context_length_exceeded"), transformers ("too long").
_CONTEXT_PATTERNS = re.compile(
    r"context[ _-]?(length|size|window)|maximum context|too many tokens|prompt is too long|input is too long|"
    r"exceeds? the (available )?context|context_length_exceeded|longer than the model",
    re.IGNORECASE,
)


@dataclass
class RetryPolicy:
    max_retries: int = 6
    initial_s: float = 1.0
    max_s: float = 60.0
    # Timeouts retried at most this often (and only when the caller says a resend cannot pile up).
    timeout_retries: int = 1
    sleep: Callable[[float], None] = time.sleep
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, retry_number: int, retry_after_s: float | None = None) -> float:
        """Wait before retry `retry_number` (0-based); a server's Retry-After is honoured up to the cap."""
        cap = min(self.max_s, self.initial_s * (2**retry_number))
        wait = self.rng.uniform(0.0, cap)
        if retry_after_s is not None:
            wait = max(wait, min(retry_after_s, self.max_s))
        return wait


def is_retryable(exc: BaseException) -> bool:
    if is_context_overflow(exc):
        return False
    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError, StreamCut)):
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in (408, 429) or exc.status_code >= 500
    return False


def is_context_overflow(exc: BaseException) -> bool:
    """The server refused the request because the prompt is longer than the model's context."""
    if isinstance(exc, ContextOverflow):
        return True
    if isinstance(exc, openai.APIStatusError) and exc.status_code in (400, 413, 422, 500):
        return bool(_CONTEXT_PATTERNS.search(server_message(exc)))
    return False


def context_hint(role: str) -> str:
    return (
        f"shorten the prompt (fewer frames or steps, a smaller observation budget), serve the model with a longer "
        f"context, or set models.{role}.context_tokens so prompts are checked before sending"
    )


def timeout_hint(role: str) -> str:
    return (
        f"the server may be slow rather than down: raise models.{role}.timeout_s, lower models.{role}.max_tokens "
        f"(a rambling reply at a few tokens a second takes minutes), or set models.stream=true so a slow but "
        "answering server is told from a dead one"
    )


def call_with_retries(
    attempt: Callable[[], T],
    policy: RetryPolicy,
    describe: str,
    on_retry: Callable[[BaseException], None] | None = None,
    *,
    role: str = "",
    resend_after_timeout: bool = True,
) -> T:
    """Run `attempt` until it succeeds, a non-retryable error occurs, or the retries run out.

    `describe` names the call in log lines and the final error, e.g. "vlm model 'x' at http://host/v1";
    `role` names the settings the hints point at. `resend_after_timeout` is False when a timed-out request
    may still be running on the server (a non-streamed one): then a timeout is not retried at all.
    """
    retry_number = 0
    timeouts = 0
    previous_error = ""
    role_name = role or "ROLE"
    while True:
        try:
            return attempt()
        except UserError:
            raise  # already one clear line (e.g. health.EndpointDown: the server counts as down)
        except Exception as exc:
            summary = error_summary(exc)
            if is_context_overflow(exc):
                raise ContextOverflow(f"{describe} failed: the prompt does not fit the model's context "
                                      f"({summary}); {context_hint(role_name)}") from exc
            if isinstance(exc, openai.APITimeoutError):
                timeouts += 1
                allowed = policy.timeout_retries if resend_after_timeout else 0
                if timeouts > allowed:
                    attempts = f" after {retry_number + 1} attempts" if retry_number else ""
                    raise CallTimedOut(f"{describe} timed out{attempts}; {timeout_hint(role_name)}") from exc
            if not is_retryable(exc):
                raise ModelCallError(f"{describe} failed: {summary}; {_hint(exc)}") from exc
            if isinstance(exc, openai.APIStatusError) and summary == previous_error:
                # The same refusal twice: the server will keep giving it (llama.cpp's 500 on a request it cannot serve).
                raise ModelCallError(
                    f"{describe} failed twice with the same server error: {summary}; the server cannot serve this "
                    "request, so it was not retried further (see its log)"
                ) from exc
            previous_error = summary if isinstance(exc, openai.APIStatusError) else ""
            if retry_number >= policy.max_retries:
                fix = STREAM_CUT_HINT if isinstance(exc, StreamCut) else "check that the server is up and reachable"
                raise ModelCallError(
                    f"{describe} failed after {retry_number + 1} attempts: {summary}; {fix}, "
                    "or raise models.max_retries"
                ) from exc
            wait = policy.delay(retry_number, _retry_after_s(exc))
            log.info("%s: %s; retry %d/%d in %.2fs", describe, summary, retry_number + 1, policy.max_retries, wait)
            if on_retry is not None:
                on_retry(exc)
            policy.sleep(wait)
            retry_number += 1


def error_summary(exc: BaseException) -> str:
    """A short single-line description of what went wrong."""
    if isinstance(exc, openai.APITimeoutError):
        text = "request timed out"
    elif isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        text = f"cannot connect ({_innermost(cause)})" if cause else "cannot connect"
    elif isinstance(exc, openai.APIStatusError):
        text = f"HTTP {exc.status_code}: {server_message(exc)}"
    elif isinstance(exc, StreamCut):
        text = f"stream cut: {exc}"
    else:
        text = f"{type(exc).__name__}: {exc}"
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."


def _hint(exc: BaseException) -> str:
    if isinstance(exc, openai.APIStatusError):
        if exc.status_code in (401, 403):
            return "check the API key in the role's api_key_env variable"
        if exc.status_code == 404:
            return "check the role's base_url (ends in /v1) and that the server serves this model name"
    return "the request was rejected, so it was not retried"


def server_message(exc: openai.APIStatusError) -> str:
    """The server's own reason, from whichever shape it used: OpenAI's `{"error": {"message"}}`, a bare
    `{"error": "..."}`, FastAPI's `{"detail": ...}` (transformers serve, faster-whisper), `{"message"}`,
    or the raw body text."""
    found = _message_in(exc.body)
    if found:
        return found
    response = getattr(exc, "response", None)
    try:
        raw = response.text if response is not None else ""
    except Exception:  # noqa: BLE001 - a streamed body that was not read
        raw = ""
    found = _message_in(_json_or_none(raw)) or " ".join(raw.split())[:300]
    return found or exc.message


def _message_in(body: object) -> str:
    if isinstance(body, str):
        return body.strip()
    if isinstance(body, list):  # FastAPI validation errors: a list of {"msg", "loc"}
        return "; ".join(filter(None, (_message_in(item) for item in body)))
    if not isinstance(body, dict):
        return ""
    for name in ("error", "detail", "message", "msg"):
        value = body.get(name)
        if isinstance(value, (dict, list)):
            inner = _message_in(value)
            if inner:
                return inner
        elif isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _json_or_none(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _innermost(exc: BaseException) -> str:
    # httpx wraps the socket error; the innermost cause says "Connection refused" plainly.
    while exc.__cause__ is not None or exc.__context__ is not None:
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return str(exc) or type(exc).__name__


def _retry_after_s(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
