"""Retries with exponential backoff and full jitter, and the one-line error after the last.

Rate limits (429), timeouts, dropped connections and server errors (5xx, 408)
are worth retrying: a vLLM server under load or an API at its quota recovers.
Everything else (a bad key, an unknown model, a malformed request) fails at once,
since asking again gives the same answer. Full jitter (a uniform wait between 0
and the exponential cap) keeps many workers from retrying in lockstep.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

import openai

from foundation.errors import UserError

log = logging.getLogger(__name__)
T = TypeVar("T")


class ModelCallError(UserError):
    """A model call that failed for good; the message names the endpoint, the model and the last error."""


@dataclass
class RetryPolicy:
    max_retries: int = 6
    initial_s: float = 1.0
    max_s: float = 60.0
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
    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError)):
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in (408, 429) or exc.status_code >= 500
    return False


def call_with_retries(
    attempt: Callable[[], T],
    policy: RetryPolicy,
    describe: str,
    on_retry: Callable[[BaseException], None] | None = None,
) -> T:
    """Run `attempt` until it succeeds, a non-retryable error occurs, or the retries run out.

    `describe` names the call in log lines and the final error, e.g. "vlm model 'x' at http://host/v1".
    """
    retry_number = 0
    while True:
        try:
            return attempt()
        except UserError:
            raise  # already one clear line (e.g. health.EndpointDown: the server counts as down)
        except Exception as exc:
            if not is_retryable(exc):
                raise ModelCallError(f"{describe} failed: {error_summary(exc)}; {_hint(exc)}") from exc
            if retry_number >= policy.max_retries:
                raise ModelCallError(
                    f"{describe} failed after {retry_number + 1} attempts: {error_summary(exc)}; "
                    "check that the server is up and reachable, or raise models.max_retries"
                ) from exc
            wait = policy.delay(retry_number, _retry_after_s(exc))
            summary = error_summary(exc)
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
        text = f"HTTP {exc.status_code}: {_server_message(exc)}"
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


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str):
            return inner
    return exc.message


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
