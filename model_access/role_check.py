"""What `videodemo models check` asks each role's server, and what the answers tell.

A server that answers is not yet a server that works. Real servers taught us four
ways to answer and still be wrong for a role, each checked here with a few tiny
requests (never cached):

- the model name: the server lists what it serves (`GET /v1/models`); a name it does
  not list is refused by vLLM and silently ignored by llama.cpp's one-model server, so
  it is a failure either way, and the message lists what the server offers;
- images: a text-only model behind some servers drops image parts without a word.
  The same prompt with and without an image must cost a different number of prompt
  tokens; equal counts mean the images never reached the model (a role that reads
  frames or screenshots needs a vision model);
- the length limit: a reply asked to stop at a few tokens must stop there, else the
  server ignores the field we sent it under (`models.<role>.length_field`);
- the answer: a small sum whose result the question does not contain ("What is 2 plus 3?"),
  so a server that echoes the prompt back (a stub, a misrouted proxy) cannot pass: an echo
  fails; a wrong answer is a warning, since a model this weak will not follow the method's
  prompts either;
- structured output: a probe held to a small JSON schema in the way the role's
  `structured_output` (or, when off, `auto`) sends it; a reply that breaks the schema means
  the server ignores the constraint, reported as a finding, never a crash.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from model_access.openai_sdk import openai

from foundation.errors import UserError
from model_access.client import ModelClient
from model_access.health import check_endpoint
from model_access.messages import user_message
from model_access.reply_schema import ReplySchema
from model_access.retry import error_summary
from model_access.structured_output import TRANSFORMERS, check_mode, request_fields, resolve_mode

OK, WARN, FAIL = "ok", "WARN", "FAILED"
# Roles that read images: the VLM stages, and the policy's screenshot.
IMAGE_ROLES = ("vlm", "policy")
# Prompt tokens an image must add at the least: every vision model spends tens to thousands on one.
MIN_IMAGE_TOKENS = 8
LENGTH_PROBE_TOKENS = 5
# The first question: its answer is a word the prompt does not hold, so an echo of the prompt never passes.
QUESTION = "What is 2 plus 3? Reply with the number only."
ANSWER = re.compile(r"\b(5|five)\b", re.I)
QUESTION_TOKENS = 16
# A reply no model gives unprompted ("OK" is asked for): only a server that holds decoding to it answers this.
PROBE_SCHEMA = ReplySchema(
    "probe",
    json.dumps({
        "type": "object", "additionalProperties": False, "required": ["word", "count"],
        "properties": {"word": {"type": "string", "enum": ["OK", "NO"]}, "count": {"type": "integer"}},
    }),
)  # fmt: skip


@dataclass
class Finding:
    level: str  # OK, WARN or FAIL
    text: str


@dataclass
class RoleCheck:
    role: str
    where: str
    findings: list[Finding] = field(default_factory=list)
    scripted: bool = False

    @property
    def level(self) -> str:
        levels = [f.level for f in self.findings]
        return FAIL if FAIL in levels else WARN if WARN in levels else OK

    def add(self, level: str, text: str) -> None:
        self.findings.append(Finding(level, text))


def served_models(client: ModelClient, role: str) -> list[str] | None:
    """The model names the role's server lists, or None when it lists none (no /v1/models route)."""
    role_settings = client.role_settings(role)
    http = client.http_client(role_settings)
    try:
        page = http.models.list(timeout=min(float(role_settings.timeout_s), client.settings.models.check_timeout_s))
    except openai.APIStatusError:
        return None
    return [str(item.id) for item in page.data]


def check_role(client: ModelClient, role: str, *, speech: bool = False) -> RoleCheck:
    role_settings = client.role_settings(role)
    check = RoleCheck(role, f"{role_settings.model} at {role_settings.base_url}")
    try:
        check_endpoint(client, role)
    except UserError as exc:
        check.add(FAIL, str(exc))
        return check
    busy = False
    try:
        names: list[str] | None = served_models(client, role)
    except openai.APITimeoutError:  # connected, no list yet: busy (check_endpoint told dead servers apart)
        names, busy = None, True
        check.add(WARN, "the server took the connection but did not list its models within "
                        f"models.check_timeout_s={client.settings.models.check_timeout_s:g} s: it looks busy; "
                        "the model name was not checked")  # fmt: skip
    if busy:
        pass
    elif names is None:
        check.add(WARN, "the server lists no models (GET /v1/models), so the model name was not checked")
    elif role_settings.model not in names and not all(name.startswith("scripted/") for name in names):
        # (a scripted server that declares no `serves` lists only "scripted/<name>": any name is taken)
        offered = ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")
        check.add(FAIL, f"the server does not serve {role_settings.model!r}; it serves: {offered or 'nothing'}; "
                        f"set models.{role}.model to one of them")  # fmt: skip
        return check
    if speech:  # no chat route to try; the name check is what can be told without sending audio
        check.add(OK, "lists its models (speech to text; not sent audio)")
        return check
    _check_reply(client, role, check)
    if check.level != FAIL:
        _check_length_limit(client, role, check)
    if check.level != FAIL:
        _check_structured_output(client, role, check)
    if role in IMAGE_ROLES and check.level != FAIL:
        _check_images(client, role, check)
    return check


def _ask(client: ModelClient, role: str, text: str, images: list[Any] = (), **params: Any):
    return client.chat(role, [user_message(text, list(images))], stage="check", use_cache=False, **params)


def _check_reply(client: ModelClient, role: str, check: RoleCheck) -> None:
    try:
        result = _ask(client, role, QUESTION, max_tokens=QUESTION_TOKENS)
    except UserError as exc:
        check.add(FAIL, str(exc))
        return
    check.scripted = result.scripted
    reply = " ".join(result.text.split())[:60]
    if ANSWER.search(result.text):
        check.add(OK, f"{result.model} answered in {result.latency_s:.2f}s: {reply!r}")
    elif is_echo(result.text, QUESTION):
        check.add(FAIL, f"{result.model} answered {reply!r} to {QUESTION!r}: the server echoes the prompt back, "
                        f"no model answers it; point models.{role}.base_url at a model server")  # fmt: skip
    else:
        check.add(OK, f"{result.model} answered in {result.latency_s:.2f}s: {reply!r}")
        check.add(WARN, f"the reply does not answer {QUESTION!r} (5): a model this weak will not follow the "
                        "method's prompts either")  # fmt: skip


def is_echo(reply: str, prompt: str) -> bool:
    """The reply only repeats the prompt's words: what a stub or an echoing proxy sends."""
    words = re.findall(r"\w+", reply.lower())
    return bool(words) and set(words) <= set(re.findall(r"\w+", prompt.lower()))


def _check_length_limit(client: ModelClient, role: str, check: RoleCheck) -> None:
    prompt = "Count from 1 to 200 in words, separated by commas."
    try:
        result = _ask(client, role, prompt, max_tokens=LENGTH_PROBE_TOKENS)
    except UserError as exc:
        check.add(WARN, f"could not check the length limit: {exc}")
        return
    if not result.scripted and result.completion_tokens > LENGTH_PROBE_TOKENS + 2:
        fields = client.role_settings(role).length_field
        check.add(WARN, f"asked for at most {LENGTH_PROBE_TOKENS} tokens, the reply took {result.completion_tokens}: "
                        f"the server ignores the length field(s) sent (length_field={fields!r}); "
                        f"set models.{role}.length_field to the name it reads")  # fmt: skip


def _check_structured_output(client: ModelClient, role: str, check: RoleCheck) -> None:
    role_settings = client.role_settings(role)
    mode = check_mode(role_settings.structured_output, role)
    kind = client.server_kind(role_settings)
    tried = resolve_mode(mode if mode != "off" else "auto", kind)
    setting = f"models.{role}.structured_output={mode}"
    if tried == "off" or kind.kind == TRANSFORMERS:
        level = OK if mode == "off" else WARN
        check.add(level, f"structured output: the server ({kind.describe()}) constrains no replies, so structured "
                         f"replies stay free text ({setting})")  # fmt: skip
        return
    try:
        fields = request_fields(tried, kind, PROBE_SCHEMA)
        result = _ask(client, role, "Reply with the single word OK.", max_tokens=24, **fields)
    except UserError as exc:
        check.add(WARN if mode != "off" else OK, f"structured output ({tried}) refused: {_short(exc)} ({setting})")
        return
    sent = ", ".join(sorted(fields))
    if result.scripted:
        check.add(OK, f"structured output: {tried} sent as {sent} (a scripted server: not checked; {setting})")
        return
    problem = PROBE_SCHEMA.violation(result.text)
    if problem:
        level = WARN if mode != "off" else OK
        check.add(level, f"structured output: the server ({kind.describe()}) ignored the {tried} constraint sent as "
                         f"{sent}: the reply {_short_text(result.text)!r} breaks the schema ({problem}); its "
                         f"structured replies will be free text ({setting})")  # fmt: skip
        return
    advice = "" if mode != "off" else f"; off now: set models.{role}.structured_output=auto to use it"
    check.add(OK, f"structured output: the server ({kind.describe()}) honours {tried} (sent as {sent}){advice}")


def _short_text(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def _check_images(client: ModelClient, role: str, check: RoleCheck) -> None:
    prompt = "Reply with the single word OK. An image may be attached; ignore it."
    try:
        plain = _ask(client, role, prompt, max_tokens=4)
        with_image = _ask(client, role, prompt, [_test_image()], max_tokens=4)
    except UserError as exc:
        check.add(FAIL, f"the server refused a request with an image ({_short(exc)}): the {role} role reads "
                        "images and needs a vision model")  # fmt: skip
        return
    if plain.scripted or with_image.scripted:
        check.add(OK, "accepted an image (a scripted server: token counts are not a model's)")
        return
    added = with_image.prompt_tokens - plain.prompt_tokens
    if plain.prompt_tokens and added < MIN_IMAGE_TOKENS:
        check.add(FAIL, f"the server ignores images (the prompt cost {plain.prompt_tokens} tokens with and "
                        f"without one): the {role} role reads images and needs a vision model")  # fmt: skip
    elif not plain.prompt_tokens:
        check.add(WARN, "the server reports no token counts, so whether images reach the model was not checked")
    else:
        check.add(OK, f"reads images (one added {added} prompt tokens)")


def _short(exc: BaseException) -> str:
    text = str(exc) if isinstance(exc, UserError) else error_summary(exc)
    return text if len(text) <= 200 else text[:197] + "..."


def _test_image():
    import numpy as np

    # A small gradient rather than a flat colour: some servers reject degenerate images.
    ramp = np.linspace(0, 255, 64, dtype=np.uint8)
    return np.dstack([np.tile(ramp, (64, 1)), np.tile(ramp[:, None], (1, 64)), np.full((64, 64), 128, np.uint8)])
