"""The one way every stage talks to a chat model.

    client = ModelClient(settings)
    result = client.chat("vlm", [user_message("What changed?", frames)], stage="labeling")
    results = client.chat_many([ChatRequest("llm", msgs, stage="merge") for msgs in batches])

Each call goes to the role's OpenAI-compatible endpoint (`settings.models.<role>`),
is replayed from the disk cache when the same request was answered before, holds
one of `models.max_concurrency` slots while a request is in flight (not while it
waits to retry), is retried on rate limits, timeouts and server errors, and is
recorded in the usage ledger under its stage and role.

What real servers need, done here once for every stage:

- a message whose parts are all text is sent as one string (llama.cpp's server
  rejects a list of parts without images);
- the length limit goes out under the field names the server reads
  (`models.<role>.length_field`: llama.cpp ignores `max_completion_tokens`, OpenAI's
  reasoning models refuse `max_tokens`); unset `max_tokens` sends neither;
- with `models.<role>.context_tokens` set, a prompt that cannot fit is refused before
  it is sent (`ContextOverflow`, as when the server refuses it);
- with `models.stream` the reply is streamed, so `timeout_s` is the longest silence
  rather than the whole reply: a slow server that keeps answering is not cut, and a
  stream we abandon is cancelled on the server, so a timed-out request may be resent
  once. Not streamed, a timeout is never resent (the server would still be busy with
  the first copy). A stream that ends without a finish reason was cut by the server
  (llama-cpp-python's does so when a second request arrives): a failed attempt, retried,
  never cached, counted as `cut_streams`.

Every call's finish reason, latency, retries and the prompt tokens the server served
from its prefix cache are kept on the result and counted in the ledger (replies cut at
the length limit, timeouts, context overflows).

Cache key: the model name, the messages (images by digest) and every sampling
field sent, but not the base URL, key or timeout. The same model name answering
the same request is the same call whichever host serves it, so moving the vLLM
server to another machine keeps a night's cache. Two different weights must
therefore not be served under one name (vLLM's `--served-model-name`).
A call that draws a sample (temperature above 0, or unset) is also keyed by its
sample, task and occurrence (model_access/sampling.py): it is replayed only for
the same draw (a resumed run), never handed to another sample or a re-ask.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from model_access.openai_sdk import openai

from foundation.errors import UserError
from model_access import ROLES
from model_access.accounting import UsageLedger
from model_access.cache import DiskCache, request_key
from model_access.health import ConnectionWatch
from model_access.messages import Message, count_images, estimate_prompt_tokens, join_text_parts, messages_for_key
from model_access.reply_schema import ReplySchema
from model_access.retry import (
    CallTimedOut,
    ContextOverflow,
    ModelCallError,
    RetryPolicy,
    StreamCut,
    call_with_retries,
    context_hint,
)
from model_access.sampling import SampleScope, current_scope, is_sampled, sample_seed
from model_access.scripted_server import is_scripted_reply
from model_access.structured_output import (
    OPENAI,
    TRANSFORMERS,
    ServerKind,
    ServerKinds,
    check_mode,
    request_fields,
    resolve_mode,
)
from settings.schema import ModelRoleSettings, Settings

log = logging.getLogger(__name__)
# The HTTP library logs every request at INFO; thousands of calls would drown the run's own output.
for _name in ("httpx", "httpx2"):
    logging.getLogger(_name).setLevel(logging.WARNING)

# Settings that may be overridden per call; anything else given to `chat` is sent as a request field.
# Set by evaluation/running/ray_runner.py in Ray workers: endpoint URL -> a context manager holding one of that
# endpoint's cluster-wide slots. None: each client's own `max_concurrency` slots.
ENDPOINT_SLOTS: Any = None

_ROLE_OVERRIDES = ("temperature", "max_tokens", "reasoning_effort", "timeout_s")


class CallCount:
    """Chat calls made in this process (replayed or sent) and those waiting on a server now: a run's
    progress line reads them while a task plays (evaluation/running/progress.py)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.made = 0
        self.waiting = 0

    def add(self, made: int = 0, waiting: int = 0) -> None:
        with self._lock:
            self.made += made
            self.waiting += waiting


CALLS = CallCount()


@dataclass
class ChatResult:
    text: str
    role: str
    stage: str
    model: str  # the model name the server reported
    cached: bool
    scripted: bool  # answered by the scripted test server, not a model
    latency_s: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    reasoning: str = ""  # a reasoning parser's separate thinking text, when the server returns one
    key: str = ""
    retries: int = 0  # attempts that failed before this answer
    cached_prompt_tokens: int = 0  # prompt tokens the server reused from its prefix cache (when it says)
    shared: bool = False  # a temperature-0 reply replayed from another sample's call
    usage_reported: bool = True  # False: the server sent no token counts (llama-cpp-python's streams)
    constrained: bool = False  # sent with fields constraining it to a reply schema (structured_output)
    schema_violation: str = ""  # why a constrained reply breaks its schema ("" when it keeps to it)

    @property
    def truncated(self) -> bool:
        """The reply was cut at the length limit (`max_tokens`), so it may lack its end (an ACTION, a JSON close)."""
        return self.finish_reason == "length"


@dataclass
class ChatRequest:
    role: str
    messages: list[Message]
    stage: str
    params: dict[str, Any] = field(default_factory=dict)
    use_cache: bool | None = None
    reply_schema: ReplySchema | None = None


class ModelClient:
    def __init__(self, settings: Settings, ledger: UsageLedger | None = None, retry_policy: RetryPolicy | None = None):
        self.settings = settings
        self.ledger = ledger if ledger is not None else UsageLedger()
        self.cache = DiskCache(settings.paths.model_cache_dir / "chat")
        models = settings.models
        self.retry_policy = retry_policy or RetryPolicy(
            models.max_retries, models.backoff_initial_s, models.backoff_max_s, timeout_retries=models.timeout_retries
        )
        self.max_concurrency = max(1, int(models.max_concurrency))
        self._slots = threading.BoundedSemaphore(self.max_concurrency)
        self._http: dict[tuple[str, str], openai.OpenAI] = {}
        self._http_lock = threading.Lock()
        self._log_lock = threading.Lock()
        # Calls made outside any sampling scope (a test, `models check`) count their draws here.
        self._own_scope = SampleScope(sample=settings.run.sample)
        # Attempts in a row that cannot reach a role's server; at the limit its calls stop (model_access/health.py).
        self.connection_watch = ConnectionWatch(models.stop_after_connection_failures)
        # Each endpoint's kind (vLLM, llama.cpp...), asked once, for the structured-output fields it reads.
        self.server_kinds = ServerKinds(models.check_timeout_s)
        # Called with (messages sent, result) after each chat call answered, replayed or live; the runner keeps
        # each step's calls for the task page with it (evaluation/running/step_calls.py). A failed call calls none.
        self.listeners: list[Callable[[list[Message], ChatResult], None]] = []

    # -- public API -------------------------------------------------------------------------

    def role_settings(self, role: str) -> ModelRoleSettings:
        """The settings of a configured role; a clear error when the role is unknown or not set up."""
        if role not in ROLES:
            raise UserError(f"unknown model role {role!r}; the roles are {', '.join(ROLES)}")
        settings: ModelRoleSettings = getattr(self.settings.models, role)
        if not settings.base_url or not settings.model:
            missing = "base_url" if not settings.base_url else "model"
            raise UserError(
                f"model role {role!r} is not configured (models.{role}.{missing} is empty); set it with "
                f"--set models.{role}.base_url=http://HOST:8000/v1 --set models.{role}.model=NAME (see docs/models.md)"
            )
        if not isinstance(settings.extra_body, dict):
            raise UserError(f"models.{role}.extra_body must be a mapping, got {settings.extra_body!r}")
        return settings

    def is_configured(self, role: str) -> bool:
        settings = getattr(self.settings.models, role, None)
        return bool(settings and settings.base_url and settings.model)

    def chat(
        self,
        role: str,
        messages: list[Message],
        *,
        stage: str,
        use_cache: bool | None = None,
        reply_schema: ReplySchema | None = None,
        **params: Any,
    ) -> ChatResult:
        """One chat completion. `params` override the role's temperature / max_tokens / reasoning_effort /
        timeout_s, and any other keyword (stop, seed, top_p, response_format...) is sent as a request field.
        `reply_schema`: the shape the prompt asks for, sent as the server's constraint when the role's
        `structured_output` is on (model_access/structured_output.py); the reply is free text otherwise."""
        role_settings = self.role_settings(role)
        messages = join_text_parts(messages)
        body, timeout_s = self._request_body(role_settings, messages, params)
        constrained = reply_schema is not None and self._constrain(role, role_settings, body, reply_schema)
        keyed_messages = messages_for_key(messages)
        key, drawn = self._sample_key(role_settings, body, keyed_messages)
        use_cache = self.settings.models.use_cache if use_cache is None else use_cache

        if use_cache:
            entry = self.cache.get(key)
            if entry is not None and isinstance(entry.get("reply"), dict):
                CALLS.add(made=1)
                replayed = self._checked(self._replay(entry, role, stage, key), constrained, reply_schema)
                return self._heard(messages, replayed)

        self._check_context(role, role_settings, body, stage)
        CALLS.add(made=1, waiting=1)
        try:
            result = self._call_live(role, role_settings, body, timeout_s, stage, key, count_images(messages))
        finally:
            CALLS.add(waiting=-1)
        if use_cache:
            self._store(key, result, role_settings, body, keyed_messages, drawn)
        return self._heard(messages, self._checked(result, constrained, reply_schema))

    def _heard(self, messages: list[Message], result: ChatResult) -> ChatResult:
        for listener in list(self.listeners):
            listener(messages, result)
        return result

    def _constrain(self, role: str, role_settings: ModelRoleSettings, body: dict, schema: ReplySchema) -> bool:
        """Add the fields that hold the reply to `schema` on this role's server; False when none are sent."""
        mode = check_mode(role_settings.structured_output, role)
        if mode == "off":
            return False
        kind = self.server_kind(role_settings)
        chosen = resolve_mode(mode, kind)
        if kind.kind == TRANSFORMERS or chosen == "off":
            self.server_kinds.warn_once(role, f"models.{role}.structured_output={mode}: the {role} server at "
                                              f"{role_settings.base_url} ({kind.describe()}) constrains no replies; "
                                              "its structured replies stay free text")  # fmt: skip
            return False
        if kind.kind == OPENAI and schema.schema.get("type") != "object":
            # OpenAI's strict schemas must be objects; a bare verdict (the judge's word) stays free text.
            return False
        body.update(request_fields(chosen, kind, schema))
        return True

    def _checked(self, result: ChatResult, constrained: bool, schema: ReplySchema | None) -> ChatResult:
        """Count a constrained reply, and one that broke its schema (a server that ignored the constraint)."""
        if not constrained or schema is None:
            return result
        result.constrained = True
        result.schema_violation = schema.violation(result.text)
        broke = int(bool(result.schema_violation))
        self.ledger.record(result.stage, result.role, constrained=1, schema_violations=broke)
        if result.schema_violation:
            log.info("%s reply broke its schema %s: %s", result.role, schema.name, result.schema_violation)
        return result

    def chat_many(self, requests: Sequence[ChatRequest], *, return_exceptions: bool = False) -> list[Any]:
        """Run many calls at once (bounded by `models.max_concurrency`), results in request order.

        The first failure is raised once the calls already running finish (they are cached, so a
        re-run does not repeat them); with `return_exceptions` failures take their place in the list.
        """
        if not requests:
            return []
        workers = min(self.max_concurrency, len(requests))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="model-call") as pool:
            # Each call runs in a copy of the caller's context, so it belongs to the caller's sample scope.
            futures = [
                pool.submit(
                    contextvars.copy_context().run,
                    self.chat, r.role, r.messages, stage=r.stage, use_cache=r.use_cache, reply_schema=r.reply_schema,
                    **r.params,
                )
                for r in requests
            ]
            results: list[Any] = []
            try:
                for future in futures:
                    try:
                        results.append(future.result())
                    except Exception as exc:
                        if not return_exceptions:
                            raise
                        results.append(exc)
            except BaseException:
                # A failure or Ctrl-C: drop the queued calls, let the running ones finish (and be cached).
                pool.shutdown(wait=True, cancel_futures=True)
                raise
        return results

    def close(self) -> None:
        with self._http_lock:
            for http in self._http.values():
                http.close()
            self._http.clear()

    def __enter__(self) -> "ModelClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------------

    def _request_body(
        self, role: ModelRoleSettings, messages: list[Message], params: dict[str, Any]
    ) -> tuple[dict, float]:
        chosen = {name: params.pop(name, getattr(role, name)) for name in _ROLE_OVERRIDES}
        body: dict[str, Any] = {"model": role.model, "messages": messages}
        if chosen["max_tokens"] is not None:
            for name in length_fields(role):
                body[name] = int(chosen["max_tokens"])
        # Unset means the model's default: some models (gpt-5-mini) reject any explicit temperature.
        if chosen["temperature"] is not None:
            body["temperature"] = chosen["temperature"]
        if chosen["reasoning_effort"]:
            body["reasoning_effort"] = chosen["reasoning_effort"]
        body.update(role.extra_body)
        body.update(params)
        return body, float(chosen["timeout_s"])

    def scope(self) -> SampleScope:
        """The sampling scope a call made now belongs to: the caller's, else this client's own."""
        return current_scope() or self._own_scope

    def _sample_key(
        self, role: ModelRoleSettings, body: dict, keyed_messages: list[Message]
    ) -> tuple[str, dict[str, Any] | None]:
        """The cache key of a call, and for a call that draws a sample, which draw it is (model_access/sampling.py).

        A temperature-0 call is keyed by the request alone, so every sample shares it. A drawn one is keyed by the
        request, the sample, the unit (task) and the occurrence of that request in the unit; it carries a seed
        derived from them when the role sends seeds and none was given."""
        plain_key = request_key({**body, "messages": keyed_messages})
        if not is_sampled(body):
            return plain_key, None
        scope = self.scope()
        occurrence = scope.next_occurrence(plain_key)
        drawn = {**scope.describe(), "occurrence": occurrence}
        if role.send_seed and "seed" not in body:
            body["seed"] = sample_seed(plain_key, scope.sample, scope.unit, occurrence)
        return request_key({**body, "messages": keyed_messages, "drawn": drawn}), drawn

    def server_kind(self, role: ModelRoleSettings) -> ServerKind:
        """The kind of the role's server (vLLM, llama.cpp...), asked once per endpoint with the role's key."""
        return self.server_kinds.of(role.base_url, _api_key(role))

    def http_client(self, role: ModelRoleSettings) -> openai.OpenAI:
        """The OpenAI client of a role's endpoint (shared by its calls; for requests other than chat)."""
        return self._http_client(role)

    def _http_client(self, role: ModelRoleSettings) -> openai.OpenAI:
        # vLLM needs no key; the OpenAI library insists on one, so an unset variable becomes a placeholder.
        api_key = _api_key(role)
        cache_key = (role.base_url, api_key)
        with self._http_lock:
            http = self._http.get(cache_key)
            if http is None:
                # Our own retry loop handles backoff and accounting, so the library's is off.
                http = openai.OpenAI(base_url=role.base_url, api_key=api_key or "EMPTY", max_retries=0)
                self._http[cache_key] = http
            return http

    def slots_for(self, base_url: str):
        """The gate a request to `base_url` holds: this client's slots, or a cluster-wide one per endpoint
        when a scheduler sets `ENDPOINT_SLOTS` (processes on Ray share each endpoint's limit)."""
        return ENDPOINT_SLOTS(base_url) if ENDPOINT_SLOTS is not None else self._slots

    def _check_context(self, role: str, role_settings: ModelRoleSettings, body: dict, stage: str) -> None:
        """Refuse, before sending, a prompt that cannot fit `context_tokens` with room for the reply."""
        context = int(role_settings.context_tokens or 0)
        if context <= 0:
            return
        estimate = estimate_prompt_tokens(body["messages"])
        reply_room = int(body.get("max_tokens") or body.get("max_completion_tokens") or 0)
        if estimate + reply_room <= context:
            return
        self.ledger.record(stage, role, calls=1, failures=1, context_overflows=1)
        raise ContextOverflow(
            f"{role} model {role_settings.model!r}: the prompt is about {estimate} tokens and the reply may take "
            f"{reply_room}, more than models.{role}.context_tokens={context}; not sent; {context_hint(role)}"
        )

    def _call_live(
        self,
        role: str,
        role_settings: ModelRoleSettings,
        body: dict,
        timeout_s: float,
        stage: str,
        key: str,
        images: int,
    ) -> ChatResult:
        http = self._http_client(role_settings)
        stream = bool(self.settings.models.stream)
        fields = {k: v for k, v in body.items() if k not in ("model", "messages")}
        if stream:
            fields.setdefault("stream_options", {"include_usage": True})

        def attempt() -> Any:
            self.connection_watch.before_attempt(role)
            try:
                with self.slots_for(role_settings.base_url):
                    if stream:
                        response = _read_stream(http, body, fields, timeout_s)
                    else:
                        response = http.chat.completions.create(
                            model=body["model"], messages=body["messages"], extra_body=fields, timeout=timeout_s
                        )
            except StreamCut:
                self.ledger.record(stage, role, cut_streams=1)
                raise
            except Exception as exc:
                self.connection_watch.attempt_failed(role, role_settings.model, role_settings.base_url, exc)
                raise
            self.connection_watch.answered(role)
            return response

        retries = 0

        def count_retry(_: BaseException) -> None:
            nonlocal retries
            retries += 1

        describe = f"{role} model {role_settings.model!r} at {role_settings.base_url}"
        started = time.perf_counter()
        try:
            # A streamed request we give up on is closed, and servers cancel it; a plain one keeps running.
            response = call_with_retries(
                attempt, self.retry_policy, describe, on_retry=count_retry, role=role, resend_after_timeout=stream
            )
        except Exception as exc:
            elapsed = time.perf_counter() - started
            self.ledger.record(
                stage, role, calls=1, failures=1, retries=retries, latency_s=elapsed,
                timeouts=int(isinstance(exc, CallTimedOut)), context_overflows=int(isinstance(exc, ContextOverflow)),
            )  # fmt: skip
            if images and type(exc) is ModelCallError:
                # A text-only model's server often fails on image parts with an unrelated message.
                raise ModelCallError(
                    f"{exc}; the request carried {images} image(s): if the model reads text only, serve a vision "
                    f"model for the {role} role (`videodemo models check` tells), or send no images "
                    "(agent.use_screenshot=false, agent.visual=false for the policy)"
                ) from exc
            raise
        latency = time.perf_counter() - started
        result = _result_from_response(response, role, stage, key, latency)
        result.retries = retries
        self.ledger.record(
            stage,
            role,
            calls=1,
            retries=retries,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            cached_prompt_tokens=result.cached_prompt_tokens,
            images=images,
            latency_s=latency,
            scripted=int(result.scripted),
            truncated=int(result.truncated),
            no_usage=int(not result.usage_reported),
        )
        if result.truncated:  # counted (ledger, run health table), not printed: one line a reply floods the progress
            log.debug("%s: the reply was cut at the length limit (finish_reason=length)", describe)
        self._log_call(result, images)
        return result

    def _log_call(self, result: ChatResult, images: int) -> None:
        """One line of `models.call_log` for a call a server answered."""
        path = self.settings.models.call_log
        if not path:
            return
        line = {
            "answered_at": round(time.time(), 3), "stage": result.stage, "role": result.role, "model": result.model,
            "prompt_tokens": result.prompt_tokens, "cached_prompt_tokens": result.cached_prompt_tokens,
            "completion_tokens": result.completion_tokens, "latency_s": round(result.latency_s, 3),
            "finish_reason": result.finish_reason, "retries": result.retries, "images": images,
        }  # fmt: skip
        with self._log_lock, open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

    def _replay(self, entry: dict[str, Any], role: str, stage: str, key: str) -> ChatResult:
        reply = entry["reply"]
        scripted = bool(reply.get("scripted"))
        truncated = int(reply.get("finish_reason") == "length")
        # A temperature-0 answer first given in another sample: this sample shares it (reports say so).
        shared = entry.get("drawn") is None and entry.get("sample", 1) != self.scope().sample
        self.ledger.record(
            stage, role, calls=1, cache_hits=1, scripted=int(scripted), truncated=truncated,
            shared_cache_hits=int(shared),
        )  # fmt: skip
        return ChatResult(
            shared=shared,
            text=str(reply.get("text", "")),
            role=role,
            stage=stage,
            model=str(reply.get("model", "")),
            cached=True,
            scripted=scripted,
            latency_s=0.0,
            prompt_tokens=int(reply.get("prompt_tokens", 0)),
            completion_tokens=int(reply.get("completion_tokens", 0)),
            finish_reason=reply.get("finish_reason"),
            reasoning=str(reply.get("reasoning", "")),
            key=key,
        )

    def _store(
        self,
        key: str,
        result: ChatResult,
        role: ModelRoleSettings,
        body: dict,
        keyed_messages: list[Message],
        drawn: dict[str, Any] | None,
    ) -> None:
        entry = {
            # The sample whose call this was, and for a drawn reply which draw (sample, unit, occurrence).
            "sample": self.scope().sample,
            "drawn": drawn,
            "reply": {
                "text": result.text,
                "model": result.model,
                "scripted": result.scripted,
                "finish_reason": result.finish_reason,
                "prompt_tokens": result.prompt_tokens,
                "completion_tokens": result.completion_tokens,
                "reasoning": result.reasoning,
            },
            # What was asked (images by digest) and where, so an entry can be read on its own.
            "request": {**body, "messages": keyed_messages},
            "served_by": role.base_url,
            "stage": result.stage,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        try:
            self.cache.put(key, entry)
        except OSError as exc:
            log.warning("could not write the model call cache (%s); the answer is used but not kept", exc)


def _api_key(role: ModelRoleSettings) -> str:
    """The role's key from its environment variable ("" when it names none or the variable is unset)."""
    return os.environ.get(role.api_key_env, "") if role.api_key_env else ""


def length_fields(role: ModelRoleSettings) -> tuple[str, ...]:
    """The request fields that carry the length limit for this role's server (`length_field`)."""
    choice = (role.length_field or "auto").strip()
    if choice == "auto":
        # OpenAI's reasoning models refuse max_tokens; every local server reads max_tokens (llama.cpp only that).
        return ("max_completion_tokens",) if "api.openai.com" in role.base_url else ("max_tokens", "max_completion_tokens")
    if choice == "both":
        return ("max_tokens", "max_completion_tokens")
    if choice in ("max_tokens", "max_completion_tokens"):
        return (choice,)
    raise UserError(
        f"models.*.length_field must be auto, both, max_tokens or max_completion_tokens, got {role.length_field!r}"
    )


@dataclass
class _StreamedReply:
    """A streamed reply put together into the shape of a plain response."""

    text: str
    reasoning: str
    finish_reason: str | None
    model: str
    system_fingerprint: str | None
    usage: Any


def _read_stream(http: openai.OpenAI, body: dict, fields: dict, timeout_s: float) -> _StreamedReply:
    text: list[str] = []
    reasoning: list[str] = []
    finish_reason = None
    model, fingerprint, usage = "", None, None
    stream = http.chat.completions.create(
        model=body["model"], messages=body["messages"], extra_body=fields, timeout=timeout_s, stream=True
    )
    with stream:  # closing it (also on an error) drops the connection, which cancels the generation
        for chunk in stream:
            model = chunk.model or model
            fingerprint = getattr(chunk, "system_fingerprint", None) or fingerprint
            usage = getattr(chunk, "usage", None) or usage
            for choice in chunk.choices or []:
                delta = choice.delta
                if delta is not None:
                    text.append(delta.content or "")
                    extra = getattr(delta, "model_extra", None) or {}
                    reasoning.append(str(extra.get("reasoning_content") or extra.get("reasoning") or ""))
                finish_reason = choice.finish_reason or finish_reason
    if finish_reason is None:
        # The server stopped the reply part-way (and said `[DONE]`): what came is not an answer.
        received = len("".join(text))
        raise StreamCut(f"the stream ended after {received} characters without a finish reason")
    return _StreamedReply("".join(text), "".join(reasoning), finish_reason, model, fingerprint, usage)


def _cached_tokens(usage: Any) -> int:
    """Prompt tokens served from the server's prefix cache: OpenAI/vLLM's prompt_tokens_details.cached_tokens."""
    details = getattr(usage, "prompt_tokens_details", None)
    if details is None and isinstance(getattr(usage, "model_extra", None), dict):
        details = usage.model_extra.get("prompt_tokens_details")
    value = details.get("cached_tokens") if isinstance(details, dict) else getattr(details, "cached_tokens", None)
    return int(value or 0)


def _result_from_response(response: Any, role: str, stage: str, key: str, latency: float) -> ChatResult:
    if isinstance(response, _StreamedReply):
        text, reasoning, finish_reason = response.text, response.reasoning, response.finish_reason
    else:
        choice = response.choices[0] if response.choices else None
        message = choice.message if choice is not None else None
        extra = (getattr(message, "model_extra", None) or {}) if message is not None else {}
        text = (message.content or "") if message is not None else ""
        reasoning = str(extra.get("reasoning_content") or extra.get("reasoning") or "")
        finish_reason = choice.finish_reason if choice is not None else None
    usage = response.usage
    model = response.model or ""
    return ChatResult(
        text=text,
        role=role,
        stage=stage,
        model=model,
        cached=False,
        scripted=is_scripted_reply(model, response.system_fingerprint),
        latency_s=latency,
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        finish_reason=finish_reason,
        reasoning=reasoning,
        key=key,
        cached_prompt_tokens=_cached_tokens(usage),
        usage_reported=getattr(usage, "prompt_tokens", None) is not None,
    )
